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
  # An extension that ships a package in src/ installs it into its venv, as `pip install -e`
  # would (a .pth file), so `python -m <package>` works without PYTHONPATH — which some tools
  # (Gemini CLI) strip from a server's environment.
  if [ -d "$ext/src" ]; then
    site=$("$ext/$venv/bin/python" -c 'import sysconfig; print(sysconfig.get_paths()["purelib"])')
    mkdir -p "$site" && echo "$PWD/$ext/src" > "$site/$(basename "$ext").pth"
  fi
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
