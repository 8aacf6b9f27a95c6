"""Faux adapters: protocol speakers run as scripts by path (``python FILE``), and evaluator
classes imported in process (``py:tests.helpers.faux.MODULE:NAME``)."""
