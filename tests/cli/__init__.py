"""Tests of pokercert.cli, and of what every command promises (clean errors, lab fields)."""
