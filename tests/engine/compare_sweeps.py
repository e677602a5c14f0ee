#!/usr/bin/python3
"""Compares two pimdse sweep files dataset by dataset, field by field, and attribute by
attribute, leaving out what legitimately differs between runs (docs/output.md, "What differs
between runs"): timing fields, the evaluating rank, and the root attributes of the run.

usage: compare_sweeps.py A.h5 B.h5    exit 0 when equal, 1 with the differences listed
"""
import sys

import h5py
import numpy as np

# Fields that depend on the run, not on the configuration and seed.
RUN_FIELDS = {
    "candidates": {"eval_seconds", "rank"},
    "schedules": {"solve_seconds"},
    "tuner/batches": {"fit_seconds", "propose_seconds", "evaluate_seconds", "write_seconds", "wall_seconds"},
}
RUN_ATTRIBUTES = {"/": {"created", "last_started", "ranks", "runs"}}


def objects(f):
    found = {}
    f.visititems(lambda name, obj: found.setdefault(name, obj))
    return found


def same_values(a, b):
    if a.dtype.kind == "f":
        return np.array_equal(a, b, equal_nan=True)
    return np.array_equal(a, b)


def compare(path_a, path_b):
    problems = []
    with h5py.File(path_a, "r") as fa, h5py.File(path_b, "r") as fb:
        for name, skip in (("/", RUN_ATTRIBUTES["/"]),):
            keys = (set(fa[name].attrs) | set(fb[name].attrs)) - skip
            for k in sorted(keys):
                if k not in fa[name].attrs or k not in fb[name].attrs:
                    problems.append(f"{name}@{k}: only in one file")
                elif not np.array_equal(fa[name].attrs[k], fb[name].attrs[k]):
                    problems.append(f"{name}@{k}: {fa[name].attrs[k]!r} != {fb[name].attrs[k]!r}")
        oa, ob = objects(fa), objects(fb)
        for name in sorted(set(oa) | set(ob)):
            if name not in oa or name not in ob:
                problems.append(f"/{name}: only in one file")
                continue
            a, b = oa[name], ob[name]
            for k in sorted(set(a.attrs) | set(b.attrs)):
                if k not in a.attrs or k not in b.attrs or not np.array_equal(a.attrs[k], b.attrs[k]):
                    problems.append(f"/{name}@{k}: differs")
            if not isinstance(a, h5py.Dataset):
                continue
            if a.dtype != b.dtype or a.shape != b.shape:
                problems.append(f"/{name}: type or shape differs ({a.dtype}, {a.shape} vs {b.dtype}, {b.shape})")
                continue
            va, vb = a[()], b[()]
            if a.dtype.names is None:
                if not np.array_equal(va, vb):
                    problems.append(f"/{name}: values differ")
                continue
            for field in a.dtype.names:
                if field in RUN_FIELDS.get(name, ()):
                    continue
                if not same_values(va[field], vb[field]):
                    rows = np.nonzero(~((va[field] == vb[field]) | (va[field] != va[field]) & (vb[field] != vb[field])))[0]
                    problems.append(f"/{name}.{field}: differs in {len(rows)} rows, first row {rows[:1]}")
    return problems


def main():
    if len(sys.argv) != 3:
        print(__doc__.strip(), file=sys.stderr)
        return 2
    problems = compare(sys.argv[1], sys.argv[2])
    for p in problems:
        print(p)
    if problems:
        print(f"{sys.argv[1]} and {sys.argv[2]} differ in {len(problems)} places")
        return 1
    print(f"{sys.argv[1]} and {sys.argv[2]} are equal (timing fields and run attributes aside)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
