"""Measured identity: what the harness actually ran, hashed by the harness itself.

The evaluator's ``hello`` (or ``info``) says who it is; nothing there is checked.  This
module measures instead, from the files on disk, without running any vendor code:

* ``exec:`` specs: the SHA-256 of the executable (``argv[0]`` looked up on ``PATH``,
  symlinks resolved, the real path recorded), of every other argv element that names an
  existing regular file (``exec:node adapter.js`` hashes ``node`` and ``adapter.js``),
  of every ``--identity`` path the lab names (a folder: each regular file in it, sorted,
  and the folder as one tree hash, :func:`tree_sha256`), of every file in the
  ``identity`` manifest of the adapter's ``hello`` (absolute paths only; the list is the
  vendor's, the hashes are ours) and of every file the adapter's processes were seen to
  open read-only, map or execute (``loaded``; seen from outside by
  :mod:`pokercert.harness.adapters.trace`, given to :func:`measure` as ``observed``).
* ``py:`` specs and adapter names: the module's installed distribution, and those of the
  top-level packages the module imports (read from its source with :mod:`ast`, not by
  importing it): name, version and every file in ``RECORD``, each hashed and checked
  against ``RECORD`` (a file whose bytes differ is ``modified``; a file ``RECORD`` lists
  with a hash but that is gone is ``missing``; a file without a hash in ``RECORD``, such
  as ``RECORD`` itself, is hashed by us, except compiled ``.pyc`` files, which the
  installer or Python itself writes and rewrites).  A module that no
  ``RECORD`` covers (an editable install, a folder on ``sys.path``) is measured by the
  ``.py`` files of its package folder, sorted.

Limits (also in ``harness/README.md``): without an observation of the processes (not
Linux), only whole argv elements that name files are hashed (``--config=x.json`` is not;
``exec:python -m pkg`` hashes the interpreter only: list ``pkg`` with ``--identity``); a
``py:`` module's imports are followed one level (the module's own imports), and the
standard library is not measured.

:func:`measure` returns a plain JSON-able dict (``run.json``'s ``measured_identity``):
``kind``, ``digest`` (:func:`_digest`: SHA-256 over the kind, each named file's
comparison name and hash, each distribution's name and version, and the sorted hashes
of the loaded files: paths on this machine are left out, so the same bytes installed
elsewhere give the same digest), ``files``, ``distributions``, ``identity_files`` (as
given), ``problems``, ``cost``, ``observed`` (how the processes were observed, for an
``exec:`` adapter) and ``coverage`` (what it covers, in words:
:mod:`pokercert.harness.identity_coverage`).  :func:`differences` names what differs
between two measurements.
"""

from __future__ import annotations

import ast
import hashlib
import json
import os
import shutil
import stat
import sys
import threading
import time
from base64 import urlsafe_b64decode
from collections import Counter
from collections.abc import Callable, Iterable, Mapping, Sequence
from importlib.machinery import ModuleSpec
from importlib.metadata import Distribution, PackageNotFoundError, distribution
from pathlib import Path
from typing import Any

from pokercert.harness.adapters.trace import CODE_SUFFIXES, OPENED, Observed
from pokercert.harness.identity_coverage import coverage_of
from pokercert.reference.errors import InputError

EXEC, PYTHON = "exec", "python"
# file roles
EXECUTABLE, ARGUMENT, IDENTITY_FILE, MANIFEST = (
    "executable",
    "argument",
    "identity-file",
    "manifest",
)
DISTRIBUTION, MODULE = "distribution", "module"
IDENTITY_TREE = "identity-tree"  # a folder given with --identity: one hash over its tree
LOADED = "loaded"  # opened, mapped or executed by the adapter's processes
# which loaded files :func:`differences` compares
ALL_LOADED, COMMON_LOADED, NO_LOADED = "all", "common", "none"
# file statuses
OK, MODIFIED, MISSING, ABSENT, NOT_A_FILE = "ok", "modified", "missing", "absent", "not-a-file"
_CHUNK = 1 << 20


class IdentityError(InputError, ValueError):
    """A file the lab named for measuring does not exist (a usage error, exit code 3)."""


def _sha256(path: Path) -> tuple[str, int]:
    """SHA-256 (hex) and size of a file's bytes."""
    h = hashlib.sha256()
    size = 0
    with path.open("rb") as fh:
        while chunk := fh.read(_CHUNK):
            h.update(chunk)
            size += len(chunk)
    return h.hexdigest(), size


class _Measure:
    """Collects file entries, distributions and problems of one measurement."""

    def __init__(self, kind: str) -> None:
        self.kind = kind
        self.files: dict[str, dict[str, Any]] = {}
        self.distributions: dict[str, dict[str, Any]] = {}
        self.problems: list[str] = []
        self.bytes = 0
        self._hashed: dict[str, tuple[str, int]] = {}  # real path -> (SHA-256, size)

    def hash(self, path: Path) -> tuple[str, int]:
        """SHA-256 and size of a file, read once per measurement (the launcher is often
        also a file its process executed)."""
        key = str(path)
        if key not in self._hashed:
            self._hashed[key] = _sha256(path)
            self.bytes += self._hashed[key][1]
        return self._hashed[key]

    def file(
        self, name: str, role: str, path: Path, given: str = "", record: str | None = None
    ) -> dict[str, Any]:
        """Hash ``path`` as entry ``name`` (``record``: the hash RECORD gives, if any)."""
        if name in self.files:
            return self.files[name]
        entry: dict[str, Any] = {
            "name": name,
            "role": role,
            "path": str(path),
            "sha256": None,
            "size": None,
            "status": OK,
        }
        if given:
            entry["given"] = given
        try:
            real = path.resolve()
            entry["path"] = str(real)
            if not real.is_file():
                entry["status"] = (
                    NOT_A_FILE
                    if real.exists()
                    else (ABSENT if role == DISTRIBUTION and record is None else MISSING)
                )
            else:
                entry["sha256"], entry["size"] = self.hash(real)
        except OSError as exc:
            entry["status"] = MISSING
            self.problems.append(f"{name}: cannot read {path} ({exc.strerror or exc})")
        if record is not None and entry["sha256"] is not None and entry["sha256"] != record:
            entry["status"] = MODIFIED
            entry["record_sha256"] = record
        if entry["status"] in (MODIFIED, MISSING, NOT_A_FILE):
            what = {
                MODIFIED: "its bytes differ from the hash in RECORD",
                MISSING: "listed but missing",
                NOT_A_FILE: "not a regular file",
            }
            self.problems.append(f"{name}: {what[entry['status']]} ({entry['path']})")
        self.files[name] = entry
        return entry

    def folder(
        self, prefix: str, role: str, root: Path, given: str, suffixes: tuple[str, ...] = ()
    ) -> list[tuple[str, dict[str, Any]]]:
        """Every regular file under ``root`` (sorted; symlinked folders not followed);
        returns each one's path relative to ``root`` and its entry."""
        found: list[Path] = []
        for here, dirs, names in os.walk(root):
            dirs[:] = sorted(d for d in dirs if d != "__pycache__" or not suffixes)
            found += [Path(here) / n for n in names if not suffixes or n.endswith(suffixes)]
        out = []
        for path in sorted(found, key=lambda p: p.relative_to(root).as_posix()):
            if path.is_file():
                rel = path.relative_to(root).as_posix()
                out.append((rel, self.file(f"{prefix}/{rel}", role, path, given)))
        return out

    def tree(self, given: str, root: Path) -> None:
        """A folder named with ``--identity``: each file (``GIVEN/REL``) and one entry
        ``tree:GIVEN`` whose SHA-256 is :func:`tree_sha256` of the folder."""
        prefix = given.rstrip("/") or "/"
        listed = self.folder(prefix, IDENTITY_FILE, root, given)
        self.files[f"tree:{prefix}"] = {
            "name": f"tree:{prefix}",
            "role": IDENTITY_TREE,
            "path": str(root.resolve()),
            "given": given,
            "sha256": tree_sha256((rel, e["sha256"] or "") for rel, e in listed),
            "size": sum(e["size"] or 0 for _, e in listed),
            "status": OK,
        }

    def loaded(self, observed: Observed) -> None:
        """Hash the files the adapter's processes opened, mapped or executed, each read
        where the harness can reach it (through /proc/PID/root for a sandboxed one)."""
        for seen in observed.files:
            name = f"loaded:{seen.path}"
            if name in self.files:
                continue
            entry: dict[str, Any] = {
                "name": name,
                "role": LOADED,
                "path": seen.path,
                "seen": seen.how,
                "sha256": None,
                "size": None,
                "status": OK,
            }
            try:
                if not stat.S_ISREG(os.stat(seen.read_as).st_mode):
                    continue  # a folder, a device: not code
                entry["sha256"], entry["size"] = self.hash(Path(seen.read_as))
            except OSError:
                if seen.how == OPENED and not seen.path.endswith(CODE_SUFFIXES):
                    continue  # a data file the adapter removed again
                entry["status"] = MISSING
                self.problems.append(f"{name}: gone before the harness could hash it")
            self.files[name] = entry
        self.problems.extend(observed.problems)

    def result(
        self,
        started: float,
        identity_files: Sequence[str],
        observed: Observed | None,
        in_process: bool,
    ) -> dict[str, Any]:
        files = [self.files[k] for k in sorted(self.files)]
        dists = [self.distributions[k] for k in sorted(self.distributions)]
        out: dict[str, Any] = {
            "kind": self.kind,
            "digest": _digest(self.kind, files, dists),
            "files": files,
            "distributions": dists,
            "identity_files": list(identity_files),
            "problems": self.problems,
            "cost": {
                "files": len(files),
                "bytes": self.bytes,
                "seconds": round(time.monotonic() - started, 3),
            },
        }
        if observed is not None:
            out["observed"] = {
                "method": observed.method,
                "why": observed.why,
                "processes": observed.processes,
                "wrappers_left_out": observed.wrappers,
            }
            if observed.tracer_lost:
                out["observed"]["tracer_lost"] = True
        out["coverage"] = coverage_of(out, in_process)
        return out


def tree_sha256(entries: Iterable[tuple[str, str]]) -> str:
    """The SHA-256 of a folder's tree: over one line ``REL\0SHA256\n`` per regular
    file, sorted by REL (its path relative to the folder, ``/``-separated), SHA256 the
    hex hash of its bytes.  The same files under another folder name give the same hash."""
    h = hashlib.sha256()
    for rel, sha in sorted(entries):
        h.update(f"{rel}\0{sha}\n".encode("utf-8", "surrogateescape"))
    return h.hexdigest()


def _digest(
    kind: str, files: Iterable[Mapping[str, Any]], dists: Iterable[Mapping[str, Any]]
) -> str:
    """SHA-256 of what identifies the software, independent of where it is installed:
    the kind, each named file's comparison name and hash, each distribution's name and
    version and, when the adapter's processes were observed, the sorted hashes of the
    files they loaded (without their paths)."""
    files = list(files)
    data: dict[str, Any] = {
        "kind": kind,
        "files": sorted([f["name"], f["sha256"]] for f in files if f["role"] != LOADED),
        "distributions": sorted([d["name"], d["version"]] for d in dists),
    }
    loaded = sorted(f["sha256"] or "" for f in files if f["role"] == LOADED)
    if loaded:
        data["loaded"] = loaded
    return hashlib.sha256(
        json.dumps(data, sort_keys=True, separators=(",", ":")).encode()
    ).hexdigest()


def digest_of(measured: Mapping[str, Any]) -> str:
    """The digest recomputed from a measurement's files and distributions."""
    return _digest(
        str(measured.get("kind", "")), measured.get("files", []), measured.get("distributions", [])
    )


# ----------------------------------------------------------------------------- exec:
def executable_path(argv0: str, cwd: Path) -> Path | None:
    """``argv[0]`` as the launch finds it: a path (relative to ``cwd``) or a ``PATH`` name."""
    if os.sep in argv0 or (os.altsep and os.altsep in argv0):
        return cwd / argv0
    found = shutil.which(argv0)
    return Path(found) if found else None


def _measure_exec(m: _Measure, argv: Sequence[str], cwd: Path) -> None:
    exe = executable_path(argv[0], cwd)
    if exe is None:
        m.problems.append(f"executable {argv[0]!r} not found on PATH")
    else:
        m.file(EXECUTABLE, EXECUTABLE, exe, argv[0])
    for i, arg in enumerate(argv[1:], start=1):
        if not arg or arg.startswith("-"):
            continue
        path = cwd / arg
        try:
            if path.is_file():
                m.file(f"argv[{i}]", ARGUMENT, path, arg)
        except OSError:  # a name too long, ...: not a file
            continue


def _measure_listed(m: _Measure, paths: Sequence[str], cwd: Path) -> None:
    for given in paths:
        path = cwd / given
        if path.is_dir():
            m.tree(given, path)
        elif path.is_file():
            m.file(given, IDENTITY_FILE, path, given)
        else:
            raise IdentityError(f"--identity {given}: no such file or folder")


def _measure_manifest(m: _Measure, manifest: Sequence[str]) -> None:
    for path in manifest:
        if not os.path.isabs(path):
            m.problems.append(
                f"hello identity manifest: {path!r} is not an absolute path (not measured)"
            )
            continue
        m.file(f"manifest:{path}", MANIFEST, Path(path), path)


# ----------------------------------------------------------------------------- py:
def find_spec(name: str) -> ModuleSpec | None:
    """Where module ``name`` would be imported from, without importing it or its parents
    (``importlib.util.find_spec`` runs every parent package's ``__init__``)."""
    module = sys.modules.get(name)
    if module is not None and getattr(module, "__spec__", None) is not None:
        return module.__spec__
    parent = name.rpartition(".")[0]
    path = None
    if parent:
        pspec = find_spec(parent)
        if pspec is None or pspec.submodule_search_locations is None:
            return None
        path = list(pspec.submodule_search_locations)
    for finder in sys.meta_path:
        find = getattr(finder, "find_spec", None)
        if find is None:
            continue
        try:
            spec: ModuleSpec | None = find(name, path)
        except Exception:  # a third-party finder's bug is not the module's absence
            continue
        if spec is not None:
            return spec
    return None


def _origin(spec: ModuleSpec) -> Path | None:
    if spec.origin and spec.has_location and Path(spec.origin).is_file():
        return Path(spec.origin).resolve()
    return None


def _folders(spec: ModuleSpec) -> list[Path]:
    return [Path(p).resolve() for p in (spec.submodule_search_locations or []) if Path(p).is_dir()]


def imported_modules(source: str, package: str) -> list[str]:
    """The absolute module names a module's source imports (relative ones resolved)."""
    try:
        tree = ast.parse(source)
    except (SyntaxError, ValueError):
        return []
    names: list[str] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names += [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")
                base = base[: len(base) - node.level + 1] if node.level > 1 else base
                if not package or len(base) < 1:
                    continue
                names.append(".".join([*base, node.module] if node.module else base))
            elif node.module:
                names.append(node.module)
    return list(dict.fromkeys(names))


def _record_hash(value: str | None) -> str | None:
    """RECORD's ``sha256=<urlsafe base64>`` as hex (None: no SHA-256 given)."""
    if not value or not value.startswith("sha256="):
        return None
    b64 = value[len("sha256=") :]
    try:
        return urlsafe_b64decode(b64 + "=" * (-len(b64) % 4)).hex()
    except ValueError:
        return "invalid"


def _measure_distribution(m: _Measure, name: str) -> set[Path]:
    """Hash every file of distribution ``name``'s RECORD; returns their real paths."""
    try:
        dist: Distribution = distribution(name)
    except PackageNotFoundError:
        m.problems.append(f"distribution {name!r} is not installed")
        return set()
    entry: dict[str, Any] = {
        "name": dist.metadata["Name"] or name,
        "version": dist.version,
        "files": 0,
        "modified": [],
        "missing": [],
        "hashed_by_harness": 0,
    }
    covered: set[Path] = set()
    for f in dist.files or []:
        record = _record_hash(f"{f.hash.mode}={f.hash.value}" if f.hash else None)
        if record is None and f.suffix == ".pyc":
            continue  # compiled by the installer or by Python on import: comes and goes
        # locate_file is typed as a SimplePath; installed (path) distributions give a Path
        fe = m.file(
            f"{entry['name']}:{f.as_posix()}",
            DISTRIBUTION,
            Path(str(dist.locate_file(f))),
            record=record,
        )
        entry["files"] += 1
        if fe["status"] == MODIFIED:
            entry["modified"].append(fe["name"])
        elif fe["status"] == MISSING:
            entry["missing"].append(fe["name"])
        if record is None and fe["sha256"] is not None:
            entry["hashed_by_harness"] += 1
        covered.add(Path(fe["path"]))
    if not dist.files:
        m.problems.append(
            f"distribution {entry['name']} has no RECORD: its files are "
            "measured from the module folders instead"
        )
    m.distributions[entry["name"]] = entry
    return covered


def _package_root(name: str) -> tuple[str, ModuleSpec] | None:
    """The outermost package of ``name`` that is a real folder (or the module itself)."""
    parts = name.split(".")
    for i in range(1, len(parts) + 1):
        prefix = ".".join(parts[:i])
        spec = find_spec(prefix)
        if spec is None:
            return None
        if _folders(spec) or (i == len(parts) and _origin(spec)):
            return prefix, spec
    return None


def _measure_module_files(m: _Measure, name: str, covered: set[Path]) -> bool:
    """Hash the ``.py`` files of the package folder of ``name`` unless RECORD covers it.
    False if the module cannot be found."""
    spec = find_spec(name)
    if spec is None:
        return False
    origin = _origin(spec)
    if origin is not None and origin in covered:
        return True
    root = _package_root(name)
    if root is None:
        return origin is not None
    root_name, root_spec = root
    folders = _folders(root_spec)
    if not folders:
        path = _origin(root_spec)
        if path is not None and path not in covered:
            m.file(f"{root_name}:{path.name}", MODULE, path)
        return True
    for folder in folders:
        m.folder(root_name, MODULE, folder, "", suffixes=(".py",))
    return True


def _stdlib(top: str) -> bool:
    return top in sys.stdlib_module_names or top in sys.builtin_module_names


def _distributions_of(tops: Iterable[str]) -> dict[str, list[str]]:
    """``importlib.metadata.packages_distributions()`` restricted to the top-level names
    ``tops``: the same lists (names in the order the installed distributions are found),
    without parsing the metadata of every installed distribution.

    A distribution's top-level names are those its ``top_level.txt`` declares, else
    those its file list infers (the standard library's own two helpers, so the answer is
    that of this Python's ``packages_distributions``).  A file list is only read when the
    distribution's ``RECORD`` names one of ``tops`` somewhere (a name it does not hold
    cannot be inferred from it), and a distribution's name only when it provides one."""
    import importlib.metadata as md

    declared = getattr(md, "_top_level_declared", None)
    inferred = getattr(md, "_top_level_inferred", None)
    wanted = set(tops)
    if declared is None or inferred is None:  # another Python's internals: the full map
        every = md.packages_distributions()
        return {top: list(every[top]) for top in wanted if top in every}
    out: dict[str, list[str]] = {}
    for dist in md.distributions():
        names = declared(dist)
        if not names:
            record = dist.read_text("RECORD")
            if record and not any(top in record for top in wanted):
                continue
            names = inferred(dist)
        found = [top for top in names if top in wanted]
        if found:
            name = dist.metadata["Name"]
            for top in found:
                out.setdefault(top, []).append(name)
    return out


def _measure_python(m: _Measure, module: str) -> None:
    spec = find_spec(module)
    if spec is None:
        m.problems.append(f"module {module!r} not found")
        return
    units = [module]
    origin = _origin(spec)
    if origin is not None and origin.suffix == ".py":
        package = (
            module if spec.submodule_search_locations is not None else module.rpartition(".")[0]
        )
        try:
            source = origin.read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError):
            source = ""
        units += imported_modules(source, package)
    try:
        tops = _distributions_of({u.partition(".")[0] for u in units})
    except Exception:  # a broken distribution on sys.path: measure module files only
        tops = {}
        m.problems.append("the installed distributions could not be listed")
    covered: set[Path] = set()
    done: set[str] = set()
    for unit in units:
        top = unit.partition(".")[0]
        if _stdlib(top):
            continue
        for dist in dict.fromkeys(tops.get(top, [])):
            if dist not in done:
                done.add(dist)
                covered |= _measure_distribution(m, dist)
    for unit in units:
        if _stdlib(unit.partition(".")[0]):
            continue
        if not _measure_module_files(m, unit, covered) and unit == module:
            m.problems.append(f"module {module!r} not found")


# ----------------------------------------------------------------------------- API
def measure(
    kind: str,
    target: str | Sequence[str],
    identity_files: Sequence[str] = (),
    manifest: Sequence[str] = (),
    cwd: Path | None = None,
    observed: Observed | None = None,
    in_process: bool = False,
) -> dict[str, Any]:
    """Measure what an adapter spec runs.

    ``kind`` is ``exec`` (``target``: the argv) or ``python`` (``target``: the module
    name of a ``py:`` spec or of an adapter name's entry point).  ``identity_files``: the
    lab's ``--identity`` paths (relative to ``cwd``; :class:`IdentityError` if one
    does not exist).  ``manifest``: the files the adapter's ``hello`` lists.
    ``observed``: what the adapter's processes loaded
    (:meth:`~pokercert.harness.adapters.trace.CodeWatch.snapshot`), hashed as ``loaded``
    files.  ``in_process``: the evaluator runs in the harness's process (the coverage
    says so).  The result's ``coverage`` says what was hashed
    (:func:`~pokercert.harness.identity_coverage.coverage_of`).
    """
    started = time.monotonic()
    here = Path(cwd) if cwd is not None else Path.cwd()
    m = _Measure(kind)
    if kind == EXEC:
        _measure_exec(m, list(target), here)
    else:
        _measure_python(m, str(target))
    _measure_listed(m, list(identity_files), here)
    _measure_manifest(m, list(manifest))
    if observed is not None:
        m.loaded(observed)
    return m.result(started, [str(p) for p in identity_files], observed, in_process)


def measure_spec(
    spec: Any,
    identity_files: Sequence[str] = (),
    manifest: Sequence[str] = (),
    cwd: Path | None = None,
    observed: Observed | None = None,
    in_process: bool = False,
) -> dict[str, Any]:
    """:func:`measure` for a parsed :class:`~pokercert.harness.adapters.AdapterSpec`."""
    if spec.kind == "exec":
        return measure(EXEC, spec.argv, identity_files, manifest, cwd, observed)
    ref = spec.target
    if spec.kind == "name":
        from pokercert.harness.adapters.spec import shipped_adapters

        ref = shipped_adapters().get(spec.target, spec.target)
    return measure(
        PYTHON, ref.partition(":")[0], identity_files, manifest, cwd, in_process=in_process
    )


class MeasureAhead:
    """A measurement taken in a thread while the caller goes on with other work.

    Hashing releases the GIL on big buffers, so a run measures the software under test
    while it loads the corpus and plans.  The trust model is unchanged: the caller calls
    :meth:`join` before anything reads the measurement, and the run joins the
    "before" measurement before any vendor code is imported or started (see
    :func:`pokercert.harness.run.runner.run`).  The result is the one ``measure()`` gives
    when called at the join in the same process (a test pins it byte for byte).
    """

    def __init__(self, measure_: Callable[[], dict[str, Any]]) -> None:
        self._measure = measure_
        self._result: dict[str, Any] | None = None
        self._error: BaseException | None = None
        self._thread = threading.Thread(target=self._run, name="pokercert-measure", daemon=True)
        self._thread.start()

    def _run(self) -> None:
        try:
            self._result = self._measure()
        except BaseException as exc:  # raised again, in the caller's thread, by join()
            self._error = exc

    def join(self) -> dict[str, Any]:
        """Wait for the measurement; its result, or what measuring raised."""
        self._thread.join()
        if self._error is not None:
            raise self._error
        assert self._result is not None
        return self._result


def _short(sha: str | None) -> str:
    return sha[:16] if sha else "none"


def differences(
    old: Mapping[str, Any], new: Mapping[str, Any], loaded: str = ALL_LOADED
) -> list[str]:
    """What differs between two measurements, one line each (empty: the same software).

    Files are compared by their comparison name (``executable``, ``argv[1]``, the
    distribution and path in RECORD, ...), not by where they lie on this machine.
    Loaded files (``loaded``): ``ALL_LOADED`` compares them all (a file loaded by one
    and not the other differs, unless the other loaded the same bytes elsewhere);
    ``COMMON_LOADED`` only those both loaded (the start and the end of one run: more is
    loaded later); ``NO_LOADED`` none (a measurement before the adapter ran).
    """
    if not old or not old.get("digest"):
        return ["the earlier run has no measured identity"]
    out: list[str] = []
    if old.get("kind") != new.get("kind"):
        out.append(f"kind: {old.get('kind')} -> {new.get('kind')}")
    before = {d["name"]: d["version"] for d in old.get("distributions", [])}
    after = {d["name"]: d["version"] for d in new.get("distributions", [])}
    for name in sorted(before.keys() | after.keys()):
        if before.get(name) != after.get(name):
            out.append(
                f"distribution {name}: {before.get(name) or 'absent'} -> "
                f"{after.get(name) or 'absent'}"
            )
    fold = {f["name"]: f for f in old.get("files", []) if f.get("role") != LOADED}
    fnew = {f["name"]: f for f in new.get("files", []) if f.get("role") != LOADED}
    for name in sorted(fold.keys() | fnew.keys()):
        a, b = fold.get(name), fnew.get(name)
        if a is None:
            out.append(f"{name}: added ({b['path']}, sha256 {_short(b['sha256'])})")  # type: ignore[index]
        elif b is None:
            out.append(f"{name}: removed (was {a['path']}, sha256 {_short(a['sha256'])})")
        elif a["sha256"] != b["sha256"]:
            out.append(
                f"{name} ({b['path']}): sha256 {_short(a['sha256'])} -> {_short(b['sha256'])}"
            )
    if loaded != NO_LOADED:
        out += _loaded_differences(old, new, loaded == COMMON_LOADED)
    if not out and old.get("digest") != new.get("digest") and loaded == ALL_LOADED:
        out.append(f"digest {_short(old.get('digest'))} -> {_short(new.get('digest'))}")
    return out


def _loaded_differences(
    old: Mapping[str, Any], new: Mapping[str, Any], common_only: bool
) -> list[str]:
    """Loaded files that differ: the same path with other bytes, and (unless
    ``common_only``) bytes loaded by one measurement and by the other nowhere."""

    def table(m: Mapping[str, Any]) -> dict[str, str]:
        return {f["path"]: f["sha256"] or "" for f in m.get("files", []) if f.get("role") == LOADED}

    before, after = table(old), table(new)
    out = [
        f"loaded {p}: sha256 {_short(before[p])} -> {_short(after[p])}"
        for p in sorted(before.keys() & after.keys())
        if before[p] != after[p]
    ]
    if common_only:
        return out
    gone = Counter(before[p] for p in before.keys() - after.keys())
    came = Counter(after[p] for p in after.keys() - before.keys())
    moved = gone & came  # the same bytes loaded from another path: the same code
    for p in sorted(before.keys() - after.keys()):
        if moved[before[p]]:
            moved[before[p]] -= 1
        else:
            out.append(f"loaded {p}: no longer loaded (sha256 {_short(before[p])})")
    moved = gone & came
    for p in sorted(after.keys() - before.keys()):
        if moved[after[p]]:
            moved[after[p]] -= 1
        else:
            out.append(f"loaded {p}: added (sha256 {_short(after[p])})")
    return out


def not_measured(why: str) -> dict[str, Any]:
    """The measured identity of a run made without one (an older pokercert), saying so."""
    return {
        "kind": "none",
        "digest": "",
        "files": [],
        "distributions": [],
        "identity_files": [],
        "problems": [why],
        "cost": {"files": 0, "bytes": 0, "seconds": 0.0},
    }
