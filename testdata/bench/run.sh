#!/usr/bin/env bash
# Measures scalelint against the yaml.v3 parse baseline, side by side, on
# generated repositories (gen_corpus.py, the deterministic corpus generator,
# and baseline/, a program that only reads and decodes the same files with
# yaml.v3: the floor a linter's front end is measured against), and prints
# wall time, CPU time and peak RSS with their ratios.
#
#   testdata/bench/run.sh [SERVICES...]      default: 1000 10000 30000
#   RUNS=5 testdata/bench/run.sh 10000       median of 5 runs
#   BEFORE=8e624df testdata/bench/run.sh     also measure that revision
#
# The programs run interleaved (baseline, scalelint, before, baseline,
# ...), so drift in the machine's speed hits them alike; each row is the
# median run by wall time. "per 1k" is wall seconds per 1,000 services:
# equal figures across sizes mean linear cost.
#
# Needs python3 and GNU time (/usr/bin/time; Debian package "time").
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
work=${WORK:-/tmp/scalelint-bench}
runs=${RUNS:-3}
sizes=("$@")
[ ${#sizes[@]} -gt 0 ] || sizes=(1000 10000 30000)
mkdir -p "$work"
command -v /usr/bin/time >/dev/null || { echo "needs /usr/bin/time (apt-get install -y time)"; exit 2; }

(cd "$root" && go build -tags kustomize_disable_go_plugin_support -o "$work/scalelint" ./cmd/scalelint)
(cd "$root/testdata/bench/baseline" && go build -o "$work/baseline" .)
# The start-up floor of the dependencies the design fixes (depfloor/).
(cd "$root" && go build -o "$work/depfloor" ./testdata/bench/depfloor)
programs=(baseline scalelint)
if [ -n "${BEFORE:-}" ]; then
  rm -rf "$work/before-src"
  git -C "$root" worktree add -f --detach "$work/before-src" "$BEFORE" >/dev/null 2>&1
  (cd "$work/before-src" && go build -tags kustomize_disable_go_plugin_support -o "$work/before" ./cmd/scalelint)
  git -C "$root" worktree remove --force "$work/before-src"
  programs+=(before)
fi

# grep reads the whole help (no -q): under pipefail, grep -q quitting at
# its match can fail the pipeline with the writer's SIGPIPE, which once
# dropped a size's phase table.
has_stats() { "$work/$1" check -h 2>&1 | grep -- '-stats' >/dev/null; }

command_of() { # PROGRAM CORPUS: sets cmd to the command line to time
  case $1 in
  baseline) cmd=("$work/baseline" -mode yamlv3 "$2") ;;
  *) cmd=("$work/$1" check --format json --quiet "$2") ;;
  esac
}

printf '%-9s %-10s %9s %9s %9s %10s %9s %8s\n' services program wall_s cpu_s rss_MiB ratio_wall ratio_cpu per_1k_s
for n in "${sizes[@]}"; do
  corpus="$work/corpus-$n"
  [ -d "$corpus" ] || python3 "$root/testdata/bench/gen_corpus.py" "$corpus" "$n" >/dev/null
  for i in $(seq "$runs"); do
    for p in "${programs[@]}"; do
      command_of "$p" "$corpus"
      /usr/bin/time -f "%e %U %S %M" -o "$work/time.txt" "${cmd[@]}" >/dev/null 2>&1 || true
      echo "$p $(tail -n 1 "$work/time.txt")" # time notes a non-zero exit (findings) on a line of its own
    done
  done >"$work/runs-$n.txt"
  for p in "${programs[@]}"; do
    grep "^$p " "$work/runs-$n.txt" | sort -k2 -n | awk -v n="$runs" 'NR == int((n+1)/2)'
  done | awk -v n="$n" '
    { w[$1]=$2; c[$1]=$3+$4; m[$1]=$5; order[NR]=$1 }
    END {
      for (i = 1; i <= NR; i++) { p = order[i]
        printf "%-9s %-10s %9.2f %9.2f %9.1f %10.2f %9.2f %8.3f\n", n, p, w[p], c[p], m[p]/1024, w[p]/w["baseline"], c[p]/c["baseline"], w[p]*1000/n
      }
    }'
done

# The phase table of one run per size and program (--stats; a revision
# before it has none).
for n in "${sizes[@]}"; do
  for p in "${programs[@]}"; do
    [ "$p" = baseline ] && continue
    has_stats "$p" || continue
    echo
    echo "phases: $p, $n services"
    "$work/$p" check --format json --quiet --stats "$work/corpus-$n" 2>&1 >/dev/null | grep -v '^scalelint:' || true
  done
done

# Start-up: `version`, and `check` of one small file.
starts=${STARTS:-21}
small="$work/small.yaml"
cat >"$small" <<'YAML'
apiVersion: autoscaling/v2
kind: HorizontalPodAutoscaler
metadata: {name: web}
spec:
  scaleTargetRef: {apiVersion: apps/v1, kind: Deployment, name: web}
  minReplicas: 2
  maxReplicas: 10
  metrics:
  - type: Resource
    resource: {name: cpu, target: {type: Utilization, averageUtilization: 60}}
YAML
echo
# depfloor is a program that only links KEDA's types and Helm's engine:
# what any command of scalelint starts from (testdata/bench/depfloor),
# collecting as its packages initialise, which scalelint does not
# (cmd/scalelint/internal/initgc).
printf '%-10s %-12s %9s %9s %9s\n' program command wall_ms max_ms rss_MiB
for p in depfloor "${programs[@]}"; do
  [ "$p" = baseline ] && continue
  for what in version check; do
    case $p/$what in
    depfloor/version) cmd=("$work/depfloor") ;;
    depfloor/check) continue ;;
    */version) cmd=("$work/$p" version) ;;
    */check) cmd=("$work/$p" check --quiet "$small") ;;
    esac
    label=$what
    [ "$p" = depfloor ] && label="(nothing)"
    # Wall time from the shell's clock (GNU time's is in hundredths),
    # peak RSS from GNU time, in separate runs.
    for i in $(seq "$starts"); do
      t0=$(date +%s%N)
      "${cmd[@]}" >/dev/null 2>&1 || true
      t1=$(date +%s%N)
      /usr/bin/time -f "%M" -o "$work/time.txt" "${cmd[@]}" >/dev/null 2>&1 || true
      echo "$(( (t1 - t0) / 1000 )) $(tail -n 1 "$work/time.txt")"
    done | sort -n | awk -v p="$p" -v w="$label" -v n="$starts" '
      { t[NR]=$1; if ($2 > m) m=$2 }
      END { printf "%-10s %-12s %9.1f %9.1f %9.1f\n", p, w, t[int((n+1)/2)]/1000, t[NR]/1000, m/1024 }'
  done
done
# What a process holds once started, split: anonymous memory (heap,
# stacks, runtime) is the program's own; file-backed pages are clean
# pages of the executable, shared with the page cache, and how many a
# start maps depends on the size of the page cache's folios for the file
# (the same code measured 38 and 47 MiB in all from one build to the
# next). Read from /proc of a language server waiting for initialize.
echo
printf '%-10s %-12s %9s %9s %9s\n' program resident rss_MiB anon_MiB file_MiB
for p in "${programs[@]}"; do
  [ "$p" = baseline ] && continue
  "$work/$p" lsp < <(sleep 2) >/dev/null 2>&1 &
  pid=$!
  sleep 0.5
  awk -v p="$p" '/^VmRSS/ { r=$2 } /^RssAnon/ { a=$2 } /^RssFile/ { f=$2 }
    END { printf "%-10s %-12s %9.1f %9.1f %9.1f\n", p, "at start", r/1024, a/1024, f/1024 }' "/proc/$pid/status" || true
  wait "$pid" || true
done
for p in "${programs[@]}"; do
  [ "$p" = baseline ] && continue
  echo
  echo "costliest package initialisations of $p (GODEBUG=inittrace=1, one run of version):"
  GODEBUG=inittrace=1 "$work/$p" version 2>"$work/inittrace.txt" >/dev/null || true
  grep '^init' "$work/inittrace.txt" | sort -k5 -n -r | head -n 8 || true # head closes the pipe early
  awk '/^init/ { t+=$5; b+=$8; n++ } END { printf "total: %d packages, %.1f ms, %.1f MiB allocated\n", n, t, b/1048576 }' "$work/inittrace.txt"
done
echo
echo "of which the fixed dependencies alone (depfloor):"
GODEBUG=inittrace=1 "$work/depfloor" 2>"$work/inittrace.txt" >/dev/null || true
awk '/^init/ { t+=$5; b+=$8; n++ } END { printf "total: %d packages, %.1f ms, %.1f MiB allocated\n", n, t, b/1048576 }' "$work/inittrace.txt"

# The language server, through a separate client (lspbench/).
if [ -n "${LSP:-}" ]; then
  (cd "$root/testdata/bench/lspbench" && go build -o "$work/lspbench" .)
  for n in "${sizes[@]}"; do
    for p in "${programs[@]}"; do
      [ "$p" = baseline ] && continue
      echo
      echo "lsp: $p, $n services"
      "$work/lspbench" -server "$work/$p" -dir "$work/corpus-$n" -edits "${LSP_EDITS_TIMED:-100}" -rss-edits "${LSP_EDITS:-1000}" || echo "lspbench failed"
    done
  done
fi
