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

The CLI's ``pokercert run`` is this call and a printout of the sealed report.  This layer
sits between the reports and the CLI: it imports both below it, never the CLI.
"""

from __future__ import annotations

from pokercert.certify.pipeline import Certification, certify
from pokercert.harness.run.limits import Limits

__all__ = ["Certification", "Limits", "certify"]
