#!/usr/bin/env bash
# Runs a broad set of toolgate commands against two binaries and compares
# their output byte for byte: stdout, stderr and the exit code of each, and
# the files a command writes. A refactor that must not change behaviour is
# checked by building the binary before and after it:
#
#   git stash; go build -o /tmp/tg-before .; git stash pop
#   go build -o /tmp/tg-after .
#   scripts/samebytes.sh /tmp/tg-before /tmp/tg-after
#
# Prints the number of commands compared and, for each command whose
# output differs, its name and a diff; exits 1 if any differs. Both
# binaries run as $RUN/bin/toolgate, with the same HOME, XDG directories,
# locale and working directory, so that paths in the output are alike.
# KEEP=1 keeps the outputs (in the printed directory).
set -uo pipefail
[ $# -eq 2 ] || { echo "usage: $0 BEFORE AFTER" >&2; exit 2; }
cd "$(dirname "$0")/.."
repo=$PWD
before=$(realpath "$1") after=$(realpath "$2")
work=$(mktemp -d /tmp/samebytes.XXXXXX)
RUN=$work/run

tracks=(admission audit outcome)
langs=(en zh)

# commands prints the commands, one a line; each is run by bash -c in the
# repository, with toolgate on the PATH and $RUN set.
commands() {
	local sub
	echo "toolgate --help"
	echo "toolgate --version"
	for sub in assess audit check completion import "import mcp" "import transcript" learn "learn init" \
		list man new notes practice progress serve trace validate vectors \
		"completion bash" "completion zsh" "completion fish" "completion powershell"; do
		echo "toolgate $sub --help"
		echo "toolgate $sub --help --lang zh"
	done
	echo "toolgate no-such-command"
	echo "toolgate --track nowhere list"
	local t l f
	for l in "${langs[@]}"; do
		for f in text json; do
			echo "toolgate list --lang $l --format $f"
			for t in "${tracks[@]}" bogus; do
				echo "toolgate list --track $t --lang $l --format $f"
			done
		done
		for f in text md json; do
			echo "toolgate trace --all --lang $l --format $f"
			for t in "${tracks[@]}"; do
				echo "toolgate trace --all --track $t --lang $l --format $f"
				for n in 1 2 3 4 5 6 7 8 14 99; do
					echo "toolgate trace $n --track $t --lang $l --format $f"
				done
			done
		done
		echo "toolgate notes --lang $l"
		for t in "${tracks[@]}"; do
			echo "toolgate notes --track $t --lang $l"
			echo "toolgate notes --track $t --scenario 2 --lang $l"
			echo "toolgate vectors --track $t --lang $l"
			echo "toolgate new --track $t --lang $l"
			echo "toolgate progress --lang $l --format json --track $t"
		done
		echo "toolgate trace write-without-approval --lang $l"
		echo "toolgate trace audit-streaming-open --lang $l --format json"
		echo "toolgate trace outcome-unknown-tool --lang $l --format md"
		echo "toolgate trace --track bogus 1 --lang $l"
		echo "toolgate notes --scenario 4 --lang $l"
		echo "toolgate notes --scenario nope --lang $l"
		echo "toolgate vectors --track bogus --lang $l"
		echo "toolgate new --track bogus --lang $l"
		echo "toolgate progress --lang $l"
		echo "toolgate progress --lang $l --format json"
		echo "toolgate practice --seed 1 --count 5 --lang $l"
		echo "toolgate practice --seed 1 --count 5 --lang $l --format json"
		echo "toolgate practice --seed 7 --count 20 --lang $l --format json"
		echo "toolgate man --lang $l"
		echo "toolgate validate examples/ --lang $l"
		echo "toolgate validate --coverage --lang $l"
		echo "toolgate validate --coverage examples/ --lang $l"
		echo "toolgate validate testdata/bad --lang $l"
		echo "toolgate validate testdata/good --lang $l"
		echo "toolgate --scenarios examples list --lang $l"
		echo "toolgate --scenarios examples --only list --format json --lang $l"
		echo "toolgate --scenarios examples --only trace --all --lang $l"
		echo "toolgate --scenarios examples --only notes --lang $l"
		echo "toolgate --scenarios testdata/bad list --lang $l"
		echo "toolgate assess testdata/inputs.jsonl --lang $l"
		echo "toolgate assess --trace testdata/inputs.jsonl --lang $l"
		echo "toolgate vectors --track audit | toolgate audit --lang $l"
		echo "echo '{\"requested\":[\"A\",\"B\"],\"results\":[\"A\",\"A\",\"C\"]}' | toolgate audit --lang $l"
		echo "echo '{\"requested\":[\"A\",\"A\"],\"results\":[]}' | toolgate audit --lang $l"
		echo "toolgate check --track admission --lang $l -- toolgate assess"
		echo "toolgate check --track audit --lang $l -- toolgate audit"
		echo "toolgate check --track outcome --lang $l -- toolgate assess"
		echo "toolgate check --track bogus --lang $l -- toolgate assess"
		# Line mode: every scenario of every track, stepped and predicted.
		for t in "${tracks[@]}"; do
			echo "{ echo 1; for i in \$(seq 16); do printf '\n\n\n\n\n\n\n\n\n\n\nn\n'; done; echo p; echo 2; echo; echo r; echo v; echo l; echo lang; echo t; echo 3; echo v; echo q; } | toolgate --plain --track $t --lang $l"
		done
		echo "printf 'x\n?\nt\nt\nt\n2\np\n1\nq\n' | toolgate --plain --lang $l --scenario 4 --step 2"
	done
	for f in testdata/streams/*; do
		echo "toolgate assess $f"
		echo "toolgate audit $f"
		echo "toolgate assess --trace --max-value 200 $f"
	done
	for f in testdata/bad/* testdata/good/* examples/*; do
		echo "toolgate validate $f"
		echo "toolgate --scenarios $f --only trace --all --format json"
	done
	for f in testdata/harness/mcp/*; do
		echo "toolgate import mcp $f"
	done
	for f in $(find testdata/transcripts -type f ! -name '*.golden' ! -name README.md | sort); do
		echo "toolgate import transcript --audit $f"
	done
	for c in js py go java; do
		echo "toolgate learn init --lang $c \$RUN/learn-$c >/dev/null && (cd \$RUN/learn-$c && find . -type f | sort | xargs sha256sum)"
	done
	echo "toolgate learn init \$RUN/learn-default && (cd \$RUN/learn-default && find . -type f | sort | xargs sha256sum)"
	echo "toolgate new \$RUN/new.yaml && cat \$RUN/new.yaml && toolgate validate \$RUN/new.yaml"
}

# runall BINARY OUTDIR runs every command with BINARY as toolgate.
runall() {
	rm -rf "$RUN"
	mkdir -p "$RUN/bin" "$RUN/home" "$2"
	cp "$1" "$RUN/bin/toolgate"
	local i=0 cmd
	while IFS= read -r cmd; do
		i=$((i + 1))
		printf '%s\n' "$cmd" >"$2/$i.cmd"
		(cd "$repo" && env -i PATH="$RUN/bin:/usr/local/bin:/usr/bin:/bin" HOME="$RUN/home" \
			XDG_STATE_HOME="$RUN/home/state" XDG_CONFIG_HOME="$RUN/home/config" XDG_DATA_HOME="$RUN/home/data" \
			XDG_CACHE_HOME="$RUN/home/cache" LANG=C.UTF-8 TERM=dumb COLUMNS=80 RUN="$RUN" \
			timeout 120 bash -c "$cmd" </dev/null >"$2/$i.out" 2>"$2/$i.err")
		echo $? >"$2/$i.rc"
	done < <(commands)
	echo "$i"
}

n=$(runall "$before" "$work/before")
runall "$after" "$work/after" >/dev/null
differ=0
for ((i = 1; i <= n; i++)); do
	for x in out err rc; do
		if ! cmp -s "$work/before/$i.$x" "$work/after/$i.$x"; then
			differ=$((differ + 1))
			echo "--- differs ($x): $(cat "$work/before/$i.cmd")"
			diff "$work/before/$i.$x" "$work/after/$i.$x" | head -20
			break
		fi
	done
done
echo "compared $n commands: $differ differ"
if [ -n "${KEEP:-}" ]; then echo "outputs in $work"; else rm -rf "$work"; fi
[ "$differ" -eq 0 ]
