"""The results store: what a run writes and what reports, diff and verify read.

A run folder holds:

* ``run.json``: the :class:`RunHeader` (everything needed to reproduce the run),
  rewritten at the end with ``finished_at``;
* ``results.jsonl``: one :class:`Result` per line, appended and flushed as each vector
  is scored, so a killed run loses nothing and ``--resume`` can skip what is done; the
  writer keeps a running SHA-256 of the exact bytes it wrote, and ``run.json`` records it
  (``results_sha256``, ``results_lines``) when the run ends, so a results file changed
  afterwards (by hand, or by an adapter that found the folder) is detected
  (:func:`results_problem`);
* ``attachments/``: whole stderr captures, referenced from results by file name.
"""

from __future__ import annotations

import hashlib
import json
import math
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import asdict, dataclass, field, fields
from json.encoder import encode_basestring
from pathlib import Path
from types import MappingProxyType
from typing import Any, NamedTuple

# Outcome lives below run and explore (harness/outcome.py); results files store it, and
# the run's readers have always imported it from here
from pokercert.harness.outcome import FAILING as FAILING
from pokercert.harness.outcome import Outcome as Outcome
from pokercert.harness.run.encoder import built_once

RESULTS_FORMAT_VERSION = 1
HEADER_FILE = "run.json"
RESULTS_FILE = "results.jsonl"


EMPTY: Mapping[str, Any] = MappingProxyType({})  # the default of the mapping fields


class Result(NamedTuple):
    """The scored outcome of one vector, self-contained enough to report on.

    Immutable.  A named tuple rather than a dataclass, like
    :class:`~pokercert.harness.adapters.base.Reply`: a run makes one per vector, and the
    frozen dataclass ``__init__`` alone (one ``object.__setattr__`` per field) cost as
    much as all the rest of scoring a vector.  Compare results with ``==`` and change
    one with ``_replace``; the order of the fields is not part of any interface
    (:func:`passed` is the one place that builds a Result by position).
    """

    vector_id: str
    ruleset: str
    kind: str
    outcome: Outcome
    expected: Mapping[str, Any]
    actual: Mapping[str, Any] | None = None
    message: str = ""
    readings: Mapping[str, str] = EMPTY
    clauses: tuple[str, ...] = ()
    flags: tuple[str, ...] = ()
    why: str = ""
    inputs: Mapping[str, Any] = EMPTY
    duration_s: float = 0.0
    stderr: str = ""  # excerpt; the whole capture is in attachments/
    attachment: str = ""  # file name under attachments/, if any
    known_failure: str = ""  # XFAIL/XPASS: the reason given in the expectations file
    scored_as: str = ""  # XFAIL/XPASS: the outcome before the expectations file
    # a challenge vector's origin: "twin:<curated id>" or "fresh:<situation>" (""
    # for a curated vector, and then left out of the line)
    origin: str = ""

    def to_json(self) -> dict[str, Any]:
        data = self._asdict()
        if not self.origin:
            del data["origin"]
        data["outcome"] = str(self.outcome)
        data["clauses"] = list(self.clauses)
        data["flags"] = list(self.flags)
        for name in _MAPPINGS:
            value = data[name]
            if value is not None and type(value) is not dict:
                data[name] = dict(value)
        return data

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Result:
        """A result line read back; a field of another JSON type than the harness writes
        is refused (TypeError naming it): a run folder is the vendor's to forge."""
        kwargs = {k: v for k, v in data.items() if k in _RESULT_FIELDS}
        wrong = [k for k, v in kwargs.items() if not _LINE_TYPES.get(k, _any)(v)]
        if wrong:
            raise TypeError(f"{', '.join(wrong)}: not of the type the harness writes")
        kwargs["outcome"] = Outcome(kwargs["outcome"])
        kwargs["clauses"] = tuple(kwargs.get("clauses", ()))
        kwargs["flags"] = tuple(kwargs.get("flags", ()))
        return cls(**kwargs)


_RESULT_FIELDS = frozenset(Result._fields)


def _any(value: Any) -> bool:
    return True


def _words(value: Any) -> bool:
    return isinstance(value, list) and all(isinstance(x, str) for x in value)


# the JSON type of each field of a result line (the rest: a number, an outcome word)
_LINE_TYPES: dict[str, Any] = {
    **dict.fromkeys(
        (
            "vector_id",
            "ruleset",
            "kind",
            "message",
            "why",
            "stderr",
            "attachment",
            "known_failure",
            "scored_as",
        ),
        lambda v: isinstance(v, str),
    ),
    "origin": lambda v: v is None or isinstance(v, str),
    "expected": lambda v: v is None or isinstance(v, dict),
    "actual": lambda v: v is None or isinstance(v, dict),
    "inputs": lambda v: isinstance(v, dict),
    "readings": lambda v: isinstance(v, dict),
    "clauses": _words,
    "flags": _words,
}
_MAPPINGS = ("expected", "actual", "readings", "inputs")
_PASS = Outcome.PASS
_tuple_new = tuple.__new__


def passed(
    vector_id: str,
    ruleset: str,
    kind: str,
    expected: Mapping[str, Any],
    actual: Mapping[str, Any],
    readings: Mapping[str, str],
    clauses: tuple[str, ...],
    flags: tuple[str, ...],
    why: str,
    inputs: Mapping[str, Any],
    duration_s: float,
) -> Result:
    """``Result(..., outcome=PASS, ...)`` for the hot path of a run: most results are
    passes, and this builds one without the keyword handling (the fields in order)."""
    return _tuple_new(
        Result,
        (
            vector_id,
            ruleset,
            kind,
            _PASS,
            expected,
            actual,
            "",
            readings,
            clauses,
            flags,
            why,
            inputs,
            duration_s,
            "",
            "",
            "",
            "",
            "",
        ),
    )


@dataclass
class RunHeader:
    """Everything needed to identify and reproduce a run."""

    suite_version: str
    corpus_version: str
    corpus_sha256: str
    harness_version: str
    protocol_version: str
    adapter_spec: str
    evaluator: dict[str, Any]  # vendor/name/version/build as the adapter declared
    adapter: dict[str, Any]  # adapter name/version
    profile: dict[str, Any]  # Profile.as_dict(): every reading used
    rulesets: list[str]
    filters: dict[str, Any]  # flags, shard, ...
    selected: int  # how many vectors this run (shard) was asked to run
    selected_ids_sha256: str  # digest of the sorted selected vector ids
    platform: dict[str, Any]
    command: list[str]
    started_at: str
    finished_at: str | None = None
    format_version: int = RESULTS_FORMAT_VERSION
    shard: str | None = None  # "K/N" or None
    aborted: str | None = None  # why the harness gave up before the end, if it did
    resumed_at: list[str] = field(default_factory=list)  # each --resume of this run
    capabilities: dict[str, list[str]] = field(default_factory=dict)  # as declared
    limits: dict[str, Any] = field(default_factory=dict)  # timeouts, restarts, rlimits
    selected_by_ruleset: dict[str, int] = field(default_factory=dict)
    # what the harness measured of the software under test (pokercert.harness.identity)
    measured_identity: dict[str, Any] = field(default_factory=dict)
    # SHA-256 (hex) and line count of the exact bytes the harness wrote to results.jsonl;
    # None until the run (or merge) ends, and for a run that was killed
    results_sha256: str | None = None
    results_lines: int | None = None
    lab: dict[str, str] = field(default_factory=dict)  # --lab, --engineer, ... (lab_fields)
    # where the evaluator ran: "process" (a child process, contained) or "in-process"
    # (this process, --in-process or the bundled reference: not isolated); None: a run
    # from before the field
    isolation: str | None = None
    # the sandbox the evaluator ran in: {"mode": "bubblewrap" | "off" | "unavailable" |
    # "in-process", "reason": one sentence} (harness/adapters/sandbox.py); None: a run
    # from before the field
    sandbox: dict[str, str] | None = None
    # what the attached modes found, per mode, one record per ruleset
    # (harness/run/attached.py; what was asked is in filters["fuzz"/"exhaustive"])
    attached: dict[str, list[dict[str, Any]]] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> RunHeader:
        """A header read back; a field of another JSON type than its annotation says is
        refused (TypeError naming it): run.json is the vendor's to forge."""
        if not isinstance(data, dict):
            raise TypeError("run.json holds no JSON object")
        types = {f.name: _json_types(str(f.type)) for f in fields(cls)}
        wrong = [k for k, v in data.items() if k in types and not isinstance(v, types[k])]
        if wrong:
            raise TypeError(f"{', '.join(wrong)}: not of the type the harness writes")
        return cls(**{k: v for k, v in data.items() if k in types})


_JSON_TYPES: dict[str, tuple[type, ...]] = {
    "str": (str,),
    "int": (int,),
    "float": (int, float),
    "bool": (bool,),
    "dict": (dict,),
    "list": (list,),
    "None": (type(None),),
}


def _json_types(annotation: str) -> tuple[type, ...]:
    """The JSON types an annotation (``str | None``, ``dict[str, Any]``) allows."""
    found: tuple[type, ...] = ()
    for part in annotation.split(" | "):
        found += _JSON_TYPES.get(part.split("[")[0].strip(), (object,))
    return found


def write_header(folder: Path, header: RunHeader) -> None:
    folder.mkdir(parents=True, exist_ok=True)
    tmp = folder / (HEADER_FILE + ".tmp")
    tmp.write_text(json.dumps(header.to_json(), indent=2, sort_keys=True) + "\n", encoding="utf-8")
    tmp.replace(folder / HEADER_FILE)


def read_header(folder: Path) -> RunHeader:
    return RunHeader.from_json(json.loads((folder / HEADER_FILE).read_text(encoding="utf-8")))


# Keys in the order of the fields (vector_id first), not sorted: sorting every line's keys
# doubled the cost of writing results; the reports canonicalise what they sign.
_ENCODER = json.JSONEncoder(ensure_ascii=False)
_dumps = _ENCODER.encode
_str = encode_basestring  # the C function _dumps writes a string with
_float = float.__repr__  # and a finite float (what json's C encoder calls)
_OUTCOMES = {o: _str(str(o)) for o in Outcome}


def _text(value: Any) -> str:
    """A string field's JSON (any other value as ``_dumps`` writes it)."""
    return _str(value) if isinstance(value, str) else _dumps(value)


_encode = built_once(_ENCODER)  # _dumps, its C encoder built once


def _object(value: Any) -> str:
    """A mapping field's JSON as :meth:`Result.to_json` gives it (a plain dict of it)."""
    if type(value) is not dict:
        if value is None:
            return "null"
        value = dict(value)
    return _encode(value) if value else "{}"


def _line(r: Result, lists: dict[tuple[str, ...], str]) -> str:
    """``_dumps(r.to_json()) + "\\n"``, the line of ``r`` in ``results.jsonl``, for
    about 60% of the CPU (0.24 -> 0.15 s for a default run's 14,416 lines): the keys
    are written here once, in the fields' order, and only the values are encoded
    (strings by the C function ``_dumps`` uses, each mapping by the C encoder
    ``_dumps`` builds per call, built once; a clause or flag tuple once per writer, in
    ``lists``), instead of building a dict per result and encoding its 18 keys.
    tests/harness/run/test_results_lines.py holds it to the definition."""
    (
        vector_id,
        ruleset,
        kind,
        outcome,
        expected,
        actual,
        message,
        readings,
        clauses,
        flags,
        why,
        inputs,
        duration_s,
        stderr,
        attachment,
        known_failure,
        scored_as,
        origin,
    ) = r  # the fields, in their order
    try:
        clauses_text = lists.get(clauses) or _list(clauses, lists)
        flags_text = lists.get(flags) or _list(flags, lists)
    except TypeError:  # a list, or a tuple holding one (not from a scorer)
        clauses_text, flags_text = _list(clauses, lists), _list(flags, lists)
    outcome_text = _OUTCOMES.get(outcome) or _text(str(outcome))
    duration = (
        _float(duration_s)
        if type(duration_s) is float and math.isfinite(duration_s)
        else _dumps(duration_s)
    )
    if (message, stderr, attachment, known_failure, scored_as) == _BLANK:  # a pass
        message_text, notes = '""', _BLANK_NOTES
    else:
        message_text = _text(message)
        notes = (
            f'"stderr": {_text(stderr)}, "attachment": {_text(attachment)}, '
            f'"known_failure": {_text(known_failure)}, "scored_as": {_text(scored_as)}'
        )
    tail = f', "origin": {_text(origin)}}}\n' if origin else "}\n"
    return (
        f'{{"vector_id": {_text(vector_id)}, "ruleset": {_text(ruleset)}, '
        f'"kind": {_text(kind)}, "outcome": {outcome_text}, '
        f'"expected": {_object(expected)}, "actual": {_object(actual)}, '
        f'"message": {message_text}, '
        f'"readings": {"{}" if readings is EMPTY else _object(readings)}, '
        f'"clauses": {clauses_text}, "flags": {flags_text}, "why": {_text(why)}, '
        f'"inputs": {_object(inputs)}, "duration_s": {duration}, {notes}' + tail
    )


_BLANK = ("", "", "", "", "")  # message, stderr, attachment, known_failure, scored_as
_BLANK_NOTES = '"stderr": "", "attachment": "", "known_failure": "", "scored_as": ""'


def _list(values: Any, lists: dict[tuple[str, ...], str]) -> str:
    """A clause or flag tuple's JSON (a list), kept in ``lists`` when all strings."""
    text = _dumps(list(values))
    if type(values) is tuple and all(type(v) is str for v in values):
        lists[values] = text
    return text


class ResultWriter:
    """Appends results to ``results.jsonl``, flushing each line as it is written.

    Keeps a running SHA-256 and line count of the exact bytes in the file
    (:attr:`sha256`, :attr:`lines`): with ``append``, of the lines already there (the
    caller cuts a torn last line first), then of every line written.
    """

    def __init__(self, folder: Path, append: bool = False) -> None:
        folder.mkdir(parents=True, exist_ok=True)
        path = folder / RESULTS_FILE
        self._hash = hashlib.sha256()
        self.lines = 0
        if append and path.exists():
            data = path.read_bytes()
            self._hash.update(data)
            self.lines = data.count(b"\n")
        self._fh = path.open("ab" if append else "wb")
        self._lists: dict[tuple[str, ...], str] = {}  # clause/flag tuples written (_line)

    @property
    def sha256(self) -> str:
        """Hex SHA-256 of everything in the file so far."""
        return self._hash.hexdigest()

    def _put(self, text: str, lines: int) -> None:
        data = text.encode("utf-8")
        self._fh.write(data)
        self._fh.flush()
        self._hash.update(data)
        self.lines += lines

    def write(self, result: Result) -> None:
        self._put(_line(result, self._lists), 1)

    def write_many(self, results: Iterable[Result]) -> None:
        """Append several results and flush once (the runner writes a batch at a time)."""
        lists = self._lists
        lines = [_line(r, lists) for r in results]
        self._put("".join(lines), len(lines))

    def close(self) -> None:
        self._fh.close()

    def __enter__(self) -> ResultWriter:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def results_digest(folder: Path) -> tuple[str, int]:
    """Hex SHA-256 and line count of ``results.jsonl`` as it is now (empty if absent)."""
    path = folder / RESULTS_FILE
    data = path.read_bytes() if path.exists() else b""
    return hashlib.sha256(data).hexdigest(), data.count(b"\n")


def results_problem(folder: Path, header: RunHeader) -> str:
    """Why ``results.jsonl`` is not what the harness wrote (``""`` if it is, or if
    ``run.json`` records no hash: a killed run, which reports call incomplete)."""
    if header.results_sha256 is None:
        return ""
    sha, lines = results_digest(folder)
    if sha == header.results_sha256 and lines == header.results_lines:
        return ""
    return (
        f"{folder / RESULTS_FILE} was changed after the harness wrote it: run.json records "
        f"{header.results_lines} lines with sha256 {header.results_sha256}, the file has "
        f"{lines} lines with sha256 {sha}"
    )


def read_results(folder: Path) -> Iterator[Result]:
    """Every complete result line; a torn last line (a killed run) is skipped."""
    path = folder / RESULTS_FILE
    if not path.exists():
        return
    with path.open(encoding="utf-8") as fh:
        for line in fh:
            if not line.endswith("\n"):
                break
            yield Result.from_json(json.loads(line))


ATTACHMENTS = "attachments"
COUNTEREXAMPLES = "counterexamples"  # ready-to-add drafts of what the run found
ATTACHED = "attached"  # the working state of the attached modes (exhaustive.json per ruleset)


def clear_folder(folder: Path, keep_results: bool = False) -> None:
    """Make ``folder`` hold one run only: remove every earlier report (``report.*``, any
    format), every signature (``*.sig``) and, unless ``keep_results`` (a resume), the
    run header, results, attachments and counterexample drafts.  Called before an
    adapter is started, so no stale report outlives the run that replaces its results,
    even a run that fails."""
    if not folder.is_dir():
        return
    for pattern in ("report.*", "*.sig"):
        for f in folder.glob(pattern):
            if f.is_file() or f.is_symlink():
                f.unlink()
    if keep_results:
        return
    for name in (HEADER_FILE, HEADER_FILE + ".tmp", RESULTS_FILE):
        (folder / name).unlink(missing_ok=True)
    for sub in (ATTACHMENTS, COUNTEREXAMPLES):
        if (folder / sub).is_dir():
            for f in (folder / sub).iterdir():
                if f.is_file() or f.is_symlink():
                    f.unlink()
    import shutil

    shutil.rmtree(folder / ATTACHED, ignore_errors=True)  # the attached modes' state


def write_results(folder: Path, results: Iterable[Result]) -> tuple[str, int]:
    """Write ``results.jsonl`` afresh; returns its SHA-256 and line count (for run.json)."""
    with ResultWriter(folder) as out:
        out.write_many(results)
    return out.sha256, out.lines
