#!/usr/bin/env bash
# The install step of the repo GitHub Action (action.yml): puts repo on PATH for the next steps.
#
#   INPUT_VERSION  v1.2.3: that release, from GitHub, checked against the release's checksums.txt;
#                  "source": build the action's own checkout with Go (go must be on PATH);
#                  empty: the action's ref when it is a release tag (uses: repo-manager/repo@v1.2.3),
#                  else "source".
#   ACTION_REF     the ref the workflow used the action at (github.action_ref)
#   REPO_DOWNLOAD_URL  where releases are (default https://github.com/repo-manager/repo/releases/download)
#
# RUNNER_OS, RUNNER_ARCH, RUNNER_TEMP, GITHUB_PATH and GITHUB_ACTION_PATH as GitHub sets them.
set -euo pipefail

version=${INPUT_VERSION:-}
if [ -z "$version" ]; then
  ref=${ACTION_REF:-${GITHUB_ACTION_REF:-}}
  if [[ "$ref" =~ ^v[0-9]+\.[0-9]+\.[0-9]+([-+].*)?$ ]]; then version=$ref; else version=source; fi
fi
bindir=${RUNNER_TEMP:?}/repo-action-bin
mkdir -p "$bindir"
exe=repo
[ "${RUNNER_OS:-}" = Windows ] && exe=repo.exe

if [ "$version" = source ]; then
  command -v go >/dev/null || { echo "::error title=repo: no release to install::the action is used at '${ref:-?}', not a release tag, so it builds repo from source, and Go is not installed: add actions/setup-go before it, or set the action's version input"; exit 2; }
  echo "building repo from $GITHUB_ACTION_PATH"
  # Without cgo, as the release is built (a C library linked in slows every start).
  (cd "${GITHUB_ACTION_PATH:?}" && CGO_ENABLED=0 go build -o "$bindir/$exe" ./cmd/repo)
else
  [[ "$version" =~ ^v[0-9] ]] || { echo "::error title=repo: bad version::version '$version': give a release tag such as v1.2.3, or source"; exit 2; }
  case "${RUNNER_OS:-Linux}" in
    Linux) os=linux ;;
    macOS) os=darwin ;;
    Windows) os=windows ;;
    *) echo "::error::repo: no release for runner OS ${RUNNER_OS}"; exit 2 ;;
  esac
  case "${RUNNER_ARCH:-X64}" in
    X64) arch=amd64 ;;
    ARM64) arch=arm64 ;;
    *) echo "::error::repo: no release for runner architecture ${RUNNER_ARCH}"; exit 2 ;;
  esac
  ext=tar.gz
  [ "$os" = windows ] && ext=zip
  archive="repo_${version#v}_${os}_${arch}.$ext"
  base="${REPO_DOWNLOAD_URL:-https://github.com/repo-manager/repo/releases/download}/$version"
  dl=$(mktemp -d)
  trap 'rm -rf "$dl"' EXIT
  echo "downloading $base/$archive"
  curl -fsSL --retry 3 -o "$dl/$archive" "$base/$archive"
  curl -fsSL --retry 3 -o "$dl/checksums.txt" "$base/checksums.txt"
  want=$(awk -v f="$archive" '$2 == f { print $1 }' "$dl/checksums.txt")
  [ -n "$want" ] || { echo "::error title=repo: no checksum::$archive is not in the release's checksums.txt"; exit 2; }
  if command -v sha256sum >/dev/null; then got=$(sha256sum "$dl/$archive" | cut -d' ' -f1); else got=$(shasum -a 256 "$dl/$archive" | cut -d' ' -f1); fi
  [ "$got" = "$want" ] || { echo "::error title=repo: checksum mismatch::$archive has sha256 $got, the release says $want"; exit 2; }
  if [ "$ext" = zip ]; then unzip -q -o "$dl/$archive" "$exe" -d "$bindir"; else tar -xzf "$dl/$archive" -C "$bindir" "$exe"; fi
fi
chmod +x "$bindir/$exe"
if [ -n "${GITHUB_PATH:-}" ]; then echo "$bindir" >> "$GITHUB_PATH"; fi
"$bindir/$exe" version
