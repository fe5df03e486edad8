#!/usr/bin/env bash
# Renders the audit report of testdata/audit/repo and checks it in Debian's
# headless Chromium (test.mjs): no console error, no network, the table
# sorts and filters, the cards draw their pictures. Installs what it needs
# when missing: Debian's chromium, node and npm (.ci/need: as root with
# apt-get, else it says what to install and fails), and playwright-core
# from package-lock.json (npm ci; no browser download).
#
#   testdata/audit/browser/run.sh                     check; screenshot in a temp dir
#   UPDATE_SCREENSHOT=1 testdata/audit/browser/run.sh also rewrite testdata/audit/report.png
set -euo pipefail

here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../../.." && pwd)"
export CHROMIUM="${CHROMIUM:-/usr/bin/chromium}"

"$root/.ci/need" "$CHROMIUM" chromium
"$root/.ci/need" node nodejs
"$root/.ci/need" npm npm
if [ ! -f "$here/node_modules/playwright-core/package.json" ]; then
	(cd "$here" && npm ci --no-audit --no-fund --loglevel=error)
fi

tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
(cd "$root" && go build -tags kustomize_disable_go_plugin_support -o "$tmp/scalelint" ./cmd/scalelint)
# Rendered from testdata/audit so the report names files repo/....
(cd "$root/testdata/audit" && "$tmp/scalelint" audit --format html --output "$tmp/report.html" --quiet repo)

shot="$tmp/report.png"
if [ "${UPDATE_SCREENSHOT:-}" = "1" ]; then
	shot="$root/testdata/audit/report.png"
fi
timeout 110 node "$here/test.mjs" "$tmp/report.html" "$shot"
if [ "${UPDATE_SCREENSHOT:-}" = "1" ]; then
	echo "run.sh: wrote $shot"
fi
