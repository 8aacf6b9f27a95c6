"""Tests of pokercert.harness.peers."""
