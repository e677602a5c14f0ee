#!/usr/bin/env bash
# pimdse map --intra-node exact: the exact node model (objective latency) never costs a layer
# more cycles than the analytic one on the same mapping, and evaluate --intra-node exact of
# the mapping it writes prints the same numbers. A bad --intra-node value is a usage error.
# Usage: intra_node_exact.sh PIMDSE HARDWARE NETWORK WORKDIR
set -euo pipefail
pimdse=$1 hw=$2 net=$3 dir=$4
rm -rf "$dir" && mkdir -p "$dir"
"$pimdse" map --hardware "$hw" --network "$net" --intra-node exact -o "$dir/m.yaml" --layers "$dir/exact.csv" \
    > /dev/null
"$pimdse" evaluate --hardware "$hw" --network "$net" --mapping "$dir/m.yaml" --intra-node analytic \
    --layers "$dir/analytic.csv" > /dev/null
"$pimdse" evaluate --hardware "$hw" --network "$net" --mapping "$dir/m.yaml" --intra-node exact \
    --layers "$dir/again.csv" > /dev/null
set +e
"$pimdse" map --hardware "$hw" --network "$net" --intra-node fastest > "$dir/bad.txt" 2>&1
code=$?
set -e
[[ $code == 2 ]] || { echo "--intra-node fastest: exit $code, not 2" >&2; exit 1; }
grep -q "expected analytic or exact, got 'fastest'" "$dir/bad.txt" || { cat "$dir/bad.txt" >&2; exit 1; }
/usr/bin/python3 - "$dir" <<'PY'
import csv, sys
d = sys.argv[1]
exact = list(csv.DictReader(open(f"{d}/exact.csv")))
analytic = list(csv.DictReader(open(f"{d}/analytic.csv")))
again = list(csv.DictReader(open(f"{d}/again.csv")))
assert len(exact) == len(analytic) == len(again) > 0
lower = 0
for e, a, g in zip(exact, analytic, again):
    assert e["layer"] == a["layer"] == g["layer"]
    assert e == g, (e, g)
    le, la = float(e["latency_cycles"]), float(a["latency_cycles"])
    assert le <= la, (e["layer"], le, la)
    lower += le < la
print(f"exact node model: {len(exact)} layers, none slower than analytic, {lower} faster")
PY
