#!/usr/bin/env bash
# The VS Code extension's CI (called by .ci/run): installs node and npm
# when missing (.ci/need), the npm packages (npm ci), builds the linux-x64 server binary from the repository, builds
# and tests the extension (unit, activation with a fake `vscode`, and the
# real vscode-languageclient against the real binary), packages a
# platform-specific .vsix with the binary inside, and checks its contents.
# Nothing downloads VS Code. Exits non-zero on any failure.
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
"$here/../.ci/need" node nodejs
"$here/../.ci/need" npm npm
cd "$here"
start=$SECONDS
step() { printf '\n==> vscode-extension: %s (%ds)\n' "$*" "$((SECONDS - start))"; }

step "npm ci"
timeout 300 npm ci --no-audit --no-fund --loglevel=error

step "server binary for linux-x64 (go build ./cmd/scalelint, static)"
timeout 600 node scripts/build-server.mjs --target linux-x64
bin="$here/server/linux-x64/scalelint"
if [ "$(uname -s)-$(uname -m)" = "Linux-x86_64" ]; then
  export SCALELINT_BIN="$bin" # the tests use the binary that ships
fi

step "npm test (build, unit, activation, integration)"
timeout 300 npm test

step "vsce package --target linux-x64"
rm -f ./*.vsix
timeout 300 npx --no vsce package --no-dependencies --target linux-x64 --out scalelint-linux-x64.vsix

step "check the .vsix"
node scripts/check-vsix.mjs scalelint-linux-x64.vsix --target linux-x64 --binary "$bin"

echo "vscode-extension: ok in $((SECONDS - start))s"
