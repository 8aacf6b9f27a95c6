"""Tests of pokercert.reports."""
