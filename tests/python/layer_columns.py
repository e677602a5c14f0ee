"""The per-layer table of a sweep file as the pimdse reader gives it: units (joules, counted
channels, EDP's and the hypervolume's units), the network and layer names joined in, the SRAM
energy by buffer and the DRAM split adding up, the access counts and the tiling columns.
Used by outputs_test.py's reader scenario."""
import numpy as np


def check_layer_table(s, units, check):
    """s: a pimdse.Sweep of tests/data/sweep/tiny.yaml; units: its /candidates units."""
    layers = s.layers
    lu = layers.attrs["units"]
    check(lu["compute_cycles"] == "cycles", "units of /mappings/layers")
    check(lu["dl_in_group"] == "channels", "BCHW[Cn] in a meaning is not a unit; the group counts channels")
    check(all(lu[f] == "J" for f in layers.columns if f.startswith("energy_")), f"energies in J: {lu}")
    check(units["energy_j"] == "J" and s.metrics.attrs["units"]["energy_j"] == "J", "energies in J")
    check(units["cost"] == "J s" and s.pareto.attrs["units"]["cost"] == "J s", "EDP's unit")
    b = s.batches.attrs["units"]
    check((b["hv_reference_1"], b["hv_reference_2"], b["hv_reference_3"], b["hypervolume"]) ==
          ("s", "J", "mm2", "s J mm2"), f"hypervolume units {b}")
    # The names the indices refer to, joined in from the workloads' tables.
    cols = list(layers.columns)
    check(cols[cols.index("network") + 1] == "network_name" and cols[cols.index("layer") + 1] == "layer_name",
          f"name columns {cols}")
    for (net, name), rows in layers.groupby(["network", "network_name"]):
        check(name == s.networks["name"][net], f"network {net} is {name}")
        ref = s.network_layers(int(net))["name"].tolist()
        check(list(rows["layer_name"]) == [ref[i] for i in rows["layer"]], f"layer names of {name}")
    check(set(s.schedules["layer_name"]) <= set(layers["layer_name"]), "schedules name their layers")
    # Per-buffer SRAM and the DRAM split add up to their totals; the counts are there.
    check(np.allclose(layers[["energy_sram_ibuf_j", "energy_sram_wbuf_j", "energy_sram_obuf_j"]].sum(axis=1),
                      layers["energy_sram_j"], rtol=1e-12, atol=0), "SRAM energy by buffer")
    check(np.allclose(layers["energy_dram_access_j"] + layers["energy_dram_activation_j"], layers["energy_dram_j"],
                      rtol=1e-12, atol=0), "DRAM split")
    check((layers["ibuf_reads"] > 0).all() and (layers["dram_reads"] > 0).all(), "access counts")
    # The per-layer timeline (format 6): a candidate's network read back in the order it ran,
    # its last layer ending at the network's latency.
    check(lu["start_cycles"] == "cycles" and lu["finish_cycles"] == "cycles", "units of the timeline")
    m = s.metrics
    first = m[(m.status == "ok") & m.candidate.isin(layers.candidate)].iloc[0]
    t = s.timeline(int(first["candidate"]), first["network_name"])
    check(t["start_cycles"].is_monotonic_increasing and len(t) == len(s.network_layers(first["network_name"])),
          "timeline: every layer of the network, by start")
    check(t["finish_cycles"].max() == first["latency_cycles"],
          f"timeline ends at the network's latency {first['latency_cycles']}: {t['finish_cycles'].max()}")
    tiled = layers["loop_order"] != "none"
    check(tiled.any() and (layers.loc[tiled, ["tile_k", "tile_r", "tile_s"]] > 0).all().all() and
          (layers.loc[tiled, "loop_order"].str.len() == 7).all() and
          set(layers.loc[tiled, "dataflow"]) <= {"output", "weight", "input"}, "tiling columns")
