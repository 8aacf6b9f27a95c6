"""pokercert.vectors: the curated corpus (data files shipped with the package) and its tooling."""
