#!/usr/bin/env bash
# instructions.sh: instructions the simulator executes per host I/O in a whole-stack
# benchmark, counted by valgrind's cachegrind. Unlike wall-clock rates, which drift by
# ±5-15 % on a shared VM, the count is the same on every run, so it shows what a change to
# the model's code does to its work to within a few instructions. It says nothing of cache
# misses or mispredicted branches: confirm a change with an interleaved benchstat run too.
#
# The count is taken between two run lengths (default 300,000 and 500,000 I/Os, both past
# the write buffer's filling), so the machine's build and the warm-up drop out. It counts
# the simulator's own code plus the runtime functions it calls on its paths (memmove, map
# and coroutine-switch code), not the Go scheduler, which spins under valgrind. The garbage
# collector is off (GOGC=off): while it marks, write barriers take longer paths in the
# model's own functions, which made counts differ by ±50 per I/O between runs. Go's runtime
# reads the clock with RDTSCP, which valgrind 3.19 does not know on some VMs ("unhandled
# instruction bytes 0xF 0x1 0xF9"); GODEBUG=cpu.rdtscp=off makes it use RDTSC instead, which
# changes no instruction of the model's own code.
#
# Usage: bench/instructions.sh [-b test-binary] [-t] [benchmark-regexp] [lo hi]
#   -b  use this test binary (from `go test -c ./bench`) instead of building one
#   -t  also print the 40 functions with the most instructions per I/O
# Example: bench/instructions.sh 'StackRandWrite4K$'
# Needs valgrind (apt-get install valgrind); about a minute per benchmark.
set -euo pipefail
cd "$(dirname "$0")"
bin="" top=0
while getopts "b:t" o; do
	case $o in
	b) bin=$(realpath "$OPTARG") ;;
	t) top=1 ;;
	*) exit 2 ;;
	esac
done
shift $((OPTIND - 1))
re=${1:-'StackRandWrite4K$'} lo=${2:-300000} hi=${3:-500000}
if ! [[ $lo =~ ^[0-9]+$ && $hi =~ ^[0-9]+$ ]] || ((hi <= lo)); then
	echo "instructions.sh: lo and hi must be I/O counts with lo < hi (got '$lo' '$hi')" >&2
	exit 2
fi
command -v valgrind >/dev/null || { echo "instructions.sh: valgrind is not installed" >&2; exit 2; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
if [[ -z $bin ]]; then
	bin=$tmp/bench.test
	go test -c -o "$bin" .
fi
# One cachegrind run of n I/Os; then its per-function counts as "function count" lines.
run() {
	GOGC=off GODEBUG=cpu.rdtscp=off valgrind --tool=cachegrind --cache-sim=no --cachegrind-out-file="$tmp/$1.out" \
		"$bin" -test.run '^$' -test.bench "$re" -test.benchtime "${1}x" >"$tmp/$1.log" 2>&1 ||
		{ cat "$tmp/$1.log" >&2; exit 1; }
	cg_annotate --auto=no --threshold=0 "$tmp/$1.out" | awk '
		/file:function/ { on = 1; next }
		on && $1 ~ /^[0-9,]+$/ {
			n = $1; gsub(",", "", n); f = $NF
			if (f ~ /\/fastdrain\// || f ~ /runtime\/map|memmove|memclr|coro|mallocgc|mbarrier|internal\/runtime\/maps|math\/rand/) {
				sub(/.*fastdrain-sim\/fastdrain\//, "", f); print f, n
			}
		}' >"$tmp/$1.txt"
}
run "$lo" &
run "$hi" &
wait
awk -v d=$((hi - lo)) -v top=$top -v re="$re" '
	NR == FNR { a[$1] += $2; next }
	{ b[$1] += $2 }
	END {
		for (k in b) { v = (b[k] - a[k]) / d; t += v; if (top) printf "%10.1f %s\n", v, k | "sort -nr | head -40" }
		if (top) close("sort -nr | head -40")
		printf "%s: %.0f instructions per I/O\n", re, t
	}' "$tmp/$lo.txt" "$tmp/$hi.txt"
