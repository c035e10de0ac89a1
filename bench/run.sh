#!/usr/bin/env bash
# bench/run.sh — whole-command benchmarks of issue 5, written to bench/RESULTS.md, and the
# start-up cases of issue 21 (a Go hello-world, repo version and a no-op repo sync --check of
# the example workspace, side by side).
#
#   bash bench/run.sh            # full run (≥ 10 runs per case, 100 MB ~/.claude.json, 1,000/2,000 extensions,
#                                # 1,000/2,000/10,000 servers in user scope)
#   QUICK=1 bash bench/run.sh    # smoke test: 3 runs, 10 MB, 100/200 extensions, 100/200/1,000 servers
#
# Times with hyperfine (Debian package), each timed run on a fresh copy of its workload
# (hyperfine --prepare) unless the case is a no-op; peak RSS with /usr/bin/time -v.
# ruler and rulesync are installed with npm into $BENCH_CACHE/npm (pinned versions).
#
# Knobs (environment): QUICK, RUNS, SLOW_RUNS, SLOW_SECS, RSS_RUNS, RACE_N, LOCAL_N, CLAUDE_MB,
# BIG_NS, USER_NS (three sizes: the stand-ins for 1,000, 2,000 and 10,000 servers), USER_TOOLS
# (the user-scope tools: codex writes TOML, goose and continue YAML), REMOVE_NS, REMOVE_TOOLS and
# REMOVE_USER_TOOLS (the removal cases, bench/removal.sh), SEED, BENCH_CACHE,
# BENCH_WORK (kept when set), BENCH_OUT, RULER_VERSION, RULESYNC_VERSION, WAIT_IDLE (seconds to
# wait for a 1-minute load average below IDLE_LOAD before starting; 0 = do not wait),
# STARTUP_ROUNDS and STARTUP_RUNS (the start-up cases: alternating rounds, runs per command each).
#
# repo and the hello-world are built as the release is (.goreleaser.yaml: CGO_ENABLED=0,
# -trimpath, -s -w): what users run. A default `go build` links the C library where a C
# compiler is found (pflag imports net), which alone adds about a fifth to repo's start-up.
set -euo pipefail

HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
MAIN=$(dirname "$HERE")
QUICK=${QUICK:-0}
SEED=${SEED:-1}
BENCH_CACHE=${BENCH_CACHE:-$HOME/.cache/repo-bench}
OUT=${BENCH_OUT:-$HERE/RESULTS.md}
RULER_VERSION=${RULER_VERSION:-0.3.44}
# rulesync >= 4 declares node >= 22; a plain install on Node 20 silently resolves to 3.15.0.
# 17.0.0 runs fine on Node 20 when pinned (peers.md §0), so pin it.
RULESYNC_VERSION=${RULESYNC_VERSION:-17.0.0}
WAIT_IDLE=${WAIT_IDLE:-900}
IDLE_LOAD=${IDLE_LOAD:-1.0}
if [ "$QUICK" = 1 ]; then
	RUNS=${RUNS:-3}; SLOW_RUNS=${SLOW_RUNS:-2}; RSS_RUNS=${RSS_RUNS:-2}
	STARTUP_ROUNDS=${STARTUP_ROUNDS:-2}; STARTUP_RUNS=${STARTUP_RUNS:-20}
	CLAUDE_MB=${CLAUDE_MB:-10}; BIG_NS=${BIG_NS:-"100 200"}; USER_NS=${USER_NS:-"100 200 1000"}; WAIT_IDLE=0
	REMOVE_NS=${REMOVE_NS:-"100 200 1000"}
else
	RUNS=${RUNS:-10}; SLOW_RUNS=${SLOW_RUNS:-3}; RSS_RUNS=${RSS_RUNS:-5}
	STARTUP_ROUNDS=${STARTUP_ROUNDS:-5}; STARTUP_RUNS=${STARTUP_RUNS:-200}
	CLAUDE_MB=${CLAUDE_MB:-100}; BIG_NS=${BIG_NS:-"1000 2000"}; USER_NS=${USER_NS:-"1000 2000 10000"}
	REMOVE_NS=${REMOVE_NS:-"1000 2000 10000"}
fi
# the removal cases (issue 21): seven project-scope JSON tools, and the user-scope tools
REMOVE_TOOLS=${REMOVE_TOOLS:-"claude cursor vscode gemini zed opencode roo"}
REMOVE_USER_TOOLS=${REMOVE_USER_TOOLS:-"goose continue codex"}
export REMOVE_NS REMOVE_TOOLS REMOVE_USER_TOOLS SEED
USER_TOOLS=${USER_TOOLS:-"codex goose continue"}
SLOW_SECS=${SLOW_SECS:-20} # a case whose single run takes longer gets SLOW_RUNS runs
RACE_N=${RACE_N:-20}       # servers in the race with the peers (and in the local-scope case)
LOCAL_N=${LOCAL_N:-$RACE_N}
read -r -a BIG <<<"$BIG_NS"
read -r -a UNS <<<"$USER_NS"
read -r -a UTOOLS <<<"$USER_TOOLS"
read -r -a RNS <<<"$REMOVE_NS"
read -r -a RTOOLS <<<"$REMOVE_TOOLS"
read -r -a RUTOOLS <<<"$REMOVE_USER_TOOLS"

REPORT_ONLY=${REPORT_ONLY:-0} # 1: rebuild RESULTS.md from a kept BENCH_WORK, measuring nothing
if [ -n "${BENCH_WORK:-}" ]; then
	WORK=$BENCH_WORK; mkdir -p "$WORK"
elif [ "$REPORT_ONLY" = 1 ]; then
	echo "REPORT_ONLY=1 needs BENCH_WORK (the work folder of a run)" >&2; exit 2
else
	WORK=$(mktemp -d /tmp/repo-bench.XXXXXX)
	trap 'rm -rf "$WORK"' EXIT
fi

log() { printf '[bench %s] %s\n' "$(date +%H:%M:%S)" "$*" >&2; }
die() { log "error: $*"; exit 1; }

commit() {
	# git knows a worktree's HEAD (there .git is a file, not a folder); without git, read it.
	if git -C "$MAIN" rev-parse HEAD 2>/dev/null; then return; fi
	local head ref
	head=$(cat "$MAIN/.git/HEAD" 2>/dev/null) || { echo unknown; return; }
	case $head in
	ref:*) ref=${head#ref: }
		if [ -f "$MAIN/.git/$ref" ]; then cat "$MAIN/.git/$ref"
		else awk -v r="$ref" '$2==r{print $1}' "$MAIN/.git/packed-refs" 2>/dev/null || echo unknown; fi ;;
	*) echo "$head" ;;
	esac
}
log() { printf '[bench %s] %s\n' "$(date +%H:%M:%S)" "$*" >&2; }
NPM_DIR=$BENCH_CACHE/npm
pkgver() { node -p "require('$NPM_DIR/node_modules/$1/package.json').version" 2>/dev/null || true; }
load1() { cut -d' ' -f1 /proc/loadavg; }
RES=$WORK/results.tsv
SECOND=$WORK/second.tsv
JSON=$WORK/json
value() { awk -F'\t' -v n="$1" -v f="$2" '$1==n{print $f}' "$RES"; }
if [ "$REPORT_ONLY" != 1 ]; then
# ---------------------------------------------------------------- prerequisites
need() { command -v "$1" >/dev/null 2>&1; }
if ! need hyperfine; then
	log "installing hyperfine (apt-get)"
	apt-get install -y hyperfine >/dev/null || die "hyperfine is missing and could not be installed"
fi
for t in jq node npm go; do need "$t" || die "$t is required"; done
[ -x /usr/bin/time ] || die "/usr/bin/time (GNU time) is required for peak RSS"

BIN=$WORK/bin
mkdir -p "$BIN"
log "building repo, the hello-world, the generator and the Go benchmark binaries (one snapshot of the tree)"
RELEASE_FLAGS=(-buildvcs=false -trimpath -ldflags "-s -w") # with CGO_ENABLED=0, as .goreleaser.yaml builds
(cd "$MAIN" && CGO_ENABLED=0 go build "${RELEASE_FLAGS[@]}" -o "$BIN/repo" ./cmd/repo &&
	CGO_ENABLED=0 go build "${RELEASE_FLAGS[@]}" -tags repodev -o "$BIN/hello" ./bench/hello &&
	go build -buildvcs=false -tags repodev -o "$BIN/gen" ./bench/gen)
GOBENCH=${GOBENCH:-1}
[ "$GOBENCH" = 1 ] && bash "$HERE/gobench.sh" --build-only "$WORK/gobench"
COMMIT=$(commit)
# the tree is edited by others while the benchmark runs: fingerprint the sources that were built
SOURCES=$(cd "$MAIN" && find . -name '*.go' ! -path './bench/*' -print0 | sort -z | xargs -0 sha256sum | sha256sum | cut -c1-12)
BUILT=$(date -u '+%Y-%m-%d %H:%M:%S UTC')
# Whether the build had changes git does not have yet (then the commit alone does not name it).
if [ -n "$(git -C "$MAIN" status --porcelain --untracked-files=no -- '*.go' 2>/dev/null)" ]; then
	TREE="the working tree, with uncommitted changes, as built at $BUILT"
else
	TREE="clean, built at $BUILT"
fi
REPO=$BIN/repo
HELLO=$BIN/hello
GEN=$BIN/gen

NPM_DIR=$BENCH_CACHE/npm
mkdir -p "$NPM_DIR"
pkgver() { node -p "require('$NPM_DIR/node_modules/$1/package.json').version" 2>/dev/null || true; }
if [ "$(pkgver @intellectronica/ruler)" != "$RULER_VERSION" ] || [ "$(pkgver rulesync)" != "$RULESYNC_VERSION" ]; then
	log "installing ruler $RULER_VERSION and rulesync $RULESYNC_VERSION into $NPM_DIR"
	[ -f "$NPM_DIR/package.json" ] || echo '{"name":"repo-bench-peers","private":true}' >"$NPM_DIR/package.json"
	(cd "$NPM_DIR" && npm install --no-audit --no-fund --loglevel=error \
		"@intellectronica/ruler@$RULER_VERSION" "rulesync@$RULESYNC_VERSION" >&2)
fi
RULER=$NPM_DIR/node_modules/.bin/ruler
RULESYNC=$NPM_DIR/node_modules/.bin/rulesync
[ -x "$RULER" ] && [ -x "$RULESYNC" ] || die "peer install failed"

# ---------------------------------------------------------------- machine idle?
load1() { cut -d' ' -f1 /proc/loadavg; }
if [ "$WAIT_IDLE" -gt 0 ]; then
	waited=0
	while awk -v l="$(load1)" -v m="$IDLE_LOAD" 'BEGIN{exit !(l >= m)}' && [ "$waited" -lt "$WAIT_IDLE" ]; do
		[ $((waited % 60)) = 0 ] && log "load average $(load1) >= $IDLE_LOAD: waiting for a quieter machine (up to ${WAIT_IDLE}s)"
		sleep 10; waited=$((waited + 10))
	done
fi
LOAD_START=$(cut -d' ' -f1-3 /proc/loadavg)

# ---------------------------------------------------------------- helpers
RES=$WORK/results.tsv # name \t runs \t median \t min \t max \t rss_kb \t load \t note
: >"$RES"
JSON=$WORK/json
mkdir -p "$JSON"

# restore DIR TPL: the prepare command that puts back a fresh copy of a workload (prepare
# commands run in their own shell; they must not contain single quotes)
restore() { echo "rm -rf $1 && cp -a $2 $1"; }

# median of numbers on stdin
median() { sort -g | awk '{a[NR]=$1} END{if(NR==0){print ""; exit} if(NR%2){print a[(NR+1)/2]} else {print (a[NR/2]+a[NR/2+1])/2}}'; }

# rss NAME PREPARE CMD...: median peak RSS (KiB) of RSS_RUNS runs under /usr/bin/time -v.
rss() {
	local name=$1 prep=$2; shift 2
	local f=$WORK/rss-$name.txt i
	: >"$f"
	for ((i = 0; i < RSS_RUNS; i++)); do
		[ -z "$prep" ] || bash -c "$prep"
		/usr/bin/time -v -o "$WORK/time.txt" "$@" >/dev/null 2>"$WORK/rss-stderr.txt" || {
			cat "$WORK/rss-stderr.txt" >&2; die "$name: command failed under /usr/bin/time"; }
		awk -F': ' '/Maximum resident set size/{print $2}' "$WORK/time.txt" >>"$f"
	done
	median <"$f"
}

# bench NAME PREPARE NOTE CMD...: times CMD with hyperfine -N (no shell), PREPARE before every
# run (in a shell). One untimed calibration run decides the number of runs (RUNS, or SLOW_RUNS
# when it takes longer than SLOW_SECS). Peak RSS: RSS_RUNS separate runs under /usr/bin/time -v,
# or, for slow cases, /usr/bin/time -v around every timed run (its cost is < 1 ms).
bench() {
	local name=$1 prep=$2 note=$3; shift 3
	local t0 t1 secs runs warm=2 kb
	[ -z "$prep" ] || bash -c "$prep"
	t0=$(date +%s.%N)
	"$@" >/dev/null 2>"$WORK/cal-stderr.txt" || { cat "$WORK/cal-stderr.txt" >&2; die "$name: calibration run failed: $*"; }
	t1=$(date +%s.%N)
	secs=$(awk -v a="$t0" -v b="$t1" 'BEGIN{print b-a}')
	runs=$RUNS
	if awk -v s="$secs" -v m="$SLOW_SECS" 'BEGIN{exit !(s > m)}'; then runs=$SLOW_RUNS; fi
	if awk -v s="$secs" 'BEGIN{exit !(s > 1)}'; then warm=0; fi
	log "$name: ~${secs%.*}s per run, $runs runs"
	local args=(-N --runs "$runs" --warmup "$warm" --export-json "$JSON/$name.json" --style basic)
	[ -z "$prep" ] || args+=(--prepare "bash -c '$prep'")
	local cmd
	if awk -v s="$secs" 'BEGIN{exit !(s > 2)}'; then
		rm -f "$WORK/rss-in-$name.txt"
		cmd=$(printf '%q ' /usr/bin/time -v -a -o "$WORK/rss-in-$name.txt" "$@")
		hyperfine "${args[@]}" --command-name "$name" "$cmd" >&2
		kb=$(awk -F': ' '/Maximum resident set size/{print $2}' "$WORK/rss-in-$name.txt" | median)
	else
		cmd=$(printf '%q ' "$@")
		hyperfine "${args[@]}" --command-name "$name" "$cmd" >&2
		kb=$(rss "$name" "$prep" "$@")
	fi
	record "$name" "$JSON/$name.json" "$kb" "$note"
}

# bench_sh NAME PREPARE NOTE SHELLCMD: like bench, for a command that needs a shell (a
# redirection); hyperfine's default shell adds about a millisecond.
bench_sh() {
	local name=$1 prep=$2 note=$3 cmd=$4
	local runs=$RUNS t0 t1 secs
	[ -z "$prep" ] || bash -c "$prep"
	t0=$(date +%s.%N); bash -c "$cmd"; t1=$(date +%s.%N)
	secs=$(awk -v a="$t0" -v b="$t1" 'BEGIN{print b-a}')
	if awk -v s="$secs" -v m="$SLOW_SECS" 'BEGIN{exit !(s > m)}'; then runs=$SLOW_RUNS; fi
	log "$name: ~${secs%.*}s per run, $runs runs"
	local args=(--runs "$runs" --warmup 0 --export-json "$JSON/$name.json" --style basic)
	[ -z "$prep" ] || args+=(--prepare "bash -c '$prep'")
	hyperfine "${args[@]}" --command-name "$name" "$cmd" >&2
	local kb
	kb=$(rss "$name" "$prep" bash -c "$cmd")
	record "$name" "$JSON/$name.json" "$kb" "$note"
}

record() {
	local name=$1 json=$2 kb=$3 note=$4
	jq -r --arg n "$name" --arg kb "$kb" --arg load "$(load1)" --arg note "$note" \
		'.results[0] | [$n, (.times|length), .median, .min, .max, $kb, $load, $note] | @tsv' "$json" >>"$RES"
}

# value NAME FIELD: a recorded number (2 runs, 3 median, 4 min, 5 max, 6 rss)
value() { awk -F'\t' -v n="$1" -v f="$2" '$1==n{print $f}' "$RES"; }

# snapshot DIR...: path, mtime (ns) and size of every file under DIR
snapshot() { find "$@" -type f -printf '%p %T@ %s\n' 2>/dev/null | sort; }

SECOND=$WORK/second.tsv # name \t files \t changed
: >"$SECOND"
# second_sync NAME DIRS CMD...: with the workload already synced, runs CMD again and
# reports the files whose mtime or size changed.
second_sync() {
	local name=$1 dirs=$2; shift 2
	local before=$WORK/second-$name.before after=$WORK/second-$name.after
	# shellcheck disable=SC2086
	snapshot $dirs >"$before"
	sleep 0.05 # a rewrite inside the same clock tick could keep the mtime
	"$@" >/dev/null 2>"$WORK/second-stderr.txt" || { cat "$WORK/second-stderr.txt" >&2; die "$name: second sync failed"; }
	# shellcheck disable=SC2086
	snapshot $dirs >"$after"
	local files changed
	files=$(wc -l <"$before")
	changed=$(diff "$before" "$after" | grep -c '^>' || true)
	printf '%s\t%s\t%s\t%s\n' "$name" "$files" "$changed" "$(diff "$before" "$after" | grep '^>' | cut -d' ' -f2 | tr '\n' ' ')" >>"$SECOND"
	log "$name: second sync: $changed of $files files changed"
}

# ---------------------------------------------------------------- workloads
IFS=' ' read -r PEERS_REPO PEERS_RULER PEERS_RULESYNC < <("$GEN" -list-tools | awk -F': ' '/^peers-repo/{r=$2} /^peers-ruler/{u=$2} /^peers-rulesync/{s=$2} END{print r, u, s}')
PROJECT_TOOLS=$("$GEN" -list-tools | awk -F': ' '/^project/{print $2}')
NPEERS=$(echo "$PEERS_REPO" | tr ',' '\n' | wc -l)

log "generating workloads in $WORK"
# A. the example workspace, all its [mcp] tools (every detected project tool and more)
EX=$WORK/example/ws
mkdir -p "$WORK/example/home"
cp -a "$MAIN/examples/workspace" "$EX"
EX_TOOLS=$(sed -n 's/^tools *= *\[\(.*\)\]/\1/p' "$EX/.repository/config.toml" | tr -d '" ')
cp -a "$EX" "$WORK/example/tpl"

# B. the race: RACE_N servers, the project tools both peers write to the same file, user
# configs without comments (both peers fail on comments in .zed/settings.json)
RACE=$WORK/race/ws
mkdir -p "$WORK/race/home"
"$GEN" -out "$RACE" -n "$RACE_N" -seed "$SEED" -tools "$PEERS_REPO" -comments=false -peers -home "$WORK/race/home"
cp -a "$RACE" "$WORK/race/tpl"

# C. Claude Code's local scope in a CLAUDE_MB ~/.claude.json
LOC=$WORK/local/ws
H0=$WORK/local/home0 # pristine
H=$WORK/local/home   # the one repo edits
mkdir -p "$H0" "$H"
"$GEN" -out "$LOC" -n "$LOCAL_N" -seed "$SEED" -tools claude -claude-json-mb "$CLAUDE_MB" -home "$H0" -servers-json "$WORK/local/servers.json"
CLAUDE_BYTES=$(stat -c %s "$H0/.claude.json")
cp "$H0/.claude.json" "$H/.claude.json"

# D. N extensions × every project-scope JSON tool (user configs with comments)
for n in "${BIG[@]}"; do
	mkdir -p "$WORK/big$n/home"
	"$GEN" -out "$WORK/big$n/ws" -n "$n" -seed "$SEED" -home "$WORK/big$n/home" 2>"$WORK/gen-big$n.txt"
	cat "$WORK/gen-big$n.txt" >&2
	cp -a "$WORK/big$n/ws" "$WORK/big$n/tpl"
done
# "gen: <root>: N extensions, T tools, F user configs"
BIG_TOOLS=$(sed -n 's/.* extensions, \([0-9]*\) tools, \([0-9]*\) user configs/\1/p' "$WORK/gen-big${BIG[0]}.txt")
BIG_FILES=$(sed -n 's/.* extensions, \([0-9]*\) tools, \([0-9]*\) user configs/\2/p' "$WORK/gen-big${BIG[0]}.txt")

# U. N extensions, no project tool: synced in user scope, one tool at a time, into an empty HOME
for n in "${UNS[@]}"; do
	"$GEN" -out "$WORK/user$n/ws" -n "$n" -seed "$SEED" -tools none
done

# R. N extensions synced, then the extensions folder emptied (bench/removal.sh)
bash "$HERE/removal.sh" "$WORK" "$REPO" "$GEN"

# ---------------------------------------------------------------- cases
# Write the generated workloads (hundreds of MB) out before timing anything: the kernel's
# background writeback of them otherwise holds up the fsyncs of the first cases (race-repo-sync
# measured 9.1 ms right after generation, 7.0 ms with nothing left to write back).
log "flushing the generated workloads to disk"
sync
export HOME_SAVED=$HOME

# A. example workspace
log "A: example workspace ($EX_TOOLS)"
HOME=$WORK/example/home bench ex-sync "$(restore "$EX" "$WORK/example/tpl")" "first sync, fresh copy" \
	"$REPO" sync --root "$EX"
HOME=$WORK/example/home "$REPO" sync --root "$EX" >/dev/null 2>&1
HOME=$WORK/example/home bench ex-check "" "no-op --check" "$REPO" sync --check --root "$EX"
HOME=$WORK/example/home second_sync example "$EX $WORK/example/home" "$REPO" sync --root "$EX"

# S. start-up (issue 21): a Go hello-world, repo version and the no-op repo sync --check of the
# example workspace (synced above), side by side in one hyperfine per round, STARTUP_ROUNDS
# rounds of STARTUP_RUNS runs each: the machine's drift meets all three alike. Median over all
# rounds; CPU = mean user + system.
log "S: start-up, $STARTUP_ROUNDS rounds x $STARTUP_RUNS runs of hello-world, repo version, repo sync --check"
for ((r = 1; r <= STARTUP_ROUNDS; r++)); do
	HOME=$WORK/example/home hyperfine -N --warmup 20 --runs "$STARTUP_RUNS" --style basic --export-json "$WORK/startup.$r.json" \
		--command-name startup-hello "$HELLO" --command-name startup-version "$REPO version" \
		--command-name startup-check "$REPO sync --check --root $EX" >&2
done
for i in 0 1 2; do
	name=$(jq -r --argjson i "$i" '.results[$i].command' "$WORK/startup.1.json")
	jq -s --argjson i "$i" '[.[].results[$i]] | (map(.times[]) | sort) as $t | {results: [{command: .[0].command, times: $t,
		median: (if ($t | length) % 2 == 1 then $t[($t | length - 1) / 2] else ($t[($t | length) / 2 - 1] + $t[($t | length) / 2]) / 2 end),
		min: $t[0], max: $t[-1], user: (map(.user) | add / length), system: (map(.system) | add / length)}]}' \
		"$WORK"/startup.*.json >"$JSON/$name.json"
	case $name in
	startup-hello) kb=$(rss "$name" "" "$HELLO"); note="Go hello-world (bench/hello), built as repo is" ;;
	startup-version) kb=$(HOME=$WORK/example/home rss "$name" "" "$REPO" version); note="repo version" ;;
	*) kb=$(HOME=$WORK/example/home rss "$name" "" "$REPO" sync --check --root "$EX"); note="no-op repo sync --check of the example workspace (as ex-check)" ;;
	esac
	record "$name" "$JSON/$name.json" "$kb" "$note; side by side, $STARTUP_ROUNDS rounds"
done

# B. race
log "B: race with ruler and rulesync, $RACE_N servers, tools $PEERS_REPO"
RP=$(restore "$RACE" "$WORK/race/tpl")
HOME=$WORK/race/home bench race-repo-sync "$RP" "fresh copy" "$REPO" sync --root "$RACE" --tool "$PEERS_REPO"
# sanity: what each tool leaves in .mcp.json (user server kept?) and how many files it wrote
race_outcome() {
	local who=$1
	printf '%s\t%s\t%s\n' "$who" "$(jq '.mcpServers | length' "$RACE/.mcp.json")" \
		"$(jq -r '.mcpServers | has("user-own-claude")' "$RACE/.mcp.json")" >>"$WORK/race-outcome.tsv"
}
: >"$WORK/race-outcome.tsv"
race_outcome repo
HOME=$WORK/race/home bench race-repo-check "" "no-op, after the last sync" "$REPO" sync --check --root "$RACE" --tool "$PEERS_REPO"
HOME=$WORK/race/home second_sync race "$RACE $WORK/race/home" "$REPO" sync --root "$RACE" --tool "$PEERS_REPO"
HOME=$WORK/race/home bench race-ruler-apply "$RP" "fresh copy; --agents ($NPEERS) --no-backup --no-gitignore --local-only" \
	"$RULER" apply --project-root "$RACE" --agents "$PEERS_RULER" --no-backup --no-gitignore --local-only
race_outcome ruler
HOME=$WORK/race/home bench race-rulesync-generate "$RP" "fresh copy; --targets ($NPEERS) --features mcp" \
	"$RULESYNC" generate --input-roots "$RACE/.rulesync" --output-roots "$RACE" --targets "$PEERS_RULESYNC" --features mcp
race_outcome rulesync
HOME=$WORK/race/home bench race-rulesync-check "" "no-op, after the last generate" \
	"$RULESYNC" generate --input-roots "$RACE/.rulesync" --output-roots "$RACE" --targets "$PEERS_RULESYNC" --features mcp --check

# C. local scope in a large ~/.claude.json
log "C: local scope, ${CLAUDE_MB} MB ~/.claude.json, $LOCAL_N servers"
# The user trusts the workspace's servers once (repo trust, not timed); each run starts without
# the ownership record, keeping that trust.
HOME=$H "$REPO" trust --all --root "$LOC" >/dev/null
LP="cp $H0/.claude.json $H/.claude.json && rm -rf $H/.local/state/repo/workspaces && sync"
HOME=$H bench local-repo-sync "$LP" "fresh copy of the file, record removed; fsync'd atomic write" \
	"$REPO" sync --root "$LOC" --scope local --tool claude
bench local-dd-fsync "rm -f $WORK/local/dd.json && sync" "dd bs=1M conv=fsync of the same file" \
	dd if="$H0/.claude.json" of="$WORK/local/dd.json" bs=1M conv=fsync status=none
bench_sh local-jq "rm -f $WORK/local/jq.json && sync" "same edit, result to a file (no fsync)" \
	"jq --arg r '$LOC' --slurpfile s '$WORK/local/servers.json' '.projects[\$r].mcpServers += \$s[0]' '$H0/.claude.json' > '$WORK/local/jq.json'"
HOME=$H "$REPO" sync --root "$LOC" --scope local --tool claude >/dev/null 2>&1
HOME=$H bench local-repo-check "" "no-op --check on the synced file" \
	"$REPO" sync --check --root "$LOC" --scope local --tool claude
bench local-cat "" "cat file > /dev/null (hyperfine discards output)" cat "$H/.claude.json"
HOME=$H second_sync local "$H $LOC" "$REPO" sync --root "$LOC" --scope local --tool claude
# the edit is the same: jq's result and repo's hold the same projects[root].mcpServers
if ! diff <(jq -S --arg r "$LOC" '.projects[$r].mcpServers' "$H/.claude.json") \
	<(jq -S --arg r "$LOC" '.projects[$r].mcpServers' "$WORK/local/jq.json") >/dev/null; then
	log "warning: jq's and repo's projects[root].mcpServers differ"
	LOCAL_SAME=no
else
	LOCAL_SAME=yes
fi

# D. many extensions
for n in "${BIG[@]}"; do
	log "D: $n extensions x $PROJECT_TOOLS"
	W=$WORK/big$n/ws
	HOME=$WORK/big$n/home bench "big$n-sync" "$(restore "$W" "$WORK/big$n/tpl")" "first sync, fresh copy, $BIG_TOOLS tools, $BIG_FILES files" \
		"$REPO" sync --root "$W"
	HOME=$WORK/big$n/home bench "big$n-check" "" "no-op --check" "$REPO" sync --check --root "$W"
	HOME=$WORK/big$n/home second_sync "big$n" "$W $WORK/big$n/home" "$REPO" sync --root "$W"
done

# U. user scope: N servers into one user file per tool (issue 10: TOML and YAML were quadratic).
# The user files' paths follow these variables when set: they must not leave the HOME.
unset XDG_CONFIG_HOME XDG_STATE_HOME CODEX_HOME CONTINUE_GLOBAL_DIR
for n in "${UNS[@]}"; do
	for tool in "${UTOOLS[@]}"; do
		log "U: $n servers, user scope, --tool $tool"
		UH=$WORK/user$n/home-$tool
		# an empty HOME but for the trust the user gave the workspace's servers (repo trust)
		rm -rf "$UH.trusted" && mkdir -p "$UH.trusted"
		HOME=$UH.trusted "$REPO" trust --all --root "$WORK/user$n/ws" >/dev/null
		HOME=$UH bench "user-$tool-$n" "rm -rf $UH && cp -a $UH.trusted $UH" "first sync into an empty HOME (the workspace trusted), --scope user --tool $tool" \
			"$REPO" sync --root "$WORK/user$n/ws" --scope user --tool "$tool"
		HOME=$UH second_sync "user-$tool-$n" "$UH $WORK/user$n/ws" "$REPO" sync --root "$WORK/user$n/ws" --scope user --tool "$tool"
	done
done
# R. removal (issue 21: removal was quadratic in JSON and YAML): the sync after the extensions
# folder is emptied removes every entry repo wrote, from each file in one edit.
for n in "${RNS[@]}"; do
	d=$WORK/remove-json$n
	log "R: $n extensions removed from ${REMOVE_TOOLS// /,}"
	HOME=$d/home bench "remove-json-$n" "$(bash "$HERE/removal.sh" restore "$d")" \
		"extensions folder emptied: $n entries removed from each of ${#RTOOLS[@]} JSON files" "$REPO" sync --root "$d/ws"
	if [ "$n" != "${RNS[2]:-}" ]; then # one tool at a time: at the two smaller sizes
		for t in "${RTOOLS[@]}"; do
			HOME=$d/home bench "remove-$t-$n" "$(bash "$HERE/removal.sh" restore "$d")" \
				"extensions folder emptied: $n entries removed, --tool $t" "$REPO" sync --root "$d/ws" --tool "$t"
		done
	fi
	for t in "${RUTOOLS[@]}"; do
		d=$WORK/remove-user$n-$t
		HOME=$d/home bench "remove-user-$t-$n" "$(bash "$HERE/removal.sh" restore "$d")" \
			"extensions folder emptied: $n entries removed, --scope user --tool $t" "$REPO" sync --root "$d/ws" --scope user --tool "$t"
	done
done
LOAD_END=$(cut -d' ' -f1-3 /proc/loadavg)

# E. Go benchmarks and profiles (after the whole-command cases, which they would disturb)
if [ "$GOBENCH" = 1 ]; then
	log "E: Go benchmarks and profiles (bench/gobench.sh)"
	QUICK=$QUICK bash "$HERE/gobench.sh" "$WORK/gobench" >&2
fi


# what the report needs, so that REPORT_ONLY=1 can rebuild it
{
	for v in TREE LOAD_START LOAD_END CLAUDE_BYTES EX_TOOLS PEERS_REPO PEERS_RULER PEERS_RULESYNC PROJECT_TOOLS NPEERS \
		BIG_TOOLS BIG_FILES LOCAL_SAME GOBENCH QUICK RUNS SLOW_RUNS SLOW_SECS RSS_RUNS RACE_N LOCAL_N SEED BIG_NS USER_NS USER_TOOLS \
		REMOVE_NS REMOVE_TOOLS REMOVE_USER_TOOLS H0; do
		printf '%s=%q\n' "$v" "${!v}"
	done
	printf 'RUN_DATE=%q\n' "$(date -u '+%Y-%m-%d %H:%M UTC')"
	printf 'VERSIONS=%q\n' "$(go version | cut -d' ' -f3-4), repo commit $COMMIT (HEAD; $TREE: sha256 of its *.go files $SOURCES; built as the release is: \`CGO_ENABLED=0 go build -buildvcs=false -trimpath -ldflags '-s -w'\`), node $(node --version), ruler $(pkgver @intellectronica/ruler), rulesync $(pkgver rulesync), $("$(command -v hyperfine)" --version), $(jq --version)"
	printf 'GOBENCH_LOAD=%q\n' "$(cut -d' ' -f1-3 /proc/loadavg)"
	printf 'STARTUP_ROUNDS=%q\nSTARTUP_RUNS=%q\n' "$STARTUP_ROUNDS" "$STARTUP_RUNS"
} >"$WORK/meta.env"
fi
# shellcheck disable=SC1091
. "$WORK/meta.env"
read -r -a BIG <<<"$BIG_NS"
read -r -a UNS <<<"$USER_NS"
read -r -a UTOOLS <<<"$USER_TOOLS"
read -r -a RNS <<<"$REMOVE_NS"
read -r -a RTOOLS <<<"$REMOVE_TOOLS"
read -r -a RUTOOLS <<<"$REMOVE_USER_TOOLS"

# ---------------------------------------------------------------- report
log "writing $OUT"
fmt_t() { awk -v s="$1" 'BEGIN{ if (s=="") {print "-"; exit} if (s < 0.01) printf "%.2f ms", s*1000; else if (s < 1) printf "%.1f ms", s*1000; else printf "%.2f s", s }'; }
fmt_kb() { awk -v k="$1" 'BEGIN{ if (k=="") {print "-"; exit} printf "%.1f MB", k/1024 }'; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN{ if (a==""||b==""||b==0) print "-"; else printf "%.2f", a/b }'; }
# cpu NAME: mean user + system seconds of a case (hyperfine)
cpu() { [ -f "$JSON/$1.json" ] && jq -r '.results[0] | (.user + .system)' "$JSON/$1.json" || true; }
verdict() { if awk "BEGIN{exit !($1)}"; then echo "**met**"; else echo "**missed**"; fi; }


# removal_targets: the report's rows for the removal targets of issue 21.
removal_targets() {
	local r1=${RNS[0]} r2=${RNS[1]:-} r3=${RNS[2]:-} t m m2 lim name
	local s1="" s3=""
	[ "$QUICK" = 1 ] && s1=" (QUICK stand-in for 1,000)" && s3=" (QUICK stand-in for 10,000)"
	for t in "${RUTOOLS[@]}" "${RTOOLS[@]}"; do
		name=remove-$t lim=0.3
		case " ${RUTOOLS[*]} " in *" $t "*) name=remove-user-$t lim=0.5 ;; esac
		m=$(value "$name-$r1" 3)
		[ -n "$m" ] || continue
		echo "| removal, \`--tool $t\`: $r1 entries$s1 ≤ $lim s | $(fmt_t "$m") | $(verdict "$m <= $lim") |"
		m2=$(value "$name-$r2" 3)
		[ -n "$m2" ] && echo "| removal, \`--tool $t\`: $r2 entries ≤ 2.2× $r1 | $(fmt_t "$m2") = $(ratio "$m2" "$m")× (CPU time: $(ratio "$(cpu "$name-$r2")" "$(cpu "$name-$r1")")×) | $(verdict "$m2 <= 2.2 * $m") |"
	done
	m=$(value "remove-json-$r3" 3)
	[ -n "$m" ] && echo "| removal of $r3 extensions$s3 from ${#RTOOLS[@]} JSON tools ≤ 10 s | $(fmt_t "$m") | $(verdict "$m <= 10") |"
	return 0
}

{
	echo "# Benchmark results (issue 5)"
	echo
	echo "Written by \`bench/run.sh\`$([ "$QUICK" = 1 ] && echo ' in QUICK mode (smoke test: fewer runs, smaller sizes — not the issue-5 numbers)')."
	echo
	echo "- Date: $RUN_DATE"
	echo "- Machine: $(nproc) CPUs, $(awk -F': ' '/model name/{print $2; exit}' /proc/cpuinfo), $(awk '/MemTotal/{printf "%.1f GiB", $2/1048576}' /proc/meminfo) RAM, Linux $(uname -r), $(df -T "$WORK" | awk 'NR==2{print $2}') file system for the workloads"
	echo "- Load average (1, 5, 15 min) at start: $LOAD_START; at end: $LOAD_END (the VM is shared: other jobs ran during the benchmark, see the load column)"
	echo "- Versions: $VERSIONS"
	echo "- Runs: median of the timed runs with hyperfine (range = min–max); $RUNS runs per case, $SLOW_RUNS for a case whose single run takes more than ${SLOW_SECS} s; peak RSS = median \"Maximum resident set size\" of /usr/bin/time -v (MB = MiB)"
	echo "- Workloads (\`go run -tags repodev ./bench/gen\`, seed $SEED): example = \`examples/workspace\` (5 servers, tools: $EX_TOOLS); race = $RACE_N extensions × the $(echo "$PEERS_REPO" | tr ',' '\n' | wc -l) project tools both peers write to the same file ($PEERS_REPO; ruler agents $PEERS_RULER; rulesync targets $PEERS_RULESYNC), user configs with a user server and no comments; local = $LOCAL_N servers into \`projects[root].mcpServers\` of a $(awk -v b="$CLAUDE_BYTES" 'BEGIN{printf "%.1f", b/1048576}') MiB \`~/.claude.json\` ($(jq '.projects|length' "$H0/.claude.json") projects with histories, the workspace's entry in the middle); bigN = N extensions × all $BIG_TOOLS project-scope JSON tools ($PROJECT_TOOLS; $BIG_FILES files, user configs with comments and trailing commas where allowed); user-T-N = N extensions synced with \`--scope user --tool T\` into an empty HOME (codex: \`~/.codex/config.toml\`, TOML; goose: \`~/.config/goose/config.yaml\` and continue: \`~/.continue/config.yaml\`, YAML); remove-json-N, remove-T-N and remove-user-T-N = the sync after the extensions folder of N synced extensions is emptied (\`bench/removal.sh\`), from the ${#RTOOLS[@]} project JSON tools ${REMOVE_TOOLS// /,} at once or one (user configs with comments), or from a user-scope tool's file"
	echo
	echo "| case | runs | median wall | range | CPU user+sys (mean) | peak RSS | load | notes |"
	echo "|---|---|---|---|---|---|---|---|"
	while IFS=$'\t' read -r name runs med min max kb load note; do
		echo "| \`$name\` | $runs | $(fmt_t "$med") | $(fmt_t "$min") – $(fmt_t "$max") | $(fmt_t "$(cpu "$name")") | $(fmt_kb "$kb") | $load | $note |"
	done <"$RES"
	echo
	echo "Load is the 1-minute load average when the case finished (2 CPUs; other jobs shared the VM). Wall time is what the targets are about; CPU time (hyperfine's user + system means) is much less sensitive to the other jobs."
	echo
	echo "The start-up cases (\`startup-*\`, issue 21) ran side by side in one hyperfine per round: ${STARTUP_ROUNDS:-?} alternating rounds of ${STARTUP_RUNS:-?} runs of each of the three (\`bench/startup.sh\` does the same alone, for two revisions)."
	echo
	echo "## Targets"
	echo
	echo "| target | measured | verdict |"
	echo "|---|---|---|"
	m=$(value ex-check 3); k=$(value ex-check 6)
	echo "| \`repo sync --check\`, example workspace: ≤ 10 ms wall | $(fmt_t "$m") | $(verdict "$m <= 0.010") |"
	echo "| \`repo sync --check\`, example workspace: ≤ 25 MB peak RSS | $(fmt_kb "$k") | $(verdict "$k <= 25*1024") |"
	h=$(value startup-hello 3)
	if [ -n "$h" ]; then # a kept run from before the start-up cases has none
		r=$(ratio "$(value startup-version 3)" "$h")
		echo "| \`repo version\` ≤ 1.5× a Go hello-world (side by side) | repo $(fmt_t "$(value startup-version 3)") / hello $(fmt_t "$h") = ${r}× | $(verdict "$r <= 1.5") |"
		r=$(ratio "$(value startup-check 3)" "$h")
		echo "| no-op \`repo sync --check\` of \`examples/workspace\` ≤ 3× a Go hello-world (side by side) | repo $(fmt_t "$(value startup-check 3)") / hello $(fmt_t "$h") = ${r}× | $(verdict "$r <= 3") |"
	fi
	r=$(ratio "$(value race-ruler-apply 3)" "$(value race-repo-sync 3)")
	echo "| \`repo sync\` ≥ 40× faster than ruler \`apply\` | ruler $(fmt_t "$(value race-ruler-apply 3)") / repo $(fmt_t "$(value race-repo-sync 3)") = ${r}× | $(verdict "$r >= 40") |"
	r=$(ratio "$(value race-rulesync-generate 3)" "$(value race-repo-sync 3)")
	echo "| \`repo sync\` ≥ 80× faster than rulesync \`generate\` | rulesync $(fmt_t "$(value race-rulesync-generate 3)") / repo $(fmt_t "$(value race-repo-sync 3)") = ${r}× | $(verdict "$r >= 80") |"
	r=$(ratio "$(value local-repo-sync 3)" "$(value local-dd-fsync 3)")
	echo "| local-scope update ≤ 3× the fsync'd copy | repo $(fmt_t "$(value local-repo-sync 3)") / dd $(fmt_t "$(value local-dd-fsync 3)") = ${r}× | $(verdict "$r <= 3") |"
	r=$(ratio "$(value local-jq 3)" "$(value local-repo-sync 3)")
	echo "| local-scope update ≥ 5× faster than jq | jq $(fmt_t "$(value local-jq 3)") / repo $(fmt_t "$(value local-repo-sync 3)") = ${r}× | $(verdict "$r >= 5") |"
	k=$(value local-repo-sync 6); r=$(ratio "$((k * 1024))" "$CLAUDE_BYTES")
	echo "| local-scope update: peak RSS ≤ 3× the file size | $(fmt_kb "$k") = ${r}× of $(awk -v b="$CLAUDE_BYTES" 'BEGIN{printf "%.1f MB", b/1048576}') | $(verdict "$r <= 3") |"
	r=$(ratio "$(value local-repo-check 3)" "$(value local-cat 3)")
	echo "| no-op \`--check\` on that file ≤ 3× \`cat\` | repo $(fmt_t "$(value local-repo-check 3)") / cat $(fmt_t "$(value local-cat 3)") = ${r}× | $(verdict "$r <= 3") |"
	n1=${BIG[0]}; n2=${BIG[1]:-}
	m=$(value "big$n1-sync" 3)
	if [ "$n1" = 1000 ]; then
		echo "| 1,000 extensions × all project tools, first sync ≤ 1 s | $(fmt_t "$m") | $(verdict "$m <= 1") |"
	else
		echo "| $n1 extensions (QUICK stand-in for 1,000), first sync ≤ 1 s | $(fmt_t "$m") | $(verdict "$m <= 1") |"
	fi
	if [ -n "$n2" ]; then
		r=$(ratio "$(value "big$n2-sync" 3)" "$m")
		rc=$(ratio "$(cpu "big$n2-sync")" "$(cpu "big$n1-sync")")
		echo "| $n2 extensions ≤ 2.2× the time of $n1 | $(fmt_t "$(value "big$n2-sync" 3)") = ${r}× (CPU time: $(fmt_t "$(cpu "big$n2-sync")") / $(fmt_t "$(cpu "big$n1-sync")") = ${rc}×) | $(verdict "$r <= 2.2") |"
	fi
	# per user-scope tool (format): the sizes stand for 1,000, 2,000 and 10,000 servers
	u1=${UNS[0]}; u2=${UNS[1]:-}; u3=${UNS[2]:-}
	stand() { [ "$QUICK" = 1 ] && echo " (QUICK stand-in for $2)"; }
	for tool in "${UTOOLS[@]}"; do
		case $tool in codex) f=TOML ;; goose | continue) f=YAML ;; *) f=$tool ;; esac
		m=$(value "user-$tool-$u1" 3)
		echo "| $f, \`--scope user --tool $tool\`: $u1 servers$(stand "$u1" 1,000), first sync ≤ 1 s | $(fmt_t "$m") | $(verdict "$m <= 1") |"
		if [ -n "$u2" ]; then
			r=$(ratio "$(value "user-$tool-$u2" 3)" "$m")
			rc=$(ratio "$(cpu "user-$tool-$u2")" "$(cpu "user-$tool-$u1")")
			echo "| $f, \`--tool $tool\`: $u2 servers ≤ 2.2× the time of $u1 | $(fmt_t "$(value "user-$tool-$u2" 3)") = ${r}× (CPU time: ${rc}×) | $(verdict "$r <= 2.2") |"
		fi
		if [ -n "$u3" ]; then
			m3=$(value "user-$tool-$u3" 3)
			echo "| $f, \`--tool $tool\`: $u3 servers$(stand "$u3" 10,000), first sync ≤ 10 s | $(fmt_t "$m3") | $(verdict "$m3 <= 10") |"
		fi
	done
	removal_targets
	bad=$(awk -F'\t' '$3!=0' "$SECOND" | wc -l)
	echo "| second sync writes zero bytes (no mtime change) | $(awk -F'\t' '{printf "%s%s: %s of %s files changed", (NR>1?"; ":""), $1, $3, $2}' "$SECOND") | $(verdict "$bad == 0") |"
	echo
	echo "## Checks"
	echo
	echo "- Second sync: \`find … -printf '%p %T@ %s'\` of the workspace and home before and after a second \`repo sync\`:"
	while IFS=$'\t' read -r name files changed list; do
		echo "  - $name: $files files, $changed changed${list:+ ($list)}"
	done <"$SECOND"
	echo "- Race outcome in \`.mcp.json\` after one run (entries / user's own server kept):"
	while IFS=$'\t' read -r who count kept; do
		echo "  - $who: $count entries, user server kept: $kept"
	done <"$WORK/race-outcome.tsv"
	echo "- Local scope: jq's result and repo's hold the same \`projects[root].mcpServers\`: $LOCAL_SAME (jq re-serialises the whole file; repo changes only the entry's bytes)"
	echo "- ruler 0.3.x cannot be limited to MCP output: it also writes its instruction files (AGENTS.md, CLAUDE.md, …) for each agent; rulesync is limited with \`--features mcp\`."
	if [ "$GOBENCH" = 1 ]; then
		echo
		echo "## Go benchmarks"
		echo
		echo "\`bash bench/gobench.sh\` (\`go test -run '^\$' -bench . -benchmem\`$([ "$QUICK" = 1 ] && echo ' -benchtime 1x'); load average at the end: $GOBENCH_LOAD):"
		echo
		echo '```text'
		grep -E '^(# |Benchmark|ok|FAIL|PASS|---)' "$WORK/gobench/gobench.txt"
		echo '```'
		echo
		if [ -s "$WORK/gobench/profiles.txt" ]; then
			echo "## Profiles"
			echo
			echo "CPU and allocation profiles of the cases that miss their targets (\`go tool pprof -top\`, cut to the timed work with \`-focus=writers_test.timed -relative_percentages\`):"
			echo
			echo '```text'
			cat "$WORK/gobench/profiles.txt"
			echo '```'
		fi
	fi
} >"$OUT"
log "done: $OUT"
cat "$OUT"
