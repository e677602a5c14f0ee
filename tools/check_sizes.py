#!/usr/bin/python3
"""Size limits of the C++ sources (docs/architecture.md, "Size limits").

Every file under src/ and include/ has at most 600 lines and every function at most 80,
unless tools/size_allowlist.txt names it with a reason. Functions are found by a
brace-matching heuristic: strings, character literals and comments are blanked, then every
outermost '{' whose header (the text since the previous ';', '{' or '}') ends in a
parameter list, optionally followed by qualifiers, a trailing return type or a constructor's
initialiser list, opens a function body; its length runs from the header's first line to
the closing brace. Bodies nested in a function (lambdas, local classes) count towards it.

usage: check_sizes.py SOURCE_DIR [--list]   (--list prints every size, largest first)
       check_sizes.py --self-test           (the heuristic on a tree of known sizes)
Exit status 1 if something exceeds a limit without an allow-list entry, or an entry is stale.
"""

import re
import sys
from pathlib import Path

MAX_FILE_LINES = 600
MAX_FUNCTION_LINES = 80
CONTROL = re.compile(r"^(if|for|while|switch|catch|do|else|try|return)\b")
NOT_FUNCTION = re.compile(r"\b(namespace|struct|class|union|enum)\b[^()]*$")


def blank(text):
    """The text with comments, strings and character literals replaced by spaces (newlines kept)."""
    out = []
    i, n = 0, len(text)
    while i < n:
        c = text[i]
        if text.startswith("//", i):
            j = text.find("\n", i)
            j = n if j < 0 else j
            out.append(" " * (j - i))
            i = j
        elif text.startswith("/*", i):
            j = text.find("*/", i + 2)
            j = n if j < 0 else j + 2
            out.append("".join(ch if ch == "\n" else " " for ch in text[i:j]))
            i = j
        elif c == 'R' and text.startswith('R"', i) and (i == 0 or not (text[i - 1].isalnum() or text[i - 1] == "_")):
            k = text.find("(", i)
            delim = ")" + text[i + 2:k] + '"'
            j = text.find(delim, k)
            j = n if j < 0 else j + len(delim)
            out.append("".join(ch if ch == "\n" else " " for ch in text[i:j]))
            i = j
        elif c in "\"'":
            # A digit separator (1'000) is not a character literal.
            if c == "'" and i > 0 and text[i - 1].isalnum() and i + 1 < n and text[i + 1].isalnum():
                out.append(" ")
                i += 1
                continue
            j = i + 1
            while j < n and text[j] != c:
                j += 2 if text[j] == "\\" else 1
            j = min(j + 1, n)
            out.append(" " * (j - i))
            i = j
        else:
            out.append(c)
            i += 1
    return "".join(out)


def is_function_header(header):
    h = " ".join(header.split())
    if not h or CONTROL.match(h) or NOT_FUNCTION.search(h) or h.startswith("#"):
        return False
    if h.endswith("=") or re.search(r"=\s*$", h):
        return False
    # Strip a constructor's initialiser list: "X(...) : a_(b), c_{d}".
    m = re.match(r"^(.*?\))\s*:(?!:)(.*)$", h)
    if m and not re.search(r"\?\s*[^:]*$", m.group(1)):
        h = m.group(1)
    h = re.sub(r"\s*->\s*[\w:<>,\s*&\[\]]+$", "", h)
    h = re.sub(r"(\s*\b(const|noexcept|override|final|mutable|volatile)\b|\s*&&?)+$", "", h)
    h = re.sub(r"\s*noexcept\s*\(.*\)$", "", h)
    return h.endswith(")") and "(" in h and not re.search(r"\boperator\s*$", h)


def is_init_brace(header):
    """A member's brace initialiser inside a constructor's initialiser list (`: a_{b}`)."""
    h = " ".join(header.split())
    m = re.match(r"^(.*?\))\s*:(?!:)(.*)$", h)
    return bool(m) and not CONTROL.match(h) and re.search(r"[\w>]$", m.group(2).strip() or "(") is not None


def functions(path):
    """(name, first line, line count) of every function body in the file."""
    text = blank(path.read_text(encoding="utf-8", errors="replace"))
    found = []
    depth_stack = []  # per open brace: True if it opened a function body
    header_start = 0
    in_function = 0
    line = 1
    for i, c in enumerate(text):
        if c == "\n":
            line += 1
        elif c == "{":
            header = text[header_start:i]
            if in_function == 0 and is_init_brace(header):
                depth_stack.append(("i", 0, ""))
                continue
            opens = in_function == 0 and is_function_header(header)
            if opens:
                first = header_start + len(header) - len(header.lstrip())
                start_line = text.count("\n", 0, first) + 1
                name = re.sub(r"\s+", " ", header.strip().split("(")[0]).split(" ")[-1]
                depth_stack.append(("f", start_line, name))
                in_function += 1
            else:
                depth_stack.append(("b", 0, ""))
                if in_function:
                    in_function += 1
            header_start = i + 1
        elif c == "}":
            if depth_stack:
                kind, start_line, name = depth_stack.pop()
                if kind == "i":
                    continue  # the initialiser is part of the constructor's header
                if in_function:
                    in_function -= 1
                if kind == "f":
                    found.append((name, start_line, line - start_line + 1))
            header_start = i + 1
        elif c == ";":
            header_start = i + 1
    return found


def load_allowlist(root):
    entries = {}
    path = root / "tools" / "size_allowlist.txt"
    if not path.exists():
        return entries
    for raw in path.read_text().splitlines():
        text = raw.split("#", 1)[0].strip()
        if text:
            entries[text] = raw
    return entries


def self_test():
    """The heuristic against hand-counted sizes; returns the number of mismatches."""
    import tempfile
    body = "\n".join(f"    x += {i};" for i in range(78))
    source = (
        "namespace a {\n"                                    # 1
        "struct S {\n"                                       # 2
        "    int get() const { return 1; }\n"                # 3: 1 line
        "};\n"                                               # 4
        "S::S(int v) : v_(v), w_{v} {\n"                     # 5: 3 lines
        "    call(\"{\", '}');  // }\n"                      # 6
        "}\n"                                                # 7
        "int long_one(int x)\n"                              # 8: 81 lines (8..88)
        "{\n"                                                # 9
        f"{body}\n"                                          # 10..87
        "}\n"                                                # 88
        "auto f(int x) -> int {\n"                           # 89: 6 lines (89..94)
        "    auto g = [&](int y) {\n"
        "        return y;\n"
        "    };\n"
        "    if (x) { return g(x); } return 0;\n"
        "}\n"
        "}  // namespace a\n")
    expected = [("get", 3, 1), ("S::S", 5, 3), ("long_one", 8, 81), ("f", 89, 6)]
    with tempfile.TemporaryDirectory() as d:
        path = Path(d) / "t.cpp"
        path.write_text(source)
        got = functions(path)
    if got != expected:
        print(f"self-test: expected {expected}, got {got}")
        return 1
    print("self-test ok")
    return 0


def main(argv):
    if len(argv) == 2 and argv[1] == "--self-test":
        return self_test()
    if len(argv) < 2:
        print(__doc__)
        return 2
    root = Path(argv[1])
    listing = "--list" in argv
    allow = load_allowlist(root)
    used = set()
    violations = []
    sizes = []
    for path in sorted(list((root / "src").rglob("*.[ch]pp")) + list((root / "include").rglob("*.hpp"))):
        rel = path.relative_to(root).as_posix()
        lines = path.read_text(encoding="utf-8", errors="replace").count("\n")
        sizes.append((lines, rel))
        if lines > MAX_FILE_LINES:
            if rel in allow:
                used.add(rel)
            else:
                violations.append(f"{rel}: {lines} lines (at most {MAX_FILE_LINES})")
        for name, first, count in functions(path):
            key = f"{rel}:{name}"
            sizes.append((count, f"{rel}:{first} {name}"))
            if count > MAX_FUNCTION_LINES:
                if key in allow:
                    used.add(key)
                else:
                    violations.append(f"{rel}:{first}: function {name} has {count} lines (at most {MAX_FUNCTION_LINES})")
    if listing:
        for count, what in sorted(sizes, reverse=True)[:60]:
            print(f"{count:6d} {what}")
    stale = sorted(set(allow) - used)
    for key in stale:
        violations.append(f"tools/size_allowlist.txt: '{key}' is within the limits now; remove the entry")
    for v in violations:
        print(v)
    if violations:
        print(f"{len(violations)} size violation(s); split the code or, with a reason, add it to "
              "tools/size_allowlist.txt (docs/architecture.md, \"Size limits\")")
        return 1
    print(f"sizes ok: files <= {MAX_FILE_LINES} lines, functions <= {MAX_FUNCTION_LINES} lines "
          f"({len(used)} allow-listed)")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
