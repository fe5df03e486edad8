#!/usr/bin/env bash
# End-to-end tests of `scalelint lsp` through real clients:
#   - a Node client on vscode-languageserver-protocol (the protocol layer of
#     VS Code's client): client.test.js, run by node --test;
#   - headless Neovim 0.7 (Debian's package) and its built-in client: nvim.lua.
# Each opens the fixture (../testdata/workspace), waits for the expected
# diagnostic, asks for a hover and the code action, applies it and sees the
# diagnostic go away. Installs what it needs when missing (Debian's neovim,
# node and npm through .ci/need: as root with apt-get, else it says what to
# install and fails; the npm packages with npm ci), builds the binary, runs
# both under timeouts and exits non-zero on any failure.
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)

"$root/.ci/need" nvim neovim
"$root/.ci/need" node nodejs
"$root/.ci/need" npm npm
if [ ! -d "$here/node_modules/vscode-languageserver-protocol" ]; then
  echo "e2e: npm ci"
  (cd "$here" && timeout 300 npm ci --no-audit --no-fund --loglevel=error)
fi

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
(cd "$root" && go build -tags kustomize_disable_go_plugin_support -o "$tmp/scalelint" ./cmd/scalelint)
export SCALELINT_BIN="$tmp/scalelint"

passed=0
failed=0

echo "e2e: node client (vscode-languageserver-protocol)"
if (cd "$here" && timeout 120 node --test client.test.js); then
  passed=$((passed + 1))
else
  failed=$((failed + 1))
fi

echo "e2e: neovim $(nvim --version | head -1)"
mkdir -p "$tmp/fixture" "$tmp/xdg/cache" "$tmp/xdg/state" "$tmp/xdg/data" "$tmp/xdg/config"
cp "$here/../testdata/workspace/"* "$tmp/fixture/"
set +e
FIXTURE_DIR="$tmp/fixture" XDG_CACHE_HOME="$tmp/xdg/cache" XDG_STATE_HOME="$tmp/xdg/state" \
  XDG_DATA_HOME="$tmp/xdg/data" XDG_CONFIG_HOME="$tmp/xdg/config" \
  timeout 90 nvim --headless --clean -c "luafile $here/nvim.lua" -c 'cquit 3' </dev/null >"$tmp/nvim.out" 2>"$tmp/nvim.err"
code=$?
set -e
cat "$tmp/nvim.out"
if [ "$code" -eq 0 ] && grep -q '^PASS$' "$tmp/nvim.out"; then
  passed=$((passed + 1))
else
  echo "e2e: neovim failed (exit $code)" >&2
  cat "$tmp/nvim.err" >&2
  failed=$((failed + 1))
fi

echo "e2e: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
