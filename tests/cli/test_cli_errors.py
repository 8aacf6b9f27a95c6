"""Issue 12: one error root, translated to exit codes by the CLI alone.

* every public exception class of the package derives from
  :class:`pokercert.reference.errors.PokercertError`;
* ``pokercert.cli.main`` holds the one exception -> exit code table and the
  :class:`ExitCode` enum (0 ok, 1 non-compliant, 2 adapter/harness error, 3 usage);
* a vendor module that raises its own ``ValueError`` while it is imported is an
  adapter error (exit 2), not a usage error (exit 3): the faux vendor module
  ``tests/helpers/faux/import_valueerror.py``.
"""

from __future__ import annotations

import importlib
import inspect
import pkgutil

import pytest

from tests import helpers

LAYERS = (
    "pokercert.reference",
    "pokercert.vectors",
    "pokercert.harness",
    "pokercert.reports",
    "pokercert.cli",
)
VENDOR = "py:tests.helpers.faux.import_valueerror:Evaluator"


def _public_exceptions() -> list[type[BaseException]]:
    """Every exception class defined (not just imported) by a module of the package,
    except private ones (``_Deadline``, ``_Failed``...: control flow, never raised out)."""
    found = []
    for layer in LAYERS:
        package = importlib.import_module(layer)
        names = [layer] + [m.name for m in pkgutil.walk_packages(package.__path__, layer + ".")]
        for name in names:
            if name.endswith("__main__"):
                continue
            module = importlib.import_module(name)
            for attr, obj in vars(module).items():
                if (
                    inspect.isclass(obj)
                    and issubclass(obj, BaseException)
                    and obj.__module__ == name
                    and not attr.startswith("_")
                ):
                    found.append(obj)
    return found


def test_every_public_exception_derives_from_the_one_root():
    from pokercert.reference.errors import PokercertError

    classes = _public_exceptions()
    assert len(classes) >= 15, classes  # the walk did find them
    outside = sorted(
        f"{c.__module__}.{c.__qualname__}" for c in classes if not issubclass(c, PokercertError)
    )
    assert not outside, f"not under PokercertError: {outside}"


def test_input_errors_are_usage_errors_and_report_refusals_are_verdicts():
    from pokercert.cli.main import ExitCode, exit_code_of
    from pokercert.cli.options import UsageError
    from pokercert.harness.adapters import AdapterAborted, AdapterError, SpecError
    from pokercert.harness.protocol import ProtocolError
    from pokercert.reference import CardError, RulesetError
    from pokercert.reports.canonical import ReportError
    from pokercert.reports.model import ReportRefused
    from pokercert.vectors.corpus import CorpusError

    assert [int(c) for c in ExitCode] == [0, 1, 2, 3]
    expected = {
        UsageError: ExitCode.USAGE,
        SpecError: ExitCode.USAGE,
        RulesetError: ExitCode.USAGE,
        ReportError: ExitCode.USAGE,
        ReportRefused: ExitCode.NONCOMPLIANT,
        AdapterError: ExitCode.ERROR,
        AdapterAborted: ExitCode.ERROR,
        ProtocolError: ExitCode.ERROR,
    }
    for kind, code in expected.items():
        assert exit_code_of(kind("x"))[0] is code, kind
    assert exit_code_of(CorpusError([]))[0] is ExitCode.USAGE
    assert exit_code_of(CardError("bad_card", "Zz: not a card"))[0] is ExitCode.USAGE
    assert exit_code_of(ValueError("x")) is None  # not ours: a bug, a traceback
    assert exit_code_of(KeyboardInterrupt()) is None


def test_library_code_keeps_value_error_where_callers_rely_on_it():
    """A card or ruleset the public API cannot parse is still a ValueError."""
    from pokercert.reference import CardError, RulesetError, parse_card

    assert issubclass(CardError, ValueError) and issubclass(RulesetError, ValueError)
    with pytest.raises(ValueError):
        parse_card("Zz")


@pytest.mark.parametrize("isolation", [["--in-process"], []], ids=["in-process", "isolated"])
def test_a_vendor_modules_value_error_at_import_is_an_adapter_error(
    isolation, tmp_path, monkeypatch, capsys
):
    from pokercert.cli.main import main

    monkeypatch.syspath_prepend(str(helpers.ROOT))  # tests.helpers, in process
    monkeypatch.setenv("PYTHONPATH", helpers.child_pythonpath())  # ... and in a child
    code = main(
        [
            "run",
            "--adapter",
            VENDOR,
            "--ruleset",
            "nj-mini-tex-pocket",
            "--out",
            str(tmp_path / "run"),
            "--no-report",
            *isolation,
        ]
    )
    err = capsys.readouterr().err
    assert code == 2, err
    assert "Traceback" not in err
    assert "bad calibration table" in err


def test_smoke_of_a_vendor_module_failing_at_import_is_an_adapter_error(monkeypatch, capsys):
    from pokercert.cli.main import main

    monkeypatch.syspath_prepend(str(helpers.ROOT))
    code = main(["smoke", "--adapter", VENDOR])
    err = capsys.readouterr().err
    assert code == 2, err
    assert "adapter error" in err and "ValueError" in err and "Traceback" not in err
