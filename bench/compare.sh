#!/usr/bin/env bash
# bench/compare.sh — the same whole-command cases for two revisions, alternating, to tell a
# change from the VM's own drift (a full bench/run.sh before and after a change can differ by
# a third for tools we do not touch: ruler took 301 ms in one run and 429 ms in the next).
#
#   BENCH_WORK=/path/of/a/kept/run.sh/work bash bench/compare.sh REV_BEFORE [REV_AFTER]
#
# BENCH_WORK is the work folder of an earlier `BENCH_WORK=… bash bench/run.sh` (its generated
# workloads are reused; nothing is generated here). REV_AFTER defaults to HEAD. Each case runs
# ROUNDS (3) alternating rounds of RUNS (8) hyperfine runs per revision; the table gives the
# median wall time and the mean CPU time (user + system) over all rounds. The removal cases
# (bench/removal.sh; the smallest size kept) take REMOVE_RUNS (2) runs a round: quadratic before
# issue 21, one run took minutes. ONLY (a regular expression) keeps the cases whose names match;
# a case whose workload the work folder lacks is left out.
set -euo pipefail

HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
MAIN=$(dirname "$HERE")
W=${BENCH_WORK:?set BENCH_WORK to the work folder of a kept bench/run.sh run}
BEFORE=${1:?usage: bench/compare.sh REV_BEFORE [REV_AFTER]}
AFTER=${2:-HEAD}
ROUNDS=${ROUNDS:-3}
RUNS=${RUNS:-8}
REMOVE_RUNS=${REMOVE_RUNS:-2}
ONLY=${ONLY:-.}
OUT=$W/compare
rm -rf "$OUT" && mkdir -p "$OUT"

# Both revisions are built as the release is (CGO_ENABLED=0, -trimpath, -s -w), as bench/run.sh
# builds repo. bench/startup.sh times the start-up cases next to a Go hello-world, with more runs.
build() { # rev name
	mkdir -p "$OUT/$2/src"
	git -C "$MAIN" archive "$1" | tar -x -C "$OUT/$2/src"
	(cd "$OUT/$2/src" && CGO_ENABLED=0 go build -buildvcs=false -trimpath -ldflags "-s -w" -o "$OUT/$2/repo" ./cmd/repo)
}
build "$BEFORE" before
build "$AFTER" after

run() { # name prepare args... (HOME from the environment; runs and warm-up runs: RUNS_NOW, WARM_NOW)
	local name=$1 prep=$2
	shift 2
	[[ $name =~ $ONLY ]] || return 0
	for round in $(seq "$ROUNDS"); do
		for v in before after; do
			local args=(-N -w "${WARM_NOW:-2}" -r "${RUNS_NOW:-$RUNS}" --export-json "$OUT/$name.$v.$round.json")
			[ -n "$prep" ] && args+=(--prepare "$prep")
			hyperfine "${args[@]}" "$OUT/$v/repo $*" >/dev/null
		done
	done
}
fresh() { echo "bash -c 'rm -rf $1 && cp -a $2 $1'"; }

PEERS=claude,crush,cursor,factory,jetbrains,kiro,opencode,qwen,roo,zed
if [ -d "$W/example" ]; then
HOME=$W/example/home run ex-sync "$(fresh "$W/example/ws" "$W/example/tpl")" sync --root "$W/example/ws"
HOME=$W/example/home "$OUT/after/repo" sync --root "$W/example/ws" >/dev/null 2>&1
HOME=$W/example/home run ex-check "" sync --check --root "$W/example/ws"
HOME=$W/example/home run version "" version
HOME=$W/race/home run race-repo-sync "$(fresh "$W/race/ws" "$W/race/tpl")" sync --root "$W/race/ws" --tool "$PEERS"
H=$W/local/home
# The user's trust of the workspace's servers (repo trust, from the revision that has it) stays;
# each run starts without the ownership record. A revision before repo trust ignores the store.
HOME=$H "$OUT/after/repo" trust --all --root "$W/local/ws" >/dev/null 2>&1 || true
HOME=$H run local-repo-sync "bash -c 'cp $W/local/home0/.claude.json $H/.claude.json && rm -rf $H/.local/state/repo/workspaces && sync'" \
	sync --root "$W/local/ws" --scope local --tool claude
HOME=$H "$OUT/after/repo" sync --root "$W/local/ws" --scope local --tool claude >/dev/null 2>&1
HOME=$H run local-repo-check "" sync --check --root "$W/local/ws" --scope local --tool claude
fi
for n in $(ls -d "$W"/big* 2>/dev/null | sed 's|.*/big||' | sort -n | head -1); do
	HOME=$W/big$n/home run "big$n-sync" "$(fresh "$W/big$n/ws" "$W/big$n/tpl")" sync --root "$W/big$n/ws"
	HOME=$W/big$n/home run "big$n-check" "" sync --check --root "$W/big$n/ws"
done
for n in $(ls -d "$W"/user* 2>/dev/null | sed 's|.*/user||' | sort -n | head -1); do
	for t in codex goose continue; do
		UH=$W/user$n/home-$t
		rm -rf "$UH.trusted" && mkdir -p "$UH.trusted"
		HOME=$UH.trusted "$OUT/after/repo" trust --all --root "$W/user$n/ws" >/dev/null 2>&1 || true
		HOME=$UH run "user-$t-$n" "bash -c 'rm -rf $UH && cp -a $UH.trusted $UH'" sync --root "$W/user$n/ws" --scope user --tool "$t"
	done
done
# removal (issue 21): the extensions folder emptied after a sync; the smallest size
for n in $(ls -d "$W"/remove-json* 2>/dev/null | sed 's|.*/remove-json||' | sort -n | head -1); do
	D=$W/remove-json$n
	restore() { echo "bash -c '$(bash "$HERE/removal.sh" restore "$1")'"; }
	export RUNS_NOW=$REMOVE_RUNS WARM_NOW=0
	HOME=$D/home run "remove-json-$n" "$(restore "$D")" sync --root "$D/ws"
	for t in claude vscode; do # one tool: strict JSON, JSONC
		HOME=$D/home run "remove-$t-$n" "$(restore "$D")" sync --root "$D/ws" --tool "$t"
	done
	for d in "$W"/remove-user"$n"-*; do
		t=${d##*-}
		HOME=$d/home run "remove-user-$t-$n" "$(restore "$d")" sync --root "$d/ws" --scope user --tool "$t"
	done
	unset RUNS_NOW WARM_NOW
done

echo "Before: $(git -C "$MAIN" rev-parse --short "$BEFORE"), after: $(git -C "$MAIN" rev-parse --short "$AFTER"); $ROUNDS alternating rounds × $RUNS runs ($REMOVE_RUNS for the removal cases); load at the end: $(cut -d' ' -f1-3 /proc/loadavg)"
echo
jq -rs --arg rounds "$ROUNDS" '
	def med: sort | if length % 2 == 1 then .[length / 2 | floor] else (.[length / 2 - 1] + .[length / 2]) / 2 end;
	def ms: . * 100000 | round / 100 | tostring + " ms";
	def pct(a; b): (b / a - 1) * 1000 | round / 10 | (if . >= 0 then "+" else "" end) + tostring + "%";
	group_by(.name) | map({
		name: .[0].name,
		bw: (map(select(.v == "before") | .times[]) | med), aw: (map(select(.v == "after") | .times[]) | med),
		bc: (map(select(.v == "before") | .cpu) | add / length), ac: (map(select(.v == "after") | .cpu) | add / length)
	}) |
	"| case | before median wall | after median wall | change | before CPU | after CPU | change |",
	"|---|---|---|---|---|---|---|",
	(.[] | "| `\(.name)` | \(.bw | ms) | \(.aw | ms) | \(pct(.bw; .aw)) | \(.bc | ms) | \(.ac | ms) | \(pct(.bc; .ac)) |")
' < <(for f in "$OUT"/*.json; do
	b=$(basename "$f" .json)
	jq -c --arg name "${b%%.*}" --arg v "$(echo "$b" | cut -d. -f2)" \
		'.results[0] | {name: $name, v: $v, times: .times, cpu: (.user + .system)}' "$f"
done)
