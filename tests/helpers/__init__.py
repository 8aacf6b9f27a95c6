"""What the tests share: hand-worked vectors, textbook evaluators, report fixtures, and
the faux adapters under ``faux/``.  Imported as ``tests.helpers`` (pyproject's pytest
``pythonpath`` puts the repository root on ``sys.path``, in either import mode)."""

from __future__ import annotations

import os
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
"""The repository root (the folder of pyproject.toml)."""

FAUX = Path(__file__).resolve().parent / "faux"
"""The faux adapters' folder: scripts run by path, modules imported as ``tests.helpers.faux``."""


def child_pythonpath() -> str:
    """``PYTHONPATH`` for a child process (a ``pokercert`` run, an xdist worker) that
    imports ``tests.helpers...``: the repository root first, then what was set."""
    return os.pathsep.join([str(ROOT), *filter(None, [os.environ.get("PYTHONPATH")])])


def require_dask() -> None:
    """Skip the calling test module where Dask is not installed (the optional extra),
    except in CI, which installs it (the test extra): there its absence is an error."""
    import pytest

    try:
        import distributed  # noqa: F401
    except ImportError:
        if os.environ.get("CI"):
            raise
        pytest.skip(
            "dask.distributed is not installed here (pip install 'pokercert[dask]'); "
            "CI installs it and runs these tests",
            allow_module_level=True,
        )
