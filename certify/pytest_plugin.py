"""The pokercert pytest plugin: a certification as a CI gate in an evaluator's own tests.

::

    pytest --pokercert-adapter=py:mypkg.poker:Evaluator \\
           [--pokercert-ruleset nj-poker-high-5 ...] [--pokercert-profile practice|literal|FILE]
           [--pokercert-expect known-failures.toml] [--pokercert-corpus DIR]
           [--pokercert-out DIR]

collects one test per vector (the test's name is the vector id) next to the project's own
tests, and one more, ``pokercert::verdict``.  The first of them to run runs the
certification (:class:`pokercert.certify.gate.Gate`: :func:`pokercert.certify.certify`,
as ``pokercert run --in-process --no-challenge`` with these options, into a run folder
with its sealed report); each vector's test then takes its outcome from the sealed
report, and the verdict test fails unless the run's exit code is 0 (the same number
``pokercert run`` exits with, and the session's exit status when pytest's own is 0 or 1).

Each test carries markers for its ruleset, its flags and its kind, so ``-m wheel`` or
``-k "nj-poker-high-5 and not reject"`` select (the verdict test is marked ``pokercert``
only); a failure shows the inputs, expected vs actual, every clause with our summary of
it, and the vector's ``why``.  Vectors listed in the expectations file (the format of
``pokercert run --expect``) are XFAIL while they fail, and an XPASS fails the test so the
list stays honest.  Runs under pytest-xdist (each worker certifies in a folder of its
own) and writes JUnit through pytest's own ``--junitxml``.  Without
``--pokercert-adapter`` the plugin adds its options and does nothing else: it is
installed into every pytest run of every project that installs pokercert.

Bad input is one usage error before any test runs (pytest's exit code 4, one line): an
adapter spec that names nothing usable, an unknown ruleset, a bad profile or
expectations file, a timeout that is not a positive number.  A certification that
cannot run (an adapter that names something real but does not start, a run folder
that holds another run) fails the first test with the reason and stops the session.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest

from pokercert.reference.errors import PokercertError

if TYPE_CHECKING:  # the heavy imports wait until the plugin is switched on
    from pokercert.certify.gate import Gate
    from pokercert.harness.run.results import Result
    from pokercert.vectors.corpus import Corpus
    from pokercert.vectors.model import Vector

PLUGIN_NAME = "pokercert-corpus"
NODE_NAME = "pokercert"
VERDICT_NAME = "verdict"  # pokercert::verdict (no vector id is a bare word)


def pytest_addoption(parser: pytest.Parser) -> None:
    group = parser.getgroup("pokercert", "pokercert: certify a poker hand evaluator")
    group.addoption(
        "--pokercert-adapter",
        metavar="SPEC",
        default=None,
        help="run the pokercert corpus against this adapter: an installed "
        "adapter's NAME, py:module:attr or exec:COMMAND (nothing happens without it)",
    )
    group.addoption(
        "--pokercert-ruleset",
        action="append",
        metavar="ID",
        default=None,
        help="only vectors of this ruleset (repeatable; default: every ruleset)",
    )
    group.addoption(
        "--pokercert-profile",
        metavar="PROFILE",
        default="practice",
        help="interpretation profile: practice (default), literal, or a TOML file",
    )
    group.addoption(
        "--pokercert-expect",
        metavar="FILE",
        default=None,
        help="expectations file of known failures: listed vectors are XFAIL, "
        "and one that passes (XPASS) fails",
    )
    group.addoption(
        "--pokercert-corpus",
        metavar="DIR",
        default=None,
        help="corpus folder (default: the corpus installed with pokercert)",
    )
    group.addoption(
        "--pokercert-out",
        metavar="DIR",
        default=None,
        help="run folder of the certification, with its sealed report (a fresh folder; "
        "default: a new temporary folder, named in the summary; under pytest-xdist "
        "DIR/<worker>)",
    )
    group.addoption(
        "--pokercert-timeout",
        metavar="S",
        type=_positive_seconds,
        default=10.0,
        help="per-request timeout in seconds (default: 10)",
    )


def _positive_seconds(text: str) -> float:
    """``--pokercert-timeout``: a finite number of seconds greater than 0."""
    import argparse
    import math

    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a number of seconds, got {text!r}") from None
    if not math.isfinite(value) or value <= 0:
        raise argparse.ArgumentTypeError(
            f"must be a number of seconds greater than 0, got {text!r}"
        )
    return value


def pytest_configure(config: pytest.Config) -> None:
    if not config.getoption("pokercert_adapter", default=None):
        return
    plugin = CorpusPlugin(config)
    for name, text in plugin.markers():
        config.addinivalue_line("markers", f"{name}: {text}")
    config.pluginmanager.register(plugin, PLUGIN_NAME)


class VectorFailed(PokercertError):
    """A test of the gate fails; the item renders ``text`` itself."""

    def __init__(self, text: str) -> None:
        super().__init__(text)
        self.text = text


class CorpusPlugin:
    """The plugin once switched on: options, the corpus, the gate, the hooks."""

    def __init__(self, config: pytest.Config) -> None:
        from pokercert.harness.run.expectations import load_expectations
        from pokercert.reference import RulesetError, get_ruleset, load_profile

        self.config = config
        self.spec: str = config.getoption("pokercert_adapter")
        self.rulesets: list[str] | None = config.getoption("pokercert_ruleset")
        self.timeout: float = config.getoption("pokercert_timeout")
        self.profile_name: str = config.getoption("pokercert_profile")
        corpus = config.getoption("pokercert_corpus")
        self.corpus_root = Path(corpus) if corpus else None
        expect = config.getoption("pokercert_expect")
        self.expect_path = Path(expect) if expect else None
        try:
            self.profile = load_profile(self.profile_name)
            for rid in self.rulesets or ():
                get_ruleset(rid)
            self.known = load_expectations(self.expect_path) if self.expect_path else {}
        except (RulesetError, ValueError) as exc:
            raise pytest.UsageError(f"pokercert: {exc}") from None
        self._check_spec()
        self.corpus: Corpus | None = None
        self._gate: Gate | None = None
        self._session: pytest.Session | None = None
        self.exit_code: int | None = None  # the run's, once the verdict test has run

    def _check_spec(self) -> None:
        """A spec that names nothing usable (or an exec: command that is not there) is a
        usage error, found once here rather than by every test.  The adapter is loaded
        (a py: module imported), not started; the certification loads its own."""
        import shutil

        from pokercert.harness.adapters import (
            AdapterError,
            AdapterOptions,
            SpecError,
            load_adapter,
            parse_spec,
        )

        try:
            parsed = parse_spec(self.spec)
            if parsed.kind == "exec" and shutil.which(parsed.argv[0]) is None:
                raise SpecError(f"adapter spec {self.spec!r}: command {parsed.argv[0]!r} not found")
            load_adapter(parsed, AdapterOptions(timeout=self.timeout)).close()
        except SpecError as exc:
            raise pytest.UsageError(f"pokercert: {exc}") from None
        except AdapterError:  # the evaluator's own constructor raised: the gate says so
            pass

    # ------------------------------------------------------------------ markers
    def markers(self) -> list[tuple[str, str]]:
        from pokercert.reference import all_rulesets
        from pokercert.vectors import registry
        from pokercert.vectors.model import KINDS

        out = [
            ("pokercert", "a pokercert corpus vector, or the certification's verdict"),
            *((k, f"pokercert vectors of kind {k}") for k in KINDS),
            *((rs.id, f"pokercert vectors of ruleset {rs.id}") for rs in all_rulesets()),
        ]
        try:
            flags = registry.flags(self.corpus_root)
        except OSError:
            flags = {}
        out.extend(
            (flag, f"pokercert vectors flagged {flag}: {text}") for flag, text in flags.items()
        )
        return out

    # ------------------------------------------------------------------ collection
    def load_corpus(self) -> Corpus:
        if self.corpus is None:
            from pokercert.harness.run.expectations import check_against
            from pokercert.vectors.corpus import CorpusError, load_corpus

            try:
                self.corpus = load_corpus(self.corpus_root)
                if self.expect_path is not None:
                    check_against(self.known, self.corpus.by_id, str(self.expect_path))
            except CorpusError as exc:
                raise pytest.UsageError(f"pokercert: the corpus does not load:\n{exc}") from None
            except ValueError as exc:
                raise pytest.UsageError(f"pokercert: {exc}") from None
        return self.corpus

    def selected(self) -> list[Vector]:
        corpus = self.load_corpus()
        try:
            return corpus.select(rulesets=self.rulesets)
        except ValueError as exc:
            raise pytest.UsageError(f"pokercert: {exc}") from None

    @pytest.hookimpl(tryfirst=True)  # before -k/-m deselection sees the items
    def pytest_collection_modifyitems(
        self, session: pytest.Session, config: pytest.Config, items: list[pytest.Item]
    ) -> None:
        from _pytest.reports import CollectReport

        self._session = session
        node = CorpusNode.from_parent(session, name=NODE_NAME, nodeid=NODE_NAME)
        new: list[pytest.Item] = [
            VectorItem.from_parent(node, name=v.id, vector=v, plugin=self) for v in self.selected()
        ]
        new.append(VerdictItem.from_parent(node, name=VERDICT_NAME, plugin=self))
        items.extend(new)
        # let the terminal count them among the collected tests
        config.hook.pytest_collectreport(
            report=CollectReport(node.nodeid, "passed", None, list(new))
        )

    # ------------------------------------------------------------------ the gate
    def gate(self) -> Gate:
        """The session's gate (its certification runs when a test first asks)."""
        if self._gate is None:
            from pokercert.certify.gate import Gate, GateOptions

            self._gate = Gate(
                GateOptions(
                    spec=self.spec,
                    profile=self.profile_name,
                    timeout=self.timeout,
                    out=self._out(),
                    rulesets=self.rulesets,
                    expect=self.expect_path,
                    corpus=self.load_corpus() if self.corpus_root else None,
                    command=["pytest", *self.config.invocation_params.args],
                )
            )
        return self._gate

    def _out(self) -> Path:
        """The run folder: ``--pokercert-out`` (a worker's own folder in it under
        pytest-xdist), or a new temporary folder."""
        import tempfile

        given = self.config.getoption("pokercert_out")
        worker = getattr(self.config, "workerinput", {}).get("workerid")
        if not given:
            return Path(tempfile.mkdtemp(prefix="pokercert-gate-")) / "run"
        return Path(given) / worker if worker else Path(given)

    def outcome(self, vector_id: str) -> tuple[str | None, Result | None]:
        """The sealed report's outcome of a vector and its scored result; a
        certification that did not run fails this test and stops the session."""
        from pokercert.certify.gate import GateBroken

        try:
            return self.gate().outcome(vector_id)
        except GateBroken as exc:
            if self._session is not None:
                self._session.shouldstop = f"pokercert: {exc}"
            raise VectorFailed(str(exc)) from None

    # ------------------------------------------------------------------ reporting
    def pytest_runtest_logreport(self, report: pytest.TestReport) -> None:
        """The run's exit code, from the verdict test's report (sent back by an xdist
        worker too)."""
        if report.when == "call" and report.nodeid == f"{NODE_NAME}::{VERDICT_NAME}":
            for name, value in report.user_properties:
                if name == "exit_code":
                    self.exit_code = int(str(value))

    @pytest.hookimpl(trylast=True)
    def pytest_sessionfinish(self, session: pytest.Session) -> None:
        """The session exits with the run's exit code where pytest's own says less
        (0 or 1): a run that did not finish is 2, as ``pokercert run`` exits."""
        code = self.exit_code
        if code and int(session.exitstatus) in (0, 1):
            session.exitstatus = max(int(session.exitstatus), code)

    def pytest_report_header(self) -> list[str]:
        readings = self.profile.name
        return [
            f"pokercert: adapter {self.spec}, profile {readings}"
            + (f", rulesets {', '.join(self.rulesets)}" if self.rulesets else "")
            + (f", expectations {self.expect_path}" if self.expect_path else "")
        ]

    def pytest_terminal_summary(self, terminalreporter: Any) -> None:
        done = self._gate.done if self._gate is not None else None
        if done is None:
            return
        from pokercert.vectors.releases import corpus_status

        ev, header = done.header.evaluator, done.header
        terminalreporter.write_line(
            "pokercert: evaluator "
            + " ".join(str(ev.get(k)) for k in ("vendor", "name", "version") if ev.get(k))
            # published, or "modified corpus (digest X; V is Y)"
            + f"; {corpus_status(header.corpus_version, header.corpus_sha256).words}"
        )
        where = done.folder / "report.json" if done.written else done.folder
        terminalreporter.write_line(
            f"pokercert: {done.verdict} (run exit code {int(done.exit_code)}); "
            f"sealed report {where}"
        )


class CorpusNode(pytest.Collector):
    """The parent of every test of the gate (its node id is ``pokercert``)."""

    def collect(self) -> list[pytest.Item]:  # the items are made by the plugin's hook
        return []


class GateItem(pytest.Item):
    """A test of the gate: renders a :class:`VectorFailed` as its text."""

    plugin: CorpusPlugin

    def repr_failure(self, excinfo: pytest.ExceptionInfo[BaseException], style: Any = None) -> str:
        if isinstance(excinfo.value, VectorFailed):
            return excinfo.value.text
        return str(super().repr_failure(excinfo, style=style))


class VectorItem(GateItem):
    """One corpus vector as a test: its outcome is the sealed report's."""

    def __init__(self, *, vector: Vector, plugin: CorpusPlugin, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.vector = vector
        self.plugin = plugin
        for name in ("pokercert", vector.ruleset, vector.kind, *vector.flags):
            self.add_marker(name)
        self.user_properties.extend(
            [
                ("clauses", " ".join(vector.clauses)),
                ("flags", " ".join(vector.flags)),
                ("why", vector.why),
            ]
        )

    def runtest(self) -> None:
        from pokercert.certify.gate import describe
        from pokercert.harness.run.results import Outcome

        outcome, result = self.plugin.outcome(self.vector.id)
        if outcome is None or result is None:
            raise VectorFailed(self.plugin.gate().not_scored(self.vector.id))
        if outcome == Outcome.PASS:
            return
        if outcome == Outcome.NOT_APPLICABLE:
            pytest.skip(f"not applicable: {result.message}")
        if outcome == Outcome.XFAIL:
            pytest.xfail(
                f"known failure: {result.known_failure} ({result.scored_as}: {result.message})"
            )
        raise VectorFailed(describe(self.vector, outcome, result))

    def reportinfo(self) -> tuple[str, int | None, str]:
        loc = self.vector.location
        if loc is not None:
            return loc.file, max(loc.line - 1, 0), f"pokercert {self.vector.id}"
        return NODE_NAME, None, f"pokercert {self.vector.id}"


class VerdictItem(GateItem):
    """The certification's verdict as a test: it passes when the run's exit code is 0."""

    def __init__(self, *, plugin: CorpusPlugin, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.plugin = plugin
        self.add_marker("pokercert")

    def runtest(self) -> None:
        from pokercert.certify.gate import GateBroken, verdict_text

        try:
            done = self.plugin.gate().certification()
        except GateBroken as exc:
            raise VectorFailed(str(exc)) from None
        self.user_properties.extend([("verdict", done.verdict), ("exit_code", int(done.exit_code))])
        if int(done.exit_code):
            raise VectorFailed(verdict_text(done))

    def reportinfo(self) -> tuple[str, int | None, str]:
        return NODE_NAME, None, f"pokercert {VERDICT_NAME}"
