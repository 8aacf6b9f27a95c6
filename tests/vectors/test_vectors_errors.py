"""Broken corpora: every problem is reported at once, with file:line, never a traceback.

Each test works on a small copy of the corpus in tmp_path (two files of one ruleset and
the flag registry, with its own manifest), never on the shipped corpus.
"""

from __future__ import annotations

import shutil
from functools import cache
from pathlib import Path

import pytest

from pokercert.cli.main import main
from pokercert.vectors.check import check_corpus
from pokercert.vectors.corpus import CorpusError, load_corpus
from pokercert.vectors.manifest import write_manifest
from pokercert.vectors.registry import PACKAGE_ROOT

RS = "nj-poker-high-5"


@pytest.fixture
def mini(tmp_path: Path) -> Path:
    root = tmp_path / "vectors"
    (root / RS).mkdir(parents=True)
    shutil.copy(PACKAGE_ROOT / "flags.toml", root)
    for name in ("categories.toml", "edge-cases.toml"):
        shutil.copy(PACKAGE_ROOT / RS / name, root / RS / name)
    write_manifest(root)
    return root


def line_of(path: Path, needle: str, after: int = 0) -> int:
    for n, line in enumerate(path.read_text().splitlines(), 1):
        if n > after and needle in line:
            return n
    raise AssertionError(f"{needle!r} not in {path}")


def replace_once(path: Path, old: str, new: str) -> None:
    text = path.read_text()
    assert old in text, old
    path.write_text(text.replace(old, new, 1))


def messages(root: Path) -> list[tuple[str, int, str]]:
    report = check_corpus(root)
    return [(p.location.file, p.location.line, p.message) for p in report.problems]


def test_the_copy_is_clean(mini: Path) -> None:
    assert messages(mini) == []


def test_schema_errors_are_reported_after_the_validator_module_is_imported_again(
    mini: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The compiled schema validator is kept for the process; if ``fastjsonschema`` is
    imported again later (pytester drops the modules an in-process run imported), a schema
    error must still be a reported problem, not an escaped exception (it escaped, now and
    then, in the full suite: the kept validator raised the old import's exception class)."""
    import sys

    from pokercert.vectors import corpus

    def forget_the_validator_module() -> None:
        for name in [m for m in sys.modules if m.partition(".")[0] == "fastjsonschema"]:
            monkeypatch.delitem(sys.modules, name)

    monkeypatch.setattr(corpus, "_fast_validator", cache(corpus._fast_validator.__wrapped__))
    forget_the_validator_module()
    corpus._fast_validator()  # compiled with this import's classes
    forget_the_validator_module()  # the next import of fastjsonschema makes new ones
    edge = mini / RS / "edge-cases.toml"
    edge.write_text(
        edge.read_text() + '\n[[vector]]\nid = "nj-poker-high-5/0999"\ncolour = "red"\n'
    )
    found = messages(mini)
    assert any(f == str(edge) and "colour" in m for f, _, m in found), found


def test_every_error_at_once_with_file_and_line(mini: Path, capsys) -> None:
    cats, edge = mini / RS / "categories.toml", mini / RS / "edge-cases.toml"
    # 1. a file that is not TOML
    broken = mini / RS / "broken.toml"
    broken.write_text('format_version = 1\nruleset = "nj-poker-high-5"\n\n[[vector]]\nid = \n')
    # 2. an unknown clause
    replace_once(
        cats,
        'clauses = ["13:69F-14.3(b)3", "13:69F-14.3(b)4"',
        'clauses = ["13:69F-14.3(z)", "13:69F-14.3(b)4"',
    )
    bad_clause_line = line_of(cats, "13:69F-14.3(z)")
    # 3. a wrong expectation (Q-K-A-2-3 is no straight)
    wrap_expect_line = line_of(edge, 'hand = "Qs Kh Ad 2c 3h"') + 1
    replace_once(
        edge,
        'hand = "Qs Kh Ad 2c 3h"\nexpect = { category = "high_card" }',
        'hand = "Qs Kh Ad 2c 3h"\nexpect = { category = "straight" }',
    )
    # 4. a duplicate id
    first = cats.read_text().split("[[vector]]")[1]
    edge.write_text(
        edge.read_text() + "\n[[vector]]" + first.replace('"2s 2h 2d 2c 3s"', '"2s 2h 2d 2c 4s"')
    )
    dup_line = line_of(edge, 'id = "nj-poker-high-5/0001"') - 1  # its [[vector]] header
    # 5. a schema error and invalid cards in one more vector
    edge.write_text(
        edge.read_text()
        + """
[[vector]]
id = "nj-poker-high-5/0999"
kind = "classify"
hand = "As As Ks Qs Js"
expect = { category = "flush" }
clauses = ["13:69F-14.3(b)5"]
flags = ["near-miss"]
why = "Two aces of spades cannot be dealt from one deck."
colour = "red"
"""
    )
    schema_line = line_of(edge, 'id = "nj-poker-high-5/0999"') - 1

    found = messages(mini)
    text = "\n".join(f"{f}:{n}: {m}" for f, n, m in found)
    assert any(f == str(broken) and n == 5 and "invalid TOML" in m for f, n, m in found), text
    assert any(
        f == str(cats) and n == bad_clause_line and "unknown clause '13:69F-14.3(z)'" in m
        for f, n, m in found
    ), text
    assert any(
        f == str(edge)
        and n == wrap_expect_line
        and "the reference gives" in m
        and '"high_card"' in m
        for f, n, m in found
    ), text
    assert any(
        f == str(edge)
        and "duplicate id nj-poker-high-5/0001" in m
        and n in (dup_line, dup_line + 1)
        for f, n, m in found
    ), text
    assert any(
        f == str(edge) and n == schema_line and "unknown key" in m and "colour" in m
        for f, n, m in found
    ), text
    # the released id whose expectation changed is also a manifest problem
    assert any("released id changed meaning" in m for _, _, m in found), text

    # the command line prints the same, exits 1, and shows no traceback
    assert main(["vectors", "check", "--root", str(mini)]) == 1
    out, err = capsys.readouterr()
    assert f"{broken}:5: invalid TOML" in out
    assert f"{cats}:{bad_clause_line}:" in out
    assert "Traceback" not in out + err


def test_load_corpus_raises_with_every_problem(mini: Path) -> None:
    cats = mini / RS / "categories.toml"
    replace_once(cats, 'flags = ["category-order"', 'flags = ["no-such-flag"')
    replace_once(cats, 'hand = "2c 2d 2h 2s 3d"', 'hand = "2c 2d 2h 2s"')
    with pytest.raises(CorpusError) as caught:
        load_corpus(mini)
    problems = caught.value.problems
    assert any("unknown flag 'no-such-flag'" in p.message for p in problems)
    assert any(
        "wrong-count" in p.message and p.location.line == line_of(cats, 'hand = "2c 2d 2h 2s"')
        for p in problems
    )
    assert str(cats) in str(caught.value)


def test_invalid_cards_reported_by_code(mini: Path) -> None:
    cats = mini / RS / "categories.toml"
    replace_once(cats, 'hand = "2c 2d 2h 2s 3d"', 'hand = "2c 2d 2h 2s Zd"')
    found = messages(mini)
    assert any("schema" in m and "hand" in m for _, _, m in found)  # not canonical cards


def test_a_reading_dependent_vector_must_say_so(mini: Path) -> None:
    edge = mini / RS / "edge-cases.toml"
    edge.write_text(
        edge.read_text()
        + """
[[vector]]
id = "nj-poker-high-5/0900"
kind = "compare"
hands = ["4s 4h 4d 2c 2s", "3s 3h 3d Ac Ah"]
expect = { winners = [0] }
clauses = ["13:69F-14.3(b)4", "13:69F-14.3(d)"]
flags = ["full-house-order"]
why = "Fours full beat threes full."
"""
    )
    found = messages(mini)
    assert any(
        "depends on an interpretation (identical-rank-tiebreak)" in m for _, _, m in found
    ), found


def test_per_reading_expectations_must_be_complete(mini: Path) -> None:
    edge = mini / RS / "edge-cases.toml"
    edge.write_text(
        edge.read_text()
        + """
[[vector]]
id = "nj-poker-high-5/0901"
kind = "compare"
hands = ["4s 4h 4d 2c 2s", "3s 3h 3d Ac Ah"]
interpretations = ["identical-rank-tiebreak"]
expect_by_reading.practice = { winners = [0] }
expect_by_reading.acceptable = { winners = [0, 1] }
clauses = ["13:69F-14.3(b)4", "13:69F-14.3(d)"]
flags = ["full-house-order"]
why = "Fours full beat threes full in practice."
"""
    )
    found = messages(mini)
    assert any(
        "one expectation per reading" in m
        and "missing: ['literal']" in m
        and "unknown: ['acceptable']" in m
        for _, _, m in found
    ), found


def test_a_reject_vector_names_exactly_the_faults_its_input_has(mini: Path) -> None:
    """PROTOCOL.md 3.2: any fault of the input is a right reason, so a reject vector names
    them all: ``reason`` (the reference's) and ``also`` (the others), no more, no fewer."""
    edge = mini / RS / "edge-cases.toml"
    edge.write_text(
        edge.read_text()
        + """
[[vector]]
id = "nj-poker-high-5/0902"
kind = "reject"
op = "classify"
hand = "As As Kd 9h"
expect = { reason = "duplicate-card" }
clauses = ["13:69F-14.3(a)"]
flags = ["input-validation"]
why = "A duplicated ace in a four-card hand."

[[vector]]
id = "nj-poker-high-5/0903"
kind = "reject"
op = "classify"
hand = "As Kd 9h 5c 3s"
expect = { reason = "bad-card" }
clauses = ["13:69F-14.3(a)"]
flags = ["input-validation"]
why = "Nothing is wrong with this hand."

[[vector]]
id = "nj-poker-high-5/0904"
kind = "reject"
op = "classify"
hand = "As As Kd 9h"
expect = { reason = "duplicate-card", also = ["wrong-count"] }
clauses = ["13:69F-14.3(a)"]
flags = ["input-validation"]
why = "Both faults named: right."

[[vector]]
id = "nj-poker-high-5/0905"
kind = "reject"
op = "classify"
hand = "As Zz Kd 9h 5c"
expect = { reason = "bad-card", also = ["wrong-count"] }
clauses = ["13:69F-14.3(a)"]
flags = ["input-validation"]
why = "Five tokens: the count is right, so wrong-count is not one of its faults."
"""
    )
    found = messages(mini)
    assert any(
        "0902" in m and "exactly the faults its input has" in m and "wrong-count" in m
        for _, _, m in found
    ), found
    assert any("0903" in m and "no fault" in m for _, _, m in found), found
    assert not any("0904" in m for _, _, m in found), found
    assert any("0905" in m and "this input has: bad-card" in m for _, _, m in found), found


def test_reference_gaps_are_reported_and_must_stay_needed(mini: Path) -> None:
    edge = mini / RS / "edge-cases.toml"
    replace_once(
        edge,
        'hand = "Qs Kh Ad 2c 3h"\nexpect = { category = "high_card" }',
        'hand = "Qs Kh Ad 2c 3h"\nexpect = { category = "straight" }',
    )
    vid = "nj-poker-high-5/0035"
    (mini / "reference-gaps.toml").write_text(f'''
[[gap]]
id = "pretend"
ruleset = "nj-poker-high-5"
clause = "13:69F-14.3(b)6"
summary = "pretend the engine were wrong here"
vectors = ["{vid}"]

[[gap]]
id = "stale"
ruleset = "nj-poker-high-5"
clause = "13:69F-14.3(b)6"
summary = "covers a vector the engine agrees with"
vectors = ["nj-poker-high-5/0036"]
''')
    report = check_corpus(mini, with_manifest=False)
    assert [g.hits for g in report.gaps] == [4, 0]  # 4 reading combinations in this ruleset
    assert [p.message for p in report.problems] == [
        "gap stale: the reference now agrees with every vector it covers; remove the entry"
    ]
