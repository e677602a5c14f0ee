#!/usr/bin/python3
"""Tests of tools/gibbon_space.py, the writer of Gibbon's search-space candidates
(docs/workloads.md, "Gibbon's search space"); registered in tests/python/CMakeLists.txt.

usage: gibbon_space_test.py --source DIR --work DIR [--pimdse EXE] [unittest arguments]

  SpaceTest          the files alone: Table II's choices, groups dividing channels, the extent
                     through the stages, hand-computed MACs of Figs. 6/7's backbones, a seed's
                     determinism, the `point` line in each header, errors on bad options
  PimdseReadsTest    `pimdse network info` reads candidates without 2x2 kernels, and its per-layer
                     shapes, MACs and weights are those worked out here
  PimdseReadsSepTest the same for candidates with 2x2 kernels (`padding: sep`)

The shapes are worked out by this file's own reading of the generated YAML (one layer per
line), independently of the generator and of pimdse.
"""
import argparse
import filecmp
import os
import re
import shutil
import subprocess
import sys
import unittest

ARGS = None
CHANNELS = {16, 32, 48, 64, 80, 96}
KERNELS = {1, 2, 3}
GROUPS = {1, 2, 4, 8, 16}


def tool(*args, expect=0):
    cmd = ["/usr/bin/python3", os.path.join(ARGS.source, "tools", "gibbon_space.py")] + list(args)
    p = subprocess.run(cmd, capture_output=True, text=True, timeout=300)
    if expect is not None and p.returncode != expect:
        raise AssertionError("%s -> %d, expected %d\n%s%s" % (" ".join(cmd), p.returncode, expect, p.stdout, p.stderr))
    return p


def work(*parts):
    return os.path.join(ARGS.work, *parts)


def fresh(name):
    path = work(name)
    shutil.rmtree(path, ignore_errors=True)
    return path


def value(text):
    text = text.strip()
    if text.startswith("["):
        return [v.strip() for v in text[1:-1].split(",")]
    return int(text) if re.fullmatch(r"-?\d+", text) else text


def layers_of(path):
    """The layers of a generated file: one `  - {key: value, ...}` flow mapping per line."""
    out = []
    with open(path, encoding="utf-8") as f:
        text = f.readlines()
    for line in text:
        m = re.fullmatch(r"  - \{(.*)\}\n", line)
        if not m:
            continue
        fields = re.findall(r"(\w+): (\[[^\]]*\]|[^,]+)", m.group(1))
        out.append({k: value(v) for k, v in fields})
    return out


def shapes(path):
    """Every layer's (C, H, W) in, (K, P, Q) out, MACs and weights, by the rules of
    docs/workloads.md ("Counts"); SEP padding totals k - 1 per dimension."""
    tensors = {"input": (3, 32, 32)}
    last = "input"
    rows = []
    for layer in layers_of(path):
        inputs = layer.get("inputs", last)
        inputs = inputs if isinstance(inputs, list) else [inputs]
        c, h, w = tensors[inputs[0]]
        row = dict(layer, C=c, H=h, W=w, macs=0, weights=0)
        if layer["type"] == "conv":
            k, s, g = layer["kernel"], layer.get("stride", 1), layer.get("groups", 1)
            pad = layer.get("padding", 0)
            total = k - 1 if pad == "sep" else 2 * pad
            p = (h + total - k) // s + 1
            row.update(K=layer["out_channels"], P=p, Q=p, R=k, S=k, groups=g)
            row["weights"] = row["K"] * (c // g) * k * k
            row["macs"] = row["weights"] * p * p
        elif layer["type"] == "add":
            for other in inputs[1:]:
                assert tensors[other] == (c, h, w), "%s: add of %s and %s" % (layer["name"], (c, h, w), tensors[other])
            row.update(K=c, P=h, Q=w, R=1, S=1)
        elif layer["type"] == "pool":  # the baseline's skips and tail: no MACs, no weights
            k = layer.get("kernel", 1)
            p = 1 if layer.get("global") == "true" else (h - k) // layer.get("stride", k) + 1
            row.update(K=c, P=p, Q=p, R=k, S=k)
        elif layer["type"] == "matmul":
            row.update(K=layer["out_features"], C=c * h * w, P=1, Q=1, R=1, S=1)
            row["weights"] = row["macs"] = row["K"] * row["C"]
        else:
            raise AssertionError("unexpected layer type %s" % layer["type"])
        tensors[layer["name"]] = (row["K"], row["P"], row["Q"])
        rows.append(row)
        last = layer["name"]
    return rows


def stage_extents(rows):
    """The output extent of each stage: its last block's add."""
    ends = {}
    for r in rows:
        m = re.fullmatch(r"s(\d)b(\d)\.add", r["name"])
        if m:
            ends[int(m.group(1))] = r["P"]
    return [ends[s] for s in sorted(ends)]


class SpaceTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.random = fresh("random")
        tool("random", "200", "--seed", "11", cls.random)
        cls.files = sorted(os.path.join(cls.random, f) for f in os.listdir(cls.random) if f.endswith(".yaml"))
        cls.backbones = fresh("backbones")
        tool("backbones", cls.backbones)

    def test_choices_are_table_ii(self):
        seen = {"channels": set(), "kernels": set(), "groups": set(), "blocks": set()}
        for path in self.files:
            rows = shapes(path)
            head = rows[0]
            self.assertEqual((head["name"], head["kernel"], head.get("stride", 1)), ("head", 3, 1), path)
            self.assertIn(head["K"], CHANNELS, path)
            blocks = [0] * 5
            for r in rows:
                m = re.fullmatch(r"s(\d)b(\d)\.(a|b|skip)", r["name"])
                if not m:
                    continue
                stage, block, conv = int(m.group(1)), int(m.group(2)), m.group(3)
                blocks[stage - 1] = max(blocks[stage - 1], block)
                self.assertIn(r["K"], CHANNELS, r["name"])
                self.assertIn(r["groups"], GROUPS, r["name"])
                self.assertIn(r["R"], {1} if conv == "skip" else KERNELS, r["name"])
                self.assertEqual(r.get("padding", 0), {1: 0, 2: "sep", 3: 1}[r["R"]], r["name"])
                seen["channels"].add(r["K"])
                seen["kernels"].add(r["R"])
                seen["groups"].add(r["groups"])
            self.assertTrue(all(b in (1, 2) for b in blocks), "%s: blocks per stage %s" % (path, blocks))
            seen["blocks"].update(blocks)
            convs = sum(1 for r in rows if r["type"] == "conv")
            self.assertEqual(convs, 1 + 3 * sum(blocks), path)  # Gibbon: up to 30 block convs
        # 200 candidates draw every value of Table II.
        self.assertEqual(seen, {"channels": CHANNELS, "kernels": KERNELS, "groups": GROUPS, "blocks": {1, 2}})

    def test_groups_divide_channels(self):
        for path in self.files:
            for r in shapes(path):
                if r["type"] == "conv":
                    self.assertEqual(r["C"] % r["groups"], 0, "%s %s" % (path, r["name"]))
                    self.assertEqual(r["K"] % r["groups"], 0, "%s %s" % (path, r["name"]))

    def test_extent_halves_once_per_stage(self):
        for path in self.files + [os.path.join(self.backbones, f) for f in os.listdir(self.backbones)]:
            rows = shapes(path)
            self.assertEqual(rows[0]["P"], 32, path)
            self.assertEqual(stage_extents(rows), [16, 8, 4, 2, 1], path)
            for r in rows:  # only a stage's first block strides; inside a block the extent holds
                m = re.fullmatch(r"s(\d)b(\d)\.(a|skip)", r["name"])
                if m:
                    self.assertEqual(r.get("stride", 1), 2 if m.group(2) == "1" else 1, r["name"])
            fc = rows[-1]
            self.assertEqual((fc["type"], fc["K"]), ("matmul", 10), path)

    def test_backbone_macs_by_hand(self):
        # One block per stage, 64 channels everywhere: the head 64*3*9 * 32^2; the blocks at
        # 16, 8, 4, 2, 1 pixels (sum of squares 341) with conv a and b 64*64*k^2 and the
        # shortcut 64*64 per output pixel; the tail 64*10.
        head, tail, pixels = 64 * 3 * 9 * 32 * 32, 64 * 10, 256 + 64 + 16 + 4 + 1
        for k in (3, 2, 1):
            expected = head + 64 * 64 * (2 * k * k + 1) * pixels + tail
            got = sum(r["macs"] for r in shapes(os.path.join(self.backbones, "gibbon_backbone_k%d_g0.yaml" % k)))
            self.assertEqual(got, expected, "k%d" % k)
        self.assertEqual(expected, 4_190_208 + head + tail)  # k = 1: 64*64*3 * 341
        # 50 %: every 2nd block conv in network order grouped (G = 2 halves its MACs):
        # s1 a, skip; s2 b; s3 a, skip; s4 b; s5 a, skip: per stage 14 or 14.5 x 64*64*pixels.
        half = 64 * 64 * (14 * 256 + 14.5 * 64 + 14 * 16 + 14.5 * 4 + 14 * 1)
        rows = shapes(os.path.join(self.backbones, "gibbon_backbone_k3_g50.yaml"))
        self.assertEqual(sum(r["macs"] for r in rows), head + half + tail)
        self.assertEqual(sum(1 for r in rows if r.get("groups", 1) == 2), 8)
        rows = shapes(os.path.join(self.backbones, "gibbon_backbone_k3_g25.yaml"))
        self.assertEqual([r["name"] for r in rows if r.get("groups", 1) == 2],
                         ["s1b1.a", "s2b1.b", "s3b1.skip", "s5b1.a"])

    def test_baseline_topology_by_hand(self):
        # Fig. 5's baseline, 5-5-5 blocks of one 3x3 conv of 64 channels: 15 block convs, the
        # first of each stage strided (32 -> 16, 8, 4 pixels), each added to its (pooled) input.
        path = work("baseline.yaml")
        tool("baseline", "-o", path)
        rows = shapes(path)
        convs = [r for r in rows if r["type"] == "conv"]
        self.assertEqual(len(convs), 16)  # the head and 15 block convs, as in Fig. 5's comparison
        self.assertEqual([r["P"] for r in rows if r["type"] == "add"], [16] * 5 + [8] * 5 + [4] * 5)
        self.assertEqual([r["name"] for r in convs if r.get("stride", 1) == 2], ["s1b1.conv", "s2b1.conv", "s3b1.conv"])
        head, tail = 64 * 3 * 9 * 32 * 32, 64 * 10
        self.assertEqual(sum(r["macs"] for r in rows), head + 64 * 64 * 9 * 5 * (256 + 64 + 16) + tail)
        # The proposed topology's representative (one block per stage, 3x3) has as many block
        # convs, doing 64*64*(2*9 + 1)*341 MACs against the baseline's 64*64*9*5*336.
        proposed = shapes(os.path.join(self.backbones, "gibbon_backbone_k3_g0.yaml"))
        blocks = [sum(r["macs"] for r in t if re.match(r"s\db", r["name"])) for t in (proposed, rows)]
        self.assertEqual(blocks, [64 * 64 * 19 * 341, 64 * 64 * 45 * 336])
        self.assertEqual(sum(1 for r in proposed if re.match(r"s\db.*\.(a|b|skip)$", r["name"])), 15)
        out = tool("baseline", "--blocks", "1,5,5", expect=2)
        self.assertIn("--blocks: 1 is not a block number of the baseline topology (expected 2 to 10)", out.stderr)

    def test_seed_determines_files(self):
        again, other, prefix = fresh("random_again"), fresh("random_other"), fresh("random_prefix")
        tool("random", "200", "--seed", "11", again)
        tool("random", "200", "--seed", "12", other)
        tool("random", "50", "--seed", "11", prefix)
        names = sorted(os.listdir(self.random))
        self.assertEqual(names, sorted(os.listdir(again)))
        self.assertEqual(filecmp.cmpfiles(self.random, again, names, shallow=False)[0], names)
        others = sorted(os.path.join(other, f) for f in os.listdir(other) if f.endswith(".yaml"))
        self.assertEqual(len(others), 200)
        differ = sum(1 for a, b in zip(self.files, others) if layers_of(a) != layers_of(b))
        self.assertGreater(differ, 190)  # another seed, other candidates
        yaml = sorted(n for n in os.listdir(prefix) if n.endswith(".yaml"))
        self.assertEqual(len(yaml), 50)
        self.assertEqual(filecmp.cmpfiles(self.random, prefix, yaml, shallow=False)[0], yaml)

    def test_header_rewrites_the_file(self):
        for path in self.files[:20]:
            with open(path, encoding="utf-8") as f:
                line = f.read().splitlines()[1]
            self.assertTrue(line.startswith("# Rewrite: /usr/bin/python3 tools/gibbon_space.py point "), line)
            rewritten = work("rewritten.yaml")
            tool(*line.split()[4:], "-o", rewritten)
            self.assertTrue(filecmp.cmp(path, rewritten, shallow=False), path)

    def test_lists_repeat(self):
        out = work("lists.yaml")
        tool("point", "--blocks", "2,2,2,2,2", "--channels", "16,96", "--kernels", "1,2,3", "--groups", "4", "-o", out)
        convs = [r for r in shapes(out) if re.fullmatch(r"s\db\d\.(a|b)", r["name"])]
        self.assertEqual(len(convs), 20)
        self.assertEqual([r["K"] for r in convs], [16, 96] * 10)
        self.assertEqual([r["R"] for r in convs], ([1, 2, 3] * 7)[:20])
        self.assertTrue(all(r["groups"] == 4 for r in shapes(out) if r["name"].startswith("s")
                            and r["type"] == "conv"))

    def test_bad_options_name_the_option_and_the_choices(self):
        cases = [
            (["point", "--kernels", "3,4"],
             "--kernels: 4 is not a kernel size of Gibbon's Table II (expected one of 1, 2, 3)"),
            (["point", "--channels", "20"], "--channels: 20 is not an output channel number"),
            (["point", "--groups", "3"],
             "--groups: 3 is not a group number of Gibbon's Table II (expected one of 1, 2, 4, 8, 16)"),
            (["point", "--blocks", "1,3,1,1,1"], "--blocks: 3 is not a block number"),
            (["point", "--blocks", "1,1,1,1"], "--blocks: expected 5 values, one per stage, got 4"),
            (["point", "--kernels", "1,2,3,1,2,3,1,2,3,1,2"], "--kernels: 11 values for 10 main-branch convolutions"),
            (["point", "--head-channels", "8"], "--head-channels: 8 is not an output channel number"),
            (["point", "--channels", "16,x"], "--channels: expected comma-separated integers, got '16,x'"),
            (["random", "3", "--seed", "1", "--kernel-choices", "5", work("bad")],
             "--kernel-choices: 5 is not a kernel size"),
            (["random", "0", "--seed", "1", work("bad")], "N: expected a number of candidates >= 1, got 0"),
            (["backbones", "--channels", "100", work("bad")], "--channels: 100 is not an output channel number"),
        ]
        for args, message in cases:
            p = tool(*args, expect=2)
            self.assertIn(message, p.stderr, args)


class PimdseReads:
    """`pimdse network info` on each file: its per-layer K C P Q R S, MACs and weights equal
    this file's; every block is a 2-branch segment (residual path | shortcut)."""

    def check(self, files):
        self.assertTrue(ARGS.pimdse, "--pimdse is required")
        self.assertTrue(files)
        for path in files:
            p = subprocess.run([ARGS.pimdse, "network", "info", path], capture_output=True, text=True, timeout=60)
            self.assertEqual(p.returncode, 0, "%s: %s" % (path, p.stderr))
            table, columns = {}, None
            for line in p.stdout.splitlines():
                f = line.split()
                if f and f[0] == "#":
                    columns = {name: i for i, name in enumerate(f)}  # the header names the columns
                elif columns and len(f) == len(columns) and f[0].isdigit():
                    table[f[1]] = [int(f[columns[k]]) for k in ("K", "C", "P", "Q", "R", "S", "MACs", "weights")]
            for r in shapes(path):
                if r["type"] in ("conv", "matmul"):
                    self.assertEqual(table[r["name"]], [r[k] for k in "KCPQRS"] + [r["macs"], r["weights"]],
                                     "%s %s" % (path, r["name"]))
            blocks = sum(1 for r in shapes(path) if r["type"] == "add")
            self.assertIn(" %d multi-branch, max 2 branches" % blocks, p.stdout, path)


class PimdseReadsTest(PimdseReads, unittest.TestCase):
    def test_candidates_without_2x2_kernels(self):
        out = fresh("pimdse_odd")
        tool("random", "30", "--seed", "5", "--kernel-choices", "1,3", out)
        tool("backbones", os.path.join(out, "backbones"))
        files = [os.path.join(out, f) for f in sorted(os.listdir(out)) if f.endswith(".yaml")]
        files += [os.path.join(out, "backbones", "gibbon_backbone_k%d_g%d.yaml" % (k, g))
                  for k in (3, 1) for g in (0, 25, 50)]
        self.assertFalse(any(r["R"] == 2 for path in files for r in shapes(path) if r["type"] == "conv"))
        self.check(files)


class PimdseReadsSepTest(PimdseReads, unittest.TestCase):
    def test_candidates_with_2x2_kernels(self):
        out = fresh("pimdse_sep")
        tool("random", "30", "--seed", "5", out)
        tool("backbones", os.path.join(out, "backbones"))
        files = [os.path.join(out, f) for f in sorted(os.listdir(out)) if f.endswith(".yaml")]
        files += [os.path.join(out, "backbones", "gibbon_backbone_k2_g%d.yaml" % g) for g in (0, 25, 50)]
        sep = [path for path in files if any(r.get("padding") == "sep" for r in shapes(path))]
        self.assertGreater(len(sep), 25)
        self.check(sep)


def main():
    global ARGS
    parser = argparse.ArgumentParser()
    parser.add_argument("--source", required=True)
    parser.add_argument("--work", required=True)
    parser.add_argument("--pimdse")
    ARGS, rest = parser.parse_known_args()
    os.makedirs(ARGS.work, exist_ok=True)
    unittest.main(argv=[sys.argv[0]] + rest, verbosity=2)


if __name__ == "__main__":
    main()
