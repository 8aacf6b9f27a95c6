"""Fixed results sets the report tests share, written with the results store itself.

Three runs of a made-up evaluator ("Acme Fives"), each a results folder as the runner
writes it: ``passing`` (every applicable vector passed), ``failing`` (one vector of every
outcome kind) and ``incomplete`` (killed before the end).  Expected answers are the
hand-worked ones of 13:69F-14.3 (royal flush, the wheel, kicker order, ...), and the
wrong answers are the classic bugs the flags name.  Imported by the report
tests as ``tests.helpers.reports_fixtures``; ``tests/reports/test_reports_fixtures.py``
checks the fixtures themselves.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from pokercert.harness.run.results import Outcome, Result, RunHeader, write_header, write_results
from pokercert.harness.run.selection import ids_digest
from pokercert.reference import load_profile

PROFILE = load_profile("practice").as_dict()
RULESETS = ["nj-poker-high-5", "nj-poker-high-3", "nj-lowball-2-7"]
H5, H3, LOW = RULESETS
TIE = {"identical-rank-tiebreak": "practice", "suits-equal": "practice"}
LOW_READINGS = {
    "lowball-wheel": "practice",
    "low-card-order": "practice",
    "suits-equal": "practice",
}
# the published corpus 1.11.0 (its MANIFEST.json's sha256, released in commit 86193ac): a
# report can certify only a corpus that is a published release (verdict rule 6)
CORPUS = ("1.11.0", "f5307c856701da85187d5626f6b9516734ed330696d4e4983c0c7365e3f106b7")


def header(
    ids: list[str],
    *,
    finished: bool = True,
    selected: list[str] | None = None,
    shard: str | None = None,
    version: str = "1.4.2",
    rulesets: list[str] | None = None,
    challenge: dict | None = None,
    modes: dict | None = None,
    attached: dict | None = None,
    corpus: tuple[str, str] = CORPUS,
) -> RunHeader:
    chosen = ids if selected is None else selected
    by_ruleset: dict[str, int] = {}
    for vid in chosen:
        rid = {"h5": H5, "h3": H3, "low": LOW}[vid.split("-")[0]]
        by_ruleset[rid] = by_ruleset.get(rid, 0) + 1
    return RunHeader(
        suite_version="0.1.0",
        corpus_version=corpus[0],
        corpus_sha256=corpus[1],
        harness_version="0.1.0",
        protocol_version="1",
        adapter_spec="py:acme_fives.pokercert:AcmeEvaluator",
        evaluator={
            "vendor": "Acme Gaming",
            "name": "acme-fives",
            "version": version,
            "build": "9f3c2e1",
        },
        adapter={"name": "acme-fives-pokercert", "version": "0.3"},
        profile=PROFILE,
        rulesets=list(rulesets or RULESETS),
        filters={"flags": [], **({"challenge": challenge} if challenge else {}), **(modes or {})},
        attached=dict(attached or {}),
        selected=len(chosen),
        selected_ids_sha256=ids_digest(chosen),
        platform={"python": "3.11.2", "system": "Linux", "machine": "x86_64"},
        command=[
            "pokercert",
            "run",
            "--adapter",
            "py:acme_fives.pokercert:AcmeEvaluator",
            "--profile",
            "practice",
            "--out",
            "results",
        ],
        started_at="2026-01-15T10:00:00Z",
        finished_at="2026-01-15T10:00:07Z" if finished else None,
        shard=shard,
        selected_by_ruleset=dict(sorted(by_ruleset.items())),
        capabilities={H5: ["classify", "compare", "reject"], H3: ["classify", "compare"]},
        limits={"timeout_s": 5.0, "max_restarts": 50},
    )


def r(
    vid: str,
    ruleset: str,
    kind: str,
    outcome: Outcome,
    inputs: dict,
    expected: dict,
    actual: dict | None,
    clauses: tuple[str, ...],
    flags: tuple[str, ...],
    why: str,
    **extra,
) -> Result:
    readings = LOW_READINGS if ruleset == LOW else TIE
    return Result(
        vector_id=vid,
        ruleset=ruleset,
        kind=kind,
        outcome=outcome,
        inputs=inputs,
        expected=expected,
        actual=actual,
        clauses=clauses,
        flags=flags,
        why=why,
        readings=readings if kind in ("compare", "best_hand") else {},
        duration_s=0.000125,
        **extra,
    )


ROYAL = r(
    "h5-royal-001",
    H5,
    "classify",
    Outcome.PASS,
    {"hand": "As Ks Qs Js Ts"},
    {"category": "royal_flush"},
    {"category": "royal_flush"},
    ("13:69F-14.3(b)1",),
    ("named-extreme",),
    "A K Q J 10 of one suit is a royal flush.",
)
WHEEL = r(
    "h5-wheel-001",
    H5,
    "classify",
    Outcome.PASS,
    {"hand": "5d 4c 3h 2s Ad"},
    {"category": "straight"},
    {"category": "straight"},
    ("13:69F-14.3(b)6",),
    ("wheel",),
    "A-2-3-4-5 is the lowest straight.",
)
WRAP = r(
    "h5-wrap-001",
    H5,
    "classify",
    Outcome.PASS,
    {"hand": "Qd Kc Ah 2s 3d"},
    {"category": "high_card"},
    {"category": "high_card"},
    ("13:69F-14.3(b)6",),
    ("wraparound",),
    "Q-K-A-2-3 is no straight: the ace does not wrap around.",
)
KICKER = r(
    "h5-kicker-001",
    H5,
    "compare",
    Outcome.PASS,
    {"hands": ["Ah Ad Kc 9s 4d", "As Ac Qh Jd Td"]},
    {"winners": [0]},
    {"winners": [0]},
    ("13:69F-14.3(d)", "13:69F-14.3(b)9"),
    ("rank-order",),
    "Equal pairs of aces: the king kicker beats the queen.",
)
SUITS = r(
    "h5-suits-001",
    H5,
    "compare",
    Outcome.PASS,
    {"hands": ["Ah Kh Qd Jc 9s", "Ad Kd Qs Jh 9c"]},
    {"winners": [0, 1]},
    {"winners": [0, 1]},
    ("13:69F-14.3(a)", "13:69F-14.3(d)"),
    ("suit-tiebreak",),
    "Hands differing only in suits split: suits are equal.",
)
DUP = r(
    "h5-reject-dup-001",
    H5,
    "reject",
    Outcome.PASS,
    {"op": "classify", "hand": "As As Kd 9h 5c"},
    {"reason": "duplicate-card"},
    {"rejected": "duplicate-card"},
    ("13:69F-14.3(a)",),
    ("input-validation", "one-deck"),
    "One deck has one ace of spades: the hand is invalid.",
)
H3_ORDER = r(
    "h3-order-001",
    H3,
    "compare",
    Outcome.PASS,
    {"hands": ["Qs Jd Tc", "2h 7h 9h"]},
    {"winners": [0]},
    {"winners": [0]},
    ("13:69F-14.3(c)", "13:69F-14.3(c)4"),
    ("three-card-order",),
    "In three cards a straight beats a flush.",
)
H3_ROYAL = r(
    "h3-royal-001",
    H3,
    "classify",
    Outcome.PASS,
    {"hand": "Ah Kh Qh"},
    {"category": "royal_flush"},
    {"category": "royal_flush"},
    ("13:69F-14.3(c)1",),
    ("named-extreme", "royal-naming"),
    "A K Q of one suit is the three-card royal.",
)
H3_DUP_NA = r(
    "h3-reject-dup-001",
    H3,
    "reject",
    Outcome.NOT_APPLICABLE,
    {"op": "classify", "hand": "Ah Ah Qh"},
    {"reason": "duplicate-card"},
    None,
    ("13:69F-14.3(a)",),
    ("input-validation", "one-deck"),
    "One deck has one ace of hearts: the hand is invalid.",
    message="the adapter does not claim reject for nj-poker-high-3",
)
LOW_NA = [
    r(
        f"low-{i:03d}",
        LOW,
        kind,
        Outcome.NOT_APPLICABLE,
        inputs,
        expect,
        None,
        clauses,
        flags,
        why,
        message="the adapter does not claim nj-lowball-2-7",
    )
    for i, (kind, inputs, expect, clauses, flags, why) in enumerate(
        [
            (
                "classify",
                {"hand": "7s 5d 4c 3h 2s"},
                {"category": "high_card"},
                ("13:69F-14.3(e)",),
                ("named-extreme",),
                "7-5-4-3-2 is the best deuce-to-seven hand.",
            ),
            (
                "compare",
                {"hands": ["7s 5d 4c 3h 2s", "7h 6d 4s 3c 2d"]},
                {"winners": [0]},
                ("13:69F-14.3(d)", "13:69F-14.3(e)"),
                ("rank-order",),
                "7-5 low beats 7-6 low.",
            ),
        ],
        1,
    )
]

# the challenge of the run (seed 7): a twin of a curated vector and a fresh deal
CHALLENGE = {
    "seed": 7,
    "fresh_per_ruleset": 1,
    "vectors": 2,
    "sha256": "cd" * 32,
    "by_ruleset": {H5: {"twin": 1, "fresh": 1}},
    "twins_skipped": {},
}
NO_CHALLENGE = {"seed": None, "disabled": "--no-challenge"}
TWIN_WHEEL = r(
    "h5-challenge-7-00001",
    H5,
    "classify",
    Outcome.PASS,
    {"hand": "3c Ah 2d 5s 4h"},
    {"category": "straight"},
    {"category": "straight"},
    ("13:69F-14.3(b)6",),
    ("wheel",),
    "Twin of h5-wheel-001 (shuffled, hands reordered, suits "
    "relabelled): A-2-3-4-5 is the lowest straight.",
    origin="twin:h5-wheel-001",
)
FRESH_KICKER = r(
    "h5-challenge-7-00002",
    H5,
    "compare",
    Outcome.PASS,
    {"hands": ["9c Kd Kh 7s 2c", "Ks 9d Kc 8h 2d"]},
    {"winners": [1]},
    {"winners": [1]},
    ("13:69F-14.3(d)", "13:69F-14.3(b)9"),
    ("kicker-order",),
    "Fresh deal (kicker-2): Ks 9d Kc 8h 2d (One pair) beats 9c Kd Kh 7s 2c (One pair).",
    origin="fresh:kicker-2",
)

PASSING = [
    ROYAL,
    WHEEL,
    WRAP,
    KICKER,
    SUITS,
    DUP,
    H3_ORDER,
    H3_ROYAL,
    H3_DUP_NA,
    *LOW_NA,
    TWIN_WHEEL,
    FRESH_KICKER,
]

# every outcome kind, each with the bug that typically produces it
FAILING = [
    ROYAL,
    KICKER,
    H3_ORDER,
    r(
        "h5-wheel-001",
        H5,
        "classify",
        Outcome.FAIL,
        {"hand": "5d 4c 3h 2s Ad"},
        {"category": "straight"},
        {"category": "high_card"},
        ("13:69F-14.3(b)6",),
        ("wheel",),
        "A-2-3-4-5 is the lowest straight.",
    ),
    r(
        "h5-wrap-001",
        H5,
        "classify",
        Outcome.FAIL,
        {"hand": "Qd Kc Ah 2s 3d"},
        {"category": "high_card"},
        {"category": "straight"},
        ("13:69F-14.3(b)6",),
        ("wraparound",),
        "Q-K-A-2-3 is no straight: the ace does not wrap around.",
    ),
    r(
        "h5-suits-001",
        H5,
        "compare",
        Outcome.XPASS,
        {"hands": ["Ah Kh Qd Jc 9s", "Ad Kd Qs Jh 9c"]},
        {"winners": [0, 1]},
        {"winners": [0, 1]},
        ("13:69F-14.3(a)", "13:69F-14.3(d)"),
        ("suit-tiebreak",),
        "Hands differing only in suits split: suits are equal.",
        message="listed as a known failure in acme-expectations.toml",
        known_failure="suit order | <b>bold</b> `tick`",
        scored_as="PASS",
    ),
    r(
        "h5-reject-dup-001",
        H5,
        "reject",
        Outcome.WRONG_REASON,
        {"op": "classify", "hand": "As As Kd 9h 5c"},
        {"reason": "duplicate-card"},
        {"rejected": "bad-card"},
        ("13:69F-14.3(a)",),
        ("input-validation", "one-deck"),
        "One deck has one ace of spades: the hand is invalid.",
    ),
    r(
        "h5-fullhouse-001",
        H5,
        "compare",
        Outcome.ERROR,
        {"hands": ["4h 4d 4c 2s 2d", "3h 3d 3c As Ad"]},
        {"winners": [0]},
        None,
        ("13:69F-14.3(b)4", "13:69F-14.3(d)"),
        ("rank-order",),
        "Fours full beats threes full, whatever the pair.",
        message="adapter raised KeyError: 'X'",
        stderr="Traceback (most recent call last):\n  File \"acme.py\", line 12\nKeyError: 'X'\n",
    ),
    r(
        "h5-quads-001",
        H5,
        "compare",
        Outcome.TIMEOUT,
        {"hands": ["2h 2d 2c 2s 3d", "Ah Ad Ac Kd Kc"]},
        {"winners": [0]},
        None,
        ("13:69F-14.3(b)3", "13:69F-14.3(b)"),
        ("category-order",),
        "Four twos, the lowest quads, still beat the best full house.",
        message="no answer in 5.0 s",
    ),
    r(
        "h3-royal-001",
        H3,
        "classify",
        Outcome.CRASH,
        {"hand": "Ah Kh Qh"},
        {"category": "royal_flush"},
        None,
        ("13:69F-14.3(c)1",),
        ("named-extreme", "royal-naming"),
        "A K Q of one suit is the three-card royal.",
        message="evaluator process exited with signal 11",
        stderr="segfault at 0x0 \x00\x07 in acme_eval.so\n" + "frame\n" * 600,
        attachment="h3-royal-001.stderr",
    ),
    r(
        "h3-straight-001",
        H3,
        "classify",
        Outcome.XFAIL,
        {"hand": "Ah Kd Qc"},
        {"category": "straight"},
        {"category": "high_card"},
        ("13:69F-14.3(c)4",),
        ("straight-order",),
        "A-K-Q is the best three-card straight.",
        message="the category is wrong",
        known_failure="acme ticket #42: A-K-Q read as high card",
        scored_as="FAIL",
    ),
    H3_DUP_NA,
    *LOW_NA,
    # the wheel's twin fails as the wheel does; the fresh deal passes
    TWIN_WHEEL._replace(outcome=Outcome.FAIL, actual={"category": "high_card"}),
    FRESH_KICKER,
]

INCOMPLETE = [ROYAL, WHEEL, WRAP, H3_ORDER]
INCOMPLETE_SELECTED = [v.vector_id for v in INCOMPLETE] + ["h5-kicker-001", "h3-royal-001"]


def write_run(folder: Path, results: list[Result], **kw) -> Path:
    """Write ``results`` and a matching header into ``folder``, the header recording the
    results' hash as the harness does; returns the folder."""
    folder.mkdir(parents=True, exist_ok=True)
    sha, lines = write_results(folder, results)
    head = header([x.vector_id for x in results], **kw)
    head.results_sha256, head.results_lines = sha, lines
    write_header(folder, head)
    if any(x.attachment for x in results):
        (folder / "attachments").mkdir(exist_ok=True)
        for x in results:
            if x.attachment:
                (folder / "attachments" / x.attachment).write_text(x.stderr, encoding="utf-8")
    return folder


def rehash(folder: Path) -> None:
    """Record the current ``results.jsonl`` in ``run.json`` (as if the harness wrote it)."""
    from pokercert.harness.run.results import read_header, results_digest

    head = read_header(folder)
    head.results_sha256, head.results_lines = results_digest(folder)
    write_header(folder, head)


# attached modes (run --fuzz N, run --exhaustive): what was asked, and the records
FUZZ_ASKED = {"fuzz": {"seed": 3, "examples": 100}}
BOTH_ASKED = {**FUZZ_ASKED, "exhaustive": {"order_seed": 5}}
NO_FUZZ = "the adapter claims no kind fuzz deals for this ruleset"
NO_EXHAUSTIVE = (
    "the adapter claims neither classify nor compare for this ruleset: no exhaustive path"
)


def fuzz_record(ruleset: str, requests: int, counterexample: dict | None = None) -> dict:
    return {
        "ruleset": ruleset,
        "seed": 3,
        "examples": 100,
        "kinds": ["classify", "compare"],
        "requests": requests,
        "situations": {"categories": requests},
        "flaky": None,
        "counterexample": counterexample,
        "aborted": None,
        "draft": f"counterexamples/fuzz-{ruleset}.toml" if counterexample else None,
    }


def exhaustive_record(ruleset: str, total: int, classes: int, **found: Any) -> dict:
    findings = found.pop("findings", [])
    return {
        "ruleset": ruleset,
        "order_seed": 5,
        "mode": "key",
        "total": total,
        "checked": total,
        "classes": classes,
        "category_disagreements": 0,
        "class_disagreements": 0,
        "order_disagreements": 0,
        "errors": 0,
        "order_errors": 0,
        "unverifiable_hands": 0,
        "unverifiable_orders": 0,
        "finished": True,
        "aborted": None,
        "findings": findings,
        "draft": None,
        **found,
    }


PASSING_ATTACHED = {
    "fuzz": [fuzz_record(H5, 100), fuzz_record(H3, 100), {"ruleset": LOW, "skipped": NO_FUZZ}]
}
# vendor text in the answers and messages: shown in every format, never interpreted
HOSTILE_CATEGORY = "<b>bold</b> | `tick` **CERTIFIED** \u202e"
FAILING_ATTACHED = {
    "fuzz": [
        fuzz_record(
            H5,
            12,
            {
                "kind": "classify",
                "inputs": {"hand": "5d 4c 3h 2s Ad"},
                "expected": {"category": "straight"},
                "actual": {"category": HOSTILE_CATEGORY},
                "outcome": "FAIL",
                "message": f"category {HOSTILE_CATEGORY!r}, expected 'straight'",
                "situation": "edge-wheel",
            },
        ),
        fuzz_record(H3, 100),
        {"ruleset": LOW, "skipped": NO_FUZZ},
    ],
    "exhaustive": [
        {"ruleset": H5, "aborted": "run timeout reached"},
        exhaustive_record(
            H3,
            22100,
            741,
            class_disagreements=2,
            findings=[
                {
                    "check": "class",
                    "hands": ["Ah 9d 4c", "<i>9h Ac 4d</i>"],
                    "message": "keys differ: <script>x</script>",
                }
            ],
        ),
        {"ruleset": LOW, "skipped": NO_EXHAUSTIVE},
    ],
}


def make_runs(root: Path) -> dict[str, Path]:
    """The three fixed results folders under ``root``."""
    return {
        "passing": write_run(
            root / "passing",
            PASSING,
            challenge=CHALLENGE,
            modes=FUZZ_ASKED,
            attached=PASSING_ATTACHED,
        ),
        "failing": write_run(
            root / "failing",
            FAILING,
            challenge=CHALLENGE,
            modes=BOTH_ASKED,
            attached=FAILING_ATTACHED,
        ),
        "incomplete": write_run(
            root / "incomplete",
            INCOMPLETE,
            finished=False,
            selected=INCOMPLETE_SELECTED,
            challenge=NO_CHALLENGE,
        ),
    }
