#!/usr/bin/env bash
# pimdse map --layers and pimdse evaluate --layers write the per-layer table that the text
# report prints: one row per layer, energy parts that add up to each layer's energy, layer
# parts that add up to the summary's (the DRAM background is the network's alone), the CSV
# and the JSON agreeing, and evaluate of the written mapping giving the same rows.
# Usage: layer_table.sh PIMDSE HARDWARE NETWORK WORKDIR
set -euo pipefail
pimdse=$1 hw=$2 net=$3 dir=$4
rm -rf "$dir" && mkdir -p "$dir"
"$pimdse" map --hardware "$hw" --network "$net" -o "$dir/m.yaml" --layers "$dir/map.csv" > /dev/null
"$pimdse" evaluate --hardware "$hw" --network "$net" --mapping "$dir/m.yaml" --layers "$dir/eval.json" \
    > "$dir/eval.txt"
/usr/bin/python3 - "$dir" "$net" <<'PY'
import csv, json, math, sys
d, net = sys.argv[1], sys.argv[2]
rows = list(csv.DictReader(open(f"{d}/map.csv")))
doc = json.load(open(f"{d}/eval.json"))
layers = doc["layers"]
def close(a, b):
    return math.isclose(a, b, rel_tol=1e-9, abs_tol=1e-6)
assert len(rows) == len(layers) > 0, (len(rows), len(layers))
parts = ["energy_pe_pj", "energy_register_pj", "energy_sram_pj", "energy_dram_access_pj",
         "energy_dram_activation_pj", "energy_noc_pj"]
for i, (r, j) in enumerate(zip(rows, layers)):
    assert int(r["index"]) == j["index"] == i
    assert r["layer"] == j["layer"] and r["kind"] == j["kind"] and r["partitions"] == j["partitions"]
    for key, value in j.items():
        if isinstance(value, str):
            assert r[key] == value, (i, key, r[key], value)
        else:
            assert close(float(r[key]), value), (i, key, r[key], value)
    assert close(sum(j[p] for p in parts), j["energy_pj"]), (i, j)
    bufs = ["energy_sram_ibuf_pj", "energy_sram_wbuf_pj", "energy_sram_obuf_pj"]
    assert close(sum(j[p] for p in bufs), j["energy_sram_pj"]), (i, j)
    tiled = j["loop_order"] != "none"
    assert (j["tile_k"] > 0 and j["tile_nodes"] > 0) == tiled, (i, j)
    assert j["ibuf_reads"] > 0 and j["dram_reads"] > 0, (i, j)
    assert j["compute_cycles"] <= j["latency_cycles"] + 1e-9 or j["status"] != "ok", j
s = doc["summary"]
for p in parts:
    assert close(sum(j[p] for j in layers), s[p]), (p, sum(j[p] for j in layers), s[p])
assert close(sum(j["energy_pj"] for j in layers) + s["energy_dram_background_pj"], s["energy_pj"])
# The text report's summary energy (uJ, 4 decimals) is the document's.
text = open(f"{d}/eval.txt").read()
uj = float(text.split("  energy       ")[1].split(" uJ")[0])
assert abs(uj - s["energy_pj"] * 1e-6) <= 1e-4, (uj, s["energy_pj"])
print(f"layer table ok: {len(rows)} layers, {s['energy_pj']:.6g} pJ")
PY
