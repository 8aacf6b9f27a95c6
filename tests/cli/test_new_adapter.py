"""``pokercert new-adapter``: each skeleton passes smoke at the protocol level (its
answers are a stub's: EVALUATOR NON-COMPLIANT, never ADAPTER BROKEN), answers every
operation it claims (showdown with the low half, best_hand per half, the batch
operations: a run of its ruleset leaves nothing NOT_APPLICABLE), shares a pot as
PROTOCOL.md 4.7's worked example does, and its validation passes every reject vector of
the corpus for the ruleset it claims; smoke names a broken batch reply."""

from __future__ import annotations

import json
import shutil
import subprocess
from collections import Counter
from pathlib import Path

import pytest

from pokercert.cli.main import main
from pokercert.harness.adapters import AdapterOptions, load_adapter
from pokercert.harness.run.results import Outcome
from pokercert.harness.run.runner import score_vectors
from pokercert.reference import load_profile
from pokercert.vectors.corpus import load_corpus

BROKEN = {"ERROR", "TIMEOUT", "CRASH"}
NEEDS = {"python": None, "node": "node", "c": "cc"}


def skeleton(lang: str, folder: Path, ruleset: str = "nj-poker-high-5") -> str:
    """Write the skeleton (and build it); return its adapter spec."""
    if NEEDS[lang] and shutil.which(NEEDS[lang]) is None:
        pytest.skip(f"{NEEDS[lang]} is not installed (.ci/run installs it in CI)")
    assert main(["new-adapter", "--lang", lang, "--ruleset", ruleset, str(folder)]) == 0
    if lang == "python":
        return f"exec:python3 {folder / 'adapter.py'}"
    if lang == "node":
        return f"exec:node {folder / 'adapter.js'}"
    subprocess.run(
        [
            "cc",
            "-O2",
            "-std=c99",
            "-Wall",
            "-Werror",
            "-o",
            str(folder / "adapter"),
            str(folder / "adapter.c"),
        ],
        check=True,
    )
    return f"exec:{folder / 'adapter'}"


# the smoke rows of each skeleton's ruleset: every operation it claims, each protocol
# feature it names (PROTOCOL.md 4 and 6; the low half where the pot has one, RRoP-7)
ROWS = {
    "nj-poker-high-5": {"classify", "compare", "reject", "classify_many", "evaluate_many"},
    "nj-omaha-hi-lo": {
        "classify",
        "compare",
        "best_hand",
        "showdown",
        "reject",
        "classify_many",
        "evaluate_many",
    },
}


def smoke_json(capsys, spec: str) -> tuple[int, dict]:
    capsys.readouterr()
    code = main(["smoke", "--adapter", spec, "--json"])
    return code, json.loads(capsys.readouterr().out)


@pytest.mark.parametrize("lang", sorted(NEEDS))
@pytest.mark.parametrize("ruleset", sorted(ROWS))
def test_the_skeleton_passes_smoke_at_the_protocol_level(lang, ruleset, tmp_path, capsys):
    spec = skeleton(lang, tmp_path / lang, ruleset)
    code, out = smoke_json(capsys, spec)
    assert (code, out["verdict"]) == (1, "EVALUATOR NON-COMPLIANT"), out
    outcomes: dict[str, set[str]] = {c["kind"]: set() for c in out["checks"]}
    for check in out["checks"]:
        outcomes[check["kind"]].add(check["outcome"])
    assert set(outcomes) == ROWS[ruleset]
    assert not BROKEN & set().union(*outcomes.values())
    assert outcomes["reject"] == {"PASS"}  # the validation layer is done
    assert "FAIL" in outcomes["classify"] | outcomes["compare"]  # the stub is a stub
    # every key is 0: the order of a royal flush over a full house is not there
    many = {c["kind"]: c for c in out["checks"] if c["kind"].endswith("_many")}
    assert "keys of hands 0 and 1" in many["evaluate_many"]["message"]
    assert len(many["classify_many"]["actual"]["categories"]) == 4  # one per hand sent
    if ruleset == "nj-omaha-hi-lo":
        halves = {
            c["inputs"].get("half", "high") for c in out["checks"] if c["kind"] == "best_hand"
        }
        assert halves == {"high", "low"}


@pytest.mark.parametrize("lang", sorted(NEEDS))
@pytest.mark.parametrize("ruleset", sorted(ROWS))
def test_a_run_of_the_skeleton_leaves_nothing_not_applicable(lang, ruleset, tmp_path, capsys):
    """Every vector of the ruleset reaches the skeleton and gets an answer (the stub's),
    the showdowns included; for a game that settles no pot (five-card high: its ruleset
    names no halves, and the corpus holds no showdown of it) new-adapter says why it
    claims no showdown."""
    capsys.readouterr()
    spec = skeleton(lang, tmp_path / lang, ruleset)
    said = capsys.readouterr().out
    folder = tmp_path / "run"
    main(
        [
            "run",
            "--adapter",
            spec,
            "--ruleset",
            ruleset,
            "--out",
            str(folder),
            "--no-challenge",
            "--no-report",
        ]
    )
    results = [
        json.loads(line)
        for line in (folder / "results.jsonl").read_text(encoding="utf-8").splitlines()
    ]
    outcomes = Counter(r["outcome"] for r in results)
    assert not {"NOT_APPLICABLE", *BROKEN} & set(outcomes), outcomes
    showdowns = load_corpus().select(rulesets=[ruleset], kinds=["showdown"])
    assert sum(r["kind"] == "showdown" for r in results) == len(showdowns)
    assert len(results) == len(load_corpus().select(rulesets=[ruleset]))
    if ruleset == "nj-omaha-hi-lo":
        assert len(showdowns) > 200 and "no showdown" not in said
        assert "operations: classify, compare, best_hand, showdown, reject" in said
    else:
        assert not showdowns and "no showdown: nj-poker-high-5 settles no pot" in said


# PROTOCOL.md 4.7's worked example: the high half to hand 2, the low half split by
# hands 0 and 1, so 1/4, 1/4 and 1/2 of the pot
POT_REQUEST = {
    "id": 7,
    "op": "showdown",
    "hands": ["Ah 2h Kc Qd", "As 2s 9c 9d", "Kh Ks 8c 7c"],
    "board": "3c 4d 7h Ts Tc",
}
STUB_POT = {  # each language's stub line for the winners of each half, and the example's
    "python": ('return ([0], []) if HALVES[0] == "high" else ([], [0])', "return ([2], [0, 1])"),
    "node": ('return HALVES[0] === "high" ? [[0], []] : [[], [0]];', "return [[2], [0, 1]];"),
    "c": (
        'if (!strcmp(HALVES[0], "high")) high[(*nhigh)++] = 0; else low[(*nlow)++] = 0;',
        "high[(*nhigh)++] = 2; low[(*nlow)++] = 0; low[(*nlow)++] = 1;",
    ),
}


def patched(lang: str, folder: Path, ruleset: str, old: str, new: str) -> str:
    """The skeleton with one line of it replaced (rebuilt); its adapter spec."""
    source = folder / {"python": "adapter.py", "node": "adapter.js", "c": "adapter.c"}[lang]
    spec = skeleton(lang, folder, ruleset)
    text = source.read_text(encoding="utf-8")
    assert text.count(old) == 1, old
    source.write_text(text.replace(old, new), encoding="utf-8")
    if lang == "c":
        subprocess.run(
            [
                "cc",
                "-O2",
                "-std=c99",
                "-Wall",
                "-Werror",
                "-o",
                str(folder / "adapter"),
                str(source),
            ],
            check=True,
        )
    return spec


def converse(spec: str, ruleset: str, requests: list[dict], features: dict) -> list[dict]:
    """The skeleton's replies to hello (offering ``features``), configure and one batch."""
    hello = {
        "type": "hello",
        "protocol": 1,
        "harness": {"name": "pokercert", "version": "0"},
        "features": features,
    }
    lines = [
        hello,
        {"type": "configure", "ruleset": ruleset, "readings": {}},
        {"type": "batch", "id": 0, "requests": requests},
        {"type": "stop"},
    ]
    done = subprocess.run(
        spec.removeprefix("exec:").split(),
        capture_output=True,
        text=True,
        input="".join(json.dumps(m) + "\n" for m in lines),
        timeout=30,
        check=True,
    )
    return [json.loads(line) for line in done.stdout.splitlines()]


@pytest.mark.parametrize("lang", sorted(NEEDS))
def test_the_skeleton_shares_the_pot_of_the_protocols_example(lang, tmp_path):
    spec = patched(lang, tmp_path / lang, "nj-omaha-hi-lo", *STUB_POT[lang])
    said = converse(spec, "nj-omaha-hi-lo", [POT_REQUEST], {"classify_many": 1})
    assert said[0]["features"] == {"classify_many": 1}  # only what was offered
    assert said[2]["replies"] == [
        {"id": 7, "high": [2], "low": [0, 1], "shares": ["1/4", "1/4", "1/2"]}
    ]


@pytest.mark.parametrize("lang", sorted(NEEDS))
def test_a_stud_skeleton_takes_the_seven_cards_dealt_in_bulk(lang, tmp_path):
    """PROTOCOL.md 4.6.1: in seven-card stud an exhaustive pass sends each player's seven
    cards in an evaluate_many request, and a misclassified deal again as a classify of
    the seven; any other count is still wrong-count."""
    spec = skeleton(lang, tmp_path / lang, "nj-seven-card-stud")
    seven, six = "Kd 7h As Ah Ad Ac 2c", "Kd 7h As Ah Ad Ac"
    said = converse(
        spec,
        "nj-seven-card-stud",
        [
            {"id": 1, "op": "evaluate_many", "hands": [seven, six]},
            {"id": 2, "op": "classify", "hand": seven},
        ],
        {"evaluate_many": 1},
    )
    many, one = said[2]["replies"]
    assert [type(c) for c in many["categories"]] == [str, dict]
    assert many["categories"][1]["rejected"] == "wrong-count" and many["keys"][1] is None
    assert set(one) == {"id", "category"}


BROKEN_BATCH = {  # one batch operation broken in each language, and what smoke must say
    "python": (
        'else {"categories": categories}',
        'else {"categories": categories[:-1]}',
        "classify_many",
        "3 categories for 4 hands",
    ),
    "node": (
        "? {categories, keys} : {categories}",
        "? {categories} : {categories}",
        "evaluate_many",
        "an evaluate_many reply needs 'keys', a list",
    ),
    "c": (
        'else printf("%lld", key(&hand));',
        'else printf("\\"%lld\\"", key(&hand));',
        "evaluate_many",
        "is not an integer or a list of integers",
    ),
}


@pytest.mark.parametrize("lang", sorted(NEEDS))
def test_smoke_names_a_broken_batch_operation(lang, tmp_path, capsys):
    old, new, op, said = BROKEN_BATCH[lang]
    spec = patched(lang, tmp_path / lang, "nj-poker-high-5", old, new)
    code, out = smoke_json(capsys, spec)
    assert (code, out["verdict"]) == (2, "ADAPTER BROKEN")
    broken = [c for c in out["checks"] if c["outcome"] in BROKEN]
    assert [c["kind"] for c in broken] == [op]
    assert broken[0]["id"] == f"smoke/nj-poker-high-5/{op}"
    assert broken[0]["message"].startswith(f"{op} reply: ") and said in broken[0]["message"]
    assert main(["smoke", "--adapter", spec]) == 2  # the table names it too
    table = capsys.readouterr().out
    row = next(line for line in table.splitlines() if line.startswith(broken[0]["id"]))
    assert f"{op} reply" in row and row.rstrip().endswith("ERROR")


def test_smoke_of_the_reference_checks_every_operation_and_passes(capsys):
    """The reference answers every row smoke makes of a split-pot game right (the rows'
    expectations are the reference's own, agreed by every profile): the best hand of each
    half, a showdown whose low half another hand wins, both batch operations."""
    capsys.readouterr()
    code = main(["smoke", "--adapter", "reference", "--ruleset", "nj-omaha-hi-lo", "--json"])
    out = json.loads(capsys.readouterr().out)
    assert (code, out["verdict"]) == (0, "ADAPTER OK")
    kinds = Counter(c["kind"] for c in out["checks"])
    assert kinds["best_hand"] == 2 and kinds["showdown"] == 1
    assert kinds["classify_many"] == kinds["evaluate_many"] == 1
    (pot,) = [c["expected"] for c in out["checks"] if c["kind"] == "showdown"]
    assert pot["low"] and pot["low"] != pot["high"]


@pytest.mark.parametrize("lang", sorted(NEEDS))
@pytest.mark.parametrize(
    "ruleset",
    [
        "nj-poker-high-5",
        "nj-mini-tex-3",
        "mt-poker-high",
        "nj-mini-tex-pocket",
        "nj-omaha-hi-lo",
        "nj-seven-card-stud",
        "nj-holdem",
    ],
)
def test_the_skeleton_passes_every_reject_vector(lang, ruleset, tmp_path):
    """Section 3 in full: single and several faults, the empty string, a board where the
    game deals none (the skeleton names input_rules), jokers where the deck has some."""
    spec = skeleton(lang, tmp_path / lang, ruleset)
    vectors = load_corpus().select(rulesets=[ruleset], kinds=["reject"])
    with load_adapter(spec, AdapterOptions(timeout=20)) as adapter:
        identity = adapter.start()
        assert "input_rules" in identity.features
        results = [
            r
            for batch in score_vectors(adapter, identity, vectors, load_profile("practice"))
            for r in batch
        ]
    assert len(results) == len(vectors)
    wrong = [(r.vector_id, r.outcome, r.message) for r in results if r.outcome != Outcome.PASS]
    assert not wrong, wrong[:5]


def test_an_existing_adapter_is_never_overwritten(tmp_path, capsys):
    assert main(["new-adapter", "--lang", "python", str(tmp_path)]) == 0
    before = (tmp_path / "adapter.py").read_text()
    assert main(["new-adapter", "--lang", "python", str(tmp_path)]) == 3
    assert "exists already" in capsys.readouterr().err
    assert (tmp_path / "adapter.py").read_text() == before


def test_an_unknown_ruleset_is_a_usage_error(tmp_path):
    assert main(["new-adapter", "--lang", "c", "--ruleset", "nope", str(tmp_path / "x")]) == 3
    assert not (tmp_path / "x").exists()
