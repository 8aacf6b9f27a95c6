"""``pokercert verify``: is this report genuine, and does the evaluator still do this?

Checks, each reported with its outcome and a reason:

* ``canonical``: the JSON report's bytes are exactly the canonical form of its content
  (so no byte, not even whitespace, was changed);
* ``digest``: the recorded digest is the SHA-256 of the content;
* ``schema``: the report follows ``reports/schema/report.schema.json``;
* ``consistent``: every conclusion (counts, verdicts and reasons, completeness, exit
  code, failures, clause matrix, flag rows, not-applicable list) is what the report's
  own facts give (:func:`pokercert.reports.model.contradiction`): a report whose
  verdicts were edited and its digest recomputed fails here;
* ``results`` (a run folder given): the folder's ``results.jsonl`` is what the harness
  wrote (its hash in ``run.json``), the report was built from exactly it, and a report
  rebuilt from the folder is the same report;
* ``view`` (Markdown, HTML or JUnit given): the view is byte-identical to the view the
  JSON report renders to (the JSON report is found beside it or given explicitly);
* ``corpus``: the report's corpus is the published release of its version: its digest
  is the one the release registry of *this* pokercert records for that version
  (:mod:`pokercert.vectors.releases`; a report made with an older corpus is checked
  against that older release's digest);
* ``signature`` (with a public key): the detached Ed25519 signature holds;
* ``rerun`` (with an adapter spec): re-running the evaluator through the harness, with
  the report's rulesets, profile, filters, challenge seed and attached modes' seeds
  and sizes, gives every vector the same outcome and every attached mode the same
  record, and
  the rerun's declared and measured identity are the report's (unless
  ``allow_identity_change``).

The outcome (:func:`outcome`) keeps two questions apart: is the report **genuine** (every
check but ``corpus`` holds: it is what pokercert wrote, it agrees with itself, and what
was asked of it, a view, a run folder, a signature, a rerun, holds), and if so, what is
its **verdict** (its own, re-derived by ``consistent``; a corpus that is not the
published release already made it NOT CERTIFIED, verdict rule 6, and the ``corpus`` check
says why).  Words and exit codes: ``GENUINE: CERTIFIED`` 0, ``GENUINE: NOT CERTIFIED`` 1,
``GENUINE: INCOMPLETE`` 2 (a genuine report exits as ``pokercert report`` would for it),
``NOT GENUINE: <the first check that failed>`` 1 (refused, as ``pokercert report``
refuses it).
"""

from __future__ import annotations

import json
import tempfile
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from pokercert.reference.errors import ExitCode
from pokercert.reports.canonical import (
    ReportError,
    canonical_and_digest,
    canonical_bytes,
    schema_errors,
)
from pokercert.reports.formats import FORMATS, render
from pokercert.reports.signing import SIG_SUFFIX, verify_signature

VIEW_FORMATS = {".md": "markdown", ".html": "html", ".htm": "html", ".xml": "junit"}
OK, FAILED, SKIPPED = "ok", "failed", "skipped"
NOT_GENUINE = "the report is not genuine or not consistent"


@dataclass(frozen=True)
class Check:
    """One verification step: ``status`` is ok, failed or skipped; ``detail`` says why."""

    name: str
    status: str
    detail: str

    def as_dict(self) -> dict[str, str]:
        return asdict(self)


def verify_bytes(raw: bytes) -> tuple[dict[str, Any] | None, list[Check]]:
    """The integrity checks of a JSON report's bytes: canonical form, digest, schema.

    Returns the parsed report (None if the bytes are not a JSON object) and the checks.
    The schema is only checked once the bytes are known genuine (it is moot otherwise).
    """
    try:
        report = json.loads(raw.decode("utf-8"))
    except (UnicodeDecodeError, json.JSONDecodeError) as exc:
        return None, [
            Check("canonical", FAILED, f"not valid JSON ({exc}): the file was damaged or edited")
        ]
    if not isinstance(report, dict):
        return None, [Check("canonical", FAILED, "not a JSON object: not a report")]
    try:
        form, actual = canonical_and_digest(report)
        canonical = form == raw
    except ReportError as exc:
        return report, [Check("canonical", FAILED, str(exc))]
    checks = [
        Check(
            "canonical",
            OK if canonical else FAILED,
            "the bytes are the canonical form of the content"
            if canonical
            else "the bytes differ from the canonical form: the file was edited",
        )
    ]
    recorded = report.get("digest", "")
    checks.append(
        Check(
            "digest",
            OK if recorded == actual else FAILED,
            f"{actual}"
            if recorded == actual
            else f"recorded {recorded!r}, the content hashes to {actual}",
        )
    )
    if all(c.status == OK for c in checks):
        errors = schema_errors(report)
        checks.append(
            Check(
                "schema",
                FAILED if errors else OK,
                "; ".join(errors[:3]) if errors else "follows report.schema.json",
            )
        )
    else:
        checks.append(Check("schema", SKIPPED, "the report is not genuine"))
    checks.append(
        check_consistent(report)
        if all(c.status == OK for c in checks)
        else Check("consistent", SKIPPED, "the report is not genuine")
    )
    return report, checks


def check_consistent(report: dict[str, Any]) -> Check:
    """Whether every conclusion of ``report`` is what its own facts give."""
    from pokercert.harness import __version__
    from pokercert.reports.model import contradiction

    found = contradiction(report)
    if found:
        made_by = report.get("generator", {}).get("version")
        extra = (
            ""
            if made_by == __version__
            else f" (note: made by pokercert {made_by}, checked with {__version__})"
        )
        return Check("consistent", FAILED, f"the report disagrees with itself: {found}{extra}")
    return Check(
        "consistent",
        OK,
        f"every count, verdict and list is what its {len(report['vectors'])} vector records give",
    )


def check_folder(folder: Path, report: dict[str, Any]) -> Check:
    """Whether ``report`` was built from exactly the results in the run ``folder``."""
    from pokercert.harness.run.results import RESULTS_FILE, results_digest, results_problem
    from pokercert.reports.model import build_report, load_run

    header, _ = load_run(folder)
    problem = results_problem(folder, header)
    if problem:
        return Check("results", FAILED, problem)
    sha, lines = results_digest(folder)
    ident = report["identification"]
    if header.results_sha256 is None:
        return Check(
            "results",
            FAILED,
            f"{folder}/run.json records no hash of "
            f"{RESULTS_FILE}: the results cannot be tied to the run",
        )
    if (ident.get("results_sha256"), ident.get("results_lines")) != (sha, lines):
        return Check(
            "results",
            FAILED,
            f"the report was built from {ident.get('results_lines')}"
            f" result lines with sha256 {ident.get('results_sha256')}; {folder}/"
            f"{RESULTS_FILE} has {lines} lines with sha256 {sha}",
        )
    rebuilt = json.loads(canonical_bytes(build_report(folder)))  # as JSON gives it back
    ignored = {"digest", "generated_at"}  # generated_at may come from SOURCE_DATE_EPOCH
    differs = [
        k for k in sorted((set(rebuilt) | set(report)) - ignored) if rebuilt.get(k) != report.get(k)
    ]
    if differs:
        return Check(
            "results", FAILED, f"a report rebuilt from {folder} differs in: {', '.join(differs)}"
        )
    return Check(
        "results",
        OK,
        f"built from exactly {folder}/{RESULTS_FILE} ({lines} lines, "
        f"sha256 {sha}), as the harness wrote it",
    )


def check_corpus(report: dict[str, Any]) -> Check:
    """Whether the report's corpus is the published release of its version, by the release
    registry of this pokercert (not by any file beside the corpus: whoever edits a vector
    can edit ``MANIFEST.json`` too)."""
    from pokercert.vectors.releases import RegistryError, corpus_status

    claimed = report.get("identification", {}).get("corpus", {})
    try:
        status = corpus_status(str(claimed.get("version")), str(claimed.get("sha256")))
    except RegistryError as exc:
        return Check("corpus", FAILED, str(exc))
    if status.published:
        return Check(
            "corpus",
            OK,
            f"corpus {status.version} sha256 {status.sha256} is the "
            "published release (this pokercert's release registry)",
        )
    return Check(
        "corpus",
        FAILED,
        f"{status.words}: the run did not use the published "
        f"corpus {status.version}, so the report certifies nothing under its name",
    )


def check_signature(data: bytes, sig_path: Path, key: Path) -> Check:
    if not sig_path.is_file():
        return Check("signature", FAILED, f"{sig_path}: no signature file")
    why = verify_signature(data, sig_path.read_bytes(), key)
    if why:
        return Check("signature", FAILED, why)
    from pokercert.reports.signing import fingerprint

    return Check("signature", OK, f"signed by key {fingerprint(key)}")


def check_view(view: bytes, fmt: str, report: dict[str, Any]) -> Check:
    from pokercert.harness import __version__

    expected = render(report, fmt)
    if expected == view:
        return Check("view", OK, f"the {fmt} view is exactly what the JSON report renders to")
    made_by = report.get("generator", {}).get("version")
    extra = (
        ""
        if made_by == __version__
        else f" (note: rendered by pokercert {made_by}, this is {__version__})"
    )
    return Check(
        "view", FAILED, f"the {fmt} view differs from what the JSON report renders to{extra}"
    )


def check_rerun(report: dict[str, Any], spec: str, allow_identity_change: bool = False) -> Check:
    """Run the evaluator again with the report's selection and compare every outcome,
    and the identity: the evaluator's declared vendor/name/version/build and the identity
    the harness measured must be the report's, unless ``allow_identity_change`` (then
    the differences are named in the detail)."""
    from pokercert.reports.diff import diff_reports
    from pokercert.reports.model import build_report
    from pokercert.reports.rerun import identity_changes, mode_changes, rerun, scored_outcomes

    with tempfile.TemporaryDirectory(prefix="pokercert-rerun-") as tmp:
        try:
            fresh = build_report(rerun(report, spec, Path(tmp)))
        except ReportError as exc:
            return Check("rerun", FAILED, str(exc))
    identity = identity_changes(report, fresh)
    shown = "; ".join(identity[:8]) + (
        f"; and {len(identity) - 8} more" if len(identity) > 8 else ""
    )
    changes = diff_reports(scored_outcomes(report), fresh)
    changed = {k: v for k, v in changes["changes"].items() if v}
    problems = []
    if changed:
        parts = [
            f"{len(v)} {k.replace('_', ' ')} ({', '.join(x['id'] for x in v[:5])}"
            f"{', …' if len(v) > 5 else ''})"
            for k, v in changed.items()
        ]
        problems.append("outcomes differ: " + "; ".join(parts))
    modes = mode_changes(report, fresh)
    if modes:
        problems.append(
            "attached modes differ: "
            + "; ".join(modes[:5])
            + (f"; and {len(modes) - 5} more" if len(modes) > 5 else "")
        )
    if identity and not allow_identity_change:
        problems.append(
            f"the software differs from the one the report describes: {shown} "
            "(--allow-identity-change compares the outcomes of another build)"
        )
    if problems:
        return Check("rerun", FAILED, "; ".join(problems))
    n = len(report["vectors"])
    if report.get("modes"):
        n_modes = ", ".join(f"{m} ({b['replay']})" for m, b in sorted(report["modes"].items()))
        spec = f"{spec}; attached modes replayed the same: {n_modes}"
    note = (
        f"; identity change allowed (--allow-identity-change): {shown}"
        if identity
        else "; same declared and measured identity "
        f"(sha256 {fresh['identification']['measured_identity']['digest'][:16]})"
    )
    return Check("rerun", OK, f"all {n} vectors ended the same through {spec}{note}")


def verify(
    path: Path,
    key: Path | None = None,
    signature: Path | None = None,
    rerun_spec: str | None = None,
    report_json: Path | None = None,
    allow_identity_change: bool = False,
) -> list[Check]:
    """Every check that applies to the report (or view, or run folder) at ``path``."""
    return verify_report(path, key, signature, rerun_spec, report_json, allow_identity_change)[0]


def verify_report(
    path: Path,
    key: Path | None = None,
    signature: Path | None = None,
    rerun_spec: str | None = None,
    report_json: Path | None = None,
    allow_identity_change: bool = False,
) -> tuple[list[Check], dict[str, Any] | None]:
    """:func:`verify`'s checks and the JSON report they were made on (None: not JSON),
    for :func:`outcome`."""
    path = Path(path)
    folder = path if path.is_dir() else None
    fmt = VIEW_FORMATS.get(path.suffix.lower()) if folder is None else None
    json_path = path if folder is None else folder / FORMATS["json"][0]
    if folder is not None and not json_path.is_file():
        raise ReportError(
            f"{folder}: no {json_path.name} in this folder to verify (was the "
            "run made with --no-report? `pokercert report` writes one)"
        )
    if fmt is not None:
        json_path = Path(report_json) if report_json else path.with_name(FORMATS["json"][0])
        if not json_path.is_file():
            raise ReportError(
                f"{path}: a {fmt} view is checked against its JSON report; "
                f"{json_path} does not exist (pass --report-json)"
            )
    try:
        raw = json_path.read_bytes()
    except OSError as exc:
        raise ReportError(f"{json_path}: cannot read ({exc.strerror})") from None
    report, checks = verify_bytes(raw)
    genuine = passed(checks)  # canonical, digest, schema and consistent
    if fmt is not None:
        checks.append(
            check_view(path.read_bytes(), fmt, report)
            if genuine and report is not None
            else Check("view", SKIPPED, "the JSON report itself is not genuine or not consistent")
        )
    if folder is not None:
        checks.append(
            check_folder(folder, report)
            if genuine and report is not None
            else Check("results", SKIPPED, NOT_GENUINE)
        )
    checks.append(
        check_corpus(report)
        if genuine and report is not None
        else Check("corpus", SKIPPED, NOT_GENUINE)
    )
    if key is not None:
        sig = Path(signature) if signature else json_path.with_name(json_path.name + SIG_SUFFIX)
        checks.append(check_signature(raw, sig, Path(key)))
    if rerun_spec:
        checks.append(
            check_rerun(report, rerun_spec, allow_identity_change)
            if genuine and report is not None
            else Check("rerun", SKIPPED, NOT_GENUINE)
        )
    return checks, report


def passed(checks: list[Check]) -> bool:
    return all(c.status != FAILED for c in checks)


GENUINE, NOT_GENUINE = "GENUINE", "NOT GENUINE"
# checks that speak to what the report certifies, not to whether it is genuine
VERDICT_CHECKS = frozenset({"corpus"})


@dataclass(frozen=True)
class Verification:
    """What ``verify`` concludes: whether the report is genuine, its verdict if it is,
    why (the first failed check, or what denied the certificate), and the exit code."""

    genuine: bool
    verdict: str | None
    why: str
    exit_code: int

    @property
    def words(self) -> str:
        """``GENUINE: NOT CERTIFIED``, ``GENUINE: CERTIFIED``, ``NOT GENUINE: <why>``."""
        if not self.genuine:
            return f"{NOT_GENUINE}: {self.why}"
        return f"{GENUINE}: {self.verdict}" + (f" ({self.why})" if self.why else "")

    def as_dict(self) -> dict[str, Any]:
        return {
            "genuine": self.genuine,
            "verdict": self.verdict,
            "outcome": self.words,
            "exit_code": self.exit_code,
        }


def conclude(checks: list[Check], report: dict[str, Any] | None) -> Verification:
    """The one place a verification becomes words and an exit code: not genuine (any
    check but ``corpus`` failed) exits 1; a genuine report exits with its verdict's code
    (``reports.model.REPORT_EXIT_CODES``: 0 CERTIFIED, 1 NOT CERTIFIED, 2 INCOMPLETE)."""
    from pokercert.reports.covers import corpus_denial
    from pokercert.reports.model import REPORT_EXIT_CODES

    failed = [c for c in checks if c.status == FAILED and c.name not in VERDICT_CHECKS]
    if (
        failed
        or report is None
        or not any(c.name == "consistent" and c.status == OK for c in checks)
    ):
        first = (
            failed[0]
            if failed
            else next(
                (c for c in checks if c.status != OK), Check("report", FAILED, "not a report")
            )
        )
        return Verification(False, None, f"{first.name}: {first.detail}", ExitCode.NONCOMPLIANT)
    verdict = str(report["verdict"])
    return Verification(
        True, verdict, corpus_denial(report["covers"]), int(REPORT_EXIT_CODES[verdict])
    )
