"""The pokercert pytest plugin: the corpus as a CI gate in an evaluator's own test suite.

::

    pytest --pokercert-adapter=py:mypkg.poker:Evaluator \\
           [--pokercert-ruleset nj-poker-high-5 ...] [--pokercert-profile practice|literal|FILE]
           [--pokercert-expect known-failures.toml] [--pokercert-corpus DIR]

collects one test per vector (the test's name is the vector id) next to the project's own
tests.  Each test carries markers for its ruleset, its flags and its kind, so ``-m wheel``
or ``-k "nj-poker-high-5 and not reject"`` select; a failure shows the inputs, expected vs
actual, every clause with our summary of it, and the vector's ``why``.  Vectors listed in
the expectations file (the format of ``pokercert run --expect``) are XFAIL while they
fail, and an XPASS fails the test so the list stays honest.  Works with pytest-xdist
(``-n auto``) and writes JUnit through pytest's own ``--junitxml``.

Scoring is the runner's (:func:`pokercert.harness.run.runner.score_vectors`), adapters come
from the one spec loader, the corpus from :func:`pokercert.vectors.corpus.load_corpus`.
Without ``--pokercert-adapter`` the plugin adds its options and does nothing else: it is
installed into every pytest run of every project that installs pokercert.

Bad input is one usage error before any test runs (pytest's exit code 4, one line): an
adapter spec that names nothing usable, an unknown ruleset, a bad profile or
expectations file, a timeout that is not a positive number.  An adapter that names
something real but does not start fails the first vector with the reason and stops the
session, instead of failing every vector the same way.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest

from pokercert.reference.errors import PokercertError

if TYPE_CHECKING:  # the heavy imports wait until the plugin is switched on
    from pokercert.harness.adapters import Adapter, Identity
    from pokercert.harness.run.results import Result
    from pokercert.vectors.corpus import Corpus
    from pokercert.vectors.model import Vector

PLUGIN_NAME = "pokercert-corpus"
NODE_NAME = "pokercert"


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
    """A vector's outcome is a failure; the item renders the result itself."""

    def __init__(self, result: Result | None, text: str) -> None:
        super().__init__(text)
        self.result = result
        self.text = text


class CorpusPlugin:
    """The plugin once switched on: options, the corpus, the adapter, the hooks."""

    def __init__(self, config: pytest.Config) -> None:
        from pokercert.harness.run.expectations import load_expectations
        from pokercert.reference import RulesetError, get_ruleset, load_profile

        self.config = config
        self.spec: str = config.getoption("pokercert_adapter")
        self.rulesets: list[str] | None = config.getoption("pokercert_ruleset")
        self.timeout: float = config.getoption("pokercert_timeout")
        corpus = config.getoption("pokercert_corpus")
        self.corpus_root = Path(corpus) if corpus else None
        expect = config.getoption("pokercert_expect")
        self.expect_path = Path(expect) if expect else None
        try:
            self.profile = load_profile(config.getoption("pokercert_profile"))
            for rid in self.rulesets or ():
                get_ruleset(rid)
            self.known = load_expectations(self.expect_path) if self.expect_path else {}
        except (RulesetError, ValueError) as exc:
            raise pytest.UsageError(f"pokercert: {exc}") from None
        self.corpus: Corpus | None = None
        self._adapter: Adapter | None = None
        self._identity: Identity | None = None
        self._broken = ""  # why the adapter cannot be used any more
        self._session: pytest.Session | None = None
        self._loaded = self._load_adapter()

    def _load_adapter(self) -> Adapter | None:
        """The adapter of ``--pokercert-adapter``, not started: a spec that names nothing
        usable (or an exec: command that is not there) is a usage error, found once here
        rather than by every vector."""
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
            return load_adapter(parsed, AdapterOptions(timeout=self.timeout))
        except SpecError as exc:
            raise pytest.UsageError(f"pokercert: {exc}") from None
        except AdapterError as exc:  # the evaluator's own constructor raised
            self._broken = f"the adapter {self.spec!r} does not start: {exc}"
            return None

    # ------------------------------------------------------------------ markers
    def markers(self) -> list[tuple[str, str]]:
        from pokercert.reference import all_rulesets
        from pokercert.vectors import registry
        from pokercert.vectors.model import KINDS

        out = [
            ("pokercert", "a pokercert corpus vector"),
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
        new = [
            VectorItem.from_parent(node, name=v.id, vector=v, plugin=self) for v in self.selected()
        ]
        items.extend(new)
        # let the terminal count them among the collected tests
        config.hook.pytest_collectreport(
            report=CollectReport(node.nodeid, "passed", None, list(new))
        )

    # ------------------------------------------------------------------ the adapter
    def _give_up(self, why: str) -> VectorFailed:
        """The adapter cannot be used: this vector fails with ``why`` and the session
        stops (every other vector would fail the same way)."""
        self._broken = why
        if self._session is not None:
            self._session.shouldstop = f"pokercert: {why}"
        return VectorFailed(None, why)

    def adapter(self) -> tuple[Adapter, Identity]:
        from pokercert.harness.adapters import AdapterError

        if self._broken:
            raise self._give_up(self._broken)
        if self._adapter is None:
            adapter = self._loaded
            assert adapter is not None
            try:
                self._identity = adapter.start()
            except AdapterError as exc:
                adapter.close()
                raise self._give_up(f"the adapter {self.spec!r} does not start: {exc}") from None
            self._adapter = adapter
        assert self._identity is not None
        return self._adapter, self._identity

    def score(self, vector: Vector) -> Result:
        """The runner's verdict on one vector (expectations file applied)."""
        from pokercert.harness.adapters import AdapterAborted
        from pokercert.harness.run.runner import score_vectors

        adapter, identity = self.adapter()
        try:
            batches = list(
                score_vectors(adapter, identity, [vector], self.profile, self.known, batch_size=1)
            )
        except AdapterAborted as exc:
            raise self._give_up(f"the harness gave up on the adapter: {exc}") from None
        (result,) = [r for batch in batches for r in batch]
        return result

    def pytest_sessionfinish(self) -> None:
        for adapter in (self._adapter, self._loaded):
            if adapter is not None:
                adapter.close()
        self._adapter = self._loaded = None

    # ------------------------------------------------------------------ reporting
    def pytest_report_header(self) -> list[str]:
        readings = self.profile.name
        return [
            f"pokercert: adapter {self.spec}, profile {readings}"
            + (f", rulesets {', '.join(self.rulesets)}" if self.rulesets else "")
            + (f", expectations {self.expect_path}" if self.expect_path else "")
        ]

    def pytest_terminal_summary(self, terminalreporter: Any) -> None:
        parts = []
        if self._identity is not None:
            ev = self._identity.evaluator
            parts.append(
                "evaluator "
                + " ".join(str(ev.get(k)) for k in ("vendor", "name", "version") if ev.get(k))
            )
        if self.corpus is not None:  # published, or "modified corpus (digest X; V is Y)"
            from pokercert.vectors.releases import corpus_status

            parts.append(corpus_status(self.corpus.version, self.corpus.sha256).words)
        if parts:
            terminalreporter.write_line(f"pokercert: {'; '.join(parts)}")


class CorpusNode(pytest.Collector):
    """The parent of every vector item (its node id is ``pokercert``)."""

    def collect(self) -> list[pytest.Item]:  # the items are made by the plugin's hook
        return []


class VectorItem(pytest.Item):
    """One corpus vector as a test."""

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
        self.result: Result | None = None

    def runtest(self) -> None:
        from pokercert.harness.run.results import Outcome

        result = self.result = self.plugin.score(self.vector)
        if result.outcome is Outcome.PASS:
            return
        if result.outcome is Outcome.NOT_APPLICABLE:
            pytest.skip(f"not applicable: {result.message}")
        if result.outcome is Outcome.XFAIL:
            pytest.xfail(
                f"known failure: {result.known_failure} ({result.scored_as}: {result.message})"
            )
        raise VectorFailed(result, describe(self.vector, result))

    def repr_failure(self, excinfo: pytest.ExceptionInfo[BaseException], style: Any = None) -> str:
        if isinstance(excinfo.value, VectorFailed):
            return excinfo.value.text
        return str(super().repr_failure(excinfo, style=style))

    def reportinfo(self) -> tuple[str, int | None, str]:
        loc = self.vector.location
        if loc is not None:
            return loc.file, max(loc.line - 1, 0), f"pokercert {self.vector.id}"
        return NODE_NAME, None, f"pokercert {self.vector.id}"


# --------------------------------------------------------------------------- messages
def _cards(value: Any) -> str:
    """Cards as written, hands joined by ' | ' (other values as Python shows them)."""
    if isinstance(value, str):
        return value
    if isinstance(value, Sequence) and all(isinstance(v, str) for v in value):
        return " | ".join(value)
    return str(value)


def _fields(data: Any) -> str:
    if not isinstance(data, dict):
        return repr(data)
    return ", ".join(f"{k}={_cards(v)}" for k, v in data.items())


def describe(vector: Vector, result: Result) -> str:
    """The failure text: what was asked, expected vs actual, the rules and why."""
    from pokercert.reference import RulesetError, get_ruleset

    rs = get_ruleset(vector.ruleset)
    where = f" ({vector.location})" if vector.location else ""
    lines = [f"{result.outcome} {vector.id}{where}"]
    if result.scored_as:
        lines.append(f"  listed as a known failure: {result.known_failure}")
        lines.append("  it passed: remove it from the expectations file")
    if result.message:
        lines.append(f"  {result.message}")
    lines.append(f"  kind:      {vector.kind}")
    for key, value in vector.inputs.items():
        lines.append(f"  {key + ':':10} {_cards(value)}")
    lines.append(f"  expected:  {_fields(result.expected)}")
    lines.append(f"  actual:    {_fields(result.actual) if result.actual is not None else '-'}")
    if result.readings:
        lines.append("  readings:  " + ", ".join(f"{k}={v}" for k, v in result.readings.items()))
    for label in vector.clauses:
        try:
            summary = rs.clause(label).summary
        except RulesetError:
            summary = "(not a clause of this ruleset)"
        lines.append(f"  clause:    {label}: {summary}")
    lines.append(f"  why:       {vector.why}")
    lines.append(f"  flags:     {', '.join(vector.flags)}")
    if result.stderr:
        excerpt = result.stderr.strip().splitlines()[-10:]
        lines.append("  stderr:    " + "\n             ".join(excerpt))
    return "\n".join(lines)
