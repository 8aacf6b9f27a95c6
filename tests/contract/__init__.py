"""Tests of the whole repository: the layering, the inner layouts, the typing contract."""
