#!/bin/sh
# fidelity.sh — docs/fidelity.md's measured run: check it, or write it.
#
#   bench/fidelity.sh [--update] [DIR]
#
# DIR is a finished `fastdrain figures --full` results directory
# (OUT/figures/fastdrain-tlc-30s). Without DIR the script makes one: it runs
# `fastdrain figures --full --jobs ${JOBS:-2} --out ${OUT:-a new temporary directory}`
# (420 simulations; tens of minutes on two cores) and uses its results.
#
# Then figures.TestFidelityDoc renders the run's report from DIR's files (summary.json,
# NAME.json: the claims, verdicts, seeds, engagement and figure tables) and compares it
# byte for byte with the block between the markers in docs/fidelity.md, printing the first
# line that differs; it fails if they differ. With --update it writes the report into the
# page instead. The prose around the block is not touched: after --update, read the page's
# mechanism sections against the new numbers.
set -eu
cd "$(dirname "$0")/.."
update=""
if [ "${1:-}" = "--update" ]; then
	update="-fidelity.update"
	shift
fi
dir="${1:-}"
if [ -z "$dir" ]; then
	out="${OUT:-$(mktemp -d)}"
	go run ./cmd/fastdrain figures --full --jobs "${JOBS:-2}" --out "$out" >"$out/figures.txt"
	dir=$(sed -n 's/^results written to //p' "$out/figures.txt" | tail -n 1)
	echo "figures --full results: $dir (standard output: $out/figures.txt)" >&2
fi
dir=$(cd "$dir" && pwd)
go test ./figures -run '^TestFidelityDoc$' -count=1 -v -args -fidelity.dir="$dir" $update
