#!/usr/bin/python3
"""Gibbon's stated ratios recomputed from its own tables (jobs/paper/gibbon/tables.csv).

Every ratio or difference the text of Gibbon (Sun et al., "Gibbon: An Efficient
Co-Exploration Framework of NN Model and Processing-In-Memory Architecture", VII-B) states
about Tables III-V is recomputed from the table numbers, and each row's EDP from its energy
and latency. A value printed with d decimals stands for the interval +-0.5 10^-d; the
recomputed value is an interval too, and a stated value agrees when its own rounding
interval meets the recomputed one. Writes OUT/gibbon_ratios.md.

  postprocess/gibbon_ratios.py jobs/paper/gibbon/tables.csv --out DIR
"""
import argparse
import csv
import os
from statistics import geometric_mean


class Num:
    """A printed number and the interval it stands for."""

    def __init__(self, text):
        self.text = text
        self.v = float(text)
        decimals = len(text.split(".")[1]) if "." in text else 0
        self.half = 0.5 * 10 ** -decimals
        self.lo, self.hi = self.v - self.half, self.v + self.half


def ratio(a, b):
    return (a.v / b.v, a.lo / b.hi, a.hi / b.lo)


def diff(a, b):
    return (a.v - b.v, a.lo - b.hi, a.hi - b.lo)


def mean(items):
    n = len(items)
    return tuple(sum(x[k] for x in items) / n for k in range(3))


def product(a, b):
    return (a.v * b.v, a.lo * b.lo, a.hi * b.hi)


def read(path):
    lines = [ln for ln in open(path) if not ln.startswith("#")]
    t = {}
    for r in csv.DictReader(lines):
        t[(r["table"], r["method"])] = {k: Num(v) for k, v in r.items() if k not in ("table", "method") and v}
    return t


MANUAL = ["AlexNet", "VGG16", "VGGM", "ResNet18"]


def claims(t):
    """(where, claim, stated text, recomputed (value, lo, hi), how)."""
    g3 = lambda m, k: t[("III", m)][k]
    out = []
    acc = "Gibbon (acc opt.)"
    gains = {m: diff(g3(acc, "accuracy_pct"), g3(m, "accuracy_pct")) for m in ["NACIM", "UAE", "NAS4RRAM", "CARS (acc opt.)"]}
    others = ["NACIM", "UAE", "NAS4RRAM"]
    lo = min(others, key=lambda m: gains[m][0])
    hi = max(others, key=lambda m: gains[m][0])
    out.append(("VII-B", "accuracy gain over other PIM NAS, low end (%)", "4.6", gains[lo],
                f"Table III: {acc} - {lo} (against CARS: {gains['CARS (acc opt.)'][0]:.1f})"))
    out.append(("VII-B", "accuracy gain over other PIM NAS, high end (%)", "15.3", gains[hi], f"Table III: {acc} - {hi}"))
    out.append(("VII-B", "search efficiency, low end (x)", "9.8", ratio(g3("NACIM", "search_h"), g3(acc, "search_h")),
                "Table III: NACIM hours / Gibbon hours"))
    out.append(("VII-B", "search efficiency, high end (x)", "48.2", ratio(g3("NAS4RRAM", "search_h"), g3(acc, "search_h")),
                "Table III: NAS4RRAM hours / Gibbon hours"))
    out.append(("VII-B", "speed-up over vanilla CARS (x)", "12", ratio(g3("CARS (acc opt.)", "search_h"), g3(acc, "search_h")),
                "Table III: CARS hours / Gibbon hours"))
    out.append(("VII-B", "EDP reduction of edp opt. over NACIM (x)", "5.96",
                ratio(g3("NACIM", "edp_ms_mj"), g3("Gibbon (edp opt.)", "edp_ms_mj")), "Table III"))
    out.append(("VII-B", "accuracy gain of edp opt. over NACIM (%)", "9.5",
                diff(g3("Gibbon (edp opt.)", "accuracy_pct"), g3("NACIM", "accuracy_pct")), "Table III"))
    out.append(("VII-B", "area reduction of area opt. over NACIM (x)", "1.25",
                ratio(g3("NACIM", "area_mm2"), g3("Gibbon (area opt.)", "area_mm2")), "Table III"))
    for table in ["IV", "V"]:
        g = lambda m, k: t[(table, m)][k]
        edp = {m: ratio(g(m, "edp_ms_mj"), g("Gibbon (edp opt.)", "edp_ms_mj")) for m in MANUAL}
        area = {m: ratio(g(m, "area_mm2"), g("Gibbon (area opt.)", "area_mm2")) for m in MANUAL}
        lo_e, hi_e = min(MANUAL, key=lambda m: edp[m][0]), max(MANUAL, key=lambda m: edp[m][0])
        lo_a, hi_a = min(MANUAL, key=lambda m: area[m][0]), max(MANUAL, key=lambda m: area[m][0])
        out.append(("VII-B", f"EDP reduction of edp opt., low end (x), Table {table}", "1.46", edp[lo_e], f"{lo_e}"))
        out.append(("VII-B", f"EDP reduction of edp opt., high end (x), Table {table}", "234.1", edp[hi_e], f"{hi_e}"))
        out.append(("VII-B", f"area reduction of area opt., low end (x), Table {table}", "5.47", area[lo_a], f"{lo_a}"))
        out.append(("VII-B", f"area reduction of area opt., high end (x), Table {table}", "36.5", area[hi_a], f"{hi_a}"))
        e_acc = [ratio(g(m, "edp_ms_mj"), g(acc, "edp_ms_mj")) for m in MANUAL]
        a_acc = [ratio(g(m, "area_mm2"), g(acc, "area_mm2")) for m in MANUAL]
        geo = lambda xs: tuple(geometric_mean([x[k] for x in xs]) for k in range(3))
        out.append(("VII-B", f"average EDP reduction of acc opt. (x), Table {table}, mean of ratios", "14.1", mean(e_acc),
                    f"geometric mean {geo(e_acc)[0]:.2f}"))
        out.append(("VII-B", f"average area reduction of acc opt. (x), Table {table}, mean of ratios", "5.12", mean(a_acc),
                    f"geometric mean {geo(a_acc)[0]:.2f}"))
    out.append(("VII-B", "output channels of manual NNs over Gibbon's 96, low end (x)", "5.33", (512 / 96,) * 3, "512 / 96"))
    out.append(("VII-B", "output channels of manual NNs over Gibbon's 96, high end (x)", "10.6", (1024 / 96,) * 3, "1024 / 96"))
    for (table, method), r in sorted(t.items()):
        if {"energy_mj", "latency_ms", "edp_ms_mj"} <= r.keys():
            out.append((f"Table {table}", f"{method}: EDP = energy x latency", r["edp_ms_mj"].text,
                        product(r["energy_mj"], r["latency_ms"]), "energy x latency"))
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("tables")
    ap.add_argument("--out", default=".")
    a = ap.parse_args()
    t = read(a.tables)
    rows = []
    disagree = 0
    for where, what, stated, (v, lo, hi), how in claims(t):
        s = Num(stated)
        ok = s.hi >= lo and s.lo <= hi
        disagree += not ok
        rows.append(f"| {where} | {what} | {stated} | {v:.3g} [{lo:.3g}, {hi:.3g}] | {'yes' if ok else '**no**'} | {how} |")
    os.makedirs(a.out, exist_ok=True)
    path = os.path.join(a.out, "gibbon_ratios.md")
    with open(path, "w") as f:
        f.write("# Gibbon's stated ratios, recomputed from its tables\n\n"
                "Recomputed from the table numbers as printed; [lo, hi] is the range their rounding allows. "
                "A stated value agrees when its own rounding meets that range.\n\n"
                "| where | claim | stated | recomputed [range] | agrees | from |\n|---|---|---|---|---|---|\n")
        f.write("\n".join(rows) + "\n")
        f.write(f"\n{len(rows)} checks, {disagree} disagree.\n")
    print(f"gibbon_ratios: {len(rows)} checks, {disagree} disagree; wrote {path}")


if __name__ == "__main__":
    main()
