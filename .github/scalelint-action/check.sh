#!/usr/bin/env bash
# Runs scalelint for the GitHub Action (action.yml, step "check"): `scalelint
# check` over the paths with the action's inputs, then `scalelint audit
# --format markdown` into the job summary.
#
# Inputs (environment): SCALELINT (the binary; default scalelint on PATH),
# INPUT_PATHS (one path a line, or on one line separated by spaces; default
# .), INPUT_CONFIG, INPUT_FAIL_ON (error, warning, info, none),
# INPUT_BASELINE, INPUT_FORMATS (comma- or space-separated: github, text,
# json, sarif), INPUT_UPLOAD_SARIF (true adds sarif), INPUT_SUMMARY (false
# leaves the job summary alone).
#
# sarif and json go to files under $RUNNER_TEMP/scalelint/, github and text
# to the log (text through a file when both are asked). Step outputs:
# exit-code (0: nothing at or above fail-on, 1: findings that fail),
# sarif-file and json-file when written. Findings do not fail this step, so
# the SARIF upload after it still runs; the action's last step fails the job
# on exit-code 1. A usage, configuration or I/O error (scalelint's exit 2)
# fails this step at once.
set -euo pipefail

fail() {
  echo "::error title=scalelint::$*"
  exit 2
}

: "${RUNNER_TEMP:?RUNNER_TEMP is not set (this script runs inside GitHub Actions)}"
: "${GITHUB_OUTPUT:?GITHUB_OUTPUT is not set}"
bin=${SCALELINT:-scalelint}
out="$RUNNER_TEMP/scalelint"
mkdir -p "$out"

paths=()
raw=${INPUT_PATHS:-.}
if [[ "$raw" == *$'\n'* ]]; then
  while IFS= read -r p; do
    p=${p%$'\r'}
    [ -n "${p//[[:space:]]/}" ] && paths+=("$p")
  done <<<"$raw"
else
  read -r -a paths <<<"$raw"
fi
[ "${#paths[@]}" -gt 0 ] || paths=(.)

common=()
if [ -n "${INPUT_CONFIG:-}" ]; then
  common+=(--config "$INPUT_CONFIG")
fi

formats=()
IFS=', ' read -r -a formats <<<"${INPUT_FORMATS:-github}"
if [ "${INPUT_UPLOAD_SARIF:-false}" = true ] && [[ " ${formats[*]-} " != *" sarif "* ]]; then
  formats+=(sarif)
fi
# --format/--output pairs: scalelint pairs the n-th --output with the n-th
# --format, so the formats written to files come first and the one written
# to the log last.
to_file=()
names=()
log=""
text_file=""
for f in ${formats[@]+"${formats[@]}"}; do
  case "$f" in
    "") ;;
    sarif | json)
      to_file+=("$f")
      names+=("$out/scalelint.$f")
      ;;
    github | text)
      if [ -z "$log" ] || [ "$log" = "$f" ]; then
        log=$f
      else
        # Both: the annotations go to the log, the text through a file.
        text_file="$out/scalelint.txt"
        to_file+=(text)
        names+=("$text_file")
        log=github
      fi
      ;;
    *) fail "unknown format '$f' in the formats input (github, text, json, sarif)" ;;
  esac
done
args=(check ${common[@]+"${common[@]}"} --fail-on "${INPUT_FAIL_ON:-error}")
if [ -n "${INPUT_BASELINE:-}" ]; then
  args+=(--baseline "$INPUT_BASELINE")
fi
for f in ${to_file[@]+"${to_file[@]}"}; do
  args+=(--format "$f")
done
if [ -n "$log" ]; then
  args+=(--format "$log")
fi
for n in ${names[@]+"${names[@]}"}; do
  args+=(--output "$n")
done

echo "scalelint check: $bin ${args[*]} -- ${paths[*]}"
set +e
"$bin" "${args[@]}" -- "${paths[@]}" 2>"$out/check.stderr"
code=$?
set -e
cat "$out/check.stderr" >&2
if [ -n "$text_file" ] && [ -f "$text_file" ]; then
  cat "$text_file"
fi

echo "exit-code=$code" >>"$GITHUB_OUTPUT"
for n in ${names[@]+"${names[@]}"}; do
  case "$n" in
    *.sarif) [ -f "$n" ] && echo "sarif-file=$n" >>"$GITHUB_OUTPUT" ;;
    *.json) [ -f "$n" ] && echo "json-file=$n" >>"$GITHUB_OUTPUT" ;;
  esac
done
if [ "$code" -ne 0 ] && [ "$code" -ne 1 ]; then
  fail "scalelint check exited $code: $(tail -1 "$out/check.stderr")"
fi

if [ "${INPUT_SUMMARY:-true}" != false ] && [ -n "${GITHUB_STEP_SUMMARY:-}" ]; then
  {
    echo "## scalelint"
    echo
    if [ "$code" -eq 0 ]; then
      echo "**check passed** (nothing at or above ${INPUT_FAIL_ON:-error})."
    else
      echo "**check failed**: findings at or above ${INPUT_FAIL_ON:-error}."
    fi
    echo
    # The check's summary lines (counts, laws left unevaluated).
    sed 's/^/> /' "$out/check.stderr"
    echo
  } >>"$GITHUB_STEP_SUMMARY"
  set +e
  "$bin" audit ${common[@]+"${common[@]}"} --format markdown --quiet -- "${paths[@]}" >>"$GITHUB_STEP_SUMMARY" 2>"$out/audit.stderr"
  audit=$?
  set -e
  if [ "$audit" -ne 0 ]; then
    echo "::warning title=scalelint audit::the job summary has no audit table: scalelint audit exited $audit: $(tail -1 "$out/audit.stderr")"
  fi
fi
