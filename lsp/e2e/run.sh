#!/usr/bin/env bash
# End-to-end tests of `scalelint lsp` through real clients:
#   - a Node client on vscode-languageserver-protocol (the protocol layer of
#     VS Code's client): client.test.js, run by node --test;
#   - headless Neovim 0.7 (Debian's package) and its built-in client,
#     configured by the README's snippet lsp/editors/nvim/lsp/scalelint.lua:
#     nvim.lua;
#   - Emacs 28 in batch mode with eglot 1.9 (Debian's emacs-nox and
#     elpa-eglot), configured by lsp/editors/emacs/scalelint.el: emacs.el;
#   - the snippets for editors not run here (Helix, JetBrains through
#     LSP4IJ): parsed, and their commands started: editors.test.js.
# Each client opens the fixture (../testdata/workspace), waits for the
# expected diagnostic, asks for a hover and the code action, applies it and
# sees the diagnostic go away. The clients find `scalelint` on PATH, as the
# snippets expect. Installs what it needs when missing (Debian's neovim,
# emacs-nox, elpa-eglot, node and npm through .ci/need: as root with
# apt-get, else it says what to install and fails; the npm packages with npm
# ci), builds the binary, runs every client under a timeout and exits
# non-zero on any failure.
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
editors="$root/lsp/editors"

"$root/.ci/need" nvim neovim
"$root/.ci/need" emacs emacs-nox
if ! emacs --batch --eval '(require (quote eglot))' >/dev/null 2>&1; then
  # A library, not a command: the package's doc directory stands for it.
  "$root/.ci/need" /usr/share/doc/elpa-eglot elpa-eglot
fi
"$root/.ci/need" node nodejs
"$root/.ci/need" npm npm
if [ ! -d "$here/node_modules/vscode-languageserver-protocol" ] || [ ! -d "$here/node_modules/smol-toml" ]; then
  echo "e2e: npm ci"
  (cd "$here" && timeout 300 npm ci --no-audit --no-fund --loglevel=error)
fi

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$tmp/bin"
# Built as the release builds it (.goreleaser.yaml), which also lets the
# release snapshot and the VS Code packages reuse the compiled packages.
(cd "$root" && CGO_ENABLED=0 go build -tags kustomize_disable_go_plugin_support -trimpath -o "$tmp/bin/scalelint" ./cmd/scalelint)
export SCALELINT_BIN="$tmp/bin/scalelint"
export PATH="$tmp/bin:$PATH"

passed=0
failed=0
result() {
  if [ "$2" -eq 0 ]; then
    passed=$((passed + 1))
  else
    echo "e2e: $1 failed (exit $2)" >&2
    failed=$((failed + 1))
  fi
}
# fixture NAME: a fresh copy of the fixture for one client; a .scalelint.yaml
# beside it is the root marker the snippets look for.
fixture() {
  mkdir -p "$tmp/$1"
  cp "$here/../testdata/workspace/"* "$tmp/$1/"
  printf '# the workspace root (a root marker for the editors)\nrules: {}\n' >"$tmp/$1/.scalelint.yaml"
  echo "$tmp/$1"
}

echo "e2e: node client (vscode-languageserver-protocol) and the editors' snippets"
set +e
(cd "$here" && timeout 120 node --test client.test.js editors.test.js)
result "node" $?
set -e

echo "e2e: neovim $(nvim --version | head -1)"
dir=$(fixture nvim)
mkdir -p "$tmp/xdg/cache" "$tmp/xdg/state" "$tmp/xdg/data" "$tmp/xdg/config"
set +e
SNIPPET="$editors/nvim/lsp/scalelint.lua" FIXTURE_DIR="$dir" \
  XDG_CACHE_HOME="$tmp/xdg/cache" XDG_STATE_HOME="$tmp/xdg/state" \
  XDG_DATA_HOME="$tmp/xdg/data" XDG_CONFIG_HOME="$tmp/xdg/config" \
  timeout 90 nvim --headless --clean -c "luafile $here/nvim.lua" -c 'cquit 3' </dev/null >"$tmp/nvim.out" 2>"$tmp/nvim.err"
code=$?
set -e
cat "$tmp/nvim.out"
if [ "$code" -eq 0 ] && ! grep -q '^PASS$' "$tmp/nvim.out"; then
  code=4
fi
[ "$code" -eq 0 ] || cat "$tmp/nvim.err" >&2
result neovim "$code"

echo "e2e: $(emacs --version | head -1), $(emacs --batch --eval '(princ (file-name-nondirectory (directory-file-name (file-name-directory (locate-library "eglot")))))' 2>/dev/null)"
dir=$(fixture emacs)
t0=$SECONDS
set +e
SNIPPET="$editors/emacs/scalelint.el" FIXTURE_DIR="$dir" HOME="$tmp/emacs-home" \
  timeout 90 emacs --batch -l "$here/emacs.el" </dev/null >"$tmp/emacs.out" 2>"$tmp/emacs.err"
code=$?
set -e
cat "$tmp/emacs.out"
if [ "$code" -eq 0 ] && ! grep -q '^PASS$' "$tmp/emacs.out"; then
  code=4
fi
[ "$code" -eq 0 ] || cat "$tmp/emacs.err" >&2
echo "e2e: emacs took $((SECONDS - t0))s"
result emacs "$code"

echo "e2e: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
