"""``python -m pokercert.vectors.generate [--check]``: the generator without the CLI."""

from __future__ import annotations

import sys

from pokercert.vectors.generate.writer import stale_files, write_all


def main(argv: list[str]) -> int:
    """Rewrite the generated files, or with ``--check`` list those that differ (exit 1)."""
    if "--check" in argv:
        bad = stale_files()
        print("\n".join(bad) or "generated files are up to date")
        return 1 if bad else 0
    print(f"wrote {len(write_all())} files")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
