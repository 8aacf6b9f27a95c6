"""Adapters: how the harness talks to an evaluator (in-process Python or a subprocess)."""
