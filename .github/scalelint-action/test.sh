#!/usr/bin/env bash
# Tests the GitHub Action's scripts outside GitHub, without the network: each
# case runs install.sh or check.sh as action.yml does, in a simulated runner
# (RUNNER_OS, RUNNER_ARCH, RUNNER_TEMP, GITHUB_OUTPUT, GITHUB_PATH,
# GITHUB_STEP_SUMMARY, GITHUB_ACTION_PATH pointing at temporary files and this
# repository), and checks what they wrote. Releases are served from file://
# URLs: the GoReleaser snapshot in DIST as its own release, and a copy of it
# renamed to v9.9.9 behind a fake GitHub API that lists releases, so that
# latest, v9 and v9.9 resolve. `go` is a stub that records how it was called
# wherever the fallback is tested. .ci/release-check runs it.
#   .github/scalelint-action/test.sh DIST
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
dist=$(cd "${1:?usage: test.sh DIST (a GoReleaser snapshot directory)}" && pwd)
version=$(sed -n 's/.*"version": *"\([^"]*\)".*/\1/p' "$dist/metadata.json" | head -1)
[ -n "$version" ] || { echo "test.sh: no version in $dist/metadata.json" >&2; exit 2; }
tag=v$version

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
passed=0
failed=0
ok() {
  echo "ok: $*"
  passed=$((passed + 1))
}
bad() {
  echo "FAIL: $*"
  failed=$((failed + 1))
}
# expect CASE DESCRIPTION COMMAND...: the command (a test on the case's files) must succeed.
expect() {
  local name=$1 what=$2
  shift 2
  if "$@"; then ok "$name: $what"; else
    bad "$name: $what"
    sed 's/^/    | /' "$tmp/$name/log" 2>/dev/null | tail -20
  fi
}
has() { grep -qF -- "$2" "$1"; }

# The release pages: releases/download/TAG/FILE, as github.com serves them.
rel="$tmp/releases/download"
mkdir -p "$rel/$tag" "$rel/v9.9.9"
for f in "$dist"/scalelint_"$version"_*.tar.gz "$dist"/scalelint_"$version"_*.zip "$dist/scalelint_${version}_checksums.txt"; do
  [ -f "$f" ] && cp "$f" "$rel/$tag/"
done
# v9.9.9: the same archives under that version's names, with their checksums.
for f in "$rel/$tag"/scalelint_"$version"_*_*.*; do
  cp "$f" "$rel/v9.9.9/$(basename "$f" | sed "s/_${version}_/_9.9.9_/")"
done
(cd "$rel/v9.9.9" && sha256sum scalelint_9.9.9_* >scalelint_9.9.9_checksums.txt)
# The API's list of releases, newest first; only v9.9.9 and the snapshot have files.
mkdir -p "$tmp/api/repos/scalelint/scalelint"
cat >"$tmp/api/repos/scalelint/scalelint/releases" <<EOF
[
  {"tag_name": "v10.0.0-rc.1", "prerelease": true},
  {"tag_name": "v9.9.9"},
  {"tag_name": "v9.8.0"},
  {"tag_name": "$tag", "prerelease": true},
  {"tag_name": "v1.0.0"}
]
EOF
# A go that records its arguments and installs a stand-in binary into GOBIN.
mkdir -p "$tmp/stub"
cat >"$tmp/stub/go" <<'EOF'
#!/usr/bin/env bash
echo "$* GOBIN=$GOBIN" >>"$STUB_LOG"
printf '#!/bin/sh\necho "scalelint (go install stand-in)"\n' >"$GOBIN/scalelint"
chmod +x "$GOBIN/scalelint"
EOF
chmod +x "$tmp/stub/go"
nogo_path=$(printf '%s' "$PATH" | tr ':' '\n' | while read -r d; do [ -x "$d/go" ] || printf '%s:' "$d"; done)

# install CASE [VAR=VALUE...]: install.sh in a fresh simulated runner; its
# exit status in $tmp/CASE/rc, stdout and stderr in $tmp/CASE/log.
install() {
  local name=$1 r="$tmp/$1"
  shift
  mkdir -p "$r/temp"
  : >"$r/output"
  : >"$r/path"
  set +e
  env -i HOME="$HOME" PATH="$PATH" GOCACHE="$(go env GOCACHE)" GOPATH="$(go env GOPATH)" GOFLAGS="${GOFLAGS:-}" \
    RUNNER_OS=Linux RUNNER_ARCH=X64 RUNNER_TEMP="$r/temp" GITHUB_OUTPUT="$r/output" GITHUB_PATH="$r/path" \
    GITHUB_ACTION_PATH="$root" SCALELINT_RELEASES_URL="file://$tmp/releases" SCALELINT_API_URL="file://$tmp/api" \
    STUB_LOG="$r/go-calls" "$@" bash "$here/install.sh" >"$r/log" 2>&1
  echo $? >"$r/rc"
  set -e
}
rc() { [ "$(cat "$tmp/$1/rc")" = "$2" ]; }
out() { grep -qxF -- "$2" "$tmp/$1/output"; }

echo "action test: install.sh (snapshot $tag from file://)"

install ref ACTION_REF="$tag"
bin="$tmp/ref/temp/scalelint/$tag/scalelint"
expect ref "the ref's release archive for Linux X64, checksum verified" has "$tmp/ref/log" "scalelint_${version}_linux_amd64.tar.gz: sha256"
expect ref "exit 0, outputs path, version and source" \
  eval "rc ref 0 && out ref 'path=$bin' && out ref 'source=release' && grep -q '^version=scalelint $version (commit ' '$tmp/ref/output'"
expect ref "its directory on GITHUB_PATH" grep -qxF "$(dirname "$bin")" "$tmp/ref/path"

install path GITHUB_ACTION_PATH="$tmp/work/_actions/scalelint/scalelint/$tag"
expect path "the ref from GITHUB_ACTION_PATH when github.action_ref is empty" eval "rc path 0 && out path 'source=release'"

install latest INPUT_VERSION=latest
expect latest "latest is the newest release that is not a pre-release (v9.9.9)" \
  eval "rc latest 0 && out latest 'path=$tmp/latest/temp/scalelint/v9.9.9/scalelint' && has '$tmp/latest/log' 'scalelint_9.9.9_linux_amd64.tar.gz: sha256'"
install major INPUT_VERSION=v9
expect major "v9 is the newest v9 release (v9.9.9)" eval "rc major 0 && out major 'path=$tmp/major/temp/scalelint/v9.9.9/scalelint'"
install minor INPUT_VERSION=v9.8 PATH="$tmp/stub:$PATH"
expect minor "v9.8 resolves to v9.8.0, which has no files: go install @v9.8.0" \
  eval "rc minor 0 && out minor 'source=go-install' && has '$tmp/minor/go-calls' 'install -tags kustomize_disable_go_plugin_support github.com/scalelint/scalelint/cmd/scalelint@v9.8.0 GOBIN=$tmp/minor/temp/scalelint/v9.8.0'"

if [ -f "$rel/$tag/scalelint_${version}_windows_arm64.zip" ]; then
  install windows ACTION_REF="$tag" RUNNER_OS=Windows RUNNER_ARCH=ARM64
  exe="$tmp/windows/temp/scalelint/$tag/scalelint.exe"
  # The .exe cannot run on this Linux host: install.sh stops at its last
  # check, after choosing, verifying and unpacking the right archive.
  expect windows "the windows_arm64 zip, checksum verified, scalelint.exe unpacked from it" \
    eval "has '$tmp/windows/log' 'scalelint_${version}_windows_arm64.zip: sha256' && [ \"\$(head -c2 '$exe')\" = MZ ] && has '$tmp/windows/log' 'does not run'"
else
  bad "windows: the snapshot has no windows_arm64 zip (release-check builds one)"
fi

install x86 ACTION_REF="$tag" RUNNER_ARCH=X86 PATH="$tmp/stub:$PATH"
expect x86 "no release for X86 runners: go install @$tag" \
  eval "rc x86 0 && out x86 'source=go-install' && has '$tmp/x86/go-calls' 'install -tags kustomize_disable_go_plugin_support github.com/scalelint/scalelint/cmd/scalelint@$tag GOBIN='"
install branch ACTION_REF=main PATH="$tmp/stub:$PATH"
expect branch "a branch has no release: go install @main" \
  eval "rc branch 0 && has '$tmp/branch/go-calls' 'install -tags kustomize_disable_go_plugin_support github.com/scalelint/scalelint/cmd/scalelint@main GOBIN='"
install nogo ACTION_REF=main PATH="$nogo_path"
expect nogo "no release and no Go: fails and says to add actions/setup-go" \
  eval "rc nogo 1 && has '$tmp/nogo/log' 'add actions/setup-go' && [ ! -s '$tmp/nogo/path' ]"
install noos ACTION_REF="$tag" RUNNER_OS=FreeBSD
expect noos "an unknown runner OS is refused by name" eval "rc noos 1 && has '$tmp/noos/log' \"runner OS 'FreeBSD'\""

# A tampered archive: the checksum file no longer matches; nothing is
# installed and go install is not tried.
mkdir -p "$tmp/bad/download"
cp -r "$rel/$tag" "$tmp/bad/download/"
printf 'x' | dd of="$tmp/bad/download/$tag/scalelint_${version}_linux_amd64.tar.gz" bs=1 seek=100 conv=notrunc 2>/dev/null
install tampered ACTION_REF="$tag" SCALELINT_RELEASES_URL="file://$tmp/bad" PATH="$tmp/stub:$PATH"
expect tampered "a tampered archive fails the step: checksum mismatch, nothing installed, no go install" \
  eval "rc tampered 1 && has '$tmp/tampered/log' 'checksum mismatch for scalelint_${version}_linux_amd64.tar.gz' && [ ! -e '$tmp/tampered/temp/scalelint/$tag/scalelint' ] && [ ! -s '$tmp/tampered/path' ] && [ ! -e '$tmp/tampered/go-calls' ]"

install checkout GITHUB_ACTION_PATH="$root"
expect checkout "uses: ./ with no version builds the action's checkout" \
  eval "rc checkout 0 && out checkout 'source=checkout' && out checkout 'path=$tmp/checkout/temp/scalelint/checkout/scalelint'"

echo "action test: check.sh (the binary installed from the snapshot)"
if [ ! -x "$bin" ]; then
  bad "check: no binary installed by the ref case"
else
  # A repository whose path has a space, with the example's findings:
  # errors from latency-floor, tolerance-trap, ceiling-trap,
  # bound-exceeds-timeout and missing-cpu-request, and warnings.
  work="$tmp/work space/repo"
  mkdir -p "$work"
  cp -r "$root/testdata/examples/shop/." "$work/"
  mkdir -p "$work/my apps"
  cp "$work/orders/scaledobject.yaml" "$work/my apps/"

  # check CASE [VAR=VALUE...]: check.sh from the repository's root.
  check() {
    local name=$1 r="$tmp/$1"
    shift
    mkdir -p "$r/temp"
    : >"$r/output"
    : >"$r/summary"
    set +e
    (cd "$work" && env -i HOME="$HOME" PATH="$PATH" RUNNER_TEMP="$r/temp" GITHUB_OUTPUT="$r/output" \
      GITHUB_STEP_SUMMARY="$r/summary" GITHUB_ACTION_PATH="$root" SCALELINT="$bin" "$@" bash "$here/check.sh") >"$r/log" 2>&1
    echo $? >"$r/rc"
    set -e
  }

  # The counts the summary must quote, from the binary itself.
  counts=$(cd "$work" && "$bin" check . 2>&1 >/dev/null | head -1 || true)
  check defaults INPUT_FORMATS=github,sarif
  expect defaults "findings: exit-code 1 in the outputs, the step itself exits 0" eval "rc defaults 0 && out defaults exit-code=1"
  expect defaults "annotations in the log" has "$tmp/defaults/log" "::error file=orders/scaledobject.yaml,line=16,col=11,endLine=16,endColumn=16,title=latency-floor::"
  expect defaults "a SARIF file, in the outputs" \
    eval "out defaults 'sarif-file=$tmp/defaults/temp/scalelint/scalelint.sarif' && has '$tmp/defaults/temp/scalelint/scalelint.sarif' '\"version\": \"2.1.0\"'"
  expect defaults "the job summary: the verdict, the check's counts, the audit table" \
    eval "has '$tmp/defaults/summary' '**check failed**' && has '$tmp/defaults/summary' '> $counts' && has '$tmp/defaults/summary' '### scalelint audit' && has '$tmp/defaults/summary' '| verdict |'"

  check failnone INPUT_FAIL_ON=none
  expect failnone "fail-on none: exit-code 0, check passed" eval "rc failnone 0 && out failnone exit-code=0 && has '$tmp/failnone/summary' '**check passed**'"

  (cd "$work" && "$bin" check --write-baseline baseline.json . >/dev/null 2>&1) || true
  check baseline INPUT_BASELINE=baseline.json
  expect baseline "every finding in the baseline: exit-code 0" eval "rc baseline 0 && out baseline exit-code=0"

  cat >"$work/quiet.yaml" <<'EOF'
rules:
  latency-floor: off
  tolerance-trap: off
  ceiling-trap: off
  bound-exceeds-timeout: off
  missing-cpu-request: off
EOF
  check config INPUT_CONFIG=quiet.yaml
  expect config "config turns the failing rules off: exit-code 0, warnings still annotated" \
    eval "rc config 0 && out config exit-code=0 && has '$tmp/config/log' '::warning file=checkout/hpa.yaml' && ! has '$tmp/config/log' '::error file='"

  check paths INPUT_PATHS=$'orders\nmy apps\n'
  expect paths "paths one a line, one with a space: only those files" \
    eval "has '$tmp/paths/log' '::error file=my apps/scaledobject.yaml,line=16' && has '$tmp/paths/log' '::error file=orders/scaledobject.yaml' && ! has '$tmp/paths/log' 'file=checkout/'"
  check pathsline INPUT_PATHS="orders search"
  expect pathsline "paths on one line, separated by spaces" \
    eval "has '$tmp/pathsline/log' 'file=orders/' && has '$tmp/pathsline/log' 'file=search/' && ! has '$tmp/pathsline/log' 'file=checkout/'"

  check formats INPUT_FORMATS="text, github,json"
  expect formats "text, github and json: annotations, the text report in the log, a JSON file" \
    eval "has '$tmp/formats/log' '::error file=' && has '$tmp/formats/log' 'orders/scaledobject.yaml:16:11: error:' && out formats 'json-file=$tmp/formats/temp/scalelint/scalelint.json'"

  check upload INPUT_UPLOAD_SARIF=true
  expect upload "upload-sarif adds a SARIF file to the github format" eval "out upload 'sarif-file=$tmp/upload/temp/scalelint/scalelint.sarif' && has '$tmp/upload/log' '::error file='"

  check nosummary INPUT_SUMMARY=false
  expect nosummary "summary false leaves the job summary empty" eval "rc nosummary 0 && [ ! -s '$tmp/nosummary/summary' ]"

  check badfail INPUT_FAIL_ON=bogus
  expect badfail "a bad fail-on fails the step with scalelint's message (exit 2)" \
    eval "rc badfail 2 && out badfail exit-code=2 && has '$tmp/badfail/log' '::error title=scalelint::scalelint check exited 2'"
  check badformat INPUT_FORMATS=xml
  expect badformat "an unknown format fails the step by name" eval "rc badformat 2 && has '$tmp/badformat/log' \"unknown format 'xml'\""
fi

echo "action test: action.yml passes every input the scripts read"
for v in $(grep -ho 'INPUT_[A-Z_]*' "$here/install.sh" "$here/check.sh" | sort -u); do
  if grep -q "^        $v: \${{ inputs\.[a-z-]* }}$" "$root/action.yml"; then
    ok "action.yml sets $v"
  else
    bad "action.yml does not set $v from an input"
  fi
done
for i in $(grep -o 'inputs\.[a-z-]*' "$root/action.yml" | sort -u | sed 's/inputs\.//'); do
  if grep -q "^  $i:$" "$root/action.yml"; then ok "input $i is declared"; else bad "input $i is used but not declared"; fi
done

echo "action test: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
