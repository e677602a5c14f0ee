#!/usr/bin/python3
"""A digest of what a sweep computed: one SHA-256 per result table of a sweep file, over
every field but those that depend on the run (compare_sweeps.RUN_FIELDS: timing, the
evaluating rank). Provenance (revision, paths, creation time) is left out, so the digest of
tests/data/sweep/tiny.yaml's sweep is the same for any build of the same model on any
machine: the release build, the sanitizer build and a run beside a CPU hog must all match
the committed tests/data/sweep/tiny_results.json (engine.golden).

usage: results_digest.py SWEEP.h5                 print the digest as JSON
       results_digest.py SWEEP.h5 --check FILE    exit 1, naming the tables, if it differs
"""
import hashlib
import json
import os
import sys

import h5py

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from compare_sweeps import RUN_FIELDS  # noqa: E402

TABLES = ["candidates", "metrics", "mappings/layers", "mappings/segments", "schedules", "pareto",
          "tuner/batches"]


def digest(path):
    out = {}
    with h5py.File(path, "r") as f:
        for name in TABLES:
            if name not in f:
                continue
            data = f[name][()]
            h = hashlib.sha256()
            h.update(str(len(data)).encode())
            for field in data.dtype.names:
                if field in RUN_FIELDS.get(name, set()):
                    continue
                h.update(field.encode())
                h.update(data[field].tobytes())
            out[name] = h.hexdigest()
    return out


def main(argv):
    if len(argv) == 2:
        print(json.dumps(digest(argv[1]), indent=2, sort_keys=True))
        return 0
    if len(argv) == 4 and argv[2] == "--check":
        want = json.load(open(argv[3]))
        got = digest(argv[1])
        bad = sorted(k for k in set(want) | set(got) if want.get(k) != got.get(k))
        if bad:
            print(f"{argv[1]}: results differ from {argv[3]} in " + ", ".join(bad))
            print("If the model changed on purpose, regenerate it with a release build:\n"
                  f"  /usr/bin/python3 tests/engine/results_digest.py {argv[1]} > {argv[3]}")
            return 1
        print(f"{argv[1]}: {len(got)} result tables match {argv[3]}")
        return 0
    print(__doc__)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv))
