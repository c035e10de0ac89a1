#!/usr/bin/env bash
# strace-saves.sh -- watch how the real AI clients save the config files repo also edits.
#
# Usage: docs/coexistence/strace-saves.sh [SCENARIO...]      (no argument: every scenario)
#        docs/coexistence/strace-saves.sh --list
#
# Each scenario seeds a private HOME and project under $OUT/<scenario>/ (nothing of the real
# HOME is read), runs one client command in a network namespace with no network, under
#   strace -f -tt -y -e trace=<file syscalls>
# and prints the client's version and the calls on the seeded files: how it opens them
# (O_TRUNC or not), its writes, ftruncate, fsync, renames, unlinks, and lock files or flocks.
# The whole log stays in $OUT/<scenario>/strace.log.
#
# Needs: root (for `unshare -n`), strace, and the clients, either installed by
# shared/tools/install-clients.sh (CLIENTS_DIR, default /tmp/clients) or in the conformance
# cache (~/.cache/repo-conformance/pkgs). The environment is the one client-oracle.sh uses to
# keep the clients offline. docs/coexistence.md has the results.
set -u
OUT=${OUT:-/tmp/strace-saves}
TMO=${TMO:-90}
CLIENTS_DIR=${CLIENTS_DIR:-/tmp/clients}
CACHE=$HOME/.cache/repo-conformance

bins=""
[ -d "$CLIENTS_DIR/bin" ] && bins="$CLIENTS_DIR/bin:"
for d in "$CACHE"/pkgs/*/node_modules/.bin "$CACHE"/pkgs/*/node_modules/@kilocode/cli-linux-*/bin \
         "$CLIENTS_DIR"/node/node_modules/node-linux-*/bin "$CACHE"/node/node_modules/node-linux-*/bin; do
  [ -d "$d" ] && bins="$bins$d:"
done
PATHX="${bins}/usr/local/bin:/usr/bin:/bin"
XDG=$CACHE/xdg-cache; [ -d "$CLIENTS_DIR/cache" ] && XDG=$CLIENTS_DIR/cache

# name | version command | seed files (home:REL=CONTENT or proj:REL=CONTENT, ';'-separated) | command
SCENARIOS=$(cat <<'EOF'
claude-user|claude --version|home:.claude.json={"numStartups":3,"mcpServers":{}}|claude mcp add -s user foo -- echo hi
claude-project|claude --version|home:.claude.json={"numStartups":3};proj:.mcp.json={"mcpServers":{}}|claude mcp add -s project foo -- echo hi
codex-user|codex --version|home:.codex/config.toml=model = "o3"|codex mcp add foo -- echo hi
gemini-user|gemini --version|home:.gemini/settings.json={"general":{"vimMode":false}}|gemini mcp add -s user foo echo hi
gemini-project|gemini --version|home:.gemini/settings.json={};proj:.gemini/settings.json={"mcpServers":{}}|gemini mcp add -s project foo echo hi
qwen-approve|qwen --version|home:.qwen/settings.json={"mcpServers":{}};proj:.qwen/settings.json={"mcpServers":{"b":{"command":"true"}}}|qwen mcp approve --all
qwen-corrupt|qwen --version|home:.qwen/settings.json={"$version":4};proj:.qwen/settings.json={"mcpServers":{|qwen mcp list
copilot-user|copilot --version|home:.copilot/mcp-config.json={"mcpServers":{}}|copilot mcp add foo -- echo hi
opencode-schema|opencode --version|home:.config/opencode/opencode.json={"mcp":{}};proj:opencode.json={"mcp":{}}|opencode mcp list
kilo-schema|kilo --version|home:.config/kilo/kilo.json={"mcp":{}}|kilo mcp list
amp-user|amp --version|home:.config/amp/settings.json={"amp.mcpServers":{}}|amp mcp add foo -- echo hi
auggie-user|auggie --version|home:.augment/settings.json={"mcpServers":{}}|auggie mcp add foo --command echo --args hi
EOF
)

if [ "${1:-}" = --list ]; then printf '%s\n' "$SCENARIOS" | cut -d'|' -f1,4 | tr '|' '\t'; exit 0; fi
[ "$(id -u)" = 0 ] || { echo "strace-saves: run as root (unshare -n)" >&2; exit 2; }
command -v strace >/dev/null || { echo "strace-saves: strace is not installed" >&2; exit 2; }

run() { # run DIR CMD...: the client, offline, with the private HOME, in DIR/proj
  local d=$1; shift
  (cd "$d/proj" && env -i PATH="$PATHX" HOME="$d/home" TMPDIR="$d/tmp" XDG_CACHE_HOME="$XDG" \
    LANG=C.UTF-8 LC_ALL=C.UTF-8 TERM=dumb NO_COLOR=1 USER=root \
    DISABLE_AUTOUPDATER=1 DISABLE_TELEMETRY=1 DISABLE_ERROR_REPORTING=1 NO_BROWSER=1 \
    CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC=1 GEMINI_TELEMETRY_ENABLED=false \
    COPILOT_AUTO_UPDATE=false COPILOT_OFFLINE=true OPENCODE_DISABLE_AUTOUPDATE=1 \
    OPENCODE_DISABLE_MODELS_FETCH=1 OPENCODE_DISABLE_LSP_DOWNLOAD=1 OPENCODE_DISABLE_SHARE=1 \
    npm_config_registry=http://127.0.0.1:9/ npm_config_offline=true \
    unshare -n -- sh -c 'ip link set lo up 2>/dev/null; exec "$@"' sh timeout -k 5 "$TMO" "$@" </dev/null)
}

want=" $* "
printf '%s\n' "$SCENARIOS" | while IFS='|' read -r name version seeds cmd; do
  [ $# -gt 0 ] && [ "${want#* $name }" = "$want" ] && continue
  d=$OUT/$name; rm -rf "$d"; mkdir -p "$d/home" "$d/proj" "$d/tmp"
  git init -q "$d/proj"
  files=""
  IFS=';' read -ra parts <<<"$seeds"
  for p in "${parts[@]}"; do
    where=${p%%:*} rest=${p#*:}; rel=${rest%%=*}
    mkdir -p "$(dirname "$d/$where/$rel")"; printf '%s\n' "${rest#*=}" >"$d/$where/$rel"
    files="$files|$where/$rel"
  done
  # shellcheck disable=SC2086
  v=$(run "$d" $version 2>/dev/null | head -1)
  # shellcheck disable=SC2086
  run "$d" strace -f -tt -y -s 80 -o "$d/strace.log" \
    -e trace=openat,open,creat,write,pwrite64,writev,ftruncate,truncate,fsync,fdatasync,rename,renameat,renameat2,unlink,unlinkat,link,linkat,mkdir,rmdir,flock,copy_file_range \
    $cmd >"$d/stdout" 2>"$d/stderr"
  echo "== $name: $cmd  [${v:-version unknown}]"
  # calls on the seeded files and on their siblings (temp, backup, aside and lock files):
  # every name in the seeded file's folder, and any name that starts with the file's name
  pat=""
  for f in ${files//|/ }; do
    dir=$(dirname "$f") base=$(basename "$f")
    pat="$pat|$dir/[^/\"<>]*|/${base//./\\.}[^/\"<>]*"
  done
  sed -E "s#AT_FDCWD<[^>]*>#AT_FDCWD#g; s#$d/##g" "$d/strace.log" |
    grep -E "(${pat#|})" | grep -vE 'ENOENT|O_DIRECTORY|O_PATH|/\.git/' |
    grep -E 'O_WRONLY|O_RDWR|O_RDONLY|write|truncate|fsync|rename|unlink|link|mkdir|rmdir|flock|copy_file_range' |
    sed -E 's/^([0-9]+) +([0-9:.]+) /\2 [\1] /; /(write|writev|pwrite64)\(/ s/, "([^"\\]|\\.)*"(\.\.\.)?,/, …,/'
done
