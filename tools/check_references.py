#!/usr/bin/python3
"""The repository stands alone: no source, test, script or page cites a tracker's issue by
number ("issue 18", "#18" after "issue"), which a reader of the repository cannot open.
Say what the code does and why instead.

usage: check_references.py ROOT     (exit 1 and one line per citation found)
"""
import os
import re
import sys

FOLDERS = ("src", "include", "tests", "docs", "jobs", "postprocess", "python", "tools", "benchmarks", "inputs")
FILES = ("README.md", "CMakeLists.txt", "CMakePresets.json")
CITATION = re.compile(r"\bissues?\s*#?\d+\b", re.IGNORECASE)
SELF = os.path.abspath(__file__)


def paths(root):
    for name in FILES:
        yield os.path.join(root, name)
    for folder in FOLDERS:
        for here, dirs, files in os.walk(os.path.join(root, folder)):
            dirs[:] = [d for d in dirs if not d.startswith((".", "__pycache__"))]
            for f in files:
                yield os.path.join(here, f)


def main():
    root = sys.argv[1] if len(sys.argv) > 1 else "."
    found = 0
    for path in paths(root):
        if os.path.abspath(path) == SELF or not os.path.isfile(path):
            continue
        try:
            text = open(path, encoding="utf-8").read()
        except (UnicodeDecodeError, OSError):
            continue  # binary files (figures, ONNX models)
        for n, line in enumerate(text.splitlines(), 1):
            if CITATION.search(line):
                print(f"{os.path.relpath(path, root)}:{n}: cites an issue by number: {line.strip()}")
                found += 1
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main())
