#!/usr/bin/env bash
# The check step of the repo GitHub Action (action.yml): runs `repo sync --check --dry-run
# --committed` in the workspace — what the commit holds: the committed configs, the ownership record
# and the .gitignore block, not the per-clone files a checkout does not have — prints the diff in the
# log, writes it to the job summary, emits one ::error annotation per stale file, and exits 1 when a
# config is out of date (2 when repo fails). Writes nothing in the workspace. Needs repo and jq on
# PATH.
#
# Environment: GITHUB_STEP_SUMMARY, GITHUB_OUTPUT and GITHUB_WORKSPACE as GitHub sets them;
# INPUT_ARGS: more arguments for repo sync (split on spaces, e.g. "--tool claude,vscode").
#
# What repo prints shows the workspace's files and names, which a pull request can choose. The
# runner obeys a line of the log that starts with ::command:: (after blanks) or holds ##[command],
# and ends a line at a lone carriage return: a diff context line "::error::…" from a committed
# file's comment would be an annotation, "::stop-commands::x" would hide the check's own. So all
# of repo's output is printed, on stdout, between ::stop-commands::<token> and ::<token>::, with a
# token made for this run, which no file can know; what is not printable is escaped; the
# annotations, made here, come after, their text escaped as workflow commands escape it; and the
# summary's Markdown quotes what it shows in code spans and fences longer than anything in them.
set -uo pipefail

command -v repo >/dev/null || { echo "::error title=repo not found::repo is not on PATH; the install step of the action failed"; exit 2; }
command -v jq >/dev/null || { echo "::error title=jq not found::the repo action needs jq on PATH"; exit 2; }

# Workflow commands: % and newlines escaped in messages, also : and , in properties.
esc_data() { local s=${1//%/%25}; s=${s//$'\r'/%0D}; printf '%s' "${s//$'\n'/%0A}"; }
esc_prop() { local s; s=$(esc_data "$1"); s=${s//:/%3A}; printf '%s' "${s//,/%2C}"; }
summary() { if [ -n "${GITHUB_STEP_SUMMARY:-}" ]; then cat >> "$GITHUB_STEP_SUMMARY"; else cat > /dev/null; fi; }
output() { if [ -n "${GITHUB_OUTPUT:-}" ]; then echo "$1" >> "$GITHUB_OUTPUT"; fi; }

# jq: text: every control, format or separator character as \uXXXX, but line ends and tabs;
# line: the same, line ends and tabs too (one line); code: a Markdown code span of line.
jqdefs='
def hex: if . < 16 then "0123456789abcdef"[.:.+1] else ((./16|floor)|hex) + ("0123456789abcdef"[.%16:.%16+1]) end;
def u: explode[0] | hex | if length < 4 then ("000" + .)[-4:] else . end | "\\u" + .;
def text: gsub("(?<c>(?!\n|\t|\r\n)[\\p{Cc}\\p{Cf}\\p{Zl}\\p{Zp}])"; .c | u);
def line: gsub("(?<c>[\\p{Cc}\\p{Cf}\\p{Zl}\\p{Zp}])"; .c | u);
def code: line | ([scan("`+") | length] | max // 0) as $n | ("`" * ($n + 1)) as $f
  | if test("^`|`$") then $f + " " + . + " " + $f else $f + . + $f end;
'
escape_text() { jq -Rrs "$jqdefs text"; }
# A fenced block's fence: longer than any run of backticks in the file.
fence_for() { local fence='```'; while grep -qF "$fence" "$1"; do fence="$fence\`"; done; printf '%s' "$fence"; }

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# shellcheck disable=SC2086 # INPUT_ARGS is a list of arguments
repo sync --check --dry-run --committed --output json ${INPUT_ARGS:-} > "$tmp/out.json" 2> "$tmp/err"
code=$?
escape_text < "$tmp/err" > "$tmp/err.txt"

token=$(od -An -N16 -tx1 /dev/urandom | tr -d ' \n')
if [ ${#token} -ne 32 ]; then echo "::error title=repo action::no random token from /dev/urandom"; exit 2; fi
# untrusted FILE...: print the files with the runner's commands off; the token that turns them
# on again starts a line of its own.
untrusted() {
  echo "::stop-commands::$token"
  local f
  for f in "$@"; do
    cat "$f"
    if [ -n "$(tail -c 1 "$f")" ]; then echo; fi
  done
  echo "::$token::"
}

if [ "$code" -ne 0 ] && [ "$code" -ne 1 ]; then
  untrusted "$tmp/err.txt"
  echo "::error title=repo sync failed::$(esc_data "$(cat "$tmp/err.txt")")"
  fence=$(fence_for "$tmp/err.txt")
  {
    echo "### MCP configs: \`repo sync --check\` failed"
    echo
    echo "$fence"
    cat "$tmp/err.txt"
    echo "$fence"
  } | summary
  output "stale=false"
  exit 2
fi

# The diff, in the log and the summary.
jq -r "$jqdefs"'.files[] | .diff // empty | text' "$tmp/out.json" > "$tmp/diff"
untrusted "$tmp/err.txt" "$tmp/diff"

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
while IFS=$'\t' read -r path who reasons untrack; do
  stale=$((stale + 1))
  msg="$path ($who) is out of date: $reasons; $fix"
  if [ "$untrack" = true ]; then
    # A per-clone file the commit holds: the fix is to stop tracking it.
    msg="$path ($who) is out of date: $reasons; run 'git rm --cached -- $path' and commit (repo sync says more)"
  fi
  case "$path" in
    "~/"*|/*) echo "::error title=MCP config out of date::$(esc_data "$msg")" ;;
    *) echo "::error file=$(esc_prop "$prefix$path"),title=MCP config out of date::$(esc_data "$msg")" ;;
  esac
done < <(jq -r "$jqdefs"'.files[] | select(.status == "stale")
  | [(.path | line),
     (if .scope == "record" then "ownership record" elif .scope == "gitignore" then "ignore block" else "\(.scope): \(.tools | join(", "))" end | line),
     ([.changes[] | if (.entry // "") != "" then "\(.reason) \"\(.entry)\"" else .reason end] | join(", ") | line),
     (any(.changes[]; .action == "untrack") | tostring)]
  | @tsv' "$tmp/out.json")

if [ "$stale" -eq 0 ]; then
  files=$(jq '.files | length' "$tmp/out.json")
  echo "MCP configs are up to date ($files file(s))"
  echo "### MCP configs are up to date ($files file(s), tools: $(jq -r "$jqdefs"'.tools | join(", ") | line' "$tmp/out.json"))" | summary
  output "stale=false"
  exit 0
fi

fence=$(fence_for "$tmp/diff")
{
  echo "### MCP configs: \`repo sync\` would change $stale file(s)"
  echo
  jq -r "$jqdefs"'.files[] | select(.status == "stale") | "- \(.path | code)"' "$tmp/out.json"
  echo
  echo "${fence}diff"
  cat "$tmp/diff"
  echo "$fence"
  echo
  echo "Run \`repo sync\` and commit the result."
  jq -r "$jqdefs"'.files[] | select(any(.changes[]; .action == "untrack"))
    | "\(.path | code) is this clone'"'"'s own under the team policy, but the commit holds it: untrack it (`git rm --cached`) and commit."' "$tmp/out.json"
} | summary
output "stale=true"
echo "$stale MCP config file(s) out of date; $fix" >&2
exit 1
