"""From a results folder (or a JSON report) to report files on disk.

The JSON report is built once and sealed with its digest; every other format is
rendered from it (:mod:`pokercert.reports.formats`), so one report's views always agree.
"""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path
from typing import Any

from pokercert.reports.canonical import ReportError, sealed
from pokercert.reports.formats import DEFAULT_FORMATS, FORMATS, render
from pokercert.reports.model import ReportRefused, build_report
from pokercert.reports.signing import SIG_SUFFIX, sign
from pokercert.reports.verify import FAILED, verify_bytes

# the formats are defined in pokercert.reports.formats (below verify); written from here
__all__ = [
    "DEFAULT_FORMATS",
    "FORMATS",
    "load",
    "load_with_bytes",
    "remove_reports",
    "render",
    "write_default_reports",
    "write_reports",
]


def load(source: Path) -> dict[str, Any]:
    """A sealed report: built from a results folder, or read from a genuine JSON report.

    Raises :class:`ReportRefused` for a results folder whose results are not what the
    harness wrote, and for a JSON report that is not genuine (canonical bytes, digest,
    schema) or that disagrees with itself (its conclusions are recomputed from its
    facts: :func:`~pokercert.reports.model.contradiction`).
    """
    return load_with_bytes(source)[0]


def load_with_bytes(source: Path) -> tuple[dict[str, Any], bytes]:
    """:func:`load`, and the sealed report's canonical bytes (its ``report.json``), which
    loading has at hand anyway: sealing encodes the report, a genuine file is them."""
    source = Path(source)
    if source.is_dir():
        return sealed(build_report(source))
    try:
        raw = source.read_bytes()
    except OSError as exc:
        raise ReportError(f"{source}: cannot read ({exc.strerror})") from None
    report, checks = verify_bytes(raw)
    failed = [f"{c.name}: {c.detail}" for c in checks if c.status == FAILED]
    if report is None or failed:
        raise ReportRefused(
            f"{source}: not a genuine report ({'; '.join(failed)}); `pokercert verify` tells more"
        )
    return report, raw


def _write(path: Path, data: bytes) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(path.name + ".tmp")
    tmp.write_bytes(data)
    tmp.replace(path)
    return path


def write_reports(
    report: dict[str, Any],
    folder: Path,
    formats: Iterable[str] = DEFAULT_FORMATS,
    sign_key: Path | None = None,
    json_bytes: bytes | None = None,
) -> list[Path]:
    """Write each format under its default name into ``folder``; sign the JSON if asked.

    ``json_bytes``: the canonical bytes of ``report`` when the caller has them (from
    :func:`~pokercert.reports.canonical.sealed` or :func:`load_with_bytes`), so the
    report is not encoded again.  A signature beside a file that is replaced by other
    bytes is removed (it signed the old bytes); one beside identical bytes stays."""
    paths = []
    for fmt in formats:
        name = FORMATS[fmt][0]
        data = json_bytes if fmt == "json" and json_bytes is not None else render(report, fmt)
        path = Path(folder) / name
        if path.is_file() and path.read_bytes() != data:  # its old signature is void
            path.with_name(name + SIG_SUFFIX).unlink(missing_ok=True)
        paths.append(_write(path, data))
        if fmt == "json" and sign_key is not None:
            paths.append(_write(Path(folder) / (name + SIG_SUFFIX), sign(data, sign_key)))
    return paths


def remove_reports(folder: Path) -> None:
    """Remove every report file (any format) and signature from ``folder``."""
    from pokercert.harness.run.results import clear_folder

    clear_folder(Path(folder), keep_results=True)


def write_default_reports(run_dir: Path, sign_key: Path | None = None) -> list[Path]:
    """Build the report of a results folder and write every format into it.

    Returns the paths written: ``report.json`` (canonical, plus ``report.json.sig`` when
    ``sign_key`` is given), ``report.md``, ``report.html`` and ``report.junit.xml``.
    """
    report, data = load_with_bytes(Path(run_dir))
    return write_reports(report, Path(run_dir), DEFAULT_FORMATS, sign_key, data)
