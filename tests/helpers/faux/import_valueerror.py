"""A vendor module that fails at import time with its own ValueError (a configuration it
cannot parse, say).  That is the adapter's fault (exit 2), not a usage error (exit 3):
the spec ``py:tests.helpers.faux.import_valueerror:Evaluator`` names a module that exists."""

raise ValueError("vendor configuration: bad calibration table")


class Evaluator:  # never reached
    """What the spec names."""
