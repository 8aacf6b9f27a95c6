"""Issue 11, cases 7 and 8, lab fields and report attribution.

Case 7: bad input is one clear line on stderr and the documented exit code (3 usage,
2 adapter), never a traceback, never 1.  Case 8: nothing a vendor controls can inject
Markdown, HTML or invisible characters into a report; the hostile vendor is the faux
exec adapter ``tests/helpers/faux/hostile_identity.py``.  Lab fields: ``run``/``report`` take
``--lab``, ``--engineer``, ``--submission-id``, ``--scope``; reports show them, the
citation confidence of every ruleset and only the readings of the rulesets run.
"""

from __future__ import annotations

import json
import re
import shlex
import sys
import unicodedata
import xml.etree.ElementTree as ET
from html.parser import HTMLParser
from pathlib import Path

import pytest

from pokercert.cli.main import main
from pokercert.reference import RulesetError, get_ruleset, load_profile
from tests import helpers

pytest_plugins = ["pytester"]

FAUX = helpers.FAUX / "adapter.py"
HOSTILE_ADAPTER = helpers.FAUX / "hostile_identity.py"
SMALL = "nj-mini-tex-pocket"  # the smallest ruleset: a run takes a moment
ROOT = helpers.ROOT


def cli(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    """``pokercert ARGS`` in this process: exit code, stdout, stderr (argparse exits)."""
    try:
        code = main(list(args))
    except SystemExit as exc:  # argparse's own errors
        code = exc.code if isinstance(exc.code, int) else 1
    out, err = capsys.readouterr()
    return code, out, err


def one_line(err: str) -> str:
    """The one line a usage or adapter error prints; fails on anything more."""
    assert "Traceback" not in err
    lines = [line for line in err.splitlines() if line.strip()]
    assert len(lines) == 1, f"expected one line on stderr, got:\n{err}"
    return lines[0]


@pytest.fixture(scope="module")
def run_folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A finished run of the reference on the smallest ruleset, with its reports."""
    folder = tmp_path_factory.mktemp("run") / "out"
    assert main(["run", "--ruleset", SMALL, "--out", str(folder)]) == 0
    return folder


@pytest.fixture
def a_file(tmp_path: Path) -> Path:
    path = tmp_path / "a-file"
    path.write_text("not a folder\n", encoding="utf-8")
    return path


# ================================================================ case 7: --out
BAD_OUTS = {
    "an existing file": lambda f: f,
    "a path under a file": lambda f: f / "sub",
    "a path under /proc": lambda f: Path("/proc/pokercert-no-such/out"),
}


@pytest.mark.parametrize("where", list(BAD_OUTS))
@pytest.mark.parametrize(
    "command",
    [
        ["run", "--ruleset", SMALL, "--no-report"],
        ["fuzz", "--ruleset", SMALL, "--examples", "3"],
        ["exhaustive", "--ruleset", SMALL],
        ["keygen"],
        ["selfcheck", "--mutant", "wheel-missing"],
    ],
    ids=lambda c: c[0],
)
def test_out_that_cannot_be_written_is_a_usage_error(command, where, a_file, capsys):
    out = BAD_OUTS[where](a_file)
    if command[0] == "keygen" and where == "an existing file":
        out = a_file / "key.pem"  # keygen's --out is a file: an existing one is
    code, _, err = cli(capsys, *command, "--out", str(out))  # refused without --force
    line = one_line(err)
    assert code == 3
    assert str(out) in line or str(a_file) in line


@pytest.mark.parametrize("where", list(BAD_OUTS))
@pytest.mark.parametrize("fmt", ["all", "json", "markdown"])
def test_report_out_that_cannot_be_written_is_a_usage_error(run_folder, fmt, where, a_file, capsys):
    out = BAD_OUTS[where](a_file)
    if fmt != "all" and where == "an existing file":
        out = a_file.parent  # one format: --out names a file, so a folder is bad
    code, _, err = cli(capsys, "report", str(run_folder), "--format", fmt, "--out", str(out))
    line = one_line(err)
    assert code == 3
    assert "--out" in line and (str(out) in line or str(a_file) in line)


def test_keygen_still_writes_keys_where_it_can(tmp_path, capsys):
    code, _, _ = cli(capsys, "keygen", "--out", str(tmp_path / "new" / "k.pem"))
    assert code == 0 and (tmp_path / "new" / "k.pem.pub").is_file()


def test_merge_into_a_file_is_a_usage_error(tmp_path, a_file, capsys):
    shards = []
    for k in (1, 2):
        shard = tmp_path / f"s{k}"
        assert main(
            [
                "run",
                "--ruleset",
                SMALL,
                "--shard",
                f"{k}/2",
                "--challenge-seed",
                "3",
                "--out",
                str(shard),
                "--no-report",
            ]
        ) in (0, 2)
        shards.append(str(shard))
    capsys.readouterr()
    code, _, err = cli(capsys, "merge", str(a_file), *shards)
    assert code == 3 and str(a_file) in one_line(err)


# ================================================================ case 7: more sweeps
def test_expect_naming_a_folder_or_nothing_is_a_usage_error(tmp_path, capsys):
    for expect in (tmp_path, tmp_path / "missing.toml"):
        code, _, err = cli(
            capsys,
            "run",
            "--ruleset",
            SMALL,
            "--out",
            str(tmp_path / "o"),
            "--expect",
            str(expect),
            "--no-report",
        )
        assert code == 3 and str(expect) in one_line(err)


@pytest.mark.parametrize(
    "extra",
    [
        ["--sig", "SIG"],
        ["--key", "MISSING"],
        ["--report-json", "MISSING"],
        ["--rerun", "py:no_such_module_anywhere:X"],
        ["--rerun", "not a spec"],
    ],
    ids=lambda e: e[0],
)
def test_verify_options_that_name_nothing_are_usage_errors(run_folder, extra, tmp_path, capsys):
    sig = tmp_path / "report.json.sig"
    sig.write_bytes(b"not checked without a key")
    extra = [{"SIG": str(sig), "MISSING": str(tmp_path / "missing")}.get(x, x) for x in extra]
    code, out, err = cli(capsys, "verify", str(run_folder / "report.json"), *extra)
    assert code == 3 and "GENUINE" not in out
    assert extra[0] in one_line(err)


# ================================================================ case 7: --resume
def test_resume_over_a_corrupted_middle_line_names_file_and_line(tmp_path, capsys):
    folder = tmp_path / "run"
    assert main(["run", "--ruleset", SMALL, "--out", str(folder), "--no-report"]) == 0
    results = folder / "results.jsonl"
    lines = results.read_text(encoding="utf-8").splitlines(keepends=True)
    assert len(lines) > 5
    lines[2] = '{"vector_id": "half a line\n'
    results.write_text("".join(lines), encoding="utf-8")
    capsys.readouterr()
    code, _, err = cli(
        capsys, "run", "--ruleset", SMALL, "--out", str(folder), "--resume", "--no-report"
    )
    line = one_line(err)
    assert code == 3
    assert f"{results}:3" in line


def test_resume_of_a_folder_that_does_not_exist_is_refused(tmp_path, capsys):
    folder = tmp_path / "never-run"
    code, _, err = cli(capsys, "run", "--ruleset", SMALL, "--out", str(folder), "--resume")
    line = one_line(err)
    assert code == 3 and str(folder) in line and "resume" in line
    assert not (folder / "run.json").exists()  # nothing started afresh


def test_exhaustive_resume_of_a_folder_without_state_is_refused(tmp_path, capsys):
    folder = tmp_path / "never-run"
    code, _, err = cli(capsys, "exhaustive", "--ruleset", SMALL, "--out", str(folder), "--resume")
    assert code == 3 and str(folder) in one_line(err)
    assert not (folder / "exhaustive.json").exists()


# ================================================================ case 7: profile files
BAD_PROFILES = {
    "readings not a table": ('readings = "x"\n', "readings"),
    "a reading outside [readings]": (
        'name = "lab"\nidentical-rank-tiebreak = "literal"\n',
        "identical-rank-tiebreak",
    ),
    "an unknown key": ('name = "lab"\nreading = { suits-equal = "literal" }\n', "reading"),
    "a reading that is not a string": ("[readings]\nsuits-equal = 1\n", "suits-equal"),
    "an unknown interpretation": ('[readings]\nno-such-thing = "literal"\n', "no-such-thing"),
    "a name that is not a string": ("name = 3\n", "name"),
}


@pytest.mark.parametrize("case", list(BAD_PROFILES))
def test_a_bad_profile_file_names_the_file_and_key(case, tmp_path, capsys):
    text, key = BAD_PROFILES[case]
    path = tmp_path / "profile.toml"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(RulesetError, match=re.escape(str(path)) + ".*" + re.escape(key)):
        load_profile(str(path))
    code, _, err = cli(
        capsys,
        "run",
        "--ruleset",
        SMALL,
        "--out",
        str(tmp_path / "o"),
        "--profile",
        str(path),
        "--no-report",
    )
    line = one_line(err)
    assert code == 3 and str(path) in line and key in line
    assert not (tmp_path / "o" / "results.jsonl").exists()  # never scored as practice


def test_a_good_profile_file_still_loads(tmp_path):
    path = tmp_path / "lab.toml"
    path.write_text('name = "lab"\n[readings]\nsuits-equal = "literal"\n', encoding="utf-8")
    profile = load_profile(str(path))
    assert profile.name == "lab" and profile.reading("suits-equal") == "literal"


# ================================================================ case 7: numbers
NUMERIC = [
    (["run"], "--timeout", "0"),
    (["run"], "--timeout", "-1"),
    (["run"], "--timeout", "nan"),
    (["run"], "--run-timeout", "0"),
    (["run"], "--run-timeout", "-5"),
    (["run"], "--max-restarts", "-1"),
    (["run"], "--max-memory", "0"),
    (["run"], "--max-cpu", "-1"),
    (["run"], "--batch-size", "0"),
    (["smoke", "--adapter", "reference"], "--timeout", "0"),
    (["fuzz", "--ruleset", SMALL], "--examples", "0"),
    (["fuzz", "--ruleset", SMALL], "--timeout", "-2"),
    (["exhaustive", "--ruleset", SMALL], "--batch-size", "0"),
    (["exhaustive", "--ruleset", SMALL], "--report", "-1"),
    (["exhaustive", "--ruleset", SMALL], "--timeout", "inf"),
    (["selfcheck"], "--timeout", "0"),
]


@pytest.mark.parametrize(
    ("command", "option", "value"), NUMERIC, ids=[f"{c[0]}{o}={v}" for c, o, v in NUMERIC]
)
def test_numeric_options_out_of_range_are_usage_errors(command, option, value, tmp_path, capsys):
    code, _, err = (
        cli(capsys, *command, "--out", str(tmp_path / "o"), option, value)
        if command[0] not in ("smoke",)
        else cli(capsys, *command, option, value)
    )
    line = one_line(err)
    assert code == 3 and option in line and value in line


# ================================================================ case 7: --format
def test_an_unknown_report_format_suggests_the_right_name(run_folder, capsys):
    code, out, err = cli(capsys, "report", str(run_folder), "--format", "md")
    line = one_line(err)
    assert code == 3 and "'md'" in line and "did you mean 'markdown'" in line
    assert out == ""


# ================================================================ case 7: smoke
def test_smoke_of_a_ruleset_the_adapter_does_not_claim_is_a_usage_error(capsys):
    adapter = f"exec:{shlex.quote(sys.executable)} {shlex.quote(str(FAUX))} ok"
    code, out, err = cli(capsys, "smoke", "--adapter", adapter, "--ruleset", "nj-poker-low-5")
    line = one_line(err)
    assert code == 3
    assert "nj-poker-low-5" in line and "nj-poker-high-5" in line  # names what it claims
    assert "ADAPTER BROKEN" not in out


def test_smoke_of_an_unknown_ruleset_is_a_usage_error(capsys):
    code, _, err = cli(capsys, "smoke", "--adapter", "reference", "--ruleset", "no-such")
    assert code == 3 and "unknown ruleset 'no-such'" in one_line(err)


# ================================================================ case 7: pytest plugin
PLUGIN_VECTORS = """format_version = 1
ruleset = "nj-poker-high-5"

[[vector]]
id = "nj-poker-high-5/0001"
kind = "classify"
hand = "As Ks Qs Js Ts"
expect = { category = "royal_flush" }
clauses = ["13:69F-14.3(b)1"]
flags = ["named-extreme"]
why = "A K Q J 10 of one suit is a royal flush."

[[vector]]
id = "nj-poker-high-5/0002"
kind = "classify"
hand = "9c 9d 9h 4s 4c"
expect = { category = "full_house" }
clauses = ["13:69F-14.3(b)4"]
flags = ["category-order"]
why = "Three nines and two fours are a full house."
"""


@pytest.fixture
def plugin_run(pytester: pytest.Pytester, tmp_path: Path):
    from pokercert.vectors import registry

    root = tmp_path / "corpus"
    (root / "nj-poker-high-5").mkdir(parents=True)
    (root / registry.FLAGS_FILE).write_bytes(
        (registry.PACKAGE_ROOT / registry.FLAGS_FILE).read_bytes()
    )
    (root / "nj-poker-high-5" / "basics.toml").write_text(PLUGIN_VECTORS, encoding="utf-8")
    pytester.makeini("[pytest]\n")

    def go(*args: str) -> pytest.RunResult:
        from importlib.metadata import entry_points

        load = (
            []
            if entry_points(group="pytest11", name="pokercert")
            else ["-p", "pokercert.certify.pytest_plugin"]
        )
        return pytester.runpytest_subprocess(
            *load, f"--pokercert-corpus={root}", "-p", "no:cacheprovider", *args
        )

    return go


@pytest.mark.parametrize(
    "spec",
    [
        "py:no_such_module_anywhere:Evaluator",
        "py:pokercert.reference:NoSuchEvaluator",
        "exec:/no/such/adapter --flag",
        "not a spec at all",
    ],
)
def test_the_plugin_with_a_bad_adapter_spec_is_one_usage_error(plugin_run, spec):
    result = plugin_run(f"--pokercert-adapter={spec}")
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    errors = [line for line in result.errlines if line.strip()]
    assert len(errors) == 1 and errors[0].startswith("ERROR: pokercert:"), result.errlines
    assert "Traceback" not in result.stdout.str() + result.stderr.str()
    assert "failed" not in result.stdout.str()


def test_the_plugin_with_a_bad_timeout_is_a_usage_error(plugin_run):
    result = plugin_run("--pokercert-adapter=reference", "--pokercert-timeout=0")
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    assert "--pokercert-timeout" in result.stderr.str()


def test_the_plugin_stops_at_the_first_vector_when_the_adapter_does_not_start(plugin_run):
    result = plugin_run(f"--pokercert-adapter=exec:{sys.executable} -c 'import sys; sys.exit(3)'")
    outcomes = result.parseoutcomes()
    assert outcomes.get("failed") == 1 and "passed" not in outcomes, result.outlines
    result.stdout.fnmatch_lines(["*does not start*", "*Interrupted*"])


# ================================================================ case 8: injection
HOSTILE_LAB = "Lab <script>alert('lab')</script>\n# CERTIFIED \u202eDEIFITREC | `x` [l](u)"


@pytest.fixture(scope="module")
def hostile_run(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A run of the hostile faux adapter; its argument on the spec is hostile too."""
    folder = tmp_path_factory.mktemp("hostile") / "out"
    spec = f"exec:{shlex.quote(sys.executable)} {shlex.quote(str(HOSTILE_ADAPTER))} " + shlex.quote(
        "a````b|<script>\n# CERTIFIED\u202e"
    )
    code = main(
        [
            "run",
            "--adapter",
            spec,
            "--ruleset",
            "nj-poker-high-5",
            "--out",
            str(folder),
            "--lab",
            HOSTILE_LAB,
            "--engineer",
            HOSTILE_LAB,
            "--submission-id",
            "<b>S-1</b>",
            "--scope",
            HOSTILE_LAB,
        ]
    )
    assert code == 1
    return folder


def _hostile() -> str:
    from tests.helpers.faux.hostile_identity import HOSTILE

    return HOSTILE


def _invisible(text: str) -> list[str]:
    """Characters no reader sees: controls (but line breaks), format characters (bidi
    overrides and isolates, zero-width), separators."""
    return sorted(
        {
            f"U+{ord(c):04X}"
            for c in text
            if c not in "\n\t" and (unicodedata.category(c) in ("Cc", "Cf", "Cs", "Zl", "Zp"))
        }
    )


def test_the_hostile_run_carries_its_strings_into_the_json_report(hostile_run):
    report = json.loads((hostile_run / "report.json").read_text(encoding="utf-8"))
    hostile = _hostile()
    assert report["identification"]["evaluator"]["vendor"] == hostile
    assert any(f["actual"] and f["actual"].get("category") == hostile for f in report["failures"])
    assert any(hostile in f["message"] for f in report["failures"])
    assert any(hostile.splitlines()[0] in f["stderr"] for f in report["failures"])
    assert report["identification"]["lab"]["lab"] == HOSTILE_LAB


def _unescaped(pattern: str, text: str) -> list[str]:
    return re.findall(r"(?<!\\)" + pattern, text)


def _tables(md: str) -> list[list[str]]:
    blocks, current = [], []
    for line in md.splitlines():
        if line.startswith("|"):
            current.append(line)
        elif current:
            blocks.append(current)
            current = []
    return blocks + ([current] if current else [])


def test_markdown_escapes_everything_the_vendor_controls(hostile_run):
    md = (hostile_run / "report.md").read_text(encoding="utf-8")
    fences = [i for i, line in enumerate(md.splitlines()) if line.startswith("```")]
    # two fenced blocks: the command that runs the findings again (under "What failed")
    # and the reproduce command; each holds a command line the vendor's spec is part of
    assert len(fences) == 4, "two fenced blocks: the findings' replay and the reproduce command"
    blocks = list(zip(fences[::2], fences[1::2], strict=True))
    body_lines = [
        line for i, line in enumerate(md.splitlines()) if not any(a <= i <= b for a, b in blocks)
    ]
    body = "\n".join(body_lines)
    # no raw HTML but our own <br>, <details> and <summary>
    tags = set(re.findall(r"(?<!\\)<\s*/?\s*([A-Za-z]+)", body))
    assert tags <= {"br", "details", "summary"}, tags
    # one heading of level 1, ours; no fake CERTIFIED heading anywhere
    assert [line for line in body_lines if line.startswith("# ")] == [
        line for line in body_lines if line.startswith("# ❌ NOT CERTIFIED")
    ]
    assert not any(re.match(r"\s*#+\s*CERTIFIED", line) for line in body_lines)
    # no code span, no link, no image, no entity, no autolink
    assert not _unescaped("`", body)
    assert not _unescaped(r"\[", body) and not _unescaped("&", body)
    assert "https://" not in body and "www.evil" not in body
    # every row of every table has its header's number of cells
    for block in _tables(body):
        widths = {len(_unescaped(r"\|", row)) for row in block}
        assert len(widths) == 1, block[0]
    # bidi and invisible characters are shown, never there
    assert _invisible(md) == []
    assert "\\u202e" in md and "\\u2066" in md and "\\x1b" in md
    # each fence holds its command on one line and is longer than any backtick run in it
    for a, b in blocks:
        fence_lines = md.splitlines()[a : b + 1]
        assert len(fence_lines) == 3
        longest = max((len(run) for run in re.findall("`+", fence_lines[1])), default=0)
        assert len(fence_lines[0]) > longest


def test_the_reproduce_fence_holds_any_command_line_on_one_line():
    from pokercert.reports.text import md_fence

    opening, content, closing = md_fence("pokercert run --adapter 'exec:x ````\n# CERTIFIED\u202e'")
    assert opening == closing == "`" * 5
    assert "\n" not in content and "\\n# CERTIFIED\\u202e" in content


class _Tags(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.tags: set[str] = set()
        self.attrs: set[str] = set()

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags.add(tag)
        self.attrs.update(name for name, _ in attrs)


def test_html_escapes_everything_the_vendor_controls(hostile_run):
    page = (hostile_run / "report.html").read_text(encoding="utf-8")
    parser = _Tags()
    parser.feed(page)
    assert "script" not in parser.tags and "img" not in parser.tags
    assert not {a for a in parser.attrs if a.startswith("on")}
    assert parser.tags <= {
        "html",
        "head",
        "meta",
        "title",
        "style",
        "body",
        "section",
        "h1",
        "h2",
        "h3",
        "p",
        "strong",
        "code",
        "nav",
        "a",
        "table",
        "thead",
        "tbody",
        "tr",
        "th",
        "td",
        "span",
        "br",
        "details",
        "summary",
        "pre",
        "dl",
        "dt",
        "dd",
        "div",  # the verdict box's "What failed, in plain words" (walk28), and its list
        "ul",
        "li",
    }, parser.tags
    assert _invisible(page) == []
    assert "\\u202e" in page and "&lt;script&gt;" in page


def test_junit_escapes_everything_the_vendor_controls(hostile_run):
    raw = (hostile_run / "report.junit.xml").read_text(encoding="utf-8")
    root = ET.fromstring(raw.encode("utf-8"))  # well-formed XML
    assert _invisible(raw) == []
    assert "\\u202e" in raw
    texts = [e.text or "" for e in root.iter()] + [
        v for e in root.iter() for v in e.attrib.values()
    ]
    assert not any(_invisible(t) for t in texts)
    props = {p.get("name"): p.get("value") for p in root.iter("property")}
    assert props["lab"].startswith("Lab <script>")  # XML escapes it; the text is kept


def test_report_rerendering_with_hostile_lab_fields_is_escaped(hostile_run, tmp_path, capsys):
    out = tmp_path / "again.md"
    code, _, _ = cli(
        capsys,
        "report",
        str(hostile_run / "report.json"),
        "--format",
        "markdown",
        "--out",
        str(out),
        "--engineer",
        "<i>x</i>\u2067",
    )
    assert code == 1
    md = out.read_text(encoding="utf-8")
    assert "\\<i\\>x\\</i\\>\\\\u2067" in md and _invisible(md) == []


# ================================================================ lab fields
def test_lab_fields_are_recorded_and_shown_in_every_format(tmp_path, capsys):
    scope = tmp_path / "scope.txt"
    scope.write_text("Five-card high poker only, build 4.2 as delivered.\n", encoding="utf-8")
    folder = tmp_path / "run"
    code, _, _ = cli(
        capsys,
        "run",
        "--ruleset",
        SMALL,
        "--out",
        str(folder),
        "--lab",
        "Acme Test Lab",
        "--engineer",
        "J. Doe",
        "--submission-id",
        "SUB-0042",
        "--scope",
        str(scope),
    )
    assert code == 0
    expected = {
        "lab": "Acme Test Lab",
        "engineer": "J. Doe",
        "submission_id": "SUB-0042",
        "scope": "Five-card high poker only, build 4.2 as delivered.",
    }
    assert json.loads((folder / "run.json").read_text(encoding="utf-8"))["lab"] == expected
    report = json.loads((folder / "report.json").read_text(encoding="utf-8"))
    assert report["identification"]["lab"] == expected
    for name in ("report.md", "report.html", "report.junit.xml"):
        text = (folder / name).read_text(encoding="utf-8")
        for value in ("Acme Test Lab", "J. Doe", "SUB-0042", "build 4.2 as delivered"):
            assert value in text, (name, value)


def test_report_options_override_and_add_to_the_recorded_lab_fields(run_folder, tmp_path, capsys):
    out = tmp_path / "r.json"
    code, _, _ = cli(
        capsys,
        "report",
        str(run_folder),
        "--format",
        "json",
        "--out",
        str(out),
        "--engineer",
        "R. Roe",
        "--scope",
        "a scope typed in",
    )
    assert code == 0
    lab = json.loads(out.read_text(encoding="utf-8"))["identification"]["lab"]
    assert lab == {
        "lab": "",
        "engineer": "R. Roe",
        "submission_id": "",
        "scope": "a scope typed in",
    }
    # the re-rendered report is genuine (sealed again) and verifies
    code, _, _ = cli(capsys, "verify", str(out))
    assert code == 0


def test_lab_fields_added_by_report_into_the_run_folder_still_verify(tmp_path, capsys):
    folder = tmp_path / "run"
    assert main(["run", "--ruleset", SMALL, "--out", str(folder), "--lab", "Acme"]) == 0
    code, _, _ = cli(capsys, "report", str(folder), "--engineer", "R. Roe")
    assert code == 0
    report = json.loads((folder / "report.json").read_text(encoding="utf-8"))
    assert report["identification"]["lab"]["lab"] == "Acme"
    assert report["identification"]["lab"]["engineer"] == "R. Roe"
    assert "R. Roe" in (folder / "report.md").read_text(encoding="utf-8")
    code, out, _ = cli(capsys, "verify", str(folder))
    assert code == 0, out


def test_reports_show_the_citation_confidence_of_every_ruleset(tmp_path, capsys):
    folder = tmp_path / "run"
    code, _, _ = cli(
        capsys,
        "run",
        "--ruleset",
        "nj-caribbean-stud",
        "--ruleset",
        "nj-poker-high-3",
        "--ruleset",
        SMALL,
        "--out",
        str(folder),
    )
    assert code == 0
    for name in ("report.md", "report.html", "report.junit.xml"):
        text = (folder / name).read_text(encoding="utf-8")
        for rid in ("nj-caribbean-stud", "nj-poker-high-3", SMALL):
            confidence = get_ruleset(rid).regulation.confidence
            citation = get_ruleset(rid).citation
            assert f"{citation} ({confidence})" in text.replace("&#x27;", "'"), (name, rid)
    assert {"likely", "unconfirmed", "confirmed"} <= {
        get_ruleset(r).regulation.confidence
        for r in ("nj-caribbean-stud", "nj-poker-high-3", SMALL)
    }


def test_reports_list_only_the_readings_of_the_rulesets_run(run_folder):
    report = json.loads((run_folder / "report.json").read_text(encoding="utf-8"))
    readings = report["identification"]["profile"]["readings"]
    assert set(readings) == set(get_ruleset(SMALL).interpretations)
    header = json.loads((run_folder / "run.json").read_text(encoding="utf-8"))
    assert set(readings) < set(header["profile"]["readings"])  # the run recorded them all
    md = (run_folder / "report.md").read_text(encoding="utf-8")
    for iid in set(header["profile"]["readings"]) - set(readings):
        assert f"{iid}=" not in md


# ================================================================ attribution
def test_the_findings_legend_says_the_clause_is_exercised_not_proven_broken(hostile_run):
    from pokercert.reports.text import FINDINGS_LEGEND

    assert "exercises" in FINDINGS_LEGEND and "not proof" in FINDINGS_LEGEND
    md = (hostile_run / "report.md").read_text(encoding="utf-8")
    page = (hostile_run / "report.html").read_text(encoding="utf-8")
    assert "clauses its vector exercises" in md and "not proof" in md
    assert "clauses its vector exercises" in page and "not proof" in page


def test_the_reports_readme_states_wrong_reason_as_a_policy():
    text = (ROOT / "reports" / "README.md").read_text(encoding="utf-8")
    section = text.split("## Outcome policy", 1)[1].split("\n## ", 1)[0]
    assert "WRONG_REASON" in section and "withhold" in section


def test_scope_naming_a_missing_file_is_refused_not_taken_as_text(tmp_path, capsys):
    missing = tmp_path / "scope.txt"
    code, _, err = cli(
        capsys, "run", "--ruleset", SMALL, "--out", str(tmp_path / "o"), "--scope", str(missing)
    )
    assert code == 3 and str(missing) in one_line(err)
    assert not (tmp_path / "o").exists()  # refused before anything was made
