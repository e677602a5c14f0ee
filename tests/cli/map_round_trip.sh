#!/usr/bin/env bash
# pimdse map writes a mapping that pimdse evaluate reads back to the same latency and
# energy. Usage: map_round_trip.sh PIMDSE HARDWARE NETWORK WORKDIR
set -euo pipefail
pimdse=$1 hw=$2 net=$3 dir=$4
mkdir -p "$dir"
out=$dir/$(basename "$net" .yaml).mapping.yaml
"$pimdse" map --hardware "$hw" --network "$net" -o "$out" > "$dir/map.txt"
"$pimdse" evaluate --hardware "$hw" --network "$net" --mapping "$out" > "$dir/evaluate.txt"
summary() { grep -E '^  (latency|energy|status) ' "$1"; }
if ! diff <(summary "$dir/map.txt") <(summary "$dir/evaluate.txt"); then
    echo "map_round_trip: evaluate of the written mapping differs from map's report" >&2
    exit 1
fi
[[ $(summary "$dir/map.txt" | wc -l) -eq 3 ]] || { echo "map_round_trip: summary lines missing" >&2; exit 1; }
echo "round trip ok: $(summary "$dir/map.txt" | head -1)"
