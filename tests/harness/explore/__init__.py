"""Tests of pokercert.harness.explore."""
