#!/usr/bin/env bash
# The README's pictures, from the real binary: each screen is run in tmux at
# 80×24, captured with its escapes (tmux capture-pane -e) and rendered to SVG
# by charmbracelet/freeze. `make pictures` builds ./toolgate and runs this.
#
#   docs/img/walk.svg       the walk: scenario 4 at rule 7
#   docs/img/presenter.svg  the presenter: scenario 2 at rule 3, with a timer
#   docs/img/classroom.svg  the lecturer's screen of `toolgate serve` after a
#                           poll of three students, over real ssh on loopback
#
# Needs tmux and ssh. PICTURES_PORT picks the loopback port of the classroom
# (default 23991). Waits end when the expected text is on screen (or fail
# after about 20 s), never on a fixed sleep alone.
set -euo pipefail
cd "$(dirname "$0")/.."

bin=$PWD/toolgate
out=docs/img
port=${PICTURES_PORT:-23991}
freeze=(go run github.com/charmbracelet/freeze@v0.2.2)
tmp=$(mktemp -d)
sock=toolgate-pictures-$$
server=

tm() { tmux -L "$sock" "$@"; }

cleanup() {
	tm kill-server 2>/dev/null || true
	if [ -n "$server" ]; then kill "$server" 2>/dev/null || true; fi
	rm -rf "$tmp"
}
trap cleanup EXIT

[ -x "$bin" ] || { echo "pictures: $bin is missing: run make pictures (it builds it)" >&2; exit 1; }
mkdir -p "$out"

# waitfor SESSION TEXT: until TEXT is on SESSION's screen.
waitfor() {
	for _ in $(seq 200); do
		if tm capture-pane -p -t "$1" | grep -qF -- "$2"; then return 0; fi
		sleep 0.1
	done
	echo "pictures: \"$2\" never appeared in $1; its screen:" >&2
	tm capture-pane -p -t "$1" >&2
	exit 1
}

# shoot SESSION NAME: the screen as it is, with escapes, to $out/NAME.svg.
shoot() {
	tm capture-pane -e -p -t "$1" > "$tmp/$2.ansi"
	"${freeze[@]}" --language ansi --output "$out/$2.svg" "$tmp/$2.ansi"
}

# Every session gets the same terminal and no saved state of the machine's.
run() { # run SESSION COMMAND…
	local name=$1; shift
	tm new-session -d -s "$name" -x 80 -y 24 \
		env XDG_STATE_HOME="$tmp/state" TERM=xterm-256color LANG=C.UTF-8 "$@"
}

# The walk: scenario 4, rule 7 has fired.
run walk "$bin" --no-save --theme dark --scenario 4 --step 7
waitfor walk "Press → for the"
shoot walk walk

# The presenter: scenario 2, three steps in, a 45-minute timer.
run present "$bin" --no-save --theme dark --present --timer 45m --scenario 2 --step 3
waitfor present "elapsed"
shoot present presenter

# The classroom: a lecturer and three students over ssh; the lecturer moves
# to scenario 4, opens the question, the students answer, the lecturer
# reveals.
class=tulip-harbor-violet-seven
presenter=orchid-lantern-gravel-nine
XDG_STATE_HOME="$tmp/server" "$bin" serve --listen "127.0.0.1:$port" \
	--class-code "$class" --presenter-code "$presenter" 2> "$tmp/serve.log" &
server=$!
for _ in $(seq 200); do
	grep -q "serving on" "$tmp/serve.log" && break
	kill -0 "$server" 2>/dev/null || { cat "$tmp/serve.log" >&2; exit 1; }
	sleep 0.1
done
ssh=(ssh -p "$port" -F /dev/null -o StrictHostKeyChecking=no -o UserKnownHostsFile=/dev/null
	-o PubkeyAuthentication=no -o PreferredAuthentications=keyboard-interactive
	-o LogLevel=ERROR)
login() { # login SESSION USER CODE
	run "$1" "${ssh[@]}" "$2@127.0.0.1"
	waitfor "$1" "Class code"
	tm send-keys -t "$1" "$3" Enter
}
login lecturer lecturer "$presenter"
waitfor lecturer "You lead the room"
for s in s1 s2 s3; do
	login "$s" "$s" "$class"
	waitfor "$s" "follows the presenter"
done
for n in 2 3 4; do
	tm send-keys -t lecturer n
	waitfor lecturer "Scenario $n ·"
done
tm send-keys -t lecturer o
for s in s1 s2 s3; do waitfor "$s" "Predict first"; done
tm send-keys -t s1 7; waitfor s1 "approval_scope_mismatch"; tm send-keys -t s1 1
tm send-keys -t s2 7; waitfor s2 "approval_scope_mismatch"; tm send-keys -t s2 2
tm send-keys -t s3 4
waitfor lecturer "answered 3 of 3"
tm send-keys -t lecturer v
waitfor lecturer "does NOT prove"
shoot lecturer classroom
