#!/usr/bin/env bash
# pimdse evaluate --crossbar --layers writes the per-layer table that its text report prints:
# one row per weighted layer, energy parts that add up to each layer's energy, layers that
# add up to the summary's energy parts, tiles and area, the CSV and the JSON agreeing, each
# stage at least its NoC time, and under the sequential schedule the layers' stages (compute
# or NoC, the longer) adding up to the network's latency.
# Usage: crossbar_layer_table.sh PIMDSE DESIGN NETWORK WORKDIR
set -euo pipefail
pimdse=$1 design=$2 net=$3 dir=$4
rm -rf "$dir" && mkdir -p "$dir"
"$pimdse" evaluate --crossbar "$design" --network "$net" --layers "$dir/layers.csv" > /dev/null
"$pimdse" evaluate --crossbar "$design" --network "$net" --layers "$dir/layers.json" > "$dir/report.txt"
# The same design scheduled layer after layer.
sed -e 's/^\( *schedule:\).*/\1 sequential/' "$design" > "$dir/sequential.yaml"
grep -q 'schedule: sequential' "$dir/sequential.yaml" || { echo "no schedule key in $design" >&2; exit 1; }
"$pimdse" evaluate --crossbar "$dir/sequential.yaml" --network "$net" --layers "$dir/sequential.json" > /dev/null
/usr/bin/python3 - "$dir" <<'PY'
import csv, json, math, sys
d = sys.argv[1]
rows = list(csv.DictReader(open(f"{d}/layers.csv")))
doc = json.load(open(f"{d}/layers.json"))
seq = json.load(open(f"{d}/sequential.json"))
layers = doc["layers"]
def close(a, b):
    return math.isclose(a, b, rel_tol=1e-9, abs_tol=1e-9)
assert len(rows) == len(layers) > 0, (len(rows), len(layers))
parts = ["energy_crossbar_pj", "energy_adc_pj", "energy_dac_pj", "energy_shift_add_pj", "energy_buffer_pj",
         "energy_noc_pj"]
for i, (r, j) in enumerate(zip(rows, layers)):
    for key, value in j.items():
        if isinstance(value, str):
            assert r[key] == value, (i, key, r[key], value)
        else:
            assert close(float(r[key]), value), (i, key, r[key], value)
    assert close(sum(j[p] for p in parts), j["energy_pj"]), (i, j)
    assert j["adc_deficit"] == max(0, j["adc_bits_needed"] - j["adc_bits"]), j
    assert j["energy_pj"] > 0 and j["crossbars"] >= 1 and j["tiles"] >= 1, j
s = doc["summary"]
for p in parts + ["energy_pj", "area_mm2"]:
    assert close(sum(j[p] for j in layers), s[p]), (p, sum(j[p] for j in layers), s[p])
assert close(sum(s[k] for k in s if k.startswith("area_") and k != "area_mm2"), s["area_mm2"]), s
assert sum(j["tiles"] * j["replicas"] for j in layers) == s["tiles"], s
# Pipelined: the slowest stage bounds the network from below, the stages' sum from above.
stages = [j["stage_ns"] for j in layers]
assert max(stages) <= s["latency_ns"] <= sum(stages) + 1e-6, (max(stages), s["latency_ns"], sum(stages))
# A stage lasts its compute or its NoC traffic, whichever is longer.
for j in layers:
    assert j["stage_ns"] >= j["noc_ns"] and j["energy_noc_pj"] >= 0, j
assert s["mesh_rows"] * s["mesh_cols"] >= s["tiles"] > (s["mesh_rows"] - 1) * s["mesh_cols"], s
# Sequential: the layers' stages one after the other, the same energy.
q = seq["summary"]
assert q["schedule"] == "sequential" and s["schedule"] == "pipelined", (q["schedule"], s["schedule"])
assert close(sum(j["stage_ns"] for j in seq["layers"]), q["latency_ns"]), q
assert all(j["stage_ns"] == max(j["latency_ns"], j["noc_ns"]) for j in seq["layers"]), seq["layers"]
assert close(q["energy_pj"], s["energy_pj"]), (q["energy_pj"], s["energy_pj"])
# The text report's summary energy (uJ, 4 decimals) and area (mm2, 4 decimals) are the document's.
text = open(f"{d}/report.txt").read()
uj = float(text.split("  energy       ")[1].split(" uJ")[0])
mm2 = float(text.split("  area         ")[1].split(" mm2")[0])
assert abs(uj - s["energy_pj"] * 1e-6) <= 1e-4, (uj, s["energy_pj"])
assert abs(mm2 - s["area_mm2"]) <= 1e-4, (mm2, s["area_mm2"])
print(f"crossbar layer table ok: {len(rows)} layers, {s['energy_pj']:.6g} pJ, {s['area_mm2']:.6g} mm2")
PY
