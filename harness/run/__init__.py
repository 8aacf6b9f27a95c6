"""A corpus run: selection and shards, scoring (the only PASS rule), the runner, the
expectations file, the results store, merging shards and the smoke set."""
