#!/usr/bin/python3
"""Tests of what reads a sweep file: the Python package `pimdse` (python/pimdse), the
commands `pimdse export` and `pimdse compare`, and postprocess/compare.py (registered in
tests/python/CMakeLists.txt; one scenario per ctest entry).

usage: outputs_test.py SCENARIO --pimdse EXE --source DIR --work DIR

Scenarios:
  reader_examples  the Python examples of docs/output.md ("Reading it") run on a fresh sweep
  reader_commit    the package returns only committed rows, decodes enums, reads units and
                   takes tables and fields it has never heard of; dram_pim's nine parameter
                   columns, the clock and the data width last
  export           `pimdse export --csv`: one CSV per table, its committed rows, unit headers
  compare          `pimdse compare`: a file against itself and against another sweep
  compare_plot     postprocess/compare.py draws best cost against evaluations of two sweeps,
                   tells apart two sweeps of one proposer and seed, and a short from a long one
  workload_names   one network at two batch sizes: unique workload names in the file and in
                   the reader (also for a file written before), so metrics pivot by network
  postprocess_uses_reader  no postprocess script opens HDF5 itself; those that read sweep
                   files import the pimdse package
  kendall_tau      the package's Kendall's tau (Gibbon Eq. 6): Gibbon's own example, ties,
                   reversal, refusals
  crossbar_reader  a crossbar sweep read by the package: the family's columns and units from
                   the file, status names, front, best, summary
  layers_evaluate  a sweep file's per-layer rows against `pimdse evaluate --layers` of the same
                   candidate and mapping: names, cycles, energies (pJ there, J here, converted
                   exactly), access counts and tiling
"""
import argparse
import csv
import os
import re
import shutil
import subprocess
import sys

import h5py
import numpy as np

import layer_columns

ARGS = None


class Failure(Exception):
    pass


def check(condition, message):
    if not condition:
        raise Failure(message)


def source(*parts):
    return os.path.join(ARGS.source, *parts)


def work(*parts):
    return os.path.join(ARGS.work, *parts)


def run(cmd, expect=0):
    p = subprocess.run(cmd, capture_output=True, text=True, timeout=300)
    print("$", " ".join(cmd), f"-> {p.returncode}")
    print(p.stdout[-4000:] + p.stderr[-4000:])
    if expect is not None:
        check(p.returncode == expect, f"exit code {p.returncode}, expected {expect}")
    return p


def sweep(name, proposer="evolution", seed=7, base="tiny.yaml"):
    """A fresh sweep of tests/data/sweep/<base> (12 evaluations) with this proposer and seed."""
    cfg = work(f"{name}.yaml")
    text = open(source("tests", "data", "sweep", base)).read()
    text = text.replace("../mapping/", source("tests", "data", "mapping") + "/")
    text = text.replace("../../../inputs/", source("inputs") + "/")
    text = text.replace("accuracy_table: crossbar_accuracy.csv",
                        "accuracy_table: " + source("tests", "data", "sweep", "crossbar_accuracy.csv"))
    text = re.sub(r"proposer: \w+", f"proposer: {proposer}", text).replace("seed: 7", f"seed: {seed}")
    open(cfg, "w").write(text)
    out = work(f"{name}.h5")
    run([ARGS.pimdse, "explore", cfg, "-o", out, "--force"])
    return out


def two_batches_sweep(name, budget=4):
    """tests/data/sweep/tiny.yaml's network at batch sizes 1 and 4, synthetic evaluator."""
    cfg = work(f"{name}.yaml")
    tiny = source("tests", "data", "mapping", "tiny.yaml")
    text = open(source("tests", "data", "sweep", "small_space.yaml")).read()
    text = re.sub(r"workloads:\n.*\n", f"workloads:\n  - {{network: {tiny}, batch: 1}}\n"
                  f"  - {{network: {tiny}, batch: 4}}\n", text)
    text = re.sub(r"budget: \d+", f"budget: {budget}", text)
    open(cfg, "w").write(text)
    out = work(f"{name}.h5")
    run([ARGS.pimdse, "explore", cfg, "-o", out, "--force"])
    return out


def import_pimdse():
    sys.path.insert(0, source("python"))
    import pimdse
    return pimdse


def doc_examples():
    """The ```python blocks of docs/output.md's section "Reading it"."""
    text = open(source("docs", "output.md")).read()
    section = text.split("\n## Reading it\n", 1)[1].split("\n## ", 1)[0]
    return re.findall(r"```python\n(.*?)```", section, re.S)


# ---- scenarios ------------------------------------------------------------------------------

def scenario_reader_examples():
    path = sweep("out")
    blocks = doc_examples()
    check(len(blocks) >= 2, "docs/output.md's 'Reading it' has no python examples")
    sys.path.insert(0, source("python"))
    os.chdir(ARGS.work)  # the examples name "out.h5"
    for i, code in enumerate(blocks):
        print(f"--- example {i + 1}\n{code}")
        exec(compile(code, f"docs/output.md example {i + 1}", "exec"), {})
    check(os.path.basename(path) == "out.h5", "the examples read out.h5")


def scenario_crossbar_reader():
    """The reader takes a crossbar sweep's columns from the file: the family's parameters
    and energy parts with their units, the status names, the front and the best."""
    pimdse = import_pimdse()
    path = sweep("crossbar", base="crossbar.yaml")
    s = pimdse.Sweep(path)
    c, m = s.candidates, s.metrics
    params = ["crossbar_size", "adc_bits", "dac_bits", "cell_bits", "weight_bits", "activation_bits"]
    parts = ["energy_crossbar_j", "energy_adc_j", "energy_dac_j", "energy_shift_add_j", "energy_buffer_j",
             "energy_noc_j"]
    cols = list(c.columns)
    check(cols[cols.index("proposer") + 1:cols.index("status")] == params, f"parameter columns {cols}")
    check("node_rows" not in cols and "energy_pe_j" not in m.columns, "no dram_pim column")
    cols = list(m.columns)
    check(cols[cols.index("energy_j") + 1:cols.index("pe_utilisation")] == parts, f"energy columns {cols}")
    check(c.attrs["units"]["adc_bits"] == "bit" and c.attrs["units"]["crossbar_size"] == "", "parameter units")
    check(cols and list(c.columns)[list(c.columns).index("cost") + 1:list(c.columns).index("metric_rows")] ==
          ["adc_deficit_bits", "accuracy_loss"], "the family's metric columns after cost")
    check(c.attrs["units"]["adc_deficit_bits"] == "bit" and
          c.attrs["units"]["accuracy_loss"] == "percentage points", "metric units")
    check(s.objectives == ["edp", "area", "accuracy_loss"], f"objectives {s.objectives}")
    check(all(m.attrs["units"][p] == "J" for p in parts + ["energy_j"]), "energy part units")
    # Units the configuration decides: EDP's and the objectives' (edp, area, accuracy_loss).
    check(c.attrs["units"]["cost"] == "J s" and m.attrs["units"]["cost"] == "J s", "cost unit")
    b = s.batches.attrs["units"]
    check([b["hv_reference_1"], b["hv_reference_2"], b["hv_reference_3"]] == ["J s", "mm2", "percentage points"]
          and b["hypervolume"] == "(J s) mm2 (percentage points)", f"hypervolume units {b}")
    check(set(c["status"]) == {"ok", "infeasible"}, f"status names {set(c['status'])}")
    check(len(c) == 24 and len(m) == 48, f"{len(c)} candidates, {len(m)} metric rows")
    front = s.front()
    check(0 < len(front) and set(front["candidate"]) <= set(c["candidate"][c["status"] == "ok"]),
          "the front holds ok candidates")
    best = s.best(3)
    check(list(best["cost"]) == sorted(c["cost"][c["status"] == "ok"])[:3], "best by cost")
    check(s.layers.empty and s.table("schedules").empty, "no mappings or schedules for crossbars")
    p = run([ARGS.pimdse, "summary", path])
    check("24 candidates" in p.stdout, "summary of a crossbar sweep")


def committed_counts(path):
    with h5py.File(path, "r") as f:
        counts = f["commit"][()]
        names = re.findall(r"/([A-Za-z0-9_/]+)", f["commit"].attrs["meaning"].decode())
    return int(counts[0]), dict(zip(names, (int(c) for c in counts[1:])))


def scenario_reader_commit():
    pimdse = import_pimdse()
    path = sweep("commit")
    batches, counts = committed_counts(path)
    s = pimdse.Sweep(path)
    for name, rows in counts.items():
        check(len(s.table(name)) == rows, f"/{name}: {len(s.table(name))} rows, committed {rows}")
    c = s.candidates
    check(list(c["candidate"]) == list(range(12)), "candidates 0..11")
    check(set(c["status"]) <= {"ok", "infeasible", "failed", "timeout", "work_limit"}, f"status names: {set(c['status'])}")
    check(set(c["proposer"]) == {"evolution"}, "proposer names")
    check(s.metrics["network_name"].isin(["tiny", "resnet18"]).all(), "strings decoded")
    units = c.attrs["units"]
    check(units["latency_s"] == "s" and units["area_mm2"] == "mm2" and units["ibuf_kib"] == "KiB",
          f"units: {units}")
    # dram_pim's nine parameters: Table I's seven, then the clock and the data width, one value
    # each in tiny.yaml (the constraints').
    cols = list(c.columns)
    params = ["node_rows", "node_cols", "pe_rows", "pe_cols", "ibuf_kib", "wbuf_kib", "obuf_kib", "clock_mhz",
              "data_width_bits"]
    check(cols[cols.index("proposer") + 1:cols.index("status")] == params, f"parameter columns {cols}")
    check(units["clock_mhz"] == "MHz" and units["data_width_bits"] == "bit", f"units: {units}")
    check(set(c["clock_mhz"]) == {400} and set(c["data_width_bits"]) == {16}, "the constraints' clock and width")
    layer_columns.check_layer_table(s, units, check)
    check(pimdse.cost_unit(1, 1) == "J s" and pimdse.cost_unit(0, 1) == "s" and pimdse.cost_unit(2, 0.5) ==
          "J^2 s^0.5", "cost_unit")
    ok = c[c["status"] == "ok"]
    check(s.best().iloc[0]["cost"] == ok["cost"].min(), "best() is the lowest ok cost")
    check(list(s.best(3)["cost"]) == sorted(ok["cost"])[:3], "best(3) in cost order")
    front = s.front()
    check(len(front) == s.batches["front_size"].iloc[-1], "front() size = the last batch's front_size")
    check(s.best_so_far().iloc[-1] == ok["cost"].min(), "best_so_far ends at the best cost")
    check(s.config()["sweep"]["budget"] == 12, "config()")

    # Rows past the commit record (a running or killed sweep) are not returned, and a
    # /pareto row that left the front in an uncommitted batch is on the front.
    torn = work("commit_torn.h5")
    shutil.copy(path, torn)
    with h5py.File(torn, "r+") as f:
        d = f["candidates"]
        n = len(d)
        d.resize((n + 4,))
        junk = d[:4]
        junk["cost"] = -1.0
        junk["candidate"] = np.arange(n, n + 4)
        d[n:] = junk
        p = f["pareto"]
        rows = p[()]
        on = np.nonzero(rows["left_batch"] < 0)[0]
        rows["left_batch"][on[0]] = batches  # "left" in the batch being written
        p[...] = rows
    t = pimdse.Sweep(torn)
    check(len(t.candidates) == 12 and t.best().iloc[0]["cost"] > 0, "uncommitted candidates were read")
    check(len(t.front()) == len(front), "a left_batch past the commit record must count as on the front")

    # A table and a field pimdse has never written come through with their units and enum
    # names, and a commit record that counts the new table is honoured.
    grown = work("commit_grown.h5")
    shutil.copy(path, grown)
    colour = h5py.enum_dtype({"red": 0, "green": 1}, basetype="i4")
    dt = np.dtype([("widget", "i8"), ("length_mm", "f8"), ("colour", colour), ("label", "S8")])
    with h5py.File(grown, "r+") as f:
        d = f.create_dataset("extra/widgets", data=np.array(
            [(0, 1.5, 1, b"a"), (1, 2.5, 0, b"b"), (2, 9.9, 0, b"x")], dtype=dt), maxshape=(None,))
        d.attrs["meaning"] = "a table a later pimdse may add"
        d.attrs["widget"] = "widget id"
        d.attrs["length_mm"] = "its length [mm]"
        d.attrs["colour"] = "its colour"
        d.attrs["label"] = "its label"
        old = f["commit"][()]
        meaning = f["commit"].attrs["meaning"].decode() + ", /extra/widgets"
        del f["commit"]
        f["commit"] = np.append(old, 2)  # the third row is not committed
        f["commit"].attrs["meaning"] = meaning
    g = pimdse.Sweep(grown)
    check("extra/widgets" in g.tables, "new table listed")
    w = g.table("extra/widgets")
    check(list(w["colour"]) == ["green", "red"] and list(w["label"]) == ["a", "b"], f"new table: {w}")
    check(w.attrs["units"]["length_mm"] == "mm", "new field's unit")
    check(len(g.candidates) == 12, "the old tables' counts still apply")

    # Not a sweep file: one clear error naming the file.
    foreign = work("foreign.h5")
    with h5py.File(foreign, "w") as f:
        f["x"] = np.arange(3)
    for bad, what in ((foreign, "not a pimdse sweep file"), (source("tests", "data", "sweep", "tiny.yaml"),
                                                             "cannot open as an HDF5 file")):
        try:
            pimdse.Sweep(bad)
            raise Failure(f"{bad} was opened")
        except pimdse.SweepError as e:
            check(bad in str(e) and what in str(e), f"message: {e}")


def scenario_export():
    # faults.yaml: a failed and a timed-out candidate, with messages and costs of inf.
    path = sweep("export", "random", 7, base="faults.yaml")
    _, counts = committed_counts(path)
    out = work("export_csv")
    shutil.rmtree(out, ignore_errors=True)
    p = run([ARGS.pimdse, "export", path, "--csv", out])
    with h5py.File(path, "r") as f:
        tables = []
        f.visititems(lambda n, o: tables.append(n) if isinstance(o, h5py.Dataset) and o.dtype.names else None)
        # /commit_tails holds second copies of committed rows (docs/output.md), not tables.
        check(any(n.startswith("commit_tails/") for n in tables), "the commit tails are in the file")
        for name in (n for n in tables if not n.startswith("commit_tails/")):
            csv_path = os.path.join(out, name.replace("/", "_") + ".csv")
            check(os.path.exists(csv_path), f"{csv_path} missing")
            raw = open(csv_path).read()
            check(not raw.startswith('"'), f"{csv_path}: a header that needs no quotes is quoted")
            rows = list(csv.reader(raw.splitlines()))
            header, body = rows[0], rows[1:]
            want = counts.get(name, len(f[name]))
            check(len(body) == want, f"{csv_path}: {len(body)} rows, committed {want}")
            fields = [h.split(" [")[0] for h in header]
            # The names a table's indices refer to are joined in after them.
            want_fields = list(f[name].dtype.names)
            if "network" in want_fields and not name.startswith("workloads/"):
                if "network_name" not in want_fields:
                    want_fields.insert(want_fields.index("network") + 1, "network_name")
                if "layer" in want_fields:
                    want_fields.insert(want_fields.index("layer") + 1, "layer_name")
            check(fields == want_fields, f"{csv_path}: header {header}")
            for h, field in ((h, x) for h, x in zip(header, fields) if x in f[name].dtype.names):
                unit = re.search(r"\s\[([^\[\]]+)\]\s*$", f[name].attrs[field].decode())
                check(h == (f"{field} [{unit.group(1)}]" if unit else field), f"{csv_path}: header {h}")
            check(name + ".csv" in p.stdout.replace("/", "_") or csv_path in p.stdout, f"{csv_path} not reported")
        check(not any(n.startswith("commit_tails") for n in os.listdir(out)), "commit tails exported")
        # Values: enum names, and numbers that read back equal.
        c = list(csv.DictReader(open(os.path.join(out, "candidates.csv"))))
        d = f["candidates"][()]
        status = {v: k for k, v in h5py.check_enum_dtype(f["candidates"].dtype["status"]).items()}
        for row, ref in zip(c, d):
            check(row["status"] == status[ref["status"]], "status as its name")
            check(float(row["cost [J s]"]) == ref["cost"], "cost exact")
            check(int(row["candidate"]) == ref["candidate"], "candidate id")
    # The CSV files read back with pandas equal what the Python reader returns, table by table.
    import pandas as pd
    s = import_pimdse().Sweep(path)
    for name in s.tables:
        df = pd.read_csv(os.path.join(out, name.replace("/", "_") + ".csv"), keep_default_na=False,
                         na_values=[], float_precision="round_trip")
        df.columns = [c.split(" [")[0] for c in df.columns]
        ref = s.table(name)
        for col in ref.columns:
            a, b = df[col].to_numpy(), ref[col].to_numpy()
            same = np.array_equal(a.astype(float), b.astype(float), equal_nan=True) if ref[col].dtype.kind in "iuf" \
                else list(map(str, a)) == list(map(str, b))
            check(same, f"/{name}.{col}: the CSV and the reader differ")
    check(np.isinf(s.candidates["cost"]).sum() == 2, "faults.yaml: two candidates without a cost")
    # Committed rows only: a table grown past its commit record exports its committed rows.
    torn = work("export_torn.h5")
    shutil.copy(path, torn)
    with h5py.File(torn, "r+") as f:
        f["metrics"].resize((len(f["metrics"]) + 5,))
    out2 = work("export_torn_csv")
    shutil.rmtree(out2, ignore_errors=True)
    run([ARGS.pimdse, "export", torn, "--csv", out2])
    n = sum(1 for _ in open(os.path.join(out2, "metrics.csv"))) - 1
    check(n == counts["metrics"], f"metrics.csv of a torn file: {n} rows, committed {counts['metrics']}")
    # Errors: no file, not a sweep file, an existing file where the directory should be.
    p = run([ARGS.pimdse, "export", work("nothing.h5"), "--csv", out2], expect=4)
    check("nothing.h5: no such file" in p.stderr, "missing file message")
    p = run([ARGS.pimdse, "export", source("tests", "data", "sweep", "tiny.yaml"), "--csv", out2], expect=4)
    check("tiny.yaml" in p.stderr, "not-HDF5 message names the file")
    p = run([ARGS.pimdse, "export", path, "--csv", path], expect=4)
    check("not a directory" in p.stderr, "--csv onto a file")
    run([ARGS.pimdse, "export", path], expect=2)


def compare_lines(out):
    """`name value value` rows of the compare table."""
    rows = {}
    for line in out.splitlines():
        m = re.match(r"^(\S[^:]*?)\s{2,}(\S+)\s+(\S+)\s*$", line)
        if m:
            rows[m.group(1)] = (m.group(2), m.group(3))
    return rows


def scenario_compare():
    a = sweep("cmp_a", "evolution", 7)
    b = sweep("cmp_b", "random", 11)
    pimdse = import_pimdse()
    # A file against itself: every figure equal on both sides.
    p = run([ARGS.pimdse, "compare", a, a])
    rows = compare_lines(p.stdout)
    for key in ("best cost", "front size", "hypervolume", "evaluations to target"):
        check(key in rows and rows[key][0] == rows[key][1], f"{key} differs against itself: {rows.get(key)}")
    sa = pimdse.Sweep(a)
    check(float(rows["best cost"][0]) == float(f"{sa.best().iloc[0]['cost']:.6g}"), "best cost")
    check(int(rows["front size"][0]) == len(sa.front()), "front size")
    # Against another sweep: the reference point is 1.1 x the union's nadir, the same for both.
    p = run([ARGS.pimdse, "compare", a, b])
    rows = compare_lines(p.stdout)
    sb = pimdse.Sweep(b)
    fa, fb = sa.front(), sb.front()
    cols = ["latency_s", "energy_j", "area_mm2"]
    nadir = np.maximum(fa[cols].max().to_numpy(), fb[cols].max().to_numpy()) * 1.1
    ref = [float(v) for v in re.search(r"reference point[^:]*: ([0-9.e+-]+) ([0-9.e+-]+) ([0-9.e+-]+)",
                                       p.stdout).groups()]
    check(np.allclose(ref, nadir, rtol=1e-5), f"reference {ref}, expected {nadir}")
    for side, front in ((0, fa), (1, fb)):
        hv = grid_hypervolume(front[cols].to_numpy(), nadir)
        got = float(rows["hypervolume"][side])
        check(abs(got - hv) <= 1e-5 * hv, f"hypervolume {got}, expected {hv}")
    # Evaluations to reach a cost: the first evaluation whose best-so-far is at or below it.
    target = max(sa.best().iloc[0]["cost"], sb.best().iloc[0]["cost"])
    p = run([ARGS.pimdse, "compare", a, b, "--target", repr(float(target))])
    rows = compare_lines(p.stdout)
    for side, s in ((0, sa), (1, sb)):
        curve = s.best_so_far()
        want = int(curve.index[curve <= target][0])
        check(rows["evaluations to target"][side] == str(want), f"evaluations to reach {target}: {rows}")
    p = run([ARGS.pimdse, "compare", a, b, "--target", "1e-30"])
    check(compare_lines(p.stdout)["evaluations to target"] == ("-", "-"), "an unreached target is '-'")
    p = run([ARGS.pimdse, "compare", a, work("nothing.h5")], expect=4)
    check("nothing.h5" in p.stderr, "missing file named")
    # Same workloads: no warning; other workloads: a warning, and the table still.
    check("warning" not in run([ARGS.pimdse, "compare", a, b]).stderr, "a warning for equal workloads")
    c = two_batches_sweep("cmp_c")
    p = run([ARGS.pimdse, "compare", a, c])
    check("warning: A and B evaluated different workloads" in p.stderr and "tiny_b4 (batch 4" in p.stderr,
          "no warning for different workloads")
    check("evaluations to target" in p.stdout, "the comparison goes on after the warning")


def grid_hypervolume(points, ref):
    """Exact dominated volume of `points` (minimisation) up to `ref`, by inclusion over a grid
    of the points' own coordinates (fine for a handful of points)."""
    pts = points[np.all(points < ref, axis=1)]
    if len(pts) == 0:
        return 0.0
    axes = [np.unique(np.append(pts[:, k], ref[k])) for k in range(pts.shape[1])]
    vol = 0.0
    for i in range(len(axes[0]) - 1):
        for j in range(len(axes[1]) - 1):
            for k in range(len(axes[2]) - 1):
                lo = np.array([axes[0][i], axes[1][j], axes[2][k]])
                if np.any(np.all(pts <= lo, axis=1)):
                    vol += (axes[0][i + 1] - lo[0]) * (axes[1][j + 1] - lo[1]) * (axes[2][k + 1] - lo[2])
    return vol


def scenario_compare_plot():
    a = sweep("plot_a", "evolution", 7)
    b = sweep("plot_b", "random", 11)
    out = work("compare_plot")
    shutil.rmtree(out, ignore_errors=True)
    run([sys.executable, source("postprocess", "compare.py"), a, b, "--out", out])
    for ext in ("png", "pdf", "svg"):
        path = os.path.join(out, f"compare_best_cost.{ext}")
        check(os.path.exists(path) and os.path.getsize(path) > 5000, f"{path} is not a plot")
    p = run([sys.executable, source("postprocess", "compare.py"), a, work("nothing.h5")], expect=None)
    check(p.returncode != 0 and "nothing.h5" in p.stderr, "a missing file: an error naming it")
    # One proposer and seed in two files: the labels name the files. A run of 2 evaluations
    # beside one of 12: a logarithmic x-axis.
    a2 = work("plot_a2.h5")
    shutil.copyfile(a, a2)
    short = two_batches_sweep("plot_short", budget=2)
    p = run([sys.executable, source("postprocess", "compare.py"), a, a2, short, "--out", out])
    check("A: evolution, seed 7 (plot_a.h5):" in p.stdout and "B: evolution, seed 7 (plot_a2.h5):" in p.stdout,
          "two sweeps of one proposer and seed are told apart")
    check("x axis: log (2 to 12 evaluations)" in p.stdout, "a short run beside a long one: log x-axis")
    p = run([sys.executable, source("postprocess", "compare.py"), a, b, "--out", out])
    check("x axis: linear" in p.stdout, "equal lengths: linear x-axis")


def scenario_workload_names():
    pimdse = import_pimdse()
    path = two_batches_sweep("names", budget=4)
    s = pimdse.Sweep(path)
    check(list(s.networks["name"]) == ["tiny_b1", "tiny_b4"], f"names {list(s.networks['name'])}")
    check(list(s.networks["group"]) == ["tiny_b1", "tiny_b4"], f"groups {list(s.networks['group'])}")
    per_net = s.metrics.pivot(index="candidate", columns="network_name", values="latency_s")
    check(list(per_net.columns) == ["tiny_b1", "tiny_b4"] and len(per_net) == 4, f"pivot {per_net}")
    check(len(s.network_layers("tiny_b4")) == len(s.network_layers("tiny_b1")), "layers by name")
    # A file written before: both workloads named "tiny" in the file; the reader tells them apart.
    old = work("names_old.h5")
    shutil.copyfile(path, old)
    with h5py.File(old, "r+") as f:
        for table, field in (("workloads/networks", "name"), ("metrics", "network_name")):
            rows = f[table][()]
            rows[field] = b"tiny"
            f[table][...] = rows
    s = pimdse.Sweep(old)
    check(list(s.networks["name"]) == ["tiny_b1", "tiny_b4"], "old file: unique names")
    per_net = s.metrics.pivot(index="candidate", columns="network_name", values="latency_s")
    check(list(per_net.columns) == ["tiny_b1", "tiny_b4"], "old file: pivot")


def scenario_postprocess_uses_reader():
    scripts = sorted(f for f in os.listdir(source("postprocess")) if f.endswith(".py"))
    check(len(scripts) >= 5, f"postprocess scripts: {scripts}")
    readers = 0
    for name in scripts:
        text = open(source("postprocess", name)).read()
        check(not re.search(r"^\s*(import|from)\s+h5py", text, re.M), f"postprocess/{name} imports h5py")
        if ".h5" in text:
            check(re.search(r"^import pimdse$", text, re.M), f"postprocess/{name} reads sweep files without pimdse")
            readers += 1
    check(readers >= 3, "sweep_plots.py, compare.py and fig9.py read sweep files")


def mapping_yaml(s, cand, net, layers):
    """The mapping file (docs/mapping.md) of candidate `cand` on workload `net`, from its rows
    of /mappings/segments and /mappings/layers."""
    seg = s.segments
    seg = seg[(seg["candidate"] == cand) & (seg["network"] == net)]
    rows, cols = s.candidates.loc[cand, ["node_rows", "node_cols"]]
    lines = [f"network: {s.networks['name'][net]}", f"node_array: [{rows}, {cols}]", "segments:"]
    for _, g in seg.groupby("segment"):
        regions = g.drop_duplicates("region").sort_values("region")
        check(list(regions["region"]) == list(range(len(regions))), "regions 0, 1, ... of a segment")
        lines.append("  - regions: [" + ", ".join(f"{{at: [{r.region_row}, {r.region_col}], shape: "
                                                    f"[{r.region_rows}, {r.region_cols}]}}"
                                                    for r in regions.itertuples()) + "]")
        lines.append("    branches: [" + ", ".join(str(b) for b in g.sort_values("branch")["region"]) + "]")
    lines.append("layers:")
    for r in layers.itertuples():
        parts = ", ".join(f"{d.upper()}: [{getattr(r, f'part_{d}_h')}, {getattr(r, f'part_{d}_w')}]"
                          for d in "bpqkc")
        dl = [f"RA[{bh}x{bw}]" if o == "RA" else (f"{o}[C{g}]" if g > 1 else o)
              for o, g, bh, bw in ((r.dl_in_order, r.dl_in_group, r.dl_in_block_h, r.dl_in_block_w),
                                   (r.dl_out_order, r.dl_out_group, r.dl_out_block_h, r.dl_out_block_w))]
        lines.append(f"  - {{name: \"{r.layer_name}\", partitions: {{{parts}}}, order: {r.order}, wr: {r.wr}, "
                     f"dl: {{in: \"{dl[0]}\", out: \"{dl[1]}\"}}}}")
    return "\n".join(lines) + "\n"


def scenario_layers_evaluate():
    pimdse = import_pimdse()
    s = pimdse.Sweep(sweep("layers"))
    lay, c = s.layers, s.candidates.set_index("candidate", drop=False)
    cand = int(c[c["layer_rows"] > 0]["candidate"].iloc[0])
    hw = work("layers_hw.yaml")
    p = c.loc[cand]
    open(hw, "w").write(f"hardware:\n  node_array: [{p.node_rows}, {p.node_cols}]\n  pe_array: [{p.pe_rows}, "
                        f"{p.pe_cols}]\n  buffers_kib: {{input: {p.ibuf_kib}, weight: {p.wbuf_kib}, "
                        f"output: {p.obuf_kib}}}\n")
    counts = ["dram_reads", "dram_writes", "dram_activations", "ibuf_reads", "ibuf_writes", "wbuf_reads",
              "wbuf_writes", "obuf_reads", "obuf_writes", "register_bits", "redistribution_flit_hops",
              "sharing_flit_hops", "tile_nodes", "tile_b", "tile_k", "tile_c", "tile_p", "tile_q",
              "tile_r", "tile_s"]
    energies = ["", "_pe", "_register", "_sram", "_sram_ibuf", "_sram_wbuf", "_sram_obuf", "_dram_access",
                "_dram_activation", "_noc"]
    for net in sorted(set(lay[lay["candidate"] == cand]["network"])):
        rows = lay[(lay["candidate"] == cand) & (lay["network"] == net)].sort_values("layer")
        mapping = work(f"layers_map_{net}.yaml")
        open(mapping, "w").write(mapping_yaml(s, cand, net, rows))
        table = work(f"layers_{net}.csv")
        run([ARGS.pimdse, "evaluate", "--hardware", hw, "--network", s.networks["file"][net], "--mapping",
             mapping, "--layers", table])
        cli = list(csv.DictReader(open(table)))
        check(len(cli) == len(rows), f"network {net}: {len(cli)} layers printed, {len(rows)} in the file")
        for r, e in zip(rows.to_dict("records"), cli):
            where = f"candidate {cand}, network {r['network_name']}, layer {r['layer_name']}"
            check(e["layer"] == r["layer_name"] and e["status"] == r["status"], f"{where}: name and status")
            for f in ("latency_cycles", "start_cycles", "finish_cycles", "redistribution_cycles",
                      "sharing_cycles", "compute_cycles", "pe_utilisation"):
                check(float(e[f]) == r[f], f"{where}: {f} {e[f]} vs {r[f]}")
            for part in energies:  # the CLI prints pJ; the file holds pJ x 1e-12, bit for bit
                check(float(e[f"energy{part}_pj"]) * 1e-12 == r[f"energy{part}_j"],
                      f"{where}: energy{part} {e[f'energy{part}_pj']} pJ vs {r[f'energy{part}_j']} J")
            for f in counts:
                check(int(float(e[f])) == r[f], f"{where}: {f} {e[f]} vs {r[f]}")
            for f in ("unroll_row", "unroll_col", "loop_order", "dataflow"):
                check(e[f] == r[f], f"{where}: {f} {e[f]} vs {r[f]}")
        print(f"network {net}: {len(rows)} layers agree")
    check(lay["sharing_flit_hops"].sum() > 0 and (lay["tile_k"] > 0).any(), "the rows compared are not all zero")


def scenario_kendall_tau():
    sys.path.insert(0, source("python"))
    import pimdse

    # Gibbon's example: 7 concordant, 3 discordant pairs of 10 (it prints 0.3999).
    tau = pimdse.kendall_tau([0, 0.49, 0.5, 0.51, 1], [0, 0.51, 0.5, 0.49, 1])
    check(abs(tau - 0.4) < 1e-15, f"Gibbon's example: {tau}")
    check(pimdse.kendall_tau([1, 2, 3, 4], [4, 3, 2, 1]) == -1.0, "reversed")
    check(abs(pimdse.kendall_tau([1, 2, 3, 4], [1, 2, 3, 3]) - 5 / 6) < 1e-15, "a tied pair counts 0")
    for bad in (([1], [1]), ([1, 2], [1, 2, 3]), ([1, float("nan")], [1, 2])):
        try:
            pimdse.kendall_tau(*bad)
        except ValueError:
            continue
        raise Failure(f"kendall_tau accepted {bad}")


def main():
    global ARGS
    ap = argparse.ArgumentParser()
    ap.add_argument("scenario")
    ap.add_argument("--pimdse", required=True)
    ap.add_argument("--source", required=True)
    ap.add_argument("--work", required=True)
    ARGS = ap.parse_args()
    ARGS.source = os.path.abspath(ARGS.source)
    ARGS.pimdse = os.path.abspath(ARGS.pimdse)
    ARGS.work = os.path.join(ARGS.work, ARGS.scenario)
    shutil.rmtree(ARGS.work, ignore_errors=True)
    os.makedirs(ARGS.work)
    scenario = globals().get("scenario_" + ARGS.scenario)
    if scenario is None:
        print(f"unknown scenario {ARGS.scenario}", file=sys.stderr)
        return 2
    try:
        scenario()
    except Failure as e:
        print(f"FAILED: {e}", file=sys.stderr)
        return 1
    print("passed")
    return 0


if __name__ == "__main__":
    sys.exit(main())
