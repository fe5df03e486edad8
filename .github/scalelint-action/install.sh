#!/usr/bin/env bash
# Installs scalelint for the GitHub Action (action.yml, step "install").
#
# Which version: the action's `version` input (v1.2.3, 1.2.3, v1, v1.2 or
# latest), else the ref the workflow named in `uses: scalelint/scalelint@REF`
# (ACTION_REF, set from github.action_ref, else the last element of
# GITHUB_ACTION_PATH, where the runner unpacks the action). A whole version is
# used as it is; latest and a major or minor version (v1, v1.2) are resolved
# to the newest matching release through the GitHub API.
#
# How: the release archive for the runner (RUNNER_OS, RUNNER_ARCH), by the
# names .goreleaser.yaml gives it, checked against the release's checksum
# file (a mismatch fails the step; nothing is installed). With no release
# for that version or that platform (a branch, a commit, a 32-bit runner) or
# no download, it falls back to `go install
# github.com/scalelint/scalelint/cmd/scalelint@REF`. An action used from its
# own checkout (`uses: ./`) with no version builds that checkout.
#
# Writes the binary to $RUNNER_TEMP/scalelint/REF/, adds that directory to
# GITHUB_PATH and sets the step outputs path, version and source (release,
# go-install or checkout). SCALELINT_RELEASES_URL and SCALELINT_API_URL
# replace https://github.com/scalelint/scalelint/releases and the API's base
# (GITHUB_API_URL) for tests, which serve a snapshot from file:// URLs.
set -euo pipefail

repo=scalelint/scalelint
module=github.com/scalelint/scalelint/cmd/scalelint
releases=${SCALELINT_RELEASES_URL:-https://github.com/$repo/releases}
api=${SCALELINT_API_URL:-${GITHUB_API_URL:-https://api.github.com}}

fail() {
  echo "::error title=scalelint install::$*"
  exit 1
}
say() { echo "scalelint install: $*"; }

: "${RUNNER_TEMP:?RUNNER_TEMP is not set (this script runs inside GitHub Actions)}"
: "${GITHUB_OUTPUT:?GITHUB_OUTPUT is not set}"
: "${GITHUB_PATH:?GITHUB_PATH is not set}"

case "${RUNNER_OS:-}" in
  Linux) os=linux ;;
  macOS) os=darwin ;;
  Windows) os=windows ;;
  *) fail "runner OS '${RUNNER_OS:-}' is not one scalelint is released for (Linux, macOS, Windows)" ;;
esac
case "${RUNNER_ARCH:-}" in
  X64) arch=amd64 ;;
  ARM64) arch=arm64 ;;
  *) arch="" ;; # X86, ARM: no release archive; go install below
esac
exe=scalelint
format=tar.gz
if [ "$os" = windows ]; then
  exe=scalelint.exe
  format=zip
fi

want=${INPUT_VERSION:-}
if [ -z "$want" ]; then
  want=${ACTION_REF:-}
fi
if [ -z "$want" ] && [[ "${GITHUB_ACTION_PATH:-}" == */_actions/$repo/* ]]; then
  want=${GITHUB_ACTION_PATH##*/}
fi

# fetch URL FILE: a download, with the token for the GitHub API only.
fetch() {
  local auth=()
  if [ -n "${GITHUB_TOKEN:-}" ] && [[ "$1" == "$api"/* ]] && [[ "$1" == https://* ]]; then
    auth=(-H "Authorization: Bearer $GITHUB_TOKEN")
  fi
  curl -fsSL --retry 3 --connect-timeout 20 ${auth[@]+"${auth[@]}"} -o "$2" "$1"
}

# tags JSON: the tag_name values of a GitHub API answer, one a line.
tags() { grep -o '"tag_name": *"[^"]*"' "$1" | sed 's/.*"\([^"]*\)"$/\1/'; }

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# No version and no ref: the action runs from a checkout of this repository
# (uses: ./) when one is there, else the latest release.
if [ -z "$want" ] && [ -f "${GITHUB_ACTION_PATH:-/nonexistent}/go.mod" ]; then
  want=checkout
fi
want=${want:-latest}

# latest, v1 and v1.2: the newest release of the repository, of that major
# or of that minor version, from the API's list of releases (newest first;
# a pre-release, whose tag has a suffix, is never chosen).
newest() {
  fetch "$api/repos/$repo/releases?per_page=100" "$tmp/releases.json" &&
    tags "$tmp/releases.json" | grep -E "$1" | sort -V | tail -1
}
tag=""
if [[ "$want" =~ ^v?[0-9]+\.[0-9]+\.[0-9]+(-[0-9A-Za-z.-]+)?$ ]]; then
  tag=v${want#v}
elif [ "$want" = latest ]; then
  tag=$(newest '^v[0-9]+\.[0-9]+\.[0-9]+$' || true)
  [ -n "$tag" ] || say "could not resolve latest through $api; trying go install"
elif [[ "$want" =~ ^v[0-9]+$ ]]; then
  tag=$(newest "^$want\\.[0-9]+\\.[0-9]+\$" || true)
  [ -n "$tag" ] || say "no release matches $want; trying go install"
elif [[ "$want" =~ ^v[0-9]+\.[0-9]+$ ]]; then
  tag=$(newest "^${want/./\\.}\\.[0-9]+\$" || true)
  [ -n "$tag" ] || say "no release matches $want; trying go install"
fi

ref=${tag:-$want}
dir="$RUNNER_TEMP/scalelint/${ref//\//-}"
mkdir -p "$dir"
source=""

if [ -n "$tag" ] && [ -n "$arch" ]; then
  version=${tag#v}
  archive="scalelint_${version}_${os}_${arch}.${format}"
  sums="scalelint_${version}_checksums.txt"
  base="$releases/download/$tag"
  if fetch "$base/$sums" "$tmp/$sums" && fetch "$base/$archive" "$tmp/$archive"; then
    expected=$(awk -v f="$archive" '$2 == f || $2 == "*" f { print $1 }' "$tmp/$sums")
    [ -n "$expected" ] || fail "$sums has no checksum for $archive"
    if command -v sha256sum >/dev/null 2>&1; then
      actual=$(sha256sum "$tmp/$archive" | cut -d' ' -f1)
    else
      actual=$(shasum -a 256 "$tmp/$archive" | cut -d' ' -f1)
    fi
    if [ "$expected" != "$actual" ]; then
      fail "checksum mismatch for $archive: $sums says $expected, the download is $actual; nothing installed"
    fi
    say "$archive: sha256 $actual matches $sums"
    if [ "$format" = zip ]; then
      if command -v unzip >/dev/null 2>&1; then
        unzip -o -q "$tmp/$archive" "$exe" -d "$dir"
      elif command -v 7z >/dev/null 2>&1; then
        7z e -y -bd -o"$dir" "$tmp/$archive" "$exe" >/dev/null
      else
        pwsh -NoProfile -Command "Expand-Archive -Force -Path '$tmp/$archive' -DestinationPath '$tmp/x'" && mv "$tmp/x/$exe" "$dir/"
      fi
    else
      tar -xzf "$tmp/$archive" -C "$dir" "$exe"
    fi
    chmod +x "$dir/$exe"
    source=release
  else
    say "no $archive at $base; trying go install"
  fi
elif [ -n "$tag" ]; then
  say "no release archive for ${RUNNER_ARCH:-this} runners; trying go install"
fi

if [ -z "$source" ]; then
  if [ "$want" = checkout ]; then
    command -v go >/dev/null 2>&1 || fail "building the action's checkout needs Go: add actions/setup-go before this step"
    say "building $GITHUB_ACTION_PATH (the action's own checkout)"
    (cd "$GITHUB_ACTION_PATH" && go build -tags kustomize_disable_go_plugin_support -o "$dir/$exe" ./cmd/scalelint)
    source=checkout
  else
    command -v go >/dev/null 2>&1 ||
      fail "no release archive of scalelint $ref for $os/${arch:-${RUNNER_ARCH:-?}}, and Go is not installed for go install: add actions/setup-go before this step, or set the version input to a release"
    say "go install $module@$ref"
    GOBIN="$dir" go install -tags kustomize_disable_go_plugin_support "$module@$ref"
    source=go-install
  fi
fi

[ -x "$dir/$exe" ] || fail "$dir/$exe was not installed"
line=$("$dir/$exe" version) || fail "$dir/$exe does not run"
say "$line ($source) in $dir"
{
  echo "path=$dir/$exe"
  echo "version=$line"
  echo "source=$source"
} >>"$GITHUB_OUTPUT"
echo "$dir" >>"$GITHUB_PATH"
