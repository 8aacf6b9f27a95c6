"""Tests of pokercert.reference."""
