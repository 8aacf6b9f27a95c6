"""``pokercert.certify``: a whole certification as one library call.

    from pokercert.certify import certify

    result = certify("reference", rulesets=["nj-poker-high-3"], challenge_seed=7,
                     out="pokercert-run")
    result.verdict, result.exit_code, result.report["digest"]

The pipeline, one stage after another (README, "Architecture"):

* the harness's stages (:mod:`pokercert.harness.run.runner`: plan, open the run folder,
  start the adapter, score, attached modes, finish), or the same stages in each shard of a
  Dask run merged (:mod:`pokercert.harness.run.on_dask`);
* :func:`~pokercert.certify.seal.seal`: the report built from what was scored, sealed
  with its digest and written beside the results.

The CLI's ``pokercert run`` is this call and a printout of the sealed report; the pytest
plugin (:mod:`pokercert.certify.pytest_plugin`, through :mod:`pokercert.certify.gate`) is
this call with one test per vector of its sealed report.  This layer
sits between the reports and the CLI: it imports both below it, never the CLI.
"""

from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from pokercert.certify.pipeline import Certification, certify
    from pokercert.harness.run.limits import Limits

__all__ = ["Certification", "Limits", "certify"]

# imported on first use: the pytest plugin (pokercert.certify.pytest_plugin) is loaded into
# every pytest run of every project that installs pokercert, and must not pull the pipeline
_LAZY = {
    "Certification": "pokercert.certify.pipeline",
    "certify": "pokercert.certify.pipeline",
    "Limits": "pokercert.harness.run.limits",
}


def __getattr__(name: str) -> Any:
    if name in _LAZY:
        return getattr(import_module(_LAZY[name]), name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
