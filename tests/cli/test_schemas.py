"""Every output validates against its published schema (Bowtie's practice): each test
runs the real command, here, and validates what it wrote or printed.

A field added to an output without its schema fails here: update the schema (and the
README that names it) in the same change.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest
from jsonschema import Draft202012Validator

from pokercert.cli.main import main
from pokercert.cli.schemas import output_schemas, validator
from tests import helpers

ROOT = Path(__file__).resolve().parents[2]
FAUX = helpers.FAUX / "validating_adapter.py"
WRONG = f"exec:{sys.executable} {helpers.FAUX / 'adapter.py'} wrong-answers"


def faux(mode: str) -> str:
    return f"exec:{sys.executable} {FAUX} {mode}"


def valid(schema_id: str, document: object) -> None:
    errors = sorted(validator(schema_id).iter_errors(document), key=lambda e: list(e.path))
    assert not errors, "; ".join(
        f"{'/'.join(map(str, e.path)) or '(top)'}: {e.message}" for e in errors[:5]
    )


def printed(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, object]:
    code = main(list(argv))
    return code, json.loads(capsys.readouterr().out)


# ------------------------------------------------------------------ the schemas themselves
def test_every_shipped_schema_is_a_valid_draft_2020_12_schema():
    assert output_schemas()
    for sid, document in output_schemas().items():
        Draft202012Validator.check_schema(document)
        assert sid.startswith(("urn:pokercert:", "https://pokercert.invalid/"))


def test_every_schema_is_named_in_the_docs():
    """The READMEs name each output schema, so a newcomer finds it."""
    docs = "".join((ROOT / p).read_text() for p in ("README.md", "harness/README.md"))
    for folder in ("harness/schema", "cli/schema", "reports/schema"):
        for path in sorted((ROOT / folder).glob("*.schema.json")):
            assert f"{folder}/{path.name}" in docs, f"{folder}/{path.name} is named in no README"


# ------------------------------------------------------------------ run folders
@pytest.fixture(scope="module")
def runs(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    base = tmp_path_factory.mktemp("runs")
    folders = {
        "pass": base / "pass",
        "fail": base / "fail",
        "shard": base / "s2",
        "merged": base / "merged",
    }
    assert (
        main(
            [
                "run",
                "--adapter",
                "reference",
                "--ruleset",
                "nj-poker-high-3",
                "--out",
                str(folders["pass"]),
            ]
        )
        == 0
    )
    assert (
        main(
            [
                "run",
                "--adapter",
                WRONG,
                "--ruleset",
                "nj-poker-high-5",
                "--out",
                str(folders["fail"]),
            ]
        )
        == 1
    )
    assert (
        main(
            [
                "run",
                "--adapter",
                "reference",
                "--ruleset",
                "nj-poker-high-3",
                "--shard",
                "1/2",
                "--challenge-seed",
                "7",
                "--out",
                str(base / "s1"),
            ]
        )
        == 0
    )
    assert (
        main(
            [
                "run",
                "--adapter",
                "reference",
                "--ruleset",
                "nj-poker-high-3",
                "--shard",
                "2/2",
                "--challenge-seed",
                "7",
                "--out",
                str(folders["shard"]),
            ]
        )
        == 0
    )
    assert main(["merge", str(folders["merged"]), str(base / "s1"), str(folders["shard"])]) == 0
    return folders


def test_results_lines(runs):
    outcomes = set()
    for folder in runs.values():
        for line in (folder / "results.jsonl").read_text().splitlines():
            record = json.loads(line)
            valid("urn:pokercert:harness:results-line", record)
            outcomes.add(record["outcome"])
    assert {"PASS", "FAIL", "NOT_APPLICABLE"} <= outcomes


def test_run_json(runs):
    for folder in runs.values():
        valid("urn:pokercert:harness:run", json.loads((folder / "run.json").read_text()))


def test_report_json(runs):
    for name in ("pass", "fail"):
        valid("urn:pokercert:schema:report:1", json.loads((runs[name] / "report.json").read_text()))


# ------------------------------------------------------------------ exhaustive and fuzz
@pytest.mark.parametrize("adapter, code", [("reference", 0), (faux("bad-pocket"), 1)])
def test_exhaustive_json_and_its_output(adapter, code, tmp_path, capsys):
    got, out = printed(
        capsys,
        "exhaustive",
        "--adapter",
        adapter,
        "--ruleset",
        "nj-mini-tex-pocket",
        "--out",
        str(tmp_path),
        "--json",
    )
    assert got == code
    valid("urn:pokercert:cli:exhaustive", out)
    state = json.loads((tmp_path / "exhaustive.json").read_text())
    valid("urn:pokercert:harness:exhaustive", state)
    assert state["finished"] and (code == 0) == state["agrees"]


def test_a_range_of_seven_card_deals(tmp_path, capsys):
    """--range START..STOP names its shard by the range; a seven-card pass (nj-holdem)."""
    pytest.importorskip("eval7")
    got, out = printed(
        capsys,
        "exhaustive",
        "--adapter",
        "eval7",
        "--ruleset",
        "nj-holdem",
        "--range",
        "0..2000",
        "--order-seed",
        "1",
        "--out",
        str(tmp_path),
        "--json",
    )
    assert got == 0
    valid("urn:pokercert:cli:exhaustive", out)
    state = json.loads((tmp_path / "exhaustive.json").read_text())
    valid("urn:pokercert:harness:exhaustive", state)
    assert state["shard"] == "0..2000" and state["total"] == 133_784_560


def test_the_live_exhaustive_state(tmp_path, capsys):
    """An unfinished run's state (what --resume reopens): the adapter hangs on one hand
    and the run stops before the end."""
    main(
        [
            "exhaustive",
            "--adapter",
            faux("hang-pocket"),
            "--ruleset",
            "nj-mini-tex-pocket",
            "--out",
            str(tmp_path),
            "--timeout",
            "1",
            "--max-restarts",
            "0",
            "--json",
        ]
    )
    capsys.readouterr()
    state = json.loads((tmp_path / "exhaustive.json").read_text())
    valid("urn:pokercert:harness:exhaustive", state)
    assert not state["agrees"]


@pytest.mark.parametrize("adapter, code", [("reference", 0), (faux("bad-pocket"), 1)])
def test_fuzz_findings_and_output(adapter, code, tmp_path, capsys):
    got, out = printed(
        capsys,
        "fuzz",
        "--adapter",
        adapter,
        "--ruleset",
        "nj-mini-tex-pocket",
        "--examples",
        "20",
        "--seed",
        "1",
        "--out",
        str(tmp_path),
        "--json",
    )
    assert got == code
    valid("urn:pokercert:cli:fuzz", out)
    findings = json.loads((tmp_path / "fuzz-nj-mini-tex-pocket.json").read_text())
    valid("urn:pokercert:harness:fuzz", findings)
    assert (findings["counterexample"] is None) == (code == 0)


# ------------------------------------------------------------------ every --json
COMMANDS = {
    "rulesets": [["rulesets"]],
    "rules": [
        ["rules", "nj-poker-high-5"],
        ["rules", "nj-mini-tex-3"],
        ["rules", "mt-poker-low"],
        ["rules", "nj-omaha-hi-lo"],
        ["rules", "nj-seven-card-stud"],
    ],
    "rules-diff": [["rules", "diff", "nj-poker-high-3", "nj-three-card-poker"]],
    "interpretations": [["interpretations"]],
    "evaluate": [
        ["evaluate", "--ruleset", "nj-poker-high-5", "As", "Ks", "Qs", "Js", "Ts"],
        ["evaluate", "--ruleset", "nj-mini-tex-3", "--board", "Qs Js 3h", "As", "Ks"],
        # each half of the pot; the low half null when no low qualifies
        ["evaluate", "--ruleset", "nj-omaha-hi-lo", "--board", "9c 8d 3h Qs 2d", "Ah 4c Kd Kh"],
        ["evaluate", "--ruleset", "nj-omaha-hi-lo", "--board", "9c Td 3h Qs 2d", "Ah 4c Kd Kh"],
        ["evaluate", "--ruleset", "nj-razz", "Ah 2c 3d 4s 5h Kc Kd"],
    ],
    "showdown": [
        [
            "showdown",
            "--ruleset",
            "nj-omaha-hi-lo",
            "--board",
            "9c 8d 3h Qs 2d",
            "Ah 4c Kd Kh",
            "As 5c Js Jh",
        ],
        [
            "showdown",
            "--ruleset",
            "nj-omaha-hi-lo",
            "--board",
            "9c Td 3h Qs 2d",
            "Ah 4c Kd Kh",
            "As 5c Js Jh",
        ],
        [
            "showdown",
            "--ruleset",
            "nj-seven-card-stud",
            "Ah 4c Kd Kh 2c 3c 9d",
            "As 5c Js Jh 7h 8h 9h",
        ],
    ],
    "compare": [
        ["compare", "--ruleset", "nj-poker-high-5", "As Ks Qs Js Ts", "2c 3c 4c 5c 7d"],
        ["compare", "--ruleset", "nj-mini-tex-3", "--board", "Qs Js 3h", "As Ks", "7c 2d"],
    ],
    "vectors-check": [["vectors", "check", "--no-reference"]],
    "vectors-coverage": [["vectors", "coverage"]],
    "vectors-list": [
        ["vectors", "list", "--ruleset", "nj-mini-tex-3", "--flag", "unused-field"],
        ["vectors", "list", "--ruleset", "nj-poker-high-3"],
    ],
    "vectors-show": [
        ["vectors", "show", "nj-poker-high-5/0001"],
        ["vectors", "show", "nj-mini-tex-3/6233"],
    ],
    "selfcheck": [["selfcheck", "--list"]],
    "smoke": [
        ["smoke", "--adapter", "reference"],
        ["smoke", "--adapter", faux("bad-pocket"), "--all"],
        ["smoke", "--adapter", WRONG],
    ],
}


@pytest.mark.parametrize("name, argv", [(n, a) for n, runs in COMMANDS.items() for a in runs])
def test_json_output(name, argv, capsys):
    _, out = printed(capsys, *argv, "--json")
    valid(f"urn:pokercert:cli:{name}", out)


def _json_commands() -> list[str]:
    """Every command (``vectors-SUB`` for the corpus tools) whose parser takes --json."""
    import argparse

    from pokercert.cli.main import COMMAND_GROUPS, build_parser

    def takes_json(parser: argparse.ArgumentParser) -> bool:
        return any("--json" in a.option_strings for a in parser._actions)

    def subcommands(parser: argparse.ArgumentParser) -> dict[str, argparse.ArgumentParser]:
        return next(
            (dict(a.choices) for a in parser._actions if isinstance(a, argparse._SubParsersAction)),
            {},
        )

    found = []
    for group in COMMAND_GROUPS:
        for command, _ in group.commands:
            parser = subcommands(build_parser(command))[command]
            if takes_json(parser):
                found.append(command)
            found += [
                f"{command}-{name}" for name, p in subcommands(parser).items() if takes_json(p)
            ]
    return found


def test_every_command_with_json_has_a_schema():
    """A command that gains --json (showdown did) without a schema fails here."""
    commands = _json_commands()
    assert {"showdown", "evaluate", "vectors-coverage", "selfcheck"} <= set(commands)
    missing = [c for c in commands if f"urn:pokercert:cli:{c}" not in output_schemas()]
    assert not missing, f"no cli/schema/COMMAND.schema.json for {missing}"


def test_run_merge_verify_and_diff_outputs(runs, tmp_path, capsys):
    _, out = printed(
        capsys,
        "run",
        "--adapter",
        "reference",
        "--ruleset",
        "nj-poker-low-3",
        "--out",
        str(tmp_path / "r"),
        "--json",
    )
    valid("urn:pokercert:cli:run", out)
    _, out = printed(
        capsys,
        "run",
        "--adapter",
        WRONG,
        "--ruleset",
        "nj-poker-high-5",
        "--out",
        str(tmp_path / "w"),
        "--json",
    )
    valid("urn:pokercert:cli:run", out)
    _, out = printed(capsys, "merge", str(tmp_path / "m"), str(runs["shard"]), "--json")
    valid("urn:pokercert:cli:merge", out)
    for name in ("pass", "fail"):
        _, out = printed(capsys, "verify", str(runs[name] / "report.json"), "--json")
        valid("urn:pokercert:cli:verify", out)
    _, out = printed(capsys, "diff", str(runs["pass"]), str(runs["fail"]), "--json")
    valid("urn:pokercert:cli:diff", out)


def test_vectors_add_and_manifest_outputs(tmp_path, capsys):
    draft = tmp_path / "draft.toml"
    draft.write_text(
        'ruleset = "nj-poker-high-5"\n[[vector]]\nkind = "classify"\n'
        'hand = "Ah Kh Qh Jh 8h"\nexpect = { category = "flush" }\n'
        'clauses = ["13:69F-14.3(b)5"]\nflags = ["category-order"]\n'
        'why = "Five hearts, not in sequence."\n'
    )
    _, out = printed(
        capsys, "vectors", "add", str(draft), "--topic", "categories", "--dry-run", "--json"
    )
    valid("urn:pokercert:cli:vectors-add", out)
    _, out = printed(capsys, "vectors", "manifest", "--json", "--root", str(ROOT / "vectors"))
    valid("urn:pokercert:cli:vectors-manifest", out)


@pytest.mark.slow
def test_selfcheck_output(tmp_path, capsys):
    _, out = printed(
        capsys, "selfcheck", "--mutant", "board-ignored", "--out", str(tmp_path), "--json"
    )
    valid("urn:pokercert:cli:selfcheck", out)


def test_every_cli_schema_has_a_test():
    tested = {
        *COMMANDS,
        "run",
        "merge",
        "verify",
        "diff",
        "vectors-add",
        "vectors-manifest",
        "exhaustive",
        "fuzz",
    }
    shipped = {p.name.removesuffix(".schema.json") for p in (ROOT / "cli/schema").iterdir()}
    assert shipped == tested


def test_attached_modes_in_run_json_report_and_run_output(tmp_path, capsys):
    """run --fuzz N --exhaustive: run.json (filters.fuzz, filters.exhaustive, attached),
    the report (modes, attached) and run --json (modes) follow their schemas."""
    out = tmp_path / "attached"
    code, printed_out = printed(
        capsys,
        "run",
        "--adapter",
        "reference",
        "--ruleset",
        "nj-poker-high-3",
        "--no-challenge",
        "--fuzz",
        "30",
        "--exhaustive",
        "--json",
        "--out",
        str(out),
    )
    assert code == 0 and set(printed_out["modes"]) == {"fuzz", "exhaustive"}
    valid("urn:pokercert:cli:run", printed_out)
    header = json.loads((out / "run.json").read_text())
    assert set(header["attached"]) == {"fuzz", "exhaustive"}
    valid("urn:pokercert:harness:run", header)
    valid("urn:pokercert:schema:report:1", json.loads((out / "report.json").read_text()))
