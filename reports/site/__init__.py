"""The static conformance site (issue 30): the rulesets, the corpus and every evaluator's
results as plain HTML files that open from ``file://`` or any static host.

:func:`pokercert.reports.site.build.build_site` writes it; :mod:`.data` gathers what
the pages show (rulesets and corpus, and per run folder its sealed report and per-vector
outcomes); :mod:`.pages` renders the Jinja2 templates of ``templates/`` (autoescaping
on: everything from a run folder is text).
"""
