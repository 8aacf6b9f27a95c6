"""report.md's exhaustive counterexamples say what the reference expected, what the
evaluator did and why (issue 28: those cells were empty).

The evaluator breaks the reference's ties by the suit of a hand's first card
(:class:`tests.harness.explore.planted.SuitBreaksTies`): each finding is a hand set
against a member of its own reference class, which the rules split (both hands win,
``winners [0, 1]``) and the evaluator gives to one of them.
"""

from __future__ import annotations

import json
import re

from pokercert.cli.main import main

RULESET = "nj-poker-high-3"


def _exhaustive_rows(report_md: str) -> list[list[str]]:
    """The cells of the exhaustive section's counterexample rows."""
    section = report_md.split("\n## Exhaustive\n", 1)[1].split("\n## ", 1)[0]
    table = section.split("**Counterexamples", 1)[1]
    lines = [line for line in table.splitlines() if line.startswith(f"| {RULESET} ")]
    return [[c.strip() for c in re.split(r"(?<!\\)\|", line)[1:-1]] for line in lines]


def test_the_exhaustive_counterexample_rows_are_filled(tmp_path):
    out = tmp_path / "run"
    argv = ["run", "--adapter", "py:tests.harness.explore.planted:SuitBreaksTies"]
    argv += ["--ruleset", RULESET, "--no-challenge", "--exhaustive", "--order-seed", "1"]
    assert main([*argv, "--out", str(out)]) == 1
    rows = _exhaustive_rows((out / "report.md").read_text(encoding="utf-8"))
    state = json.loads(
        (out / "attached" / "exhaustive" / RULESET / "exhaustive.json").read_text("utf-8")
    )
    assert len(rows) == len(state["disagreements"]) > 0
    for (ruleset, finding, inputs, expected, actual, why), saved in zip(
        rows, state["disagreements"], strict=True
    ):
        assert (ruleset, finding) == (RULESET, "class") and saved["check"] == "class"
        assert inputs.replace(r"\|", "|") == " | ".join(saved["hands"])
        # a hand and a member of its class: the rules split the pot
        assert expected == r"winners: \[0, 1\]"
        # the evaluator gave it to one hand (the finding's own words)
        assert re.fullmatch(r"FAIL: winners \\\[[01]\\\], expected \\\[0, 1\\\]", actual)
        # the reference's reason, as the written-up vector gives it
        assert why.endswith("equal hands, a split.")
        assert why.split(":")[0].replace("\\", "") == saved["vector"]["why"].split(":")[0]
