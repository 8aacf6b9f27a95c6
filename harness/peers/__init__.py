"""Shipped adapters for real evaluators: the reference and peers from PyPI (optional extras)."""
