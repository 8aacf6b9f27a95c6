"""Tests of pokercert.harness."""
