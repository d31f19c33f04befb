#!/usr/bin/env bash
# The measurements of docs/performance.md ("The binary"), on the real binary.
#
#   scripts/perf.sh [assess|procs|pipe|audit|node|all]   (default: all)
#
# Each command of a section runs once per round, the commands of a round
# one after the other, so that a load that comes and goes on a shared
# machine falls on all of them alike; each round also gives the ratio to a
# baseline measured in it (the jsontext syntax check, Node, toolgate
# before). Figures are ranges over the rounds.
#
# Environment: ROUNDS (5), OUT (/tmp/toolgate-perf: binaries and inputs,
# generated once), BEFORE (a toolgate binary to compare with, optional),
# N (lines of the assess inputs, 1000000).
set -euo pipefail
cd "$(dirname "$0")/.."

ROUNDS=${ROUNDS:-5}
OUT=${OUT:-/tmp/toolgate-perf}
N=${N:-1000000}
mkdir -p "$OUT"

go build -o "$OUT/toolgate" .
go build -o "$OUT/jsoncheck" ./scripts/jsoncheck
gen() { # file, jsonlgen arguments...
	local f="$OUT/$1"
	shift
	# Made again when jsonlgen or its sample changed since: an input of an
	# older generator may be one the input check now refuses.
	if [ -s "$f" ] && [ "$f" -nt scripts/jsonlgen/main.go ] && [ "$f" -nt testdata/inputs.jsonl ]; then
		return
	fi
	go run ./scripts/jsonlgen "$@" >"$f.tmp"
	mv "$f.tmp" "$f"
}

# same FILE: Node's port and toolgate answer FILE alike, byte for byte, or
# the comparison of their times means nothing.
same() {
	node scripts/node/toolgate.js assess "$1" >"$OUT/node.out" || true
	"$OUT/toolgate" assess "$1" >"$OUT/toolgate.out" || true
	if ! cmp -s "$OUT/node.out" "$OUT/toolgate.out"; then
		echo "perf.sh: node and toolgate answer $1 differently:" >&2
		cmp "$OUT/node.out" "$OUT/toolgate.out" >&2 || true
		exit 1
	fi
	grep -q '"error"' "$OUT/toolgate.out" && echo "perf.sh: note: $1 has lines the input check refuses" >&2 || true
}

# run NAME COMMAND...: one timed run, appended to $OUT/times as
# "round name wall cpu rss".
run() {
	local name=$1
	shift
	/usr/bin/time -f "%e %U %S %M" -o "$OUT/t" "$@" >/dev/null 2>"$OUT/stderr" || true
	read -r wall user sys rss <"$OUT/t"
	echo "$round $name $wall $(echo "$user + $sys" | bc) $rss" >>"$OUT/times"
}

# report BASE NAME...: ranges of wall, CPU and RSS per name, and per round
# the ratio of each name's CPU and wall to BASE's.
report() {
	local base=$1
	shift
	awk -v base="$base" -v names="$*" '
	function lo(a, b) { return a == "" || b < a ? b : a }
	function hi(a, b) { return a == "" || b > a ? b : a }
	{ wall[$1,$2] = $3; cpu[$1,$2] = $4; rss[$1,$2] = $5; rounds[$1] = 1 }
	END {
		n = split(names, list, " ")
		printf "%-34s %-15s %-15s %-9s %-13s %s\n", "", "wall s", "CPU s", "RSS MB", "CPU/" base, "wall " base "/this"
		for (i = 1; i <= n; i++) {
			k = list[i]; wl = wh = cl = ch = rl = rh = ql = qh = sl = sh = ""
			for (r in rounds) {
				if (!((r, k) in wall)) continue
				wl = lo(wl, wall[r,k]); wh = hi(wh, wall[r,k])
				cl = lo(cl, cpu[r,k]); ch = hi(ch, cpu[r,k])
				rl = lo(rl, rss[r,k] / 1024); rh = hi(rh, rss[r,k] / 1024)
				if (cpu[r,base] > 0) { q = cpu[r,k] / cpu[r,base]; ql = lo(ql, q); qh = hi(qh, q) }
				if (wall[r,k] > 0) { s = wall[r,base] / wall[r,k]; sl = lo(sl, s); sh = hi(sh, s) }
			}
			printf "%-34s %5.2f–%-8.2f %5.2f–%-8.2f %3.0f–%-4.0f %4.2f–%-7.2f %4.2f–%.2f\n", k, wl, wh, cl, ch, rl, rh, ql, qh, sl, sh
		}
	}' "$OUT/times"
}

section_assess() {
	gen random.jsonl -kind random -n "$N"
	gen repeated.jsonl -kind repeated -n "$N"
	echo "## assess, $N lines: CPU against the jsontext syntax check (jsoncheck), wall against Node"
	: >"$OUT/times"
	for round in $(seq "$ROUNDS"); do
		for f in random repeated; do
			run "jsoncheck-$f" "$OUT/jsoncheck" "$OUT/$f.jsonl"
			run "toolgate-$f" "$OUT/toolgate" assess "$OUT/$f.jsonl"
			[ -z "${BEFORE:-}" ] || run "before-$f" "$BEFORE" assess "$OUT/$f.jsonl"
		done
	done
	report jsoncheck-random jsoncheck-random toolgate-random ${BEFORE:+before-random}
	report jsoncheck-repeated jsoncheck-repeated toolgate-repeated ${BEFORE:+before-repeated}
}

section_procs() {
	gen random.jsonl -kind random -n "$N"
	gen audit-1m.jsonl -track audit -n 1000000
	echo "## assess and audit on one core and on two (GOMAXPROCS)"
	: >"$OUT/times"
	for round in $(seq "$ROUNDS"); do
		for p in 1 2; do
			run "assess-procs$p" env GOMAXPROCS=$p "$OUT/toolgate" assess "$OUT/random.jsonl"
			[ -z "${BEFORE:-}" ] || run "before-assess-procs$p" env GOMAXPROCS=$p "$BEFORE" assess "$OUT/random.jsonl"
			run "audit-procs$p" env GOMAXPROCS=$p "$OUT/toolgate" audit --max-value 100000000 "$OUT/audit-1m.jsonl"
		done
	done
	report assess-procs1 assess-procs1 assess-procs2 ${BEFORE:+before-assess-procs1 before-assess-procs2}
	report audit-procs1 audit-procs1 audit-procs2
}

section_pipe() {
	gen random.jsonl -kind random -n "$N"
	echo "## assess reading a file and a pipe (answers are written whenever a pipe has nothing ready)"
	: >"$OUT/times"
	for round in $(seq "$ROUNDS"); do
		run toolgate-file "$OUT/toolgate" assess "$OUT/random.jsonl"
		run toolgate-pipe sh -c "cat '$OUT/random.jsonl' | '$OUT/toolgate' assess"
		run cat-only sh -c "cat '$OUT/random.jsonl' > /dev/null"
	done
	report toolgate-file toolgate-file toolgate-pipe cat-only
}

section_audit() {
	# 1M requests a file in every case: batches of 1k, 10k, 100k and 1M,
	# so that the time a file takes is the time of 1M requests at that
	# batch size (start-up counts once, alike).
	gen audit-1k.jsonl -track audit -n 1000 -batches 1000
	gen audit-10k.jsonl -track audit -n 10000 -batches 100
	gen audit-100k.jsonl -track audit -n 100000 -batches 10
	gen audit-1m.jsonl -track audit -n 1000000
	echo "## audit, 1M requests in batches of 1k to 1M (each size: one file of 1M requests)"
	: >"$OUT/times"
	for round in $(seq "$ROUNDS"); do
		for s in 1k 10k 100k 1m; do
			run "toolgate-audit-$s" "$OUT/toolgate" audit --max-value 100000000 "$OUT/audit-$s.jsonl"
			[ -z "${BEFORE:-}" ] || run "before-audit-$s" "$BEFORE" audit --max-value 100000000 "$OUT/audit-$s.jsonl"
			run "node-audit-$s" node scripts/node/toolgate.js audit "$OUT/audit-$s.jsonl"
		done
	done
	report toolgate-audit-1k toolgate-audit-1k toolgate-audit-10k toolgate-audit-100k toolgate-audit-1m \
		${BEFORE:+before-audit-1k before-audit-10k before-audit-100k before-audit-1m}
	report node-audit-1m toolgate-audit-1m node-audit-1m
}

section_node() {
	gen random.jsonl -kind random -n "$N"
	gen repeated.jsonl -kind repeated -n "$N"
	echo "## assess against the same rules in Node ($(node --version))"
	same "$OUT/random.jsonl"
	same "$OUT/repeated.jsonl"
	: >"$OUT/times"
	for round in $(seq "$ROUNDS"); do
		for f in random repeated; do
			run "node-$f" node scripts/node/toolgate.js assess "$OUT/$f.jsonl"
			run "toolgate-$f" "$OUT/toolgate" assess "$OUT/$f.jsonl"
		done
	done
	report node-random node-random toolgate-random
	report node-repeated node-repeated toolgate-repeated
}

what=${1:-all}
if [ "$what" = all ]; then
	for s in assess procs pipe audit node; do "section_$s"; echo; done
else
	"section_$what"
fi
