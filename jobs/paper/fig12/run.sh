#!/usr/bin/env bash
# NicePIM Fig. 12 (section VIII-E): the latency of one data-sharing event scheduled by the
# ILP (the Data-Scheduler, Eq. 2-4), TSP and SHP on 4x4, 8x8 and 16x16 node arrays. Sharing
# sets of 16 nodes placed interleaved (one set on 4x4; four on 8x8 with members 2 apart;
# sixteen on 16x16 with members 4 apart), 8 KiB per node, 64-bit flits.
#
# usage: jobs/paper/fig12/run.sh [OUT_DIR]        (default: out/paper/fig12)
# writes OUT_DIR/fig12.csv (one row per array and scheduler, `pimdse schedule --csv`), then
# runs postprocess/fig12.py: OUT_DIR/fig12.png (normalised latency bars) and
# OUT_DIR/fig12.md (the table). Environment: PIMDSE (the executable), TIME_LIMIT (ILP
# seconds per event, default 10; every instance is proven optimal in well under one).
set -euo pipefail
root=$(cd "$(dirname "$0")/../../.." && pwd)
pimdse=${PIMDSE:-$root/build/src/cli/pimdse}
out=${1:-$root/out/paper/fig12}
if [[ ! -x $pimdse ]]; then
  echo "fig12: $pimdse not found; build first: cmake --preset release && cmake --build --preset release" >&2
  exit 2
fi
mkdir -p "$out"
csv=$out/fig12.csv
tmp=$(mktemp)
trap 'rm -f "$tmp"' EXIT

"$pimdse" --version
header=1
for side in 4 8 16; do
  "$pimdse" schedule --mesh "${side}x${side}" --sets interleaved:16 --bytes 8KiB --flit-bits 64 \
    --hop-cycles 2 --time-limit "${TIME_LIMIT:-10}" --schedulers ilp,tsp,shp --csv > "$tmp"
  if ((header)); then cat "$tmp"; header=0; else tail -n +2 "$tmp"; fi
done > "$csv"
echo "wrote $csv"
/usr/bin/python3 "$root/postprocess/fig12.py" "$csv" --out "$out"
