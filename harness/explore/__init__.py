"""Beyond the corpus: fuzzing against the reference (Hypothesis) and exhaustive passes
over every hand of a ruleset, each finding written up as a ready-to-add vector."""
