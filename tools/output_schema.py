#!/usr/bin/python3
"""Prints the tables of a pimdse sweep file as the Markdown field tables of docs/output.md,
from the meaning attribute of every dataset and field (the single source of both).

usage: /usr/bin/python3 tools/output_schema.py OUT.h5
"""
import re
import sys

import h5py


def type_name(dt):
    enum = h5py.check_enum_dtype(dt)
    if enum is not None:
        # A batch table's enums also have -1 = unwritten, the value of rows never written.
        names = ", ".join(k for k, v in sorted(enum.items(), key=lambda kv: kv[1]) if v >= 0)
        return "enum: " + names + "".join(f"; {v} {k}" for k, v in sorted(enum.items()) if v < 0)
    if dt.kind == "S":
        return f"string[{dt.itemsize}]"
    return {"i": f"int{dt.itemsize * 8}", "f": f"float{dt.itemsize * 8}"}.get(dt.kind, str(dt))


def text(v):
    return v.decode() if isinstance(v, bytes) else str(v)


def main(path):
    with h5py.File(path, "r") as f:
        tables = []
        f.visititems(lambda n, o: tables.append(n) if isinstance(o, h5py.Dataset) and o.dtype.names else None)
        seen = set()
        for name in tables:
            generic = re.sub(r"^workloads/[^/]+/layers$", "workloads/<net>/layers", name)
            if generic in seen:
                continue
            seen.add(generic)
            d = f[name]
            print(f"### `/{generic}`\n")
            print(text(d.attrs["meaning"]) + ".\n")
            print("```python\n" f'pd.DataFrame(h5py.File("out.h5")["{name}"][()])\n' "```\n")
            print("| field | type | meaning [unit] |\n|---|---|---|")
            for field in d.dtype.names:
                print(f"| `{field}` | {type_name(d.dtype[field])} | {text(d.attrs[field])} |")
            print()


if __name__ == "__main__":
    main(sys.argv[1])
