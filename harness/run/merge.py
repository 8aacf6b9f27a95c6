"""``pokercert merge``: join the run folders of the shards of one run into one.

Shards must come from the same run: same corpus, adapter spec, evaluator identity (as
declared and as measured: the digest of ``measured_identity``), profile and filters,
and the same N.  A missing shard is allowed (the merged results are
then incomplete, and the reports say so); a shard given twice, or a vector id in two
shards, is refused, and so is a shard whose ``results.jsonl`` is not what its harness
wrote (its hash in ``run.json``).  Attachments are copied under
``attachments/shard-K-...``.  The merged folder holds the merge only: every earlier
report, signature, result and attachment in it is removed first.

The attached modes (``--fuzz``, ``--exhaustive``) of a sharded run are run by shard 1
alone (:func:`~pokercert.harness.run.runner.runs_attached`): the merge keeps its records,
one per ruleset and mode, with its drafts and state, and refuses shards that both carry
records.  The challenge drafts are written again from the merged results (by the one
draft writer), as one process would have written them.
"""

from __future__ import annotations

import shutil
from collections import Counter
from collections.abc import Sequence
from dataclasses import replace
from pathlib import Path
from typing import Any

from pokercert.harness.adapters.sandbox import merged_sandbox
from pokercert.harness.merging import MergeError
from pokercert.harness.run.results import (
    ATTACHED,
    COUNTEREXAMPLES,
    HEADER_FILE,
    Result,
    RunHeader,
    clear_folder,
    read_header,
    read_results,
    results_problem,
    write_header,
    write_results,
)
from pokercert.harness.run.selection import ids_digest, parse_shard

MUST_MATCH = (
    "corpus_sha256",
    "corpus_version",
    "adapter_spec",
    "evaluator",
    "profile",
    "filters",
    "protocol_version",
    "harness_version",
    "rulesets",
)


def unsharded_command(command: Sequence[str]) -> list[str]:
    """A shard's command line without its ``--shard`` option: the whole run's command."""
    out: list[str] = []
    skip = False
    for arg in command:
        if skip:
            skip = False
            continue
        if arg == "--shard":
            skip = True
            continue
        if arg.startswith("--shard="):
            continue
        out.append(arg)
    return out


Shard = tuple[Path, RunHeader, tuple[int, int]]  # folder, its run.json, (k, n)


def merge(out: Path, shard_dirs: Sequence[Path]) -> tuple[RunHeader, list[str]]:
    """Write the merged run folder; returns its header and warnings (missing shards)."""
    if not shard_dirs:
        raise MergeError("give at least one shard folder")
    headers = [_read_shard(folder) for folder in shard_dirs]
    seen, n = _check_shards(headers)
    warnings = [
        f"shard {k}/{n} is missing: the merged results are incomplete"
        for k in range(1, n + 1)
        if k not in seen
    ]
    if any(out.resolve() == folder.resolve() for folder, _, _ in headers):
        raise MergeError(f"{out}: the merged folder cannot be one of the shards")
    out.mkdir(parents=True, exist_ok=True)
    clear_folder(out)
    (out / "attachments").mkdir(exist_ok=True)
    results, owner = _merged_results(out, headers, warnings)
    merged = _merged_header(headers, results, sorted(seen), n, _attached(out, headers))
    if not warnings and ids_digest(owner) != merged.selected_ids_sha256:
        raise MergeError("the shards' vectors do not add up to the run's selection")
    merged.results_sha256, merged.results_lines = write_results(out, results)
    write_header(out, merged)
    _challenge_drafts(out, merged, results)
    return merged, warnings


def _read_shard(folder: Path) -> Shard:
    """A shard folder's run.json, refused unless it is a whole, hashed shard's."""
    if not (folder / HEADER_FILE).is_file():
        raise MergeError(f"{folder}: not a run folder (no {HEADER_FILE})")
    h = read_header(folder)
    if not h.shard:
        raise MergeError(f"{folder}: not a shard (run without --shard)")
    problem = results_problem(folder, h)
    if problem:
        raise MergeError(problem)
    if h.finished_at and h.results_sha256 is None:
        raise MergeError(
            f"{folder}: run.json records no hash of results.jsonl, so its "
            "results cannot be tied to the shard's run"
        )
    return folder, h, parse_shard(h.shard)


def _check_shards(headers: Sequence[Shard]) -> tuple[dict[int, Path], int]:
    """The shards are parts of one run (same split, settings and measured software), each
    given once: returns which shard came from which folder, and the number of shards."""
    first_dir, first, (_, n) = headers[0]
    seen: dict[int, Path] = {}
    for folder, h, (k, kn) in headers:
        if kn != n:
            raise MergeError(f"{folder}: shard {h.shard} is not one of {n}")
        for name in MUST_MATCH:
            if getattr(h, name) != getattr(first, name):
                raise MergeError(
                    f"{folder}: {name} differs from {first_dir} "
                    f"({getattr(h, name)!r} vs {getattr(first, name)!r})"
                )
        mine, theirs = (x.measured_identity.get("digest") for x in (h, first))
        if mine != theirs:
            raise MergeError(
                f"{folder}: the measured identity of the software under test "
                f"differs from {first_dir}'s (sha256 {mine} vs {theirs})"
            )
        if k in seen:
            raise MergeError(f"shard {k}/{n} given twice: {seen[k]} and {folder}")
        seen[k] = folder
    return seen, n


def _merged_results(
    out: Path, headers: Sequence[Shard], warnings: list[str]
) -> tuple[list[Result], dict[str, str]]:
    """Every shard's results in shard order (attachments copied under a shard prefix),
    and which shard each vector came from; a vector in two shards is refused, a shard
    that did not finish adds a warning."""
    results: list[Result] = []
    owner: dict[str, str] = {}
    for folder, h, (k, _) in sorted(headers, key=lambda t: t[2]):
        for r in read_results(folder):
            if r.vector_id in owner:
                raise MergeError(
                    f"vector {r.vector_id} is in shard {owner[r.vector_id]} and shard {h.shard}"
                )
            owner[r.vector_id] = h.shard or ""
            if r.attachment:
                name = f"shard-{k}-{r.attachment}"
                src = folder / "attachments" / r.attachment
                if src.is_file() and not (out / "attachments" / name).exists():
                    shutil.copyfile(src, out / "attachments" / name)
                r = r._replace(attachment=name)
            results.append(r)
        if h.aborted:
            warnings.append(f"shard {h.shard} did not finish: {h.aborted}")
    return results, owner


def _merged_header(
    headers: Sequence[Shard],
    results: Sequence[Result],
    shards: list[int],
    n: int,
    attached: dict[str, list[dict[str, Any]]],
) -> RunHeader:
    """The run.json one unsharded run would have written, from the shards' own."""
    first = headers[0][1]
    by_ruleset: Counter[str] = Counter()
    for _, h, _ in headers:
        by_ruleset.update(h.selected_by_ruleset)
    ends = [h.finished_at for _, h, _ in headers]
    aborted = "; ".join(f"shard {h.shard}: {h.aborted}" for _, h, _ in headers if h.aborted)
    filters = dict(first.filters)
    return replace(
        first,
        shard=None,
        selected=int(filters.get("unsharded_selected", len(results))),
        selected_ids_sha256=str(filters.get("unsharded_ids_sha256", "")),
        started_at=min(h.started_at for _, h, _ in headers),
        finished_at=None if None in ends else max(e for e in ends if e),
        aborted=aborted or None,
        command=unsharded_command(first.command),
        selected_by_ruleset=dict(sorted(by_ruleset.items())),
        filters={**filters, "merged_shards": [f"{k}/{n}" for k in shards]},
        resumed_at=sorted(t for _, h, _ in headers for t in h.resumed_at),
        attached=attached,
        sandbox=merged_sandbox([h.sandbox for _, h, _ in headers]),
    )


def _attached(out: Path, headers: Sequence[Shard]) -> dict[str, list[dict[str, Any]]]:
    """The attached modes' records of the one shard that ran them, its drafts and state
    copied into ``out``; none if no shard given ran them."""
    carriers = [(folder, h) for folder, h, _ in headers if h.attached]
    if len(carriers) > 1:
        raise MergeError(
            f"shards {' and '.join(str(h.shard) for _, h in carriers)} both "
            "record attached modes: one shard (1/N) runs them"
        )
    if not carriers:
        return {}
    folder, h = carriers[0]
    drafts = folder / COUNTEREXAMPLES
    for item in (i for items in h.attached.values() for i in items if i.get("draft")):
        src = folder / str(item["draft"])
        if src.is_file() and src.resolve().is_relative_to(drafts.resolve()):
            (out / COUNTEREXAMPLES).mkdir(exist_ok=True)
            shutil.copyfile(src, out / COUNTEREXAMPLES / src.name)
    if (folder / ATTACHED).is_dir():
        shutil.copytree(folder / ATTACHED, out / ATTACHED, dirs_exist_ok=True)
    return {mode: [dict(i) for i in items] for mode, items in h.attached.items()}


def _challenge_drafts(out: Path, header: RunHeader, results: Sequence[Result]) -> None:
    """The challenge vectors that failed, as ready-to-add drafts of the merged run."""
    if not any(r.origin for r in results):
        return
    from pokercert.harness.run.challenge import write_drafts
    from pokercert.reference import Profile

    profile = Profile(str(header.profile["name"]), dict(header.profile["readings"]))
    write_drafts(out, results, profile, header.adapter_spec)
