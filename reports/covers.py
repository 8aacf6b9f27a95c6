"""What a certificate covers: the corpus, the identity, the sandbox and the challenge.

One block every report format shows near its verdict (reports/README.md, *What this
certificate covers*), derived from the report's identification alone, so it is a
conclusion like the verdict: :func:`covers` makes it, ``reports.model.conclusions``
carries it, and a loaded report whose block differs from what its facts give is refused.

* **corpus**: the version the run loaded and the digest of its files, against the
  published digest of that version in the release registry of *this* pokercert
  (:mod:`pokercert.vectors.releases`): ``published``, ``modified`` (a known version,
  other files) or ``unpublished`` (a version this pokercert never released).  Only a
  published corpus can be certified (verdict rule 6, ``verdict.with_corpus``).
* **identity**: what the measured identity hashed (``measured_identity.coverage`` of
  run.json: a scope, a plain sentence, a warning when the evaluator itself may be
  outside it).
* **sandbox**: how an exec: adapter was confined (run.json's ``sandbox``: a mode and
  why).
* **challenge seed**: the seed of the run's challenge vectors (none: curated only).

Runs from before a field existed say ``not recorded``.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from pokercert.vectors.releases import corpus_status

NOT_RECORDED = "not recorded"
IDENTITY_NOT_RECORDED = (
    "run.json does not say what the measured identity covers (a run "
    "made before the harness recorded it)"
)
SANDBOX_NOT_RECORDED = (
    "run.json does not say how the evaluator was sandboxed (a run made "
    "before the harness recorded it)"
)


def _text(value: Any) -> str:
    return "" if value is None else str(value)


def corpus_block(corpus: Mapping[str, Any]) -> dict[str, Any]:
    """The run's corpus against the published digest of its version."""
    return corpus_status(_text(corpus.get("version")), _text(corpus.get("sha256"))).as_dict()


def identity_block(measured: Mapping[str, Any]) -> dict[str, str]:
    """What the measured identity covers (``measured_identity.coverage``)."""
    coverage = measured.get("coverage")
    if not isinstance(coverage, Mapping):
        return {"scope": NOT_RECORDED, "hashed": IDENTITY_NOT_RECORDED, "warning": ""}
    return {
        "scope": _text(coverage.get("scope")) or NOT_RECORDED,
        "hashed": _text(coverage.get("hashed")),
        "warning": _text(coverage.get("warning")),
    }


def sandbox_block(sandbox: Any) -> dict[str, str]:
    """How the evaluator was confined (run.json's ``sandbox``)."""
    if not isinstance(sandbox, Mapping):
        return {"mode": NOT_RECORDED, "reason": SANDBOX_NOT_RECORDED}
    return {
        "mode": _text(sandbox.get("mode")) or NOT_RECORDED,
        "reason": _text(sandbox.get("reason")),
    }


def covers(identification: Mapping[str, Any]) -> dict[str, Any]:
    """The block, from a report's identification."""
    challenge = (identification.get("filters") or {}).get("challenge")
    seed = challenge.get("seed") if isinstance(challenge, Mapping) else None
    return {
        "corpus": corpus_block(identification.get("corpus") or {}),
        "identity": identity_block(identification.get("measured_identity") or {}),
        "sandbox": sandbox_block(identification.get("sandbox")),
        "challenge_seed": seed if isinstance(seed, int) else None,
    }


def corpus_denial(block: Mapping[str, Any]) -> str:
    """Why the corpus denies a certificate (``""``: it is a published release)."""
    corpus = block["corpus"]
    return "" if corpus["status"] == "published" else str(corpus["words"])
