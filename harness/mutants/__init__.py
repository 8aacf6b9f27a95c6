"""Deliberately broken evaluators (mutants) for the self-check. Never the reference."""
