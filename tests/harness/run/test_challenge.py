"""Challenge vectors (issue 13): twins and fresh deals in every certification run.

Expectations here come from outside the challenge code: the corpus's own hand-checked
expectations (a twin must keep them), the reference engine (an independent check of
every remapped twin), and the faux evaluators of ``tests/helpers/faux/corpus_lookup.py``
(a lookup table that ranks no hand, and one that falls back to a correct evaluator).
"""

from __future__ import annotations

import json
import random
import shutil
from collections import Counter
from pathlib import Path

import pytest

from pokercert.harness.explore.situations import SITUATIONS, Game, situation_labels
from pokercert.harness.run.challenge import (
    DEFAULT_FRESH,
    SIBLING,
    SITUATION_QUOTA,
    SKIP_REJECT_POSITION,
    build_challenge,
    challenge_id,
    twin,
)
from pokercert.harness.run.results import COUNTEREXAMPLES, Outcome, read_header, read_results
from pokercert.harness.run.runner import RunConfig, run
from pokercert.harness.scoring import reasons
from pokercert.reference import evaluator, get_ruleset, load_profile
from pokercert.reports.model import build_report
from pokercert.vectors.author import add_vectors
from pokercert.vectors.check import reference_outcome
from pokercert.vectors.corpus import default_root, load_corpus
from pokercert.vectors.manifest import write_manifest
from pokercert.vectors.model import KINDS, Kind, Vector

LOOKUP = "py:tests.helpers.faux.corpus_lookup:CorpusLookup"
FALLBACK = "py:tests.helpers.faux.corpus_lookup:LookupWithFallback"
SMALL = ["nj-poker-high-3", "nj-mini-tex-3"]  # one plain game, one with a board


@pytest.fixture(scope="module")
def corpus():  # type: ignore[no-untyped-def]
    return load_corpus()


def _run(tmp_path: Path, name: str, **kw: object):  # type: ignore[no-untyped-def]
    kw.setdefault("rulesets", SMALL)
    return run(
        RunConfig(out=tmp_path / name, in_process=True, command=["test"], **kw),
        corpus=load_corpus(),
    )


def _same_answer(kind: str, got: dict[str, object], want: dict[str, object]) -> bool:
    if kind == Kind.COMPARE:
        return sorted(got["winners"]) == sorted(want["winners"])  # type: ignore[call-overload]
    if kind == Kind.BEST_HAND:

        def sets(cards: object) -> list[list[str]]:
            return sorted(sorted(c.split()) for c in cards)  # type: ignore[attr-defined]

        return got["category"] == want["category"] and sets(got["cards"]) == sets(want["cards"])
    if kind == Kind.REJECT:  # any fault of a several-fault input (PROTOCOL.md 3.2)
        return got.get("reason") in reasons(want)
    return got == want


@pytest.mark.parametrize("profile", ["practice", "literal"])
def test_every_twin_keeps_the_corpus_expectation_by_the_reference(corpus, profile):  # type: ignore[no-untyped-def]
    """Each twin's remapped expectation is what the reference answers for its inputs,
    under both readings: remapping winners and best-hand cards, relabelling suits and
    shuffling never changed an expectation (the reference is the independent check)."""
    prof = load_profile(profile)
    challenge = build_challenge(corpus.vectors, prof, 20261201, 0)
    assert len(challenge.vectors) == len(corpus.vectors)  # one twin each, none skipped
    wrong = []
    for v in challenge.vectors:
        got = reference_outcome(evaluator(v.ruleset, prof), v)
        if not _same_answer(v.kind, got, dict(v.expected(prof))):
            wrong.append((v.id, challenge.origins[v.id], got))
    assert not wrong, wrong[:5]


def test_twins_really_differ(corpus):  # type: ignore[no-untyped-def]
    """Twins are new inputs: most differ from their original as requests, hands of a
    compare move, and the winners move with them."""
    challenge = build_challenge(corpus.vectors, load_profile("practice"), 5, 0)
    by_id = corpus.by_id
    differ = moved = 0
    for v in challenge.vectors:
        original = by_id[challenge.origins[v.id].partition(":")[2]]
        differ += dict(v.inputs) != dict(original.inputs)
        if (
            v.kind == Kind.COMPARE
            and v.expect
            and original.expect
            and v.expect["winners"] != original.expect["winners"]
        ):
            moved += 1
    assert differ >= 0.95 * len(challenge.vectors)
    assert moved > 100


def test_a_twin_by_hand() -> None:
    """A worked example: hands swap, winners follow, one suit permutation everywhere."""
    v = Vector(
        id="nj-poker-high-5/9999",
        ruleset="nj-poker-high-5",
        kind=Kind.COMPARE,
        inputs={"hands": ["As Ks Qs Js Ts", "2h 2d 2c 3h 3d"]},
        clauses=("13:69F-14.3(b)",),
        flags=(),
        why="w",
        expect={"winners": [0]},
    )
    seen = set()
    for seed in range(40):
        t = twin(v, random.Random(seed), "x/1")
        hands = t.inputs["hands"]
        royal = 0 if len({c[1] for c in hands[0].split()}) == 1 else 1
        assert t.expect == {"winners": [royal]}
        assert sorted(c[0] for c in hands[royal].split()) == sorted("AKQJT")
        seen.add(royal)
    assert seen == {0, 1}


def test_same_seed_same_challenge_set_and_results(tmp_path, corpus):  # type: ignore[no-untyped-def]
    small = [v for v in corpus.vectors if v.ruleset in SMALL]
    one = build_challenge(small, load_profile("practice"), 77)
    two = build_challenge(small, load_profile("practice"), 77)
    other = build_challenge(small, load_profile("practice"), 78)
    assert any(o.startswith("fresh:") for o in one.origins.values())
    assert one.to_jsonl() == two.to_jsonl() and one.sha256() == two.sha256()
    assert other.sha256() != one.sha256()
    first = _run(tmp_path, "a", challenge_seed=77)
    second = _run(tmp_path, "b", challenge_seed=77)

    def lines(folder: Path) -> list[str]:
        return [
            json.dumps({**r.to_json(), "duration_s": 0}, sort_keys=True)
            for r in read_results(folder)
        ]

    assert lines(first.folder) == lines(second.folder)  # byte for byte, timing aside
    assert read_header(first.folder).filters == read_header(second.folder).filters
    ids = [r.vector_id for r in first.results if r.origin]
    assert ids and all(i.split("/")[1].startswith("challenge-77-") for i in ids)


def test_ids_name_seed_and_index() -> None:
    assert challenge_id("nj-poker-high-5", 42, 7) == "nj-poker-high-5/challenge-42-00007"


def test_corpus_lookup_is_certified_without_and_refused_with_the_challenge(tmp_path):  # type: ignore[no-untyped-def]
    """The attack of issue 13: a lookup table passes the published corpus, and the
    challenge is what stops it."""
    gap = _run(tmp_path, "gap", adapter=LOOKUP, challenge=False)
    assert gap.exit_code == 0
    assert build_report(gap.folder)["verdict"] == "CERTIFIED"
    caught = _run(tmp_path, "caught", adapter=LOOKUP)
    report = build_report(caught.folder)
    assert caught.exit_code == 1 and report["verdict"] == "NOT CERTIFIED"
    assert report["challenge"]["status"] == "failed"
    curated = [v for v in report["vectors"] if "origin" not in v]
    assert {v["outcome"] for v in curated} == {"PASS"}  # the corpus still passes
    assert all(f["origin"] for f in report["failures"])  # every finding: challenge
    assert any("challenge vectors" in r for rs in report["rulesets"] for r in rs["reasons"])


def test_lookup_falling_back_to_a_correct_evaluator_is_certified(tmp_path):  # type: ignore[no-untyped-def]
    """The challenge does not punish a correct evaluator, however it is built."""
    outcome = _run(tmp_path, "fallback", adapter=FALLBACK)
    report = build_report(outcome.folder)
    assert outcome.exit_code == 0 and report["verdict"] == "CERTIFIED"
    assert report["challenge"]["status"] == "passed"
    rows = report["challenge"]["rulesets"]
    assert sum(r["twin"]["passed"] for r in rows) > 400
    assert all(r["fresh"]["passed"] >= DEFAULT_FRESH for r in rows)


@pytest.mark.parametrize("rid", ["mt-poker-high", "nj-mini-tex-3", "nj-lowball-2-7"])
def test_fresh_deals_cover_every_situation_and_rare_hands(rid, corpus):  # type: ignore[no-untyped-def]
    """Stratified: every situation the ruleset can deal appears among the default fresh
    deals (beside the fresh siblings of curated vectors), each at least SITUATION_QUOTA
    times, so rare hands (five of a kind, straight flushes, wheels, a board that plays)
    are there on every seed."""
    prof = load_profile("practice")
    curated = [v for v in corpus.vectors if v.ruleset == rid]
    ruleset = get_ruleset(rid)
    kinds = [k for k in KINDS if k != Kind.BEST_HAND or ruleset.selection is not None]
    wanted = set(situation_labels(Game(ruleset, prof, kinds)))
    for seed in (1, 2):
        challenge = build_challenge(curated, prof, seed)
        fresh = [v for v in challenge.vectors if challenge.origins[v.id].startswith("fresh:")]
        assert len(fresh) >= DEFAULT_FRESH
        dealt = Counter(challenge.origins[v.id].partition(":")[2] for v in fresh)
        situations = {k: n for k, n in dealt.items() if not k.startswith(SIBLING + ":")}
        assert set(situations) <= set(SITUATIONS)
        assert wanted <= set(situations)
        # each at its quota, but for a situation of few forms the corpus has mostly
        # published (the dealer qualifier's lowest hand): no fresh deal repeats one
        short = {w for w in wanted if situations[w] < SITUATION_QUOTA}
        assert short <= {"qualifier-at", "qualifier-above", "qualifier-below"}, short
        categories = {
            reference_outcome(evaluator(rid, prof), v).get("category")
            for v in fresh
            if v.kind == Kind.CLASSIFY
        }
        rare = {
            "mt-poker-high": "five-of-a-kind",
            "nj-mini-tex-3": "best-hand-selection",
            "nj-lowball-2-7": "ace-high-lowball",
        }[rid]
        assert any(rare in v.flags for v in fresh)
        assert len(categories) >= 3


def test_challenge_failures_become_vector_drafts(tmp_path):  # type: ignore[no-untyped-def]
    """Each ruleset's failing challenge vectors are written as a draft the corpus
    reader accepts (ids assigned by `vectors add`)."""
    outcome = _run(tmp_path, "drafts", adapter=LOOKUP, rulesets=["nj-poker-high-3"])
    path = outcome.folder / COUNTEREXAMPLES / "challenge-nj-poker-high-3.toml"
    text = path.read_text(encoding="utf-8")
    assert text.count("[[vector]]") == 10 and "\nid =" not in text
    root = tmp_path / "vectors"
    (root / "nj-poker-high-3").mkdir(parents=True)
    shutil.copy(default_root() / "flags.toml", root)
    write_manifest(root)
    added = add_vectors(path, "challenge-found", root)
    assert len(added.ids) == 10 and not added.warnings  # the reference agrees with each


def test_no_challenge_is_stated(tmp_path):  # type: ignore[no-untyped-def]
    outcome = _run(tmp_path, "none", challenge=False)
    report = build_report(outcome.folder)
    assert report["challenge"]["status"] == "disabled" and report["challenge"]["seed"] is None
    assert not any(v.get("origin") for v in report["vectors"])
    assert read_header(outcome.folder).filters["challenge"] == {
        "seed": None,
        "disabled": "--no-challenge",
    }


def test_reject_twin_skipped_when_the_reason_depends_on_position() -> None:
    """A hand with two faults is refused for the first one the parser meets; when a
    shuffle changes which one that is, the twin is skipped and the reason recorded."""
    v = Vector(
        id="nj-poker-high-5/9998",
        ruleset="nj-poker-high-5",
        kind=Kind.REJECT,
        inputs={"op": "classify", "hand": "Zz As As Kd Qc"},
        clauses=("13:69F-14.3(a)",),
        flags=("input-validation",),
        why="w",
        expect={"reason": "bad-card"},
    )
    prof = load_profile("practice")
    reasons = Counter(
        reference_outcome(evaluator(v.ruleset, prof), twin(v, random.Random(s), "x/1"))["reason"]
        for s in range(30)
    )
    assert len(reasons) == 2, reasons  # the parser meets either fault first
    skipped = build_challenge([v] * 30, prof, 3, 0, fresh=False).skipped
    assert skipped["nj-poker-high-5"][SKIP_REJECT_POSITION] >= 1


def test_resume_keeps_the_seed(tmp_path):  # type: ignore[no-untyped-def]
    first = _run(tmp_path, "r", rulesets=["nj-poker-high-3"])
    seed = read_header(first.folder).filters["challenge"]["seed"]
    again = _run(tmp_path, "r", rulesets=["nj-poker-high-3"], resume=True)
    assert read_header(again.folder).filters["challenge"]["seed"] == seed
    assert again.new_results == 0 and again.exit_code == 0
    assert all(r.outcome is Outcome.PASS for r in again.results)


def test_fresh_deals_dealt_ahead_in_a_child_are_the_same_set(tmp_path, corpus):  # type: ignore[no-untyped-def]
    """The command line deals the fresh deals in a child process while the corpus loads
    (run without a corpus given): the same set, byte for byte, as dealt in process."""
    outcome = run(
        RunConfig(
            out=tmp_path / "ahead",
            rulesets=SMALL,
            challenge_seed=9,
            in_process=True,
            command=["test"],
        )
    )
    small = [v for v in corpus.vectors if v.ruleset in SMALL]
    assert (
        read_header(outcome.folder).filters["challenge"]["sha256"]
        == build_challenge(small, load_profile("practice"), 9).sha256()
    )


@pytest.mark.parametrize("seed", range(24))
def test_a_twins_why_says_which_suit_became_which(seed):
    """A twin quotes its source's Why, suits and all ("A-K-Q-J-10 of clubs" beside a
    twin dealt in spades, walk28): it says how its suits were relabelled, read here from
    the twin's own cards against the source's (one card of each suit)."""
    source = Vector(
        id="x/0",
        ruleset="nj-poker-high-5",
        kind=Kind.CLASSIFY,
        inputs={"hand": "As Kh Qd Jc 9s"},
        clauses=("13:69F-14.3(b)9",),
        flags=(),
        why="A-K-Q-J-9 of four suits is ace high.",
        expect={"category": "high_card"},
    )
    made = twin(source, random.Random(seed), "x/1")
    words = {"s": "spades", "h": "hearts", "d": "diamonds", "c": "clubs"}
    source_suit = {"A": "s", "K": "h", "Q": "d", "J": "c"}  # each suit once (and 9s)
    became = {source_suit[t[0]]: t[1] for t in made.inputs["hand"].split() if t[0] != "9"}
    moved = [f"{words[a]} as {words[b]}" for a, b in became.items() if a != b]
    if moved:
        for phrase in moved:
            assert phrase in made.why, made.why
    else:
        assert "relabelled" not in made.why
    assert made.why.endswith(source.why)
