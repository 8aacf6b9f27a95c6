"""Tests of pokercert.vectors."""
