#!/usr/bin/env bash
# Make reports/examples/ again: a real run of the bundled reference evaluator and of the
# pokerkit adapter, with the installed pokercert and corpus, each in all four formats.
# Needs the pokerkit extra (pip install 'pokercert[pokerkit]').
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
cd "$work"
for adapter in reference pokerkit; do
  # run exits 1 when the evaluator does not comply (pokerkit does not): that is a result;
  # 2 or 3 mean the run itself went wrong
  rc=0
  # fixed challenge and fuzz seeds, so that regenerating shows only what changed
  pokercert run --adapter "$adapter" --out "$adapter" --no-report --challenge-seed 20261201 \
    --fuzz 100 --fuzz-seed 20261201 \
    >/dev/null || rc=$?
  if [ "$rc" -ge 2 ]; then
    echo "pokercert run --adapter $adapter failed (exit $rc)" >&2
    exit "$rc"
  fi
  rm -rf "${here:?}/$adapter"
  rc=0
  pokercert report "$adapter" --out "$here/$adapter" 2>/dev/null || rc=$?
  if [ "$rc" -ge 3 ]; then
    echo "pokercert report $adapter failed (exit $rc)" >&2
    exit "$rc"
  fi
  echo "$adapter: $(head -1 "$here/$adapter/report.md")"
done
