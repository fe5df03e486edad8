#!/usr/bin/env bash
# The VS Code extension's CI (called by .ci/run): installs node and npm
# when missing (.ci/need), the npm packages (npm ci), builds the linux-x64
# server binary from the repository, builds and tests the extension (unit,
# activation with a fake `vscode`, and the real vscode-languageclient
# against the real binary), packages it, and checks every package's
# contents, its server's header included.
#
# Packages: linux-x64 (the server the tests ran), one other platform
# (win32-arm64: another format and another machine, the one .ci/release-check
# snapshots too, so the Go build cache serves both) and the universal one
# without a server. SCALELINT_ALL_TARGETS=1 (or --all) packages all six
# platforms. SCALELINT_VSIX_TARGETS="darwin-arm64 ..." picks the others.
# Nothing downloads VS Code. Exits non-zero on any failure.
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
"$here/../.ci/need" node nodejs
"$here/../.ci/need" npm npm
cd "$here"
start=$SECONDS
step() { printf '\n==> vscode-extension: %s (%ds)\n' "$*" "$((SECONDS - start))"; }

others=${SCALELINT_VSIX_TARGETS:-win32-arm64}
if [ "${SCALELINT_ALL_TARGETS:-}" = 1 ] || [ "${1:-}" = --all ]; then
  others="linux-arm64 darwin-x64 darwin-arm64 win32-x64 win32-arm64"
fi

step "npm ci"
timeout 300 npm ci --no-audit --no-fund --loglevel=error

step "server binary for linux-x64 (go build ./cmd/scalelint, static)"
timeout 600 node scripts/build-server.mjs --target linux-x64
bin="$here/server/linux-x64/scalelint"
if [ "$(uname -s)-$(uname -m)" = "Linux-x86_64" ]; then
  export SCALELINT_BIN="$bin" # the tests use the binary that ships
fi

step "npm test (build, unit, activation, integration, executable headers)"
timeout 600 npm test

targets=(linux-x64)
for t in $others; do targets+=("$t"); done
targets+=(universal)
step "package: ${targets[*]}"
rm -rf vsix ./*.vsix
args=()
for t in "${targets[@]}"; do args+=(--target "$t"); done
# linux-x64 is built already (above); the others cross-compile here.
timeout 1800 node scripts/vsix.mjs --out-dir vsix "${args[@]}"

step "check each .vsix"
for t in "${targets[@]}"; do
  if [ "$t" = linux-x64 ]; then
    node scripts/check-vsix.mjs "vsix/scalelint-$t.vsix" --target "$t" --binary "$bin"
  else
    node scripts/check-vsix.mjs "vsix/scalelint-$t.vsix" --target "$t"
  fi
done

echo
for t in "${targets[@]}"; do
  printf 'vscode-extension: scalelint-%s.vsix %s bytes\n' "$t" "$(wc -c <"vsix/scalelint-$t.vsix")"
done
echo "vscode-extension: ok in $((SECONDS - start))s"
