"""Words shared by the human views (Markdown, HTML, JUnit): one way to say each thing."""

from __future__ import annotations

import json
import re
import shlex
from typing import Any

from pokercert.harness.run.results import Outcome
from pokercert.reports import verdict as V

VERDICT_MARK = {V.CERTIFIED: "✅", V.NOT_CERTIFIED: "❌", V.INCOMPLETE: "⚠️", V.NOT_APPLICABLE: "➖"}
OUTCOME_WORDS = {
    Outcome.FAIL: "wrong answer",
    Outcome.WRONG_REASON: "refused for the wrong reason",
    Outcome.ERROR: "adapter raised or answered malformed",
    Outcome.TIMEOUT: "no answer in time",
    Outcome.CRASH: "evaluator process died",
    Outcome.XFAIL: "known failure (expectations file)",
    Outcome.XPASS: "passed although listed as a known failure",
}
# what a finding's clauses are (every view says it the same way)
FINDINGS_LEGEND = (
    "A finding names the clauses its vector exercises (the vector's tags): "
    "the rules under test when the evaluator answered wrongly, not proof that "
    "it breaks that clause. The inputs, the expected and the actual answer are "
    "the evidence."
)
_KEPT = frozenset("\n\t ")


def _shown(ch: str) -> str:
    n = ord(ch)
    return f"\\x{n:02x}" if n < 0x100 else f"\\u{n:04x}" if n < 0x10000 else f"\\U{n:08x}"


def printable(text: str) -> str:
    """``text`` with every invisible or control character shown as an escape (``\\x00``,
    ``\\u202e``): controls (Cc), format characters (Cf: bidirectional overrides and
    isolates, zero-width characters), line and paragraph separators, surrogates,
    unassigned code points and spaces other than the plain one.  Line breaks and tabs
    stay (``\\r\\n`` becomes ``\\n``).  Safe in XML, HTML and Markdown, and what a reader
    sees is what the text holds: no right-to-left override can reorder a report."""
    if text.isprintable():
        return text
    text = text.replace("\r\n", "\n")
    return "".join(ch if ch.isprintable() or ch in _KEPT else _shown(ch) for ch in text)


# Markdown: ASCII punctuation that starts inline structure (CommonMark and GitHub's
# extensions: emphasis, code, links, images, raw HTML, entities, tables, strikethrough,
# headings, quotes); every one is escaped with a backslash wherever it stands
_MD_SPECIAL = re.compile(r"([\\`*_\[\]<>&|~#!])")
# a value starting a line could open a list item or a thematic break / setext underline
_MD_BLOCK_START = re.compile(r"^(\s*[-+](?=\s|$)|\s*\d{1,9}(?=[.)](?:\s|$))|\s*(?=[-=]+\s*$))")
_MD_AUTOLINK = re.compile(r"(?i)(://|www\.)")


def one_line(value: Any) -> str:
    """``value`` for one line of terminal output: :func:`printable`, and line breaks and
    tabs shown as ``\\n`` and ``\\t``, so text a vendor controls can neither reorder
    nor add lines of what the harness prints (a fake ``CERTIFIED`` line, say)."""
    return printable(str(value)).replace("\n", "\\n").replace("\t", "\\t")


def _block_escape(m: re.Match[str]) -> str:
    """The backslash that keeps a line-opening ``-``, ``+``, ``1.`` or ``===`` literal."""
    text = m.group(1)
    if text and text[-1] in "-+":
        return text[:-1] + "\\" + text[-1]
    return text + "\\"  # before the ``.``/``)`` of ``1.``, or the first ``-``/``=``


def md(value: Any, newline: str = "<br>") -> str:
    """The one escaping of vendor- (or anyone-) controlled text for Markdown.

    Invisible and control characters are shown (:func:`printable`); every Markdown
    special character is backslash-escaped, so the text can open no heading, list,
    quote, table cell, code span, link, image, autolink or HTML element; line breaks
    become ``newline`` (``<br>``, which renders as a break inside a table cell too).
    """
    s = _MD_SPECIAL.sub(r"\\\1", printable(str(value)))
    s = _MD_BLOCK_START.sub(_block_escape, s, count=1)
    s = _MD_AUTOLINK.sub(
        lambda m: "\\" + m.group(1) if m.group(1) == "://" else m.group(1)[:3] + "\\.", s
    )
    return s.replace("\n", newline)


def md_fence(value: str, info: str = "") -> list[str]:
    """A fenced code block holding ``value`` verbatim on one line (a fence longer than
    any backtick run in it, line breaks shown as ``\\n``): nothing in it is Markdown."""
    s = printable(value).replace("\n", "\\n")
    longest = max((len(m) for m in re.findall("`+", s)), default=0)
    fence = "`" * max(3, longest + 1)
    return [fence + info, s, fence]


def value(v: Any) -> str:
    """One input or answer value in words: card strings as is, lists bracketed."""
    if isinstance(v, str):
        return v
    if isinstance(v, list):
        return "[" + ", ".join(value(x) for x in v) + "]"
    if v is None:
        return "none"
    if isinstance(v, dict):
        return describe(v)
    return json.dumps(v, ensure_ascii=False)


def describe(data: dict[str, Any] | None) -> str:
    """``key: value; key: value`` for inputs, expected and actual answers."""
    if data is None:
        return "(no answer)"
    if not data:
        return "(nothing)"
    return printable("; ".join(f"{k}: {value(data[k])}" for k in sorted(data)))


def clauses_line(failure: dict[str, Any]) -> str:
    return ", ".join(c["label"] for c in failure["clauses"]) or "(no clause)"


def readings_line(failure: dict[str, Any]) -> str:
    return ", ".join(f"{r['interpretation']}={r['reading']}" for r in failure["readings"])


def evaluator_line(ident: dict[str, Any]) -> str:
    ev = ident["evaluator"]
    words = " ".join(x for x in (ev["vendor"], ev["name"], ev["version"]) if x)
    return words + (f" (build {ev['build']})" if ev["build"] else "")


def counts_line(counts: dict[str, int]) -> str:
    """``12 PASS, 1 FAIL`` in the severity order, zeros left out."""
    parts = [f"{counts[o]} {o}" for o in map(str, V.OUTCOME_ORDER) if counts.get(o)]
    return ", ".join(parts) or "no vectors"


def known_line(f: dict[str, Any]) -> str:
    """An XFAIL/XPASS finding's entry in the expectations file."""
    before = f" (scored {f['scored_as']} before it applied)" if f["scored_as"] else ""
    return printable(f"expectations file: {f['known_failure']}{before}")


def failure_message(f: dict[str, Any]) -> str:
    """The one-paragraph finding: outcome, clause, why, expected vs actual."""
    parts = [
        f"{f['outcome']} ({OUTCOME_WORDS.get(f['outcome'], '')}) on a vector exercising "
        f"{clauses_line(f)}"
    ]
    for c in f["clauses"]:
        parts.append(f"{c['label']}: {c['summary']}")
    if f["why"]:
        parts.append(f"why: {f['why']}")
    parts.append(f"expected: {describe(f['expected'])}")
    parts.append(f"actual: {describe(f['actual'])}")
    if f["message"]:
        parts.append(f"message: {printable(f['message'])}")
    if f["known_failure"]:
        parts.append(known_line(f))
    if f["readings"]:
        parts.append(f"scored under: {readings_line(f)}")
    if f["flags"]:
        parts.append(f"flags: {', '.join(f['flags'])}")
    parts.append(f"({FINDINGS_LEGEND})")
    return printable("\n".join(parts))


def isolation_line(ident: dict[str, Any]) -> str:
    """How the evaluator was isolated from the harness, in words."""
    if ident.get("isolation", "in-process") == "process":
        return "process (the evaluator ran in a child process, contained)"
    return "in-process: not isolated (the evaluator ran inside the harness process)"


def capabilities_line(ident: dict[str, Any]) -> str:
    caps = ident["capabilities"]
    return "; ".join(f"{rid}: {', '.join(kinds)}" for rid, kinds in caps.items()) or "-"


DECLARED_LABEL = "declared by the vendor"
MEASURED_LABEL = "measured by the harness"
MEASURED_ROWS = 40  # files listed one by one in the human views; the JSON has them all
_ROLE_WORDS = {
    "executable": "executable",
    "argument": "command-line file",
    "identity-file": "identity file",
    "manifest": "hello manifest file",
}


def measured_line(ident: dict[str, Any]) -> str:
    """The measured identity in one line: kind, digest, files and distributions."""
    m = ident["measured_identity"]
    if not m["digest"]:
        return "; ".join(m["problems"]) or "not measured"
    dists = ", ".join(f"{d['name']} {d['version']}" for d in m["distributions"])
    words = (
        f"{m['kind']}: sha256 {m['digest']} ({len(m['files'])} files"
        + (f"; distributions {dists}" if dists else "")
        + ")"
    )
    if m["problems"]:
        words += f"; {len(m['problems'])} problem(s): " + "; ".join(m["problems"][:3])
    return printable(words)


def measured_rows(ident: dict[str, Any]) -> list[list[str]]:
    """Rows (what, where, SHA-256 or status) of the measured identity for a table: each
    file of an exec: adapter, each distribution, each package folder hashed file by file."""
    m = ident["measured_identity"]
    rows: list[list[str]] = []
    order = list(_ROLE_WORDS)
    listed = sorted(
        (f for f in m["files"] if f["role"] in _ROLE_WORDS), key=lambda f: order.index(f["role"])
    )
    for f in listed[:MEASURED_ROWS]:
        what = _ROLE_WORDS[f["role"]]
        if f["name"] != f["role"] and f["role"] != "manifest":
            what += f" {f['name']}"
        if f.get("given") and f["given"] != f["name"] and f["role"] != "manifest":
            what += f" ({f['given']})"
        rows.append([what, f["path"], f["sha256"] or f["status"]])
    if len(listed) > MEASURED_ROWS:
        rows.append([f"{len(listed) - MEASURED_ROWS} more files", "", "in the JSON report"])
    for d in m["distributions"]:
        bad = [f"modified: {', '.join(d['modified'])}"] if d["modified"] else []
        bad += [f"missing: {', '.join(d['missing'])}"] if d["missing"] else []
        rows.append(
            [
                f"distribution {d['name']} {d['version']}",
                f"{d['files']} files in RECORD ({d['hashed_by_harness']} without a hash "
                "there, hashed by the harness)",
                "; ".join(bad) or "every file matches RECORD",
            ]
        )
    roots: dict[str, int] = {}
    for f in m["files"]:
        if f["role"] == "module":
            root = f["name"].split("/", 1)[0].split(":", 1)[0]
            roots[root] = roots.get(root, 0) + 1
    for root, n in roots.items():
        rows.append(
            [
                f"module files {root}",
                f"{n} .py files, in no RECORD",
                "hashed one by one (JSON report)",
            ]
        )
    if not rows:
        rows.append(["nothing measured", "-", "-"])
    return [[printable(c) for c in r] for r in rows]


LAB_LABELS = {"lab": "Lab", "engineer": "Engineer", "submission_id": "Submission", "scope": "Scope"}


def lab_items(ident: dict[str, Any]) -> list[tuple[str, str]]:
    """The lab's fields in a fixed order, "" where not given (reports before lab fields
    existed have none)."""
    lab = ident.get("lab") or {}
    return [(k, str(lab.get(k) or "")) for k in LAB_LABELS]


def lab_line(ident: dict[str, Any]) -> str:
    """``Lab: X · Engineer: Y · Submission: Z · Scope: ...`` of the fields given."""
    return " · ".join(f"{LAB_LABELS[k]}: {v}" for k, v in lab_items(ident) if v)


def citation_line(ruleset: dict[str, Any]) -> str:
    """A ruleset's citation with how sure its section number is: ``13:69F-14.3 (likely)``."""
    confidence = ruleset.get("confidence") or "confidence unknown"
    return f"{ruleset.get('citation') or '-'} ({confidence})"


# ----------------------------------------------------------------------------- challenge
CHALLENGE_LEGEND = (
    "Challenge vectors are generated for each run from its seed, after the "
    "curated corpus: a twin of every curated vector (cards shuffled, hands "
    "reordered, suits relabelled; the corpus's expectation, remapped) and "
    "fresh deals over every situation (the reference's expectation under the "
    "run's profile). No published vector holds them, so an evaluator that "
    "looks answers up in the corpus fails them; a correct one passes them. "
    "Replay them with the seed."
)


def replay_command(report: dict[str, Any], options: str, failing: list[str]) -> str:
    """The ``pokercert run`` command that replays part of a run: its adapter and profile,
    the rulesets that failed (else the run's own ruleset filter), then ``options``."""
    ident = report["identification"]
    rulesets = failing or list(ident["filters"].get("rulesets") or [])
    words = [
        "pokercert run",
        "--adapter",
        shlex.quote(str(ident["adapter_spec"])),
        "--profile",
        shlex.quote(str(ident["profile"]["name"])),
        *(f"--ruleset {shlex.quote(str(r))}" for r in rulesets),
        options,
    ]
    return printable(" ".join(w for w in words if w))


def finding_replay(report: dict[str, Any], finding: dict[str, Any]) -> str:
    """The command that runs a finding again: its ruleset against the same adapter under
    the same profile, with the run's challenge options when the finding is a challenge
    vector (its inputs are drawn from the seed, so the seed brings it back)."""
    challenge = report.get("challenge") or {}
    options = str(challenge.get("replay") or "") if finding.get("origin") else ""
    return replay_command(report, options, [str(finding["ruleset"])])


WHAT_FAILED_TITLE = "What failed, in plain words"


def failures_replay(report: dict[str, Any]) -> str:
    """The command that runs every finding of a report again: the failing rulesets, with
    the run's challenge options when a challenge vector is among the findings."""
    failures = report.get("failures") or []
    rulesets = list(dict.fromkeys(str(f["ruleset"]) for f in failures))
    challenge = report.get("challenge") or {}
    drawn = any(f.get("origin") for f in failures)
    return replay_command(report, str(challenge.get("replay") or "") if drawn else "", rulesets)


def _failed_count(failed: Any, status: Any) -> str:
    """``3 failed``; the status after it only where the count does not say it already
    (``0 failed: not applicable``, ``1 failed: incomplete``): "3 failed: failed" said
    one thing twice."""
    said = "failed" if failed else "passed"
    return f"{failed} failed" + ("" if status == said else f": {status}")


def challenge_line(report: dict[str, Any]) -> str:
    """The challenge in one sentence: seed, size, outcome, how to replay it."""
    ch = report["challenge"]
    status = ch["status"]
    if status == "disabled":
        return (
            "Challenge: none (--no-challenge): the verdict rests on the published corpus "
            "alone, which an evaluator could also pass by looking answers up."
        )
    if status == "not recorded":
        return "Challenge: not recorded (a run made before challenge vectors)."
    twins = sum(r["twin"]["run"] for r in ch["rulesets"])
    fresh = sum(r["fresh"]["run"] for r in ch["rulesets"])
    skipped = report["identification"]["filters"].get("challenge", {}).get("twins_skipped", {})
    why: dict[str, int] = {}
    for reasons in skipped.values():
        for reason, n in reasons.items():
            why[reason] = why.get(reason, 0) + n
    failing = [r["id"] for r in ch["rulesets"] if r["twin"]["failed"] + r["fresh"]["failed"]]
    without = "".join(
        f" {n} curated vector(s) without a twin: {reason}." for reason, n in sorted(why.items())
    )
    return (
        f"Challenge: seed {ch['seed']}, {twins} twins + {fresh} fresh deals run, "
        f"{_failed_count(ch['failed'], status)} "
        f"(replay: {replay_command(report, ch['replay'], failing)})." + without
    )


CHALLENGE_HEADERS = [
    "Ruleset",
    "Twins run",
    "Twins passed",
    "Twins failed",
    "Fresh run",
    "Fresh passed",
    "Fresh failed",
    "Not applicable",
]


def challenge_rows(report: dict[str, Any]) -> list[list[Any]]:
    """Per ruleset: twins and fresh deals run, passed and failed, and not applicable."""
    return [
        [
            r["id"],
            r["twin"]["run"],
            r["twin"]["passed"],
            r["twin"]["failed"],
            r["fresh"]["run"],
            r["fresh"]["passed"],
            r["fresh"]["failed"],
            r["twin"]["not_applicable"] + r["fresh"]["not_applicable"],
        ]
        for r in report["challenge"]["rulesets"]
    ]


def filters_line(ident: dict[str, Any]) -> str:
    """The run's filters in words, the challenge and the attached modes (each shown in
    its own section) left out."""
    return describe(
        {k: v for k, v in ident["filters"].items() if k not in ("challenge", *MODE_TITLES)}
    )


# ----------------------------------------------------------------------------- modes
MODE_TITLES = {"fuzz": "Fuzz", "exhaustive": "Exhaustive"}
MODE_LEGENDS = {
    "fuzz": (
        "Fuzzing, attached to this run (run --fuzz N): N deals per ruleset, "
        "round-robin over the situations where evaluators go wrong, from the seed, "
        "each answer compared with the reference's; the first disagreement is shrunk "
        "to a minimal counterexample. Evidence beyond the corpus, not a proof."
    ),
    "exhaustive": (
        "Exhaustive check, attached to this run (run --exhaustive): every hand "
        "of each ruleset the adapter claims classify or compare for, each sent "
        "in the card order of the seed; every category and the whole order "
        "compared with the reference's. A ruleset without that path is "
        "skipped and named."
    ),
}
MODE_HEADERS = ["Ruleset", "Status", "Checked", "Of", "Disagreements", "Why"]
MODE_FINDING_HEADERS = ["Ruleset", "Finding", "Inputs", "Expected", "Actual", "Message"]


def attached_modes(report: dict[str, Any]) -> list[tuple[str, dict[str, Any]]]:
    """The report's attached modes in their fixed order (fuzz, then exhaustive): the
    JSON report sorts its keys, every view shows them the same way round."""
    modes = report.get("modes") or {}
    return [
        (m, modes[m]) for m in (*MODE_TITLES, *sorted(set(modes) - set(MODE_TITLES))) if m in modes
    ]


def mode_line(report: dict[str, Any], mode: str, block: dict[str, Any]) -> str:
    """An attached mode in one sentence: seed, size, outcome, how to replay it (the
    run's adapter and profile, the rulesets the mode failed on)."""
    size = (
        f"seed {block['seed']}, {block['examples']} deals per ruleset"
        if mode == "fuzz"
        else f"card order seed {block['order_seed']}"
    )
    ran = sum(r["status"] != "skipped" for r in block["rulesets"])
    skipped = [r["id"] for r in block["rulesets"] if r["status"] == "skipped"]
    failing = [r["id"] for r in block["rulesets"] if r["status"] == "failed"]
    return (
        f"{MODE_TITLES.get(mode, mode)}: {size}, {ran} ruleset(s) run, "
        f"{_failed_count(block['failed'], block['status'])} (replay: "
        f"{replay_command(report, block['replay'], failing)})."
        + (f" Skipped: {', '.join(skipped)}." if skipped else "")
    )


def mode_rows(block: dict[str, Any]) -> list[list[Any]]:
    """Per ruleset: status, how much was checked of how much, disagreements, why."""
    return [
        [r["id"], r["status"], r["checked"], r["of"], r["disagreements"], r["why"]]
        for r in block["rulesets"]
    ]


def mode_findings(report: dict[str, Any], mode: str) -> list[list[str]]:
    """The counterexamples of a mode, from its records: fuzz's minimal counterexample per
    ruleset (inputs, the reference's answer, the adapter's, the scorer's message), and
    the first findings of each exhaustive pass (the hands and what differed)."""
    rows: list[list[str]] = []
    for item in report.get("attached", {}).get(mode, []):
        rid = str(item.get("ruleset", ""))
        ce = item.get("counterexample")
        if isinstance(ce, dict):
            rows.append(
                [
                    rid,
                    f"{ce.get('outcome')} {ce.get('kind')} ({ce.get('situation') or 'free'})",
                    describe(ce.get("inputs")),
                    describe(ce.get("expected")),
                    describe(ce.get("actual")),
                    printable(str(ce.get("message") or "")),
                ]
            )
        if item.get("flaky"):
            rows.append([rid, "flaky", "", "", "", printable(str(item["flaky"]))])
        rows += [[rid, *exhaustive_finding_cells(f)] for f in item.get("findings") or []]
    return rows


# what an exhaustive check expects when its finding holds no vector's answer
_EXHAUSTIVE_EXPECTS = {
    "category": "the reference's category",
    "class": "a tie with a member of its reference class",
    "order": "the first hand (the upper class's) wins",
    "error": "a usable answer",
}


def exhaustive_finding_cells(finding: dict[str, Any]) -> list[str]:
    """An exhaustive finding's Finding, Inputs, Expected, Actual and last cells: the
    reference's answer (from the vector the finding was written up as, else what the
    check expects), what the evaluator did (the finding's message) and the reference's
    reason for its answer."""
    check = str(finding.get("check"))
    expected = finding.get("expected")
    return [
        check,
        printable(" | ".join(finding.get("hands", []))),
        describe(expected) if expected else _EXHAUSTIVE_EXPECTS.get(check, ""),
        printable(str(finding.get("message") or "")),
        printable(str(finding.get("why") or "")),
    ]


# ----------------------------------------------------------------------------- covers
COVERS_TITLE = "What this certificate covers"
COVERS_LEGEND = (
    "A certificate covers the published corpus of its version (checked against "
    "the release registry of the pokercert that reads the report), the files "
    "the harness hashed as the evaluator's identity, run the way the sandbox "
    "line says, with the challenge of its seed; nothing else."
)
_PUBLISHED = "published"


def corpus_line(report: dict[str, Any]) -> str:
    """The corpus in words: its version and digest, or that it is modified."""
    return printable(str(report["covers"]["corpus"]["words"]))


def covers_rows(report: dict[str, Any]) -> list[list[str]]:
    """The block's rows (what, in words): corpus, identity (and its warning), sandbox,
    challenge seed."""
    c = report["covers"]
    corpus = c["corpus"]["words"] + (
        ""
        if c["corpus"]["status"] == _PUBLISHED
        else ": not the published release, so nothing here is certified under its name"
    )
    identity = c["identity"]
    rows = [
        ["Corpus", corpus],
        [
            "Identity",
            f"{identity['scope']}: {identity['hashed']}"
            if identity["hashed"]
            else identity["scope"],
        ],
    ]
    if identity["warning"]:
        rows.append(["Identity warning", identity["warning"]])
    sandbox = c["sandbox"]
    rows.append(
        [
            "Sandbox",
            f"{sandbox['mode']}: {sandbox['reason']}" if sandbox["reason"] else sandbox["mode"],
        ]
    )
    status = report["challenge"]["status"]
    seed = c["challenge_seed"]
    rows.append(
        [
            "Challenge seed",
            str(seed)
            if seed is not None
            else "none (--no-challenge): the curated corpus alone"
            if status == "disabled"
            else "not recorded",
        ]
    )
    return [[printable(a), printable(b)] for a, b in rows]


def covers_warnings(report: dict[str, Any]) -> list[str]:
    """What a reader must not miss: a corpus that is not the published release, and the
    identity's warning (the evaluator may be outside what was hashed)."""
    c = report["covers"]
    found = []
    if c["corpus"]["status"] != _PUBLISHED:
        found.append(f"{c['corpus']['words']}: not certified under that version's name")
    if c["identity"]["warning"]:
        found.append(f"identity: {c['identity']['warning']}")
    return [printable(w) for w in found]
