"""What a measured identity covers, in words: the ``coverage`` of ``measured_identity``.

Every measurement (:func:`pokercert.harness.identity.measure`) carries one, and every
report format shows it (reports/README.md).  Its shape is fixed (a contract with the
renderers and ``run.schema.json``)::

    {"scope": SCOPE, "hashed": "<one plain sentence, with counts>",
     "warning": "<one plain sentence, or empty>"}

``scope`` is one of :data:`SCOPES`:

* ``process-tree``: an ``exec:`` adapter whose processes the harness observed
  (:mod:`pokercert.harness.adapters.trace`): what they opened, mapped and executed was
  hashed.  Warned when strace was not available: the source files an interpreter reads
  (Python modules, JavaScript files) are then not identified, only mapped files.
* ``launcher-and-script``: an ``exec:`` adapter whose processes could not be observed (not
  Linux; or a run.json written before the observation existed): only the executable, the
  files on its command line (and the ``--identity`` and hello manifest files) were hashed.
  Always warned.
* ``python-distributions``: a ``py:`` or named evaluator run in a child process: its
  Python distribution and those of the modules it imports, each file checked against
  RECORD.
* ``in-process``: the same, for an evaluator that ran inside the harness's process.
* ``not-measured``: nothing was hashed.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

PROCESS_TREE, LAUNCHER_AND_SCRIPT = "process-tree", "launcher-and-script"
PYTHON_DISTRIBUTIONS, IN_PROCESS, NOT_MEASURED = (
    "python-distributions",
    "in-process",
    "not-measured",
)
SCOPES = (PROCESS_TREE, LAUNCHER_AND_SCRIPT, PYTHON_DISTRIBUTIONS, IN_PROCESS, NOT_MEASURED)

ONLY_LAUNCHER = (
    "only the launcher and the adapter script were hashed; the evaluator "
    "library it loads is not identified; name it with --identity"
)
ONLY_LISTED = (
    "only the launcher, the adapter script and the files named with --identity "
    "were hashed; code they load beyond those files is not identified"
)


def _count(n: int, one: str, many: str | None = None) -> str:
    return f"{n} {one if n == 1 else (many or one + 's')}"


def _listed(files: list[Mapping[str, Any]]) -> list[str]:
    """The named files' part of the sentence: command line, --identity, manifest."""
    roles = [f.get("role") for f in files]
    parts = []
    if "executable" in roles:
        parts.append("the launcher")
    if n := roles.count("argument"):
        parts.append(_count(n, "command-line file"))
    trees = roles.count("identity-tree")
    if n := roles.count("identity-file"):
        parts.append(
            _count(n, "file")
            + " named with --identity"
            + (f" (in {_count(trees, 'folder')}, each also hashed as a tree)" if trees else "")
        )
    if n := roles.count("manifest"):
        parts.append(_count(n, "file") + " the adapter's hello listed")
    return parts


def _join(parts: list[str]) -> str:
    return parts[0] if len(parts) == 1 else ", ".join(parts[:-1]) + " and " + parts[-1]


def coverage_of(measured: Mapping[str, Any], in_process: bool = False) -> dict[str, str]:
    """The coverage of a measurement (its own, if it records one; else derived from what
    it holds, for a run.json written before coverage existed)."""
    given = measured.get("coverage")
    if isinstance(given, Mapping) and given.get("scope") in SCOPES:
        return {k: str(given.get(k, "")) for k in ("scope", "hashed", "warning")}
    files = list(measured.get("files", []))
    kind = measured.get("kind")
    if not measured.get("digest") or kind not in ("exec", "python"):
        return {
            "scope": NOT_MEASURED,
            "hashed": "nothing was hashed",
            "warning": "the software under test was not measured",
        }
    if kind == "python":
        return _python_coverage(measured, files, in_process)
    observed = measured.get("observed") or {}
    if observed.get("method", "none") == "none":
        return _launcher_coverage(files, observed)
    return _process_tree_coverage(files, observed)


def _python_coverage(
    measured: Mapping[str, Any], files: list[Mapping[str, Any]], in_process: bool
) -> dict[str, str]:
    """A Python adapter's: the files of its distributions (checked against their RECORD),
    modules in no distribution, and the files it named."""
    dists = measured.get("distributions", [])
    names = ", ".join(f"{d['name']} {d['version']}" for d in dists)
    module_files = sum(1 for f in files if f.get("role") == "module")
    parts = [
        f"{_count(len(files) - module_files, 'file')} of "
        f"{_count(len(dists), 'Python distribution')}"
        + (f" ({names})" if names else "")
        + ", each checked against its RECORD"
    ]
    if module_files:
        parts.append(_count(module_files, "module file") + " in no distribution")
    parts += _listed(files)
    return {
        "scope": IN_PROCESS if in_process else PYTHON_DISTRIBUTIONS,
        "hashed": _join(parts),
        "warning": "",
    }


def _launcher_coverage(
    files: list[Mapping[str, Any]], observed: Mapping[str, Any]
) -> dict[str, str]:
    """A command's whose processes were not observed: the launcher, its script and the
    files named, nothing it loaded."""
    named = any(f.get("role") in ("identity-file", "manifest") for f in files)
    why = f" ({observed['why']})" if observed.get("why") else ""
    return {
        "scope": LAUNCHER_AND_SCRIPT,
        "hashed": _join(_listed(files) or ["nothing"])
        + (f"; the adapter's processes could not be observed{why}" if observed else ""),
        "warning": ONLY_LISTED if named else ONLY_LAUNCHER,
    }


def _process_tree_coverage(
    files: list[Mapping[str, Any]], observed: Mapping[str, Any]
) -> dict[str, str]:
    """A command's whose processes were observed (strace, or /proc alone): the files named
    and those its processes loaded; a warning when the tracer was lost or missing."""
    method = observed.get("method", "none")
    loaded = sum(1 for f in files if f.get("role") == "loaded")
    how = (
        "opened, mapped or executed (seen with strace and /proc)"
        if method == "strace"
        else "mapped or executed (seen in /proc)"
    )
    parts = [
        *_listed(files),
        f"{_count(loaded, 'file')} that "
        f"{_count(int(observed.get('processes', 0)), 'adapter process', 'adapter processes')} "
        f"{how}",
    ]
    wrappers = int(observed.get("wrappers_left_out", 0))
    ours = _count(wrappers, "process", "processes")
    sentence = _join(parts) + (f"; {ours} of the harness's own left out" if wrappers else "")
    if observed.get("tracer_lost"):
        return {
            "scope": PROCESS_TREE,
            "hashed": sentence,
            "warning": "the tracer was stopped while the adapter ran, so the files it "
            "opened after that are not identified, only those mapped into "
            "its processes",
        }
    warning = (
        ""
        if method == "strace"
        else (
            f"strace was not available ({observed.get('why') or 'unknown reason'}), so the "
            "source files an interpreter read (Python modules, JavaScript files) are not "
            "identified, only the files mapped into the adapter's processes"
        )
    )
    return {"scope": PROCESS_TREE, "hashed": sentence, "warning": warning}
