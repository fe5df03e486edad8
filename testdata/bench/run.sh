#!/usr/bin/env bash
# Measures scalelint against the yaml.v3 parse baseline, side by side, on
# generated repositories (../shared/bench: the deterministic corpus
# generator and the baseline program), and prints wall time, CPU time and
# peak RSS with their ratios.
#
#   testdata/bench/run.sh [SERVICES...]      default: 1000 10000 30000
#   RUNS=5 testdata/bench/run.sh 10000       median of 5 runs
#
# Needs python3 and GNU time (/usr/bin/time; Debian package "time").
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
shared=${SHARED:-$root/../shared}
work=${WORK:-/tmp/scalelint-bench}
runs=${RUNS:-3}
sizes=("$@")
[ ${#sizes[@]} -gt 0 ] || sizes=(1000 10000 30000)
mkdir -p "$work"
command -v /usr/bin/time >/dev/null || { echo "needs /usr/bin/time (apt-get install -y time)"; exit 2; }

(cd "$root" && go build -o "$work/scalelint" ./cmd/scalelint)
(cd "$shared/bench/baseline" && go build -o "$work/baseline" .)

# measure CMD...: prints "wall user sys maxrss_kb" of the median run (by wall)
measure() {
  local i line
  for i in $(seq "$runs"); do
    /usr/bin/time -f "%e %U %S %M" -o "$work/time.txt" "$@" >/dev/null 2>&1 || true
    cat "$work/time.txt"
  done | sort -n | awk -v n="$runs" 'NR == int((n+1)/2)'
}

printf '%-9s %-10s %9s %9s %9s %10s\n' services program wall_s cpu_s rss_MiB ratio_wall
for n in "${sizes[@]}"; do
  corpus="$work/corpus-$n"
  [ -d "$corpus" ] || python3 "$shared/bench/gen_corpus.py" "$corpus" "$n" >/dev/null
  read -r bw bu bs bm < <(measure "$work/baseline" -mode yamlv3 "$corpus")
  read -r sw su ss sm < <(measure "$work/scalelint" check --format json --quiet "$corpus")
  awk -v n="$n" -v bw="$bw" -v bu="$bu" -v bs="$bs" -v bm="$bm" -v sw="$sw" -v su="$su" -v ss="$ss" -v sm="$sm" 'BEGIN {
    printf "%-9s %-10s %9.2f %9.2f %9.1f %10s\n", n, "baseline", bw, bu+bs, bm/1024, "1.00"
    printf "%-9s %-10s %9.2f %9.2f %9.1f %10.2f\n", n, "scalelint", sw, su+ss, sm/1024, sw/bw
    printf "%-9s %-10s %9s %9.2f %9.2f\n", n, "ratio", "", (su+ss)/(bu+bs), sm/bm
  }'
done
