#!/usr/bin/env bash
# demo.sh REPO_BINARY — run repo on a scratch copy of the example workspace, the way a new user
# would on their own repository: create the extensions' venvs, look at the diff, sync, check.
# It prints a screenful: the diff is summarised one line per file; DEMO_VERBOSE=1 prints it whole,
# and every line repo sync writes.
set -euo pipefail
repo=${1:?usage: demo.sh path/to/repo}
here=$(cd "$(dirname "$0")" && pwd)
dir=${DEMO_DIR:-$(mktemp -d "${TMPDIR:-/tmp}/repo-demo.XXXXXX")}
mkdir -p "$dir"
cp -a "$here/workspace/." "$dir/"
cd "$dir"
verbose=${DEMO_VERBOSE:-0}
[ "$verbose" = 0 ] || echo "== workspace: $dir"

# Each python extension gets its own virtualenv, as the repo manager would create it.
venvs=()
for manifest in .repository/extensions/*/extension.toml; do
  ext=$(dirname "$manifest")
  venv=$(sed -n 's/^python *= *"\(.*\)"/\1/p' "$manifest")
  [ -n "$venv" ] || continue
  [ -x "$ext/$venv/bin/python" ] || python3 -m venv --without-pip "$ext/$venv"
  # An extension that ships a package in src/ installs it into its venv, as `pip install -e`
  # would (a .pth file), so `python -m <package>` works without PYTHONPATH — which some tools
  # (Gemini CLI) strip from a server's environment.
  if [ -d "$ext/src" ]; then
    site=$("$ext/$venv/bin/python" -c 'import sysconfig; print(sysconfig.get_paths()["purelib"])')
    mkdir -p "$site" && echo "$PWD/$ext/src" > "$site/$(basename "$ext").pth"
  fi
  venvs+=("$(basename "$ext")")
  [ "$verbose" = 0 ] || echo "== venv: $ext/$venv"
done
[ "$verbose" != 0 ] || echo "== workspace $dir, with venvs for ${venvs[*]}"

echo "== repo mcp list"
"$repo" mcp list
if [ "$verbose" != 0 ]; then
  echo
  echo "== repo sync --dry-run   (what would change; writes nothing)"
  "$repo" sync --dry-run
  echo
  echo "== repo sync"
  "$repo" sync
  echo
  echo "== repo sync --check   (what a pre-commit hook runs)"
  "$repo" sync --check && echo "in sync"
  echo
  echo "== done; the synced workspace is $dir"
  exit 0
fi

# A screenful: the diff summarised as lines added and removed per file.
echo "== repo sync --dry-run   (writes nothing; summarised here, DEMO_VERBOSE=1 prints the diff)"
diff=$(mktemp)
"$repo" sync --dry-run > "$diff"
awk '
  function done() { if (f != "") { n++; add += a; del += d; item[n] = sprintf("%s +%d -%d", f, a, d) } }
  /^diff --git / { done(); f = $3; sub(/^a\//, "", f); a = d = 0; hdr = 1; next }
  /^@@/          { hdr = 0; next }
  hdr            { next }
  /^\+/          { a++ }
  /^-/           { d++ }
  END {
    done()
    printf "%d files would change, +%d -%d lines:\n", n, add, del
    line = "  "
    for (i = 1; i <= n; i++) {
      if (length(line) + length(item[i]) > 98) { print line; line = "  " }
      line = line "  " item[i]
    }
    print line
  }' "$diff"
rm -f "$diff"
echo "== repo sync -q; repo sync --check   (what a pre-commit hook runs)"
"$repo" sync -q
"$repo" sync --check && echo "in sync"
echo "== done: the synced workspace is $dir (look at its .mcp.json, or run repo there)"
