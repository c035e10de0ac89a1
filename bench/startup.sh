#!/usr/bin/env bash
# bench/startup.sh — repo's start-up next to a Go hello-world's (issue 21): the hello-world
# (bench/hello), `repo version` and a no-op `repo sync --check` of examples/workspace — outside
# git, and committed in a git work tree as a pre-commit hook sees it — side by side in one
# hyperfine per round (-N), ROUNDS alternating rounds of RUNS runs of each, so that
# the machine's drift meets every command alike. Prints the medians, the mean CPU time (user +
# system) and the ratios to the hello-world, in Markdown.
#
#   bash bench/startup.sh                        # the working tree
#   bash bench/startup.sh REV_BEFORE [REV_AFTER] # two revisions side by side (REV_AFTER: HEAD)
#
# Every binary is built as the release is (.goreleaser.yaml: CGO_ENABLED=0, -trimpath, -s -w);
# CGO=1 builds repo as a plain `go build` does where a C compiler is found (linked to the C
# library: pflag imports net), the hello-world too. The workspace is synced once, by the last
# binary, before anything is timed. Knobs: ROUNDS (5), RUNS (200), WARMUP (20), KEEP (keep the
# work folder), FLOOR=1 (also time bench/floor: the file system calls the last binary's check
# makes, recorded with strace and replayed alone, parsing nothing). bench/run.sh measures the
# first three cases (its S section) for RESULTS.md.
set -euo pipefail

HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
MAIN=$(dirname "$HERE")
ROUNDS=${ROUNDS:-5}
RUNS=${RUNS:-200}
WARMUP=${WARMUP:-20}
CGO=${CGO:-0}
command -v hyperfine >/dev/null && command -v jq >/dev/null && command -v git >/dev/null || { echo "startup.sh: hyperfine, jq and git are required" >&2; exit 2; }
W=$(mktemp -d /tmp/repo-startup.XXXXXX)
[ -n "${KEEP:-}" ] || trap 'rm -rf "$W"' EXIT

FLAGS=(-buildvcs=false -trimpath -ldflags "-s -w")
export CGO_ENABLED=$CGO
[ "$CGO" = 1 ] && FLAGS=(-buildvcs=false)

# build NAME [REV]: repo from REV (git archive), or from the working tree
build() {
	local src=$MAIN
	if [ -n "${2:-}" ]; then
		src=$W/src-$1
		mkdir -p "$src"
		git -C "$MAIN" archive "$2" | tar -x -C "$src"
	fi
	(cd "$src" && go build "${FLAGS[@]}" -o "$W/repo-$1" ./cmd/repo)
}
(cd "$MAIN" && go build "${FLAGS[@]}" -tags repodev -o "$W/hello" ./bench/hello)
if [ $# -eq 0 ]; then
	NAMES=(tree)
	build tree
	LABEL="the working tree"
else
	NAMES=(before after)
	build before "$1"
	build after "${2:-HEAD}"
	LABEL="before $(git -C "$MAIN" rev-parse --short "$1"), after $(git -C "$MAIN" rev-parse --short "${2:-HEAD}")"
fi

EX=$W/ws
cp -a "$MAIN/examples/workspace" "$EX"
mkdir -p "$W/home"
export HOME=$W/home
"$W/repo-${NAMES[-1]}" sync --root "$EX" >/dev/null 2>&1
for n in "${NAMES[@]}"; do
	"$W/repo-$n" sync --check --root "$EX" >/dev/null 2>&1 || { echo "startup.sh: repo sync --check ($n) does not find the synced workspace in sync" >&2; exit 1; }
done

# The same check in a git work tree, as a pre-commit hook runs it: the synced workspace committed,
# so that the run asks git which of its files git tracks.
GX=$W/git/ws
mkdir -p "$W/git"
cp -a "$MAIN/examples/workspace" "$GX"
git -C "$GX" init -q
"$W/repo-${NAMES[-1]}" sync --root "$GX" >/dev/null 2>&1
git -C "$GX" add -A
git -C "$GX" -c user.name=bench -c user.email=bench@invalid -c commit.gpgsign=false commit -q --no-verify -m synced
for n in "${NAMES[@]}"; do
	"$W/repo-$n" sync --check --root "$GX" >/dev/null 2>&1 || { echo "startup.sh: repo sync --check ($n) does not find the committed workspace in sync" >&2; exit 1; }
done

CMDS=(--command-name hello "$W/hello")
if [ "${FLOOR:-0}" = 1 ]; then
	command -v strace >/dev/null || { echo "startup.sh: FLOOR=1 needs strace" >&2; exit 2; }
	(cd "$MAIN" && go build "${FLAGS[@]}" -tags repodev -o "$W/floor" ./bench/floor)
	# One trace file per thread, so that no call is split across lines; the runtime's own
	# reads of /proc and /sys are the hello-world's too.
	strace -qq -ff -o "$W/trace" -e trace=newfstatat,faccessat,faccessat2,openat "$W/repo-${NAMES[-1]}" sync --check --root "$EX" >/dev/null 2>&1
	cat "$W"/trace.* | sed -nE '
		/"\/(proc|sys)\//d
		s/^newfstatat\(AT_FDCWD, "([^"]*)", .*AT_SYMLINK_NOFOLLOW\) = .*/lstat \1/p
		s/^newfstatat\(AT_FDCWD, "([^"]*)", .*, 0\) = .*/stat \1/p
		s/^faccessat2?\(AT_FDCWD, "([^"]*)", .*/access \1/p
		s/^openat\(AT_FDCWD, "([^"]*)", .*\) = [0-9]+$/read \1/p
		s/^openat\(AT_FDCWD, "([^"]*)", .*\) = -1 .*/stat \1/p' >"$W/calls.txt"
	CMDS+=(--command-name floor "$W/floor $W/calls.txt")
fi
for n in "${NAMES[@]}"; do
	CMDS+=(--command-name "version-$n" "$W/repo-$n version" --command-name "check-$n" "$W/repo-$n sync --check --root $EX"
		--command-name "gitcheck-$n" "$W/repo-$n sync --check --root $GX")
done
for ((r = 1; r <= ROUNDS; r++)); do
	hyperfine -N --warmup "$WARMUP" --runs "$RUNS" --style none --export-json "$W/round.$r.json" "${CMDS[@]}"
done

echo "Start-up: $LABEL; built with CGO_ENABLED=$CGO ${FLAGS[*]}; $ROUNDS alternating rounds × $RUNS runs of each (hyperfine -N); load at the end: $(cut -d' ' -f1-3 /proc/loadavg)"
echo
jq -rs '
	def med: sort | if length % 2 == 1 then .[(length - 1) / 2] else (.[length / 2 - 1] + .[length / 2]) / 2 end;
	def ms: . * 100000 | round / 100 | tostring + " ms";
	[.[].results[]] | group_by(.command) | map({name: .[0].command, wall: (map(.times[]) | med), cpu: (map(.user + .system) | add / length)}) as $r
	| ($r[] | select(.name == "hello")) as $h
	| "| command | median wall | × hello-world | mean CPU (user + sys) | × hello-world |",
	  "|---|---|---|---|---|",
	def rank: if . == "hello" then 0 elif . == "floor" then 0.5 elif startswith("version") then 1 elif startswith("check") then 2 else 3 end;
	  ($r | sort_by([(.name | rank), (.name | endswith("after"))])[]
	  | "| `\(.name)` | \(.wall | ms) | \(.wall / $h.wall * 100 | round / 100)× | \(.cpu | ms) | \(.cpu / $h.cpu * 100 | round / 100)× |"),
	  "",
	  "Targets (issue 21): `repo version` ≤ 1.5× and the no-op `repo sync --check` ≤ 3× the hello-world (median wall time).",
	  ($r | sort_by([(.name | rank), (.name | endswith("after"))])[] | select(.name != "hello" and .name != "floor" and (.name | startswith("gitcheck") | not)) | (if (.name | startswith("version")) then 1.5 else 3 end) as $t
	  | "- `\(.name)`: \(.wall / $h.wall * 100 | round / 100)× (≤ \($t)×): \(if .wall / $h.wall <= $t then "met" else "missed" end)"),
	  "",
	  "`gitcheck`: the same check in a git work tree, as a pre-commit hook runs it (no target of its own: it also reads which files git tracks, from the index file, or from git where repo leaves that to git).",
	  (if any($r[]; .name == "floor") then "", "`floor`: the \($calls) file system calls of the last binary'"'"'s check outside git (strace), replayed one at a time by bench/floor, parsing nothing." else empty end)
' --arg calls "$(wc -l <"$W/calls.txt" 2>/dev/null || echo 0)" "$W"/round.*.json
