#!/usr/bin/python3
"""The engine, the tuner and the store see a design-point family only through
family::Family and DesignPoint (docs/architecture.md, "Design-point families"): none of
their files names a parameter of the dram_pim family, its typed parameters or the hw
module. A family's parameters belong to its folder (src/family/<name>/) and to hw.

usage: check_family_seam.py ROOT     (exit 1 and one line per name found)
"""
import os
import re
import sys

MODULES = ("engine", "tuner", "store")
# Table I's seven parameters, their typed struct and the hw module that defines them.
NAMES = re.compile(r"\b(node_rows|node_cols|pe_rows|pe_cols|ibuf_kib|wbuf_kib|obuf_kib|clock_mhz|data_width_bits|HardwareParams)\b"
                   r"|\bhw::|pimdse/hw/")


def paths(root):
    for module in MODULES:
        for base in (os.path.join(root, "src", module), os.path.join(root, "include", "pimdse", module)):
            for here, dirs, files in os.walk(base):
                for f in files:
                    if f.endswith((".cpp", ".hpp")):
                        yield os.path.join(here, f)


def main():
    root = sys.argv[1] if len(sys.argv) > 1 else "."
    found = 0
    for path in sorted(paths(root)):
        with open(path, encoding="utf-8") as f:
            for number, line in enumerate(f, 1):
                m = NAMES.search(line)
                if m:
                    found += 1
                    print(f"{os.path.relpath(path, root)}:{number}: names '{m.group(0)}' of the dram_pim family")
    if found:
        print(f"{found} names of the dram_pim family in {', '.join(MODULES)}: go through family::Family")
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main())
