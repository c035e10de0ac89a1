#!/usr/bin/env bash
# The check step of the repo GitHub Action (action.yml): runs `repo sync --check --dry-run` in the
# workspace, prints the diff in the log, writes it to the job summary, emits one ::error
# annotation per stale file, and exits 1 when a config is out of date (2 when repo fails).
# Writes nothing in the workspace. Needs repo and jq on PATH.
#
# Environment: GITHUB_STEP_SUMMARY, GITHUB_OUTPUT and GITHUB_WORKSPACE as GitHub sets them;
# INPUT_ARGS: more arguments for repo sync (split on spaces, e.g. "--tool claude,vscode").
set -uo pipefail

command -v repo >/dev/null || { echo "::error title=repo not found::repo is not on PATH; the install step of the action failed"; exit 2; }
command -v jq >/dev/null || { echo "::error title=jq not found::the repo action needs jq on PATH"; exit 2; }

# Workflow commands: % and newlines escaped in messages, also : and , in properties.
esc_data() { local s=${1//%/%25}; s=${s//$'\r'/%0D}; printf '%s' "${s//$'\n'/%0A}"; }
esc_prop() { local s; s=$(esc_data "$1"); s=${s//:/%3A}; printf '%s' "${s//,/%2C}"; }
summary() { if [ -n "${GITHUB_STEP_SUMMARY:-}" ]; then cat >> "$GITHUB_STEP_SUMMARY"; else cat > /dev/null; fi; }
output() { if [ -n "${GITHUB_OUTPUT:-}" ]; then echo "$1" >> "$GITHUB_OUTPUT"; fi; }

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# shellcheck disable=SC2086 # INPUT_ARGS is a list of arguments
repo sync --check --dry-run --output json ${INPUT_ARGS:-} > "$tmp/out.json" 2> "$tmp/err"
code=$?
if [ "$code" -ne 0 ] && [ "$code" -ne 1 ]; then
  cat "$tmp/err" >&2
  echo "::error title=repo sync failed::$(esc_data "$(cat "$tmp/err")")"
  {
    echo "### MCP configs: \`repo sync --check\` failed"
    echo
    echo '```'
    cat "$tmp/err"
    echo '```'
  } | summary
  output "stale=false"
  exit 2
fi
cat "$tmp/err" >&2

# The diff, in the log and the summary.
jq -r '.files[] | .diff // empty' "$tmp/out.json" > "$tmp/diff"
cat "$tmp/diff"

# File paths are relative to the workspace root; annotations want them relative to the checkout.
root=$(jq -r '.root' "$tmp/out.json")
root=${root//\\//}
top=${GITHUB_WORKSPACE:-$PWD}
top=${top//\\//}
prefix=
case "$root" in
  "$top") ;;
  "$top"/*) prefix=${root#"$top"/}/ ;;
esac

fix="run 'repo sync' and commit the result"
stale=0
while IFS=$'\t' read -r path who reasons; do
  stale=$((stale + 1))
  msg="$path ($who) is out of date: $reasons; $fix"
  case "$path" in
    "~/"*|/*) echo "::error title=MCP config out of date::$(esc_data "$msg")" ;;
    *) echo "::error file=$(esc_prop "$prefix$path"),title=MCP config out of date::$(esc_data "$msg")" ;;
  esac
done < <(jq -r '.files[] | select(.status == "stale")
  | [.path,
     (if .scope == "record" then "ownership record" elif .scope == "gitignore" then "ignore block" else "\(.scope): \(.tools | join(", "))" end),
     ([.changes[] | if (.entry // "") != "" then "\(.reason) \"\(.entry)\"" else .reason end] | join(", "))]
  | @tsv' "$tmp/out.json")

if [ "$stale" -eq 0 ]; then
  files=$(jq '.files | length' "$tmp/out.json")
  echo "MCP configs are up to date ($files file(s))"
  echo "### MCP configs are up to date ($files file(s), tools: $(jq -r '.tools | join(", ")' "$tmp/out.json"))" | summary
  output "stale=false"
  exit 0
fi

# A fence longer than any run of backticks in the diff.
fence='```'
while grep -qF "$fence" "$tmp/diff"; do fence="$fence\`"; done
{
  echo "### MCP configs: \`repo sync\` would change $stale file(s)"
  echo
  jq -r '.files[] | select(.status == "stale") | "- `\(.path)`"' "$tmp/out.json"
  echo
  echo "${fence}diff"
  cat "$tmp/diff"
  echo "$fence"
  echo
  echo "Run \`repo sync\` and commit the result."
} | summary
output "stale=true"
echo "$stale MCP config file(s) out of date; $fix" >&2
exit 1
