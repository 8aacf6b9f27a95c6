"""The corpus tools: manifest and changelog rules, the authoring tool, the commands.

Every test works on a small copy of the corpus in tmp_path.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from pokercert.cli.main import main
from pokercert.vectors.author import add_vectors
from pokercert.vectors.check import check_corpus
from pokercert.vectors.corpus import CorpusError, load_corpus
from pokercert.vectors.manifest import compress_ids, read_manifest, write_manifest
from pokercert.vectors.registry import PACKAGE_ROOT

RS = "nj-poker-high-5"
FIXTURE = Path(__file__).parent / "data" / "mini-corpus" / "edge-cases.toml"


@pytest.fixture
def mini(tmp_path: Path) -> Path:
    root = tmp_path / "vectors"
    (root / RS).mkdir(parents=True)
    shutil.copy(PACKAGE_ROOT / "flags.toml", root)
    # a frozen copy: the shipped topic file grows, this fixture must not
    shutil.copy(FIXTURE, root / RS / "edge-cases.toml")
    release = write_manifest(root)
    assert release.version == "1.0.0"
    return root


def problems(root: Path) -> list[str]:
    return [str(p) for p in check_corpus(root, with_reference=False).problems]


def edit(path: Path, old: str, new: str) -> None:
    text = path.read_text()
    assert old in text
    path.write_text(text.replace(old, new, 1))


def remove_vector(path: Path, vid: str) -> str:
    text = path.read_text()
    head, *tables = text.split("\n[[vector]]")
    keep = [t for t in tables if f'id = "{vid}"' not in t]
    gone = [t for t in tables if f'id = "{vid}"' in t]
    path.write_text("\n[[vector]]".join([head, *keep]))
    return "\n[[vector]]" + gone[0]


def test_metadata_edit_makes_the_manifest_stale_then_a_patch_release(mini: Path) -> None:
    edge = mini / RS / "edge-cases.toml"
    edit(edge, 'flags = ["wraparound"]', 'flags = ["wraparound", "near-miss"]')
    assert any("manifest is stale" in p and "edge-cases.toml" in p for p in problems(mini))
    release = write_manifest(mini)
    assert (release.previous, release.version) == ("1.0.0", "1.0.1")
    assert release.metadata and not release.added and not release.retired
    assert problems(mini) == []
    log = (mini / "CHANGELOG.md").read_text()
    assert log.index("## 1.0.1") < log.index("## 1.0.0")
    assert "metadata only" in log


def test_a_released_id_never_changes_meaning(mini: Path) -> None:
    edge = mini / RS / "edge-cases.toml"
    before = (mini / "MANIFEST.json").read_text()
    edit(edge, 'hand = "Qs Kh Ad 2c 3h"', 'hand = "Qs Kh Ad 2c 4h"')
    assert any("released id changed meaning" in p for p in problems(mini))
    release = write_manifest(mini)
    assert release.refused and "nj-poker-high-5/0035" in release.refused[0].message
    assert (mini / "MANIFEST.json").read_text() == before  # nothing written


def test_removed_ids_are_retired_and_never_reused(mini: Path) -> None:
    edge = mini / RS / "edge-cases.toml"
    table = remove_vector(edge, "nj-poker-high-5/0036")
    assert any("1 id(s) removed" in p for p in problems(mini))
    release = write_manifest(mini)
    assert (release.version, release.retired) == ("2.0.0", ["nj-poker-high-5/0036"])
    assert "nj-poker-high-5/0036" in read_manifest(mini)["retired"]
    assert problems(mini) == []
    edge.write_text(edge.read_text() + table)  # put it back under the same id
    assert any("retired and can never be reused" in p for p in problems(mini))
    assert write_manifest(mini).refused


def test_nothing_changed_nothing_written(mini: Path) -> None:
    before = ((mini / "MANIFEST.json").read_text(), (mini / "CHANGELOG.md").read_text())
    release = write_manifest(mini)
    assert not release.changed
    assert before == ((mini / "MANIFEST.json").read_text(), (mini / "CHANGELOG.md").read_text())


DRAFT = """ruleset = "nj-poker-high-5"

# Wraparounds the regulation does not name
[[vector]]
kind = "classify"
hand = "Ts Jh Qd Kc 2s"
expect = { category = "high_card" }
clauses = ["(b)6", "(a)"]
flags = ["near-miss"]
why = "10-J-Q-K-2 is no straight."

[[vector]]
kind = "compare"
hands = ["Ts Jh Qd Kc 2s", "9c 9d 4h 3s 2c"]
expect = { winners = [0] }
clauses = ["(b)9", "13:69F-14.3(d)"]
flags = ["category-order"]
why = "A pair of nines beats king-high; this expectation is deliberately wrong."
"""


def test_add_assigns_next_ids_appends_and_keeps_comments(mini: Path, tmp_path: Path) -> None:
    draft = tmp_path / "draft.toml"
    draft.write_text(DRAFT)
    edge = mini / RS / "edge-cases.toml"
    before = edge.read_text()
    added = add_vectors(draft, "edge-cases", mini)
    assert added.ids == ["nj-poker-high-5/0053", "nj-poker-high-5/0054"]
    text = edge.read_text()
    assert text.startswith(before.rstrip("\n"))  # nothing rewritten
    assert "# Wraparounds the regulation does not name\n[[vector]]\nid = " in text
    assert 'clauses = ["13:69F-14.3(b)6", "13:69F-14.3(a)"]' in text  # short ids expanded
    # the wrong expectation is added (the regulation decides) but reported
    assert len(added.warnings) == 1 and "0054" in added.warnings[0].message
    assert {v.id for v in load_corpus(mini).vectors} >= set(added.ids)


def test_add_refuses_ids_duplicates_and_bad_vectors(mini: Path, tmp_path: Path) -> None:
    draft = tmp_path / "draft.toml"
    draft.write_text(
        DRAFT.replace('kind = "classify"', 'id = "nj-poker-high-5/0001"\nkind = "classify"')
    )
    with pytest.raises(CorpusError, match="carry no 'id'"):
        add_vectors(draft, "edge-cases", mini)
    existing = (mini / RS / "edge-cases.toml").read_text().split("\n[[vector]]")[1]
    dup = "\n".join(line for line in existing.splitlines() if not line.startswith("id ="))
    draft.write_text('ruleset = "nj-poker-high-5"\n\n[[vector]]' + dup)
    with pytest.raises(CorpusError, match="same inputs and expectation as nj-poker-high-5/0035"):
        add_vectors(draft, "edge-cases", mini)
    draft.write_text(DRAFT.replace('flags = ["near-miss"]', 'flags = ["nope"]'))
    with pytest.raises(CorpusError) as caught:
        add_vectors(draft, "edge-cases", mini)
    assert caught.value.problems[0].location.file == str(draft)
    assert caught.value.problems[0].location.line == 9  # the draft's flags line
    with pytest.raises(CorpusError, match="belong to the generator"):
        add_vectors(draft, "generated-x", mini)


def test_add_never_reuses_a_retired_id(mini: Path, tmp_path: Path) -> None:
    remove_vector(mini / RS / "edge-cases.toml", "nj-poker-high-5/0052")
    write_manifest(mini)
    draft = tmp_path / "draft.toml"
    draft.write_text(DRAFT)
    assert add_vectors(draft, "more", mini).ids[0] == "nj-poker-high-5/0053"
    assert (mini / RS / "more.toml").read_text().startswith("# nj-poker-high-5: More\n")


def test_compress_ids() -> None:
    assert (
        compress_ids(["a/0003", "a/0001", "a/0002", "b/0007", "a/0005"])
        == "a/0001-0003, a/0005, b/0007"
    )


def test_cli_check_coverage_list_show(mini: Path, capsys) -> None:
    assert main(["vectors", "check", "--root", str(mini)]) == 0
    assert "18 vectors in 1 rulesets, corpus 1.0.0" in capsys.readouterr().out
    assert (
        main(["vectors", "coverage", "--root", str(mini), "--json", "--ruleset", RS]) == 1
    )  # under the minimum
    data = json.loads(capsys.readouterr().out)
    assert data["rulesets"][RS]["clauses"]["13:69F-14.3(b)6"]["classify"] >= 5
    assert {"ruleset": RS, "clause": "13:69F-14.3(b)1", "vectors": 0} in data["under_minimum"]
    assert main(["vectors", "list", "--root", str(mini), "--flag", "wraparound", "--json"]) == 0
    listed = json.loads(capsys.readouterr().out)
    assert listed and all("wraparound" in v["flags"] for v in listed)
    assert main(["vectors", "show", "--root", str(mini), "nj-poker-high-5/0035"]) == 0
    out = capsys.readouterr().out
    assert "Qs Kh Ad 2c 3h" in out and "13:69F-14.3(b)6:" in out
    assert main(["vectors", "show", "--root", str(mini), "nj-poker-high-5/9999"]) == 3
    assert main(["vectors", "list", "--root", str(mini), "--flag", "wheeel"]) == 3


def test_cli_manifest_and_generate_check(mini: Path, capsys) -> None:
    assert main(["vectors", "manifest", "--root", str(mini)]) == 0
    assert "already up to date" in capsys.readouterr().out
    assert main(["vectors", "generate", "--check"]) == 0  # the shipped corpus
    assert "up to date" in capsys.readouterr().out
