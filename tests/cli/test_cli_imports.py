"""What a start of the command line imports (issue 13's 3 s run, issue 16's fast start):
checked by the modules a fresh interpreter holds afterwards, never by a time.

* ``pokercert --help`` imports no ``dataclasses`` (and with it ``inspect``, ``ast``,
  ``dis``, ``tokenize``) and no ``difflib``;
* a run whose output is not a terminal (every CI log) does not import ``rich`` (the
  progress bar is drawn on a terminal only);
* the reports package (which every run imports to write its reports) does not import
  ``jsonschema``: writing a report does not validate it, ``verify`` does.  (The corpus
  loader imports the validators only when it reads the corpus files, not from its cache:
  tests/vectors/test_corpus_imports.py.)
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path


def _modules_after(argv: list[str], cwd: Path | None = None) -> set[str]:
    code = (
        "import json, sys\n"
        "from pokercert.cli.main import main\n"
        "try:\n"
        f"    code = main({argv!r})\n"
        "except SystemExit as exc:\n"
        "    code = exc.code\n"
        "print(json.dumps([code, sorted(sys.modules)]))\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=cwd
    )
    code, modules = json.loads(done.stdout.splitlines()[-1])
    assert code in (0, None), done.stderr
    return set(modules)


def test_help_imports_no_dataclasses_nor_difflib() -> None:
    loaded = _modules_after(["--help"])
    assert not loaded & {"dataclasses", "inspect", "difflib"}


def test_a_run_off_a_terminal_does_not_import_rich(tmp_path: Path) -> None:
    loaded = _modules_after(
        ["run", "--ruleset", "nj-poker-high-3", "--no-challenge", "--out", str(tmp_path / "run")]
    )
    assert (tmp_path / "run" / "report.json").is_file()  # the reports were written
    assert not {m for m in loaded if m.partition(".")[0] == "rich"}


def test_writing_reports_does_not_import_jsonschema() -> None:
    code = (
        "import sys\n"
        "import pokercert.reports, pokercert.reports.canonical, pokercert.reports.text\n"
        "print(sorted(m for m in sys.modules if m.partition('.')[0] == 'jsonschema'))\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout.strip() == "[]"
