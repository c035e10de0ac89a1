#!/usr/bin/env bash
# bench/removal.sh — the workloads of the removal cases (issue 21): N extensions synced, then the
# extensions folder emptied, so that the next `repo sync` removes every entry repo wrote.
#
#   bash bench/removal.sh WORK REPO GEN      # REPO: the repo binary that syncs; GEN: bench/gen built
#
# For each N in REMOVE_NS ("1000 2000 10000"):
#   WORK/remove-json$N       N extensions × REMOVE_TOOLS (seven project-scope JSON tools, one file
#                            each; user configs with comments and trailing commas where allowed),
#                            synced in project scope;
#   WORK/remove-user$N-$T    N extensions synced with --scope user --tool T, for each T in
#                            REMOVE_USER_TOOLS (goose, continue: YAML; codex: TOML).
# Each holds ws/ and home/ as the removal starts, and tpl-ws/ and tpl-home/, their copies: a case
# puts them back before each timed run ($(removal_restore DIR), printed by `removal.sh restore DIR`).
# The workspace is synced where it is timed, since the ownership records name its paths.
set -euo pipefail

if [ "${1:-}" = restore ]; then
	d=$2
	echo "rm -rf $d/ws $d/home && cp -a $d/tpl-ws $d/ws && cp -a $d/tpl-home $d/home"
	exit 0
fi
WORK=${1:?usage: bench/removal.sh WORK REPO GEN}
REPO=${2:?usage: bench/removal.sh WORK REPO GEN}
GEN=${3:?usage: bench/removal.sh WORK REPO GEN}
SEED=${SEED:-1}
REMOVE_NS=${REMOVE_NS:-"1000 2000 10000"}
REMOVE_TOOLS=${REMOVE_TOOLS:-"claude cursor vscode gemini zed opencode roo"}
REMOVE_USER_TOOLS=${REMOVE_USER_TOOLS:-"goose continue codex"}
read -r -a NS <<<"$REMOVE_NS"
read -r -a UTOOLS <<<"$REMOVE_USER_TOOLS"
log() { printf '[bench %s] %s\n' "$(date +%H:%M:%S)" "$*" >&2; }

# first_sync DIR ARGS...: the sync that writes the entries the timed case removes, after the
# user trusts the workspace's servers (repo trust; local and user scope need it, removing does not).
first_sync() {
	local d=$1
	shift
	HOME=$d/home "$REPO" trust --all --root "$d/ws" >/dev/null 2>"$d/sync-stderr.txt" ||
		{ cat "$d/sync-stderr.txt" >&2; log "error: repo trust in $d failed"; exit 1; }
	HOME=$d/home "$REPO" sync --root "$d/ws" "$@" >/dev/null 2>"$d/sync-stderr.txt" ||
		{ cat "$d/sync-stderr.txt" >&2; log "error: the first sync of $d failed"; exit 1; }
}

# empty DIR: the extensions folder emptied, the templates copied.
empty() {
	local d=$1
	rm -rf "$d/ws/.repository/extensions" && mkdir "$d/ws/.repository/extensions"
	rm -rf "$d/tpl-ws" "$d/tpl-home"
	cp -a "$d/ws" "$d/tpl-ws" && cp -a "$d/home" "$d/tpl-home"
}

for n in "${NS[@]}"; do
	d=$WORK/remove-json$n
	log "removal workload: $n extensions × $REMOVE_TOOLS"
	rm -rf "$d" && mkdir -p "$d/home"
	"$GEN" -out "$d/ws" -n "$n" -seed "$SEED" -tools "$(echo "$REMOVE_TOOLS" | tr ' ' ',')" -home "$d/home" 2>/dev/null
	first_sync "$d"
	empty "$d"
	for t in "${UTOOLS[@]}"; do
		d=$WORK/remove-user$n-$t
		log "removal workload: $n extensions, --scope user --tool $t"
		rm -rf "$d" && mkdir -p "$d/home"
		"$GEN" -out "$d/ws" -n "$n" -seed "$SEED" -tools none 2>/dev/null
		first_sync "$d" --scope user --tool "$t"
		empty "$d"
	done
done
