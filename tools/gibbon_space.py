#!/usr/bin/env python3
"""Write networks of Gibbon's NN structure search space as network files (docs/workloads.md,
"Gibbon's search space").

Gibbon is Sun et al., "Gibbon: An Efficient Co-Exploration Framework of NN Model and
Processing-In-Memory Architecture", IEEE TCAD 2023. A candidate (Section IV-A, Fig. 4 right)
is a head conv + ReLU, five stages of one or two basic blocks, and a fully connected tail,
on 32x32 CIFAR inputs. The first block of every stage halves the feature map (32 -> 16, 8,
4, 2, 1 pixels). A block is

    x -> conv a (stride 2 in a stage's first block) -> ReLU -> conv b --+-> add -> ReLU
    x -> pointwise conv (the same stride; aligns the channels) --------+

three convolutions (Section I, footnote 1: "up to 30 convolutional layers" = 5 x 2 x 3).
Table II's choices: blocks per stage {1, 2}; output channels {16, 32, 48, 64, 80, 96};
kernel size {1, 2, 3}; group number {1, 2, 4, 8, 16}. Here they apply as follows:
  * output channels: the head and both main-branch convs (the shortcut has conv b's, for the add);
  * kernel size: both main-branch convs (the shortcut is pointwise, the head a 3x3 conv);
  * group number: all three convs of a block (the head reads 3 channels).
Every channel choice is a multiple of 16, so every group number divides every channel count.
A 2x2 kernel pads with Gibbon's statistical equilibrium padding (SEP, Section IV-B), written
`padding: sep`: one extra row and column on a side drawn per feature map, so the total
padding is k - 1 = 1 and a stride-1 conv keeps its input's extent. Odd kernels pad (k - 1) / 2
on each side. Batch norm is folded into every conv (library conventions, tools/gen_networks.py).

usage:
  gibbon_space.py point [--blocks B,B,B,B,B] [--head-channels C] [--channels LIST]
                        [--kernels LIST] [--groups LIST] [--name NAME] [-o FILE]
  gibbon_space.py random N --seed S [--block-choices SET] [--channel-choices SET]
                         [--kernel-choices SET] [--group-choices SET] OUTDIR
  gibbon_space.py backbones [--channels C] OUTDIR
  gibbon_space.py baseline [--blocks N,N,N] [--channels C] [--kernel K] [--name NAME] [-o FILE]

`point` writes one candidate (standard output without -o). LIST options give one value per
convolution in network order: --channels and --kernels cover the main-branch convs (a, b of
block 1, a, b of block 2, ...), --groups every block conv (a, b, shortcut of block 1, ...);
a shorter list repeats from its start, so one value sets them all.
`random` draws N candidates uniformly from Table II's choices (or the subsets given) with
Python's random.Random(S) and writes OUTDIR/gibbon_sS_I.yaml (I from 0) and OUTDIR/points.csv,
each candidate's `point` options; the first K candidates of `random N` are those of `random K`.
`backbones` writes the fixed topologies Gibbon's Figs. 6 and 7 compare: one block per stage,
every conv C channels (default 64), all 3x3, all 2x2 (SEP) or all 1x1 kernels, with 0 %,
25 % or 50 % of the block convs grouped with G = 2.
`baseline` writes a candidate of the baseline topology Gibbon's Fig. 5 compares with its own
(Section IV-A, Fig. 4 left, after NAS4RRAM): the same head and tail, three stages of N basic
blocks (default 5, 5, 5: the representative candidate's 15 convolutions), each block one
conv of C channels and K x K kernels added to its input; a stage's first block halves the
feature map (32 -> 16, 8, 4 pixels) and its skip is a 2x2 average pool (the paper leaves the
skip's downsampling unsaid; a pool has no weights, so on crossbars it costs nothing), then a
global average pool before the tail. NAS4RRAM's HardTanh after each conv is omitted (not a
pimdse activation; unweighted layers are not costed on crossbars).
"""

import argparse
import csv
import os
import random
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from gen_networks import CIFAR10_INPUT, Net, conv  # noqa: E402  (the library's writer)

# Table II of Gibbon ("NN structure and PIM-related search space"), the NN structure rows.
BLOCKS = (1, 2)
CHANNELS = (16, 32, 48, 64, 80, 96)
KERNELS = (1, 2, 3)
GROUPS = (1, 2, 4, 8, 16)
STAGES = 5
HEAD_KERNEL = 3
CLASSES = 10

SOURCE = ("H. Sun et al., Gibbon: An Efficient Co-Exploration Framework of NN Model and Processing-In-Memory "
          "Architecture, IEEE TCAD 2023, Section IV-A (Fig. 4, the proposed topology and basic block), "
          "Section IV-B (SEP padding) and Table II (NN structure search space)")


class SpaceError(Exception):
    """A choice outside Table II or a list that does not fit the candidate."""


def parse_ints(option, text):
    try:
        values = [int(v) for v in text.split(",")]
    except ValueError:
        raise SpaceError("%s: expected comma-separated integers, got '%s'" % (option, text))
    return values


def check_choices(option, values, allowed, what):
    for v in values:
        if v not in allowed:
            raise SpaceError("%s: %d is not %s of Gibbon's Table II (expected one of %s)" %
                             (option, v, what, ", ".join(str(a) for a in allowed)))
    return values


def cycled(option, values, count, what):
    if len(values) > count:
        raise SpaceError("%s: %d values for %d %s; give at most %d (a shorter list repeats from its start)" %
                         (option, len(values), count, what, count))
    return [values[i % len(values)] for i in range(count)]


class Point:
    """One candidate: blocks per stage, the head's channels, per main-branch conv (a, b of each
    block in order) channels and kernel, per block conv (a, b, shortcut) group number."""

    def __init__(self, blocks, head_channels, channels, kernels, groups):
        self.blocks = check_choices("--blocks", blocks, BLOCKS, "a block number")
        if len(blocks) != STAGES:
            raise SpaceError("--blocks: expected %d values, one per stage, got %d" % (STAGES, len(blocks)))
        self.head_channels = check_choices("--head-channels", [head_channels], CHANNELS, "an output channel number")[0]
        n = sum(blocks)
        self.channels = cycled("--channels", check_choices("--channels", channels, CHANNELS,
                                                           "an output channel number"), 2 * n,
                               "main-branch convolutions (2 per block)")
        self.kernels = cycled("--kernels", check_choices("--kernels", kernels, KERNELS, "a kernel size"), 2 * n,
                              "main-branch convolutions (2 per block)")
        self.groups = cycled("--groups", check_choices("--groups", groups, GROUPS, "a group number"), 3 * n,
                             "block convolutions (3 per block)")

    def options(self):
        """The `point` options that write this candidate."""
        return ["--blocks", joined(self.blocks), "--head-channels", str(self.head_channels),
                "--channels", joined(self.channels), "--kernels", joined(self.kernels), "--groups", joined(self.groups)]


def joined(values):
    return ",".join(str(v) for v in values)


def padding_of(kernel):
    return "sep" if kernel % 2 == 0 else (kernel - 1) // 2


def block_conv(net, name, out, kernel, stride, groups, inputs=None, activation=None):
    """A block's conv: Gibbon's padding, group number written when above 1, batch norm folded."""
    return conv(net, name, out, kernel, stride=stride, padding=padding_of(kernel), inputs=inputs,
                groups=groups if groups != 1 else None, activation=activation)


def build(point, name, notes=()):
    """The candidate as a Net of tools/gen_networks.py."""
    header = ["a candidate of Gibbon's search space, written by tools/gibbon_space.py.",
              "Rewrite: /usr/bin/python3 tools/gibbon_space.py point " + " ".join(point.options()) +
              " --name " + name]
    net = Net(name, "Gibbon search-space candidate, blocks %s, 32x32 RGB, %d classes" %
              ("-".join(str(b) for b in point.blocks), CLASSES), SOURCE, CIFAR10_INPUT, notes, header)
    net.comment("head: %dx%d conv to %d channels, ReLU" % (HEAD_KERNEL, HEAD_KERNEL, point.head_channels))
    x = conv(net, "head", point.head_channels, HEAD_KERNEL)
    block = 0
    for stage, count in enumerate(point.blocks, start=1):
        for j in range(1, count + 1):
            ca, cb = point.channels[2 * block], point.channels[2 * block + 1]
            ka, kb = point.kernels[2 * block], point.kernels[2 * block + 1]
            ga, gb, gs = point.groups[3 * block:3 * block + 3]
            stride = 2 if j == 1 else 1
            p = "s%db%d" % (stage, j)
            net.comment("%s: conv %dx%d/%d -> %d (g%d), ReLU, conv %dx%d -> %d (g%d); shortcut 1x1/%d (g%d)" %
                        (p, ka, ka, stride, ca, ga, kb, kb, cb, gb, stride, gs))
            block_conv(net, p + ".a", ca, ka, stride, ga, inputs=x, activation="relu")
            b = block_conv(net, p + ".b", cb, kb, 1, gb)
            s = block_conv(net, p + ".skip", cb, 1, stride, gs, inputs=x)
            x = net.layer(p + ".add", "add", [b, s], activation="relu")
            block += 1
    net.comment("tail: fully connected, %d x 1 x 1 -> %d" % (point.channels[-1], CLASSES))
    net.layer("fc", "matmul", out_features=CLASSES, bias=True)
    return net


def write(net, path):
    directory = os.path.dirname(path)
    if directory:
        os.makedirs(directory, exist_ok=True)
    with open(path, "w", encoding="utf-8", newline="\n") as f:
        f.write(net.render())


def draw(rng, blocks, channels, kernels, groups):
    """One candidate: the stages' block numbers, the head, then per block a (channels, kernel,
    groups), b (channels, kernel, groups), shortcut groups, each uniform over its choices."""
    counts = [rng.choice(blocks) for _ in range(STAGES)]
    head = rng.choice(channels)
    cs, ks, gs = [], [], []
    for _ in range(sum(counts)):
        for _conv in ("a", "b"):
            cs.append(rng.choice(channels))
            ks.append(rng.choice(kernels))
            gs.append(rng.choice(groups))
        gs.append(rng.choice(groups))
    return Point(counts, head, cs, ks, gs)


def random_points(args):
    choices = [check_choices(option, parse_ints(option, text), allowed, what)
               for option, text, allowed, what in (
                   ("--block-choices", args.block_choices, BLOCKS, "a block number"),
                   ("--channel-choices", args.channel_choices, CHANNELS, "an output channel number"),
                   ("--kernel-choices", args.kernel_choices, KERNELS, "a kernel size"),
                   ("--group-choices", args.group_choices, GROUPS, "a group number"))]
    if args.count < 1:
        raise SpaceError("N: expected a number of candidates >= 1, got %d" % args.count)
    rng = random.Random(args.seed)
    width = max(3, len(str(args.count - 1)))
    os.makedirs(args.outdir, exist_ok=True)
    rows = []
    for i in range(args.count):
        point = draw(rng, *choices)
        name = "gibbon_s%d_%0*d" % (args.seed, width, i)
        write(build(point, name), os.path.join(args.outdir, name + ".yaml"))
        rows.append([name] + point.options()[1::2])
    with open(os.path.join(args.outdir, "points.csv"), "w", encoding="utf-8", newline="") as f:
        out = csv.writer(f, lineterminator="\n")
        out.writerow(["network", "blocks", "head_channels", "channels", "kernels", "groups"])
        out.writerows(rows)


# Figs. 6 and 7: the representative candidate (one block per stage, "every convolutional
# operation ... has the same input and output channel numbers and kernel sizes", 15 block
# convs); Fig. 7's grouped convs have G = 2. 25 % and 50 % of 15 convs are not whole: every
# 4th (4 convs, 27 %) and every 2nd (8 convs, 53 %) block conv in network order is grouped.
BACKBONE_GROUPS = {0: [1], 25: [2, 1, 1, 1], 50: [2, 1]}


def backbones(args):
    check_choices("--channels", [args.channels], CHANNELS, "an output channel number")
    for kernel in (3, 2, 1):
        for percent, groups in BACKBONE_GROUPS.items():
            name = "gibbon_backbone_k%d_g%d" % (kernel, percent)
            point = Point([1] * STAGES, args.channels, [args.channels], [kernel], groups)
            notes = ["The representative candidate of Gibbon's Figs. 6 and 7: %dx%d kernels%s, %d %% of the" %
                     (kernel, kernel, " (SEP padding)" if kernel == 2 else "", percent),
                     "block convs grouped with G = 2 (%d of 15)." % sum(1 for g in point.groups if g != 1)]
            write(build(point, name, notes), os.path.join(args.outdir, name + ".yaml"))


# Fig. 5's baseline: NAS4RRAM's topology as Gibbon describes it (Section IV-A), 2 to 10 blocks
# per stage.
BASELINE_STAGES = 3
BASELINE_BLOCKS = range(2, 11)


def baseline(blocks, channels, kernel, name):
    """The baseline topology's candidate as a Net: head, three stages of one-conv blocks, tail."""
    for b in blocks:
        if b not in BASELINE_BLOCKS:
            raise SpaceError("--blocks: %d is not a block number of the baseline topology (expected 2 to 10)" % b)
    if len(blocks) != BASELINE_STAGES:
        raise SpaceError("--blocks: expected %d values, one per stage, got %d" % (BASELINE_STAGES, len(blocks)))
    check_choices("--channels", [channels], CHANNELS, "an output channel number")
    check_choices("--kernel", [kernel], KERNELS, "a kernel size")
    header = ["a candidate of the baseline topology of Gibbon's Fig. 5, written by tools/gibbon_space.py.",
              "Rewrite: /usr/bin/python3 tools/gibbon_space.py baseline --blocks %s --channels %d --kernel %d"
              " --name %s" % (joined(blocks), channels, kernel, name)]
    net = Net(name, "Gibbon's baseline topology (NAS4RRAM), blocks %s, 32x32 RGB, %d classes" %
              ("-".join(str(b) for b in blocks), CLASSES), SOURCE + "; the baseline topology of Fig. 4 (left)",
              CIFAR10_INPUT, [], header)
    net.comment("head: %dx%d conv to %d channels, ReLU" % (HEAD_KERNEL, HEAD_KERNEL, channels))
    x = conv(net, "head", channels, HEAD_KERNEL)
    for stage, count in enumerate(blocks, start=1):
        for j in range(1, count + 1):
            stride = 2 if j == 1 else 1
            p = "s%db%d" % (stage, j)
            net.comment("%s: conv %dx%d/%d -> %d, added to its input%s" %
                        (p, kernel, kernel, stride, channels, " pooled 2x2" if stride == 2 else ""))
            y = block_conv(net, p + ".conv", channels, kernel, stride, 1, inputs=x)
            skip = net.layer(p + ".down", "pool", [x], mode="avg", kernel=2) if stride == 2 else x
            x = net.layer(p + ".add", "add", [y, skip])
    net.comment("tail: global average pool, fully connected %d -> %d" % (channels, CLASSES))
    net.layer("gap", "pool", mode="avg", **{"global": True})
    net.layer("fc", "matmul", out_features=CLASSES, bias=True)
    return net


def parser():
    p = argparse.ArgumentParser(prog="gibbon_space.py", description=__doc__,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = p.add_subparsers(dest="command", required=True)
    point = sub.add_parser("point", help="write one candidate")
    point.add_argument("--blocks", default="1,1,1,1,1", help="blocks per stage, five values in {1, 2}")
    point.add_argument("--head-channels", type=int, default=64, help="the head conv's output channels")
    point.add_argument("--channels", default="64", help="main-branch convs' output channels (a list repeats)")
    point.add_argument("--kernels", default="3", help="main-branch convs' kernel sizes (a list repeats)")
    point.add_argument("--groups", default="1", help="block convs' group numbers, a, b, shortcut (a list repeats)")
    point.add_argument("--name", default="gibbon_point", help="the network's name")
    point.add_argument("-o", "--output", help="the network file to write (default: standard output)")
    rnd = sub.add_parser("random", help="write N candidates drawn with a seed")
    rnd.add_argument("count", type=int, metavar="N")
    rnd.add_argument("--seed", type=int, required=True)
    rnd.add_argument("--block-choices", default="1,2")
    rnd.add_argument("--channel-choices", default=joined(CHANNELS))
    rnd.add_argument("--kernel-choices", default="1,2,3")
    rnd.add_argument("--group-choices", default=joined(GROUPS))
    rnd.add_argument("outdir", metavar="OUTDIR")
    fixed = sub.add_parser("backbones", help="write the fixed topologies of Gibbon's Figs. 6 and 7")
    fixed.add_argument("--channels", type=int, default=64, help="every conv's output channels")
    fixed.add_argument("outdir", metavar="OUTDIR")
    base = sub.add_parser("baseline", help="write a candidate of Fig. 5's baseline topology")
    base.add_argument("--blocks", default="5,5,5", help="blocks per stage, three values in 2..10")
    base.add_argument("--channels", type=int, default=64, help="every conv's output channels")
    base.add_argument("--kernel", type=int, default=3, help="every block conv's kernel size")
    base.add_argument("--name", default="gibbon_baseline", help="the network's name")
    base.add_argument("-o", "--output", help="the network file to write (default: standard output)")
    return p


def main(argv):
    p = parser()
    args = p.parse_args(argv[1:])
    try:
        if args.command == "point":
            point = Point(parse_ints("--blocks", args.blocks), args.head_channels,
                          parse_ints("--channels", args.channels), parse_ints("--kernels", args.kernels),
                          parse_ints("--groups", args.groups))
            net = build(point, args.name)
            if args.output:
                write(net, args.output)
            else:
                sys.stdout.write(net.render())
        elif args.command == "random":
            random_points(args)
        elif args.command == "baseline":
            net = baseline(parse_ints("--blocks", args.blocks), args.channels, args.kernel, args.name)
            if args.output:
                write(net, args.output)
            else:
                sys.stdout.write(net.render())
        else:
            backbones(args)
    except SpaceError as e:
        p.error(str(e))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
