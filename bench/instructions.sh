#!/usr/bin/env bash
# instructions.sh: instructions the simulator executes per host I/O, counted by valgrind's
# cachegrind, either in a whole-stack benchmark of package bench or on the user's path:
# `fastdrain fio` with an O_DIRECT random 4 KiB job at QD 32 on the MQSim-like array below.
# Unlike wall-clock rates, which drift by ±5-15 % on a shared VM, the count is the same on
# every run, so it shows what a change to the model's code does to its work to within a few
# instructions. With -c (always on the fio path) cachegrind also simulates the caches and
# the script prints first-level data-cache (D1) and last-level (LL) misses per I/O; it does
# not see mispredicted branches: confirm a change with an interleaved wall-clock run too.
#
# The count is taken between two run lengths (benchmarks: 300,000 and 500,000 I/Os; fio:
# 200,000 and 400,000), both past the write buffer's filling, so the machine's build and the
# warm-up drop out. It counts the simulator's own code plus the runtime functions it calls
# on its paths (memmove, map and coroutine-switch code), not the Go scheduler, which spins
# under valgrind. The garbage collector is off (GOGC=off): while it marks, write barriers
# take longer paths in the model's own functions, which made counts differ by ±50 per I/O
# between runs. Go's runtime reads the clock with RDTSCP, which valgrind 3.19 does not know
# on some VMs ("unhandled instruction bytes 0xF 0x1 0xF9"); GODEBUG=cpu.rdtscp=off makes it
# use RDTSC instead, which changes no instruction of the model's own code.
#
# The fio path (fio-write, fio-read) runs the program as users get it (`go build
# ./cmd/fastdrain`, with its profile-guided optimization) on MQSim's default geometry:
# mqsim-ref's 8 channels × 4 chips with 2 dies of 2 planes each (64 dies), 2,048 blocks of
# 256 pages of 4 KiB per plane (CMU-SAFARI/MQSim ssdconfig.xml; 4 KiB pages as in MQSim's
# TLC comparisons), half the namespace preconditioned in random order, and writes without
# FUA (fio's direct=1 opens without O_SYNC). Writes are uniform over the namespace, reads
# over the first 100 GiB (inside the preconditioned half, so every read goes to flash). -s
# adds --set overrides (repeatable), e.g. -s flash.channels=16 for the scaling study.
# The caches simulated are fixed, so the misses do not depend on the machine: 32 KiB 8-way
# first-level instruction and data caches and a 32 MiB 16-way last level, 64-byte lines
# (an AMD Zen 4 core and its CCD's L3).
#
# Usage: bench/instructions.sh [-b binary] [-t] [-c] [-s set]... [benchmark-regexp | fio-write | fio-read] [lo hi]
#   -b  use this binary (`go test -c ./bench`, or for fio-* `go build ./cmd/fastdrain`)
#   -t  also print the 40 functions with the most instructions per I/O
#   -c  simulate the caches (on for fio-*)
#   -s  a --set override for the fio path's machine (repeatable)
# Examples: bench/instructions.sh 'StackRandWrite4K$'; bench/instructions.sh fio-write
# Needs valgrind (apt-get install valgrind); a few minutes per benchmark, more when loaded.
set -euo pipefail
cd "$(dirname "$0")"
bin="" top=0 cache=0 sets=()
while getopts "b:tcs:" o; do
	case $o in
	b) bin=$(realpath "$OPTARG") ;;
	t) top=1 ;;
	c) cache=1 ;;
	s) sets+=(--set "$OPTARG") ;;
	*) exit 2 ;;
	esac
done
shift $((OPTIND - 1))
re=${1:-'StackRandWrite4K$'}
fio=""
case $re in
fio-write) fio=randwrite ;;
fio-read) fio=randread ;;
esac
if [[ -n $fio ]]; then
	cache=1
	lo=${2:-200000} hi=${3:-400000}
else
	lo=${2:-300000} hi=${3:-500000}
fi
if ! [[ $lo =~ ^[0-9]+$ && $hi =~ ^[0-9]+$ ]] || ((hi <= lo)); then
	echo "instructions.sh: lo and hi must be I/O counts with lo < hi (got '$lo' '$hi')" >&2
	exit 2
fi
command -v valgrind >/dev/null || { echo "instructions.sh: valgrind is not installed" >&2; exit 2; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
if [[ -z $bin ]]; then
	if [[ -n $fio ]]; then
		bin=$tmp/fastdrain
		go build -o "$bin" ../cmd/fastdrain
	else
		bin=$tmp/bench.test
		go test -c -o "$bin" .
	fi
fi
cg=(--cache-sim=no)
if ((cache)); then
	cg=(--cache-sim=yes --I1=32768,8,64 --D1=32768,8,64 --LL=33554432,16,64)
fi
# The fio job of n I/Os, written to $tmp/n.yaml.
job() {
	local region=""
	[[ $fio == randread ]] && region="    size: 100g"
	cat >"$tmp/$1.yaml" <<-EOF
		jobs:
		  - name: $fio
		    rw: $fio
		    bs: 4k
		    iodepth: 32
		    direct: 1
		    io_size: $(($1 * 4))k
		$region
	EOF
}
# One cachegrind run of n I/Os; then its per-function counts as "function Ir D1 LL" lines.
run() {
	local cmd
	if [[ -n $fio ]]; then
		job "$1"
		cmd=("$bin" fio "$tmp/$1.yaml" --no-files --preset mqsim-ref --set flash.dies_per_package=2
			--set flash.die.page_size=4096 --set precondition.fill=0.5 --set precondition.random=true
			--set host.pagecache.direct_fua=false ${sets[@]+"${sets[@]}"})
	else
		cmd=("$bin" -test.run '^$' -test.bench "$re" -test.benchtime "${1}x")
	fi
	GOGC=off GODEBUG=cpu.rdtscp=off valgrind --tool=cachegrind "${cg[@]}" --cachegrind-out-file="$tmp/$1.out" \
		"${cmd[@]}" >"$tmp/$1.log" 2>&1 || { cat "$tmp/$1.log" >&2; exit 1; }
	# Columns: Ir, and with the caches simulated I1mr ILmr Dr D1mr DLmr Dw D1mw DLmw.
	cg_annotate --auto=no --threshold=0 "$tmp/$1.out" | sed 's/([ 0-9.]*%)//g' | awk -v cache="$cache" '
		/file:function/ { on = 1; next }
		on && $1 ~ /^[0-9,]+$/ {
			for (i = 1; i < NF; i++) gsub(",", "", $i)
			f = $NF
			if (f ~ /\/fastdrain\// || f ~ /runtime\/map|memmove|memclr|coro|mallocgc|mbarrier|internal\/runtime\/maps|math\/rand/) {
				sub(/.*fastdrain-sim\/fastdrain\//, "", f)
				if (cache) print f, $1, $5 + $8, $3 + $6 + $9
				else print f, $1, 0, 0
			}
		}' >"$tmp/$1.txt"
}
run "$lo" &
run "$hi" &
wait
awk -v d=$((hi - lo)) -v top=$top -v re="$re" -v cache="$cache" '
	NR == FNR { a[$1] += $2; ad[$1] += $3; al[$1] += $4; next }
	{ b[$1] += $2; bd[$1] += $3; bl[$1] += $4 }
	END {
		for (k in b) {
			v = (b[k] - a[k]) / d; t += v; td += (bd[k] - ad[k]) / d; tl += (bl[k] - al[k]) / d
			if (top) printf "%10.1f %s\n", v, k | "sort -nr | head -40"
		}
		if (top) close("sort -nr | head -40")
		if (cache) printf "%s: %.0f instructions, %.1f D1 misses, %.1f LL misses per I/O\n", re, t, td, tl
		else printf "%s: %.0f instructions per I/O\n", re, t
	}' "$tmp/$lo.txt" "$tmp/$hi.txt"
