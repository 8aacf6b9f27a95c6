"""pokercert.reports: certification reports a lab can sign and a regulator can check.

One results folder becomes one canonical JSON report (sealed with its SHA-256 digest,
validated by ``schema/report.schema.json``), rendered as Markdown, HTML and JUnit XML;
``verify`` proves a report genuine, ``diff`` compares two runs.  Typical use::

    from pokercert.reports import write_default_reports
    paths = write_default_reports(run_dir)        # report.json, .md, .html, .junit.xml
"""

from pokercert.reports.output import FORMATS, load, render, write_default_reports, write_reports

__all__ = ["FORMATS", "load", "render", "write_default_reports", "write_reports"]
