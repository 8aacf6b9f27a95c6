"""Adapter specs: the one syntax for naming an evaluator (CLI, pytest plugin, reports).

* ``NAME``: a shipped or installed adapter, registered in the ``pokercert.adapters``
  entry-point group (``reference``, ``pokerkit``, ``treys``, ...);
* ``py:package.module:attr``: a Python object in this process (``module:attr`` without
  the prefix is accepted as the same thing);
* ``exec:COMMAND LINE``: a child process speaking the JSON Lines protocol, the command
  line split like a POSIX shell would (``exec:node "my dir/adapter.js" --fast``).

For ``py:`` and entry points, ``attr`` may be a class (instantiated without arguments),
a factory function (called without arguments) or a ready evaluator object.
"""

from __future__ import annotations

import importlib
import inspect
import os
import re
import shlex
import sys
from dataclasses import dataclass, field
from importlib.metadata import entry_points
from pathlib import Path
from typing import Any

from pokercert.harness import __version__
from pokercert.harness.adapters.base import Adapter, AdapterError, Identity
from pokercert.harness.adapters.inprocess import InProcessAdapter
from pokercert.harness.adapters.process import ProcessAdapter
from pokercert.harness.adapters.sandbox import BRIDGED
from pokercert.reference.errors import InputError
from pokercert.reference.names import unknown_name

ENTRY_POINT_GROUP = "pokercert.adapters"
BUNDLED = "reference"  # the one adapter that always runs in process (it is ours)
PROCESS, IN_PROCESS = "process", "in-process"
_NAME = re.compile(r"^[A-Za-z][A-Za-z0-9_.-]*$")
_PYREF = re.compile(r"^[A-Za-z_][\w.]*:[A-Za-z_][\w.]*$")


class SpecError(InputError, ValueError):
    """An adapter spec that names nothing usable (a usage error, exit code 3)."""


@dataclass(frozen=True)
class AdapterSpec:
    """A parsed spec: ``kind`` is ``name``, ``py`` or ``exec``."""

    text: str
    kind: str
    target: str  # entry-point name, "module:attr", or the command line
    argv: tuple[str, ...] = ()  # exec only

    def __str__(self) -> str:
        return self.text


@dataclass
class AdapterOptions:
    """How the harness treats the adapter (limits apply to ``exec:`` children)."""

    timeout: float = 10.0  # per request, seconds
    run_deadline: float | None = None  # time.monotonic() deadline of the whole run
    attachments: Path | None = None  # where stderr captures go
    max_restarts: int = 50
    max_memory_mb: int | None = None
    max_cpu_s: int | None = None
    extra: dict[str, Any] = field(default_factory=dict)
    # run py: and named adapters (other than the bundled reference) in a child process
    # through the serve bridge; False: in this process (the fast path, not isolated)
    isolate: bool = False
    # run an exec: adapter in the sandbox (harness/adapters/sandbox.py); False: --no-sandbox
    sandbox: bool = True
    # observe the code an exec: adapter's processes load (harness/adapters/trace.py), for
    # the run's measured identity
    observe_code: bool = False


def parse_spec(text: str) -> AdapterSpec:
    """Parse an adapter spec; :class:`SpecError` says what is wrong with it."""
    raw = text.strip()
    if raw.startswith("exec:"):
        line = raw[5:].strip()
        try:
            argv = tuple(shlex.split(line))
        except ValueError as exc:
            raise SpecError(
                f"adapter spec {text!r}: cannot split the command line: {exc}"
            ) from None
        if not argv:
            raise SpecError(f"adapter spec {text!r}: exec: needs a command line")
        return AdapterSpec(raw, "exec", line, argv)
    if raw.startswith("py:"):
        ref = raw[3:].strip()
        if not _PYREF.match(ref):
            raise SpecError(f"adapter spec {text!r}: expected py:package.module:attr")
        return AdapterSpec(raw, "py", ref)
    if _PYREF.match(raw):
        return AdapterSpec(raw, "py", raw)
    if _NAME.match(raw):
        return AdapterSpec(raw, "name", raw)
    raise SpecError(f"adapter spec {text!r} is not an adapter name, py:module:attr or exec:COMMAND")


def shipped_adapters() -> dict[str, str]:
    """Adapter name -> ``module:attr`` for every adapter registered as an entry point."""
    return {ep.name: ep.value for ep in entry_points(group=ENTRY_POINT_GROUP)}


def _import(ref: str, spec: str) -> Any:
    module_name, _, attr = ref.partition(":")
    try:
        module = importlib.import_module(module_name)
    except ModuleNotFoundError as exc:
        missing = exc.name or module_name
        if module_name == missing or module_name.startswith(missing + "."):
            raise SpecError(f"adapter {spec!r}: no module named {module_name!r}") from None
        hint = ""
        if module_name.startswith("pokercert.harness.peers."):
            extra = module_name.rsplit(".", 1)[1]
            hint = f"; install it with: pip install 'pokercert[{extra}]'"
        raise SpecError(
            f"adapter {spec!r} needs the package {missing!r}, which is not installed{hint}"
        ) from None
    except Exception as exc:  # the vendor's module itself failed: not a usage error
        raise AdapterError(
            f"adapter {spec!r}: importing {module_name} raised {type(exc).__name__}: {exc}"
        ) from exc
    obj: Any = module
    for part in attr.split("."):
        try:
            obj = getattr(obj, part)
        except AttributeError:
            raise SpecError(f"adapter {spec!r}: {module_name} has no attribute {attr!r}") from None
    return obj


def instantiate(obj: Any, spec: str) -> Any:
    """A class is instantiated, a factory called, an evaluator object used as it is."""
    if hasattr(obj, "capabilities") and not inspect.isclass(obj):
        return obj
    if callable(obj):
        try:
            return obj()
        except Exception as exc:
            raise AdapterError(
                f"adapter {spec!r}: creating the evaluator raised {type(exc).__name__}: {exc}"
            ) from exc
    raise SpecError(
        f"adapter {spec!r} names {obj!r}, which is neither an evaluator, a class nor a factory"
    )


def resolve(spec: AdapterSpec) -> tuple[Any, str, str]:
    """The evaluator object of a ``name`` or ``py`` spec, with its adapter name and version."""
    if spec.kind == "name":
        known = shipped_adapters()
        if spec.target not in known:
            raise SpecError(
                f"{unknown_name('adapter', spec.target, sorted(known))} (or "
                "use py:module:attr, exec:COMMAND)"
            )
        ref = known[spec.target]
        name = spec.target
    else:
        ref = spec.target
        name = ref
    obj = instantiate(_import(ref, spec.text), spec.text)
    version = getattr(obj, "adapter_version", None) or _module_version(ref)
    return obj, name, version


def _module_version(ref: str) -> str:
    module_name = ref.partition(":")[0]
    if module_name.startswith("pokercert."):
        return __version__
    top = importlib.import_module(module_name.split(".")[0])
    return str(getattr(top, "__version__", ""))


def isolation_of(spec: str | AdapterSpec, isolate: bool) -> str:
    """``"process"`` if the evaluator a spec names runs in a child process (``exec:``
    always; ``py:`` and named adapters other than the bundled reference when
    ``isolate``), else ``"in-process"``."""
    parsed = parse_spec(spec) if isinstance(spec, str) else spec
    if parsed.kind == "exec":
        return PROCESS
    if parsed.kind == "name" and parsed.target == BUNDLED:
        return IN_PROCESS
    return PROCESS if isolate else IN_PROCESS


def load_adapter(spec: str | AdapterSpec, options: AdapterOptions | None = None) -> Adapter:
    """The adapter a spec names, not started yet (call ``start()`` or use ``with``).

    With ``options.isolate``, a ``py:`` or named evaluator (not the bundled reference) is
    served from a child process by the ``serve`` bridge (:class:`BridgedAdapter`)."""
    parsed = parse_spec(spec) if isinstance(spec, str) else spec
    opts = options or AdapterOptions()
    if parsed.kind == "exec":
        return ProcessAdapter(
            parsed.argv,
            parsed.text,
            timeout=opts.timeout,
            run_deadline=opts.run_deadline,
            attachments=opts.attachments,
            max_restarts=opts.max_restarts,
            max_memory_mb=opts.max_memory_mb,
            max_cpu_s=opts.max_cpu_s,
            sandbox=opts.sandbox,
            observe_code=opts.observe_code,
        )
    if isolation_of(parsed, opts.isolate) == PROCESS:
        if parsed.kind == "name" and parsed.target not in shipped_adapters():
            resolve(parsed)  # the usage error, said in this process
        return BridgedAdapter(parsed, opts)
    evaluator, name, version = resolve(parsed)
    return InProcessAdapter(evaluator, parsed.text, name, version, timeout=opts.timeout)


def _child_pythonpath() -> str:
    """This process's import path as PYTHONPATH, so the bridge imports what ``py:`` would
    import here (the working directory of the child is another one)."""
    entries = [os.path.abspath(p or os.curdir) for p in sys.path]
    old = os.environ.get("PYTHONPATH")
    return os.pathsep.join(dict.fromkeys([*entries, *([old] if old else [])]))


class BridgedAdapter(ProcessAdapter):
    """A ``py:`` or named evaluator run in a child process by the ``serve`` bridge
    (``python -m pokercert.harness.adapters.serve --bridge SPEC``), contained like any
    ``exec:`` adapter: timeouts kill it, crashes and ``sys.exit`` are its own, and it
    cannot patch the harness.  A spec the child cannot resolve is a usage error here."""

    def __init__(self, spec: AdapterSpec, opts: AdapterOptions) -> None:
        env = dict(os.environ)
        env["PYTHONPATH"] = _child_pythonpath()
        super().__init__(
            [sys.executable, "-m", "pokercert.harness.adapters.serve", "--bridge", spec.text],
            spec.text,
            timeout=opts.timeout,
            run_deadline=opts.run_deadline,
            attachments=opts.attachments,
            max_restarts=opts.max_restarts,
            max_memory_mb=opts.max_memory_mb,
            max_cpu_s=opts.max_cpu_s,
            env=env,
        )
        self.sandbox = BRIDGED  # the bridge imports pokercert: only exec: is sandboxed

    def start(self) -> Identity:
        try:
            return super().start()
        except AdapterError:
            proc = self._proc
            said = self._stderr.since(0) if self._stderr else ""
            lines = [ln for ln in said.splitlines() if ln.startswith("serve: ")]
            if proc is not None and proc.returncode == 3 and lines:
                raise SpecError(lines[-1][len("serve: ") :]) from None
            raise
