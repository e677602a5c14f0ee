// Asymmetric and SEP padding (docs/workloads.md): output extents and the input rows each
// output row reads, worked out by hand; the network file's `padding_end` and `padding: sep`,
// written back and read again; and the errors of bad padding.
#include <gtest/gtest.h>

#include <string>
#include <utility>

#include "pimdse/core/error.hpp"
#include "pimdse/io/network_file.hpp"
#include "pimdse/workload/builder.hpp"

namespace pimdse::workload {
namespace {

using Rows = std::pair<std::int64_t, std::int64_t>;

Network parse(const std::string& layers, std::int64_t extent = 32) {
    const std::string e = std::to_string(extent);
    return io::parse_network(
        "network: t\ninput: {channels: 4, height: " + e + ", width: " + e + "}\nlayers:\n" + layers,
        "pad.yaml");
}

std::string refusal(const std::string& layers) {
    try {
        (void)parse(layers);
    } catch (const InputError& e) {
        return e.what();
    }
    return "accepted";
}

TEST(Padding, WindowExtentAddsBothSides) {
    // floor((8 + 0 + 1 - 3) / 2) + 1 = 4; symmetric 0: floor(5 / 2) + 1 = 3.
    EXPECT_EQ(window_extent(8, 3, 2, 0, 1), 4);
    EXPECT_EQ(window_extent(8, 3, 2, 0, 0), 3);
    EXPECT_EQ(window_extent(8, 3, 2, 1, 0), 4);
    // Ceil mode drops a last window that starts in the end padding: 7 + 0 + 2 - 2 = 7 ->
    // ceil(7 / 2) + 1 = 5, but window 4 would start at 8 >= 7 + 0: 4.
    EXPECT_EQ(window_extent(7, 2, 2, 0, 2, true), 4);
    // The padding before instead: window 4 starts at 8 < 7 + 2, inside the input: kept.
    EXPECT_EQ(window_extent(7, 2, 2, 2, 0, true), 5);
}

TEST(Padding, AsymmetricConvExtentAndInputRows) {
    // 3x3, stride 2 on 8x8, nothing before and one row (column) after: floor((8 + 1 - 3) / 2)
    // + 1 = 4 outputs; output row r reads rows [2r, 2r + 3) clipped to 8.
    const Network net =
        parse("  - {name: c, type: conv, out_channels: 4, kernel: 3, stride: 2, padding_end: 1}\n", 8);
    const Layer& l = net.layer(0);
    EXPECT_EQ(std::vector<std::int64_t>({l.pad_h, l.pad_w, l.pad_h_end, l.pad_w_end}),
              std::vector<std::int64_t>({0, 0, 1, 1}));
    EXPECT_EQ(l.P, 4);
    EXPECT_EQ(l.Q, 4);
    EXPECT_EQ(l.input_rows(0, 1, false), Rows(0, 3));
    EXPECT_EQ(l.input_rows(3, 4, false), Rows(6, 8));  // rows 6, 7 and the padding row
    EXPECT_EQ(l.input_rows(0, 4, true), Rows(0, 8));
    EXPECT_EQ(l.macs(), 4LL * 4 * 4 * 4 * 9);
    // Symmetric padding 1 gives the same extent but reads one row higher: [5, 8) for row 3.
    const Network sym =
        parse("  - {name: c, type: conv, out_channels: 4, kernel: 3, stride: 2, padding: 1}\n", 8);
    EXPECT_EQ(sym.layer(0).P, 4);
    EXPECT_EQ(sym.layer(0).input_rows(3, 4, false), Rows(5, 8));
    EXPECT_EQ(sym.layer(0).pad_h_end, 1);  // padding_end defaults to padding
}

TEST(Padding, BeginAndEndPerDimension) {
    // [0, 1] before, [1, 0] after on 32x32 with a 2x2 kernel: P = 32 + 0 + 1 - 2 + 1 = 32,
    // Q = 32 + 1 + 0 - 2 + 1 = 32. Row 31 reads [31, 32); column 0 reads [0, 1) (the padding
    // column first).
    const Network net = parse(
        "  - {name: c, type: conv, out_channels: 4, kernel: 2, padding: [0, 1], padding_end: [1, 0]}\n");
    const Layer& l = net.layer(0);
    EXPECT_EQ(l.output_shape(), (TensorShape{4, 32, 32}));
    EXPECT_EQ(l.input_rows(31, 32, false), Rows(31, 32));
    EXPECT_EQ(l.input_rows(0, 1, false), Rows(0, 2));
    EXPECT_EQ(l.input_rows(0, 1, true), Rows(0, 1));
    EXPECT_EQ(l.input_rows(31, 32, true), Rows(30, 32));
}

TEST(Padding, SepKeepsTheExtentOfATwoByTwoConv) {
    // SEP on a 2x2 kernel: one row (column) in all, the geometry 0 before and 1 after;
    // 32 + 1 - 2 + 1 = 32 at stride 1 (Gibbon IV-A).
    const Network net = parse("  - {name: c, type: conv, out_channels: 8, kernel: 2, padding: sep}\n");
    const Layer& l = net.layer(0);
    EXPECT_TRUE(l.sep_padding);
    EXPECT_EQ(l.output_shape(), (TensorShape{8, 32, 32}));
    EXPECT_EQ(std::vector<std::int64_t>({l.pad_h, l.pad_w, l.pad_h_end, l.pad_w_end}),
              std::vector<std::int64_t>({0, 0, 1, 1}));
    EXPECT_EQ(l.input_rows(0, 1, false), Rows(0, 2));
    EXPECT_EQ(l.input_rows(31, 32, false), Rows(31, 32));  // the padding row is not read
    EXPECT_EQ(l.macs(), 8LL * 4 * 32 * 32 * 4);
    // Stride 2: floor((32 + 1 - 2) / 2) + 1 = 16; a 4x4 kernel: 1 before, 2 after, 32 out.
    EXPECT_EQ(
        parse("  - {name: c, type: conv, out_channels: 8, kernel: 2, stride: 2, padding: sep}\n").layer(0).P,
        16);
    const Layer four =
        parse("  - {name: c, type: conv, out_channels: 8, kernel: 4, padding: sep}\n").layer(0);
    EXPECT_EQ(std::pair(four.pad_h, four.pad_h_end), Rows(1, 2));
    EXPECT_EQ(four.P, 32);
    // A dilated 2x2 kernel spans 3 rows: one before and one after.
    const Layer dilated =
        parse("  - {name: c, type: conv, out_channels: 8, kernel: 2, dilation: 2, padding: sep}\n").layer(0);
    EXPECT_EQ(std::pair(dilated.pad_h, dilated.pad_h_end), Rows(1, 1));
    EXPECT_EQ(dilated.P, 32);
}

TEST(Padding, SepOnAnOddKernelIsTheSymmetricPadding) {
    // Gibbon's search space mixes 1x1, 2x2 and 3x3 convolutions under one padding rule; an
    // odd span has no odd row to place, so SEP is (k - 1) / 2 on both sides.
    const Network sep = parse("  - {name: c, type: conv, out_channels: 8, kernel: [3, 1], padding: sep}\n");
    const Network sym =
        parse("  - {name: c, type: conv, out_channels: 8, kernel: [3, 1], padding: [1, 0]}\n");
    const Layer& a = sep.layer(0);
    const Layer& b = sym.layer(0);
    EXPECT_EQ(std::vector<std::int64_t>({a.pad_h, a.pad_w, a.pad_h_end, a.pad_w_end, a.P, a.Q}),
              std::vector<std::int64_t>({b.pad_h, b.pad_w, b.pad_h_end, b.pad_w_end, b.P, b.Q}));
    EXPECT_TRUE(a.sep_padding);
    EXPECT_FALSE(b.sep_padding);
}

TEST(Padding, PoolTakesPaddingEnd) {
    // TensorFlow's SAME 3x3/2 max pool on 8x8: 0 before, 1 after, 4 outputs.
    const Network net =
        parse("  - {name: p, type: pool, mode: max, kernel: 3, stride: 2, padding_end: 1}\n", 8);
    EXPECT_EQ(net.layer(0).P, 4);
    EXPECT_EQ(net.layer(0).input_rows(3, 4, false), Rows(6, 8));
}

TEST(Padding, RoundTripsThroughTheNetworkFile) {
    const Network net = parse(
        "  - {name: a, type: conv, out_channels: 4, kernel: 2, padding: sep}\n"
        "  - {name: b, type: conv, out_channels: 4, kernel: 3, stride: 2, padding: [1, 0], padding_end: [0, "
        "1]}\n"
        "  - {name: c, type: conv, out_channels: 4, kernel: 3, padding: 1}\n"
        "  - {name: d, type: pool, mode: avg, kernel: 2, stride: 2, padding_end: [1, 0]}\n");
    const std::string text = io::emit_network(net);
    EXPECT_NE(
        text.find("name: a, type: conv, inputs: input, out_channels: 4, kernel: 2, stride: 1, padding: sep}"),
        std::string::npos)
        << text;
    EXPECT_NE(text.find("padding: [1, 0], padding_end: [0, 1]"), std::string::npos) << text;
    EXPECT_NE(text.find("kernel: 3, stride: 1, padding: 1}"), std::string::npos)
        << text;  // symmetric: no end
    EXPECT_NE(text.find("stride: 2, padding_end: [1, 0]}"), std::string::npos) << text;
    const Network again = io::parse_network(text, "emitted.yaml");
    ASSERT_EQ(again.size(), net.size());
    for (LayerIndex i = 0; i < net.size(); ++i) {
        const Layer& x = net.layer(i);
        const Layer& y = again.layer(i);
        EXPECT_EQ(std::vector<std::int64_t>({x.pad_h, x.pad_w, x.pad_h_end, x.pad_w_end, x.P, x.Q}),
                  std::vector<std::int64_t>({y.pad_h, y.pad_w, y.pad_h_end, y.pad_w_end, y.P, y.Q}))
            << x.name;
        EXPECT_EQ(x.sep_padding, y.sep_padding) << x.name;
    }
    EXPECT_EQ(io::emit_network(again), text);
}

TEST(Padding, BadPaddingSaysWhatIsExpected) {
    const std::pair<const char*, const char*> cases[] = {
        {"  - {name: c, type: conv, out_channels: 4, kernel: 2, padding: same}\n",
         "pad.yaml:4: key 'layers[0].padding': expected an integer in [0, 2147483647], a list [height, "
         "width] "
         "or sep, got same"},
        {"  - {name: c, type: conv, out_channels: 4, kernel: 2, padding: sep, padding_end: 1}\n",
         "pad.yaml:4: key 'layers[0].padding_end': padding: sep takes no padding_end"},
        {"  - {name: c, type: conv, out_channels: 4, kernel: 2, padding_end: -1}\n",
         "pad.yaml:4: key 'layers[0].padding_end': expected an integer in [0, 2147483647], got -1"},
        {"  - {name: p, type: pool, mode: max, kernel: 2, padding: sep}\n",
         "pad.yaml:4: key 'layers[0].padding': SEP padding (padding: sep) applies to conv layers only"},
        {"  - {name: p, type: pool, mode: max, global: true, padding_end: 1}\n",
         "pad.yaml:4: key 'layers[0].padding_end': a global pool covers the whole input; 'padding_end' does "
         "not apply"},
        {"  - {name: c, type: conv, out_channels: 4, kernel: 40, padding_end: 3}\n",
         "pad.yaml:4: key 'layers[0].kernel': layer 'c': kernel 40x40 does not fit the padded input 35x35"},
        {"  - {name: u, type: upsample, scale: 2, padding_end: 1}\n",
         "pad.yaml:4: key 'layers[0].padding_end': expected a key among name, type, inputs, scale, mode, got "
         "'padding_end'"},
    };
    for (const auto& [layers, message] : cases) {
        const std::string got = refusal(layers);
        EXPECT_EQ(got.rfind(message, 0), 0u) << "got:  " << got << "\nwant: " << message;
    }
}

TEST(Padding, HandBuiltLayersAreChecked) {
    // A layer list given whole (not through the builder) is checked the same way.
    const Network net = parse(
        "  - {name: c, type: conv, out_channels: 4, kernel: 2, padding: sep}\n"
        "  - {name: p, type: pool, mode: max, kernel: 2}\n",
        8);
    const auto refused = [&](auto change) -> std::string {
        std::vector<Layer> layers(net.layers().begin(), net.layers().end());
        change(layers);
        try {
            (void)Network(net.info(), net.batch(), net.input(), layers);
        } catch (const InputError& e) {
            return e.what();
        }
        return "accepted";
    };
    const auto has = [](const std::string& text, const std::string& part) {
        return text.find(part) != std::string::npos;
    };
    std::string m = refused([](std::vector<Layer>& l) { std::swap(l[0].pad_h, l[0].pad_h_end); });
    EXPECT_TRUE(has(m,
                    "key 'layers[0].padding': layer 'c': SEP padding of a window spanning 2 rows is 0 "
                    "before and 1 after"))
        << m;
    m = refused([](std::vector<Layer>& l) { l[1].sep_padding = true; });
    EXPECT_TRUE(has(m, "key 'layers[1].padding': layer 'p': only conv layers have SEP padding")) << m;
    m = refused([](std::vector<Layer>& l) {
        l[0].sep_padding = false;
        l[0].pad_h_end = 0;
    });
    EXPECT_TRUE(has(m, "output 8x8 is not floor((H + pad + pad_end - span) / stride) + 1 = 7x8")) << m;
    // floor((8 + 0 + 1 - 2) / 2) + 1 = 4: end padding that keeps the extent is a valid layer.
    EXPECT_EQ(refused([](std::vector<Layer>& l) { l[1].pad_w_end = 1; }), "accepted");
    m = refused([](std::vector<Layer>& l) { l[0].pad_w_end = -1; });
    EXPECT_TRUE(has(m, "key 'layers[0].padding_end': layer 'c': padding_end must be >= 0")) << m;
}

}  // namespace
}  // namespace pimdse::workload
