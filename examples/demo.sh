#!/usr/bin/env bash
# demo.sh REPO_BINARY — run repo on a scratch copy of the example workspace, the way a new user
# would on their own repository: create the extensions' venvs, look at the diff, sync, check.
set -euo pipefail
repo=${1:?usage: demo.sh path/to/repo}
here=$(cd "$(dirname "$0")" && pwd)
dir=${DEMO_DIR:-$(mktemp -d "${TMPDIR:-/tmp}/repo-demo.XXXXXX")}
mkdir -p "$dir"
cp -a "$here/workspace/." "$dir/"
cd "$dir"
echo "== workspace: $dir"

# Each python extension gets its own virtualenv, as the repo manager would create it.
for manifest in .repository/extensions/*/extension.toml; do
  ext=$(dirname "$manifest")
  venv=$(sed -n 's/^python *= *"\(.*\)"/\1/p' "$manifest")
  [ -n "$venv" ] || continue
  [ -x "$ext/$venv/bin/python" ] || python3 -m venv --without-pip "$ext/$venv"
  echo "== venv: $ext/$venv"
done

echo "== repo mcp list"
"$repo" mcp list
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
