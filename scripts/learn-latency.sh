#!/usr/bin/env bash
# learn-latency.sh — the time from a save to the result in the watch view
# (toolgate learn), measured as a person sees it: the binary runs in tmux
# at 80x24; the script writes assess.mjs and polls the pane every 5 ms
# until the header's run count moves. Needs go, node and tmux.
#
#   scripts/learn-latency.sh [SAVES]     # default 20; prints min, median, max in ms
set -euo pipefail
saves=${1:-20}
root=$(cd "$(dirname "$0")/.." && pwd)
work=$(mktemp -d)
trap 'tmux kill-session -t toolgate-latency 2>/dev/null || true; rm -rf "$work"' EXIT
go build -o "$work/toolgate" "$root"
"$work/toolgate" learn init --lang js "$work/gate" >/dev/null
good="$root/learn/testdata/solution/assess.mjs"
sed "s/v.trim() === ''/v === ''/" "$good" >"$work/rule3-wrong.mjs"
tmux new -d -s toolgate-latency -x 80 -y 24 "$work/toolgate learn --no-save $work/gate"
pane() { tmux capture-pane -p -t toolgate-latency | head -1; }
until pane | grep -q 'run 1 '; do sleep 0.05; done
times=()
for i in $(seq 2 $((saves + 1))); do
	if ((i % 2)); then cp "$good" "$work/gate/assess.mjs"; else cp "$work/rule3-wrong.mjs" "$work/gate/assess.mjs"; fi
	t0=$(date +%s%N)
	until pane | grep -q "run $i "; do sleep 0.005; done
	times+=($((($(date +%s%N) - t0) / 1000000)))
done
printf '%s\n' "${times[@]}" | sort -n | awk '{a[NR]=$1} END {printf "%d saves: min %d ms, median %d ms, max %d ms\n", NR, a[1], a[int((NR+1)/2)], a[NR]}'
