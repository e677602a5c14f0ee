// Reading an accuracy table (io::AccuracyTable): lookups by network and key parameters, and
// the messages for malformed tables, each naming the file, the line and the column.
#include <gtest/gtest.h>

#include <array>
#include <cstdint>
#include <fstream>
#include <string>
#include <vector>

#include "../scratch_files.hpp"
#include "pimdse/io/accuracy_table.hpp"

namespace pimdse::io {
namespace {

using testing::message_of;
using testing::scratch;

const std::vector<std::string> kParams{"crossbar_size", "adc_bits",    "dac_bits",
                                       "cell_bits",     "weight_bits", "activation_bits"};

std::filesystem::path table_file(const std::string& name, const std::string& text) {
    const std::filesystem::path p = scratch(name);
    std::ofstream(p) << text;
    return p;
}

TEST(AccuracyTable, FindsARowByNetworkAndItsKeyColumnsOnly) {
    const auto p = table_file("acc.csv",
                              "# losses\n"
                              "network, adc_bits, weight_bits, accuracy_loss\n"
                              "\n"
                              "resnet18, 8, 9, 0.5\n"
                              "resnet18, 6, 9, 2.25\n"
                              "vgg16, 8, 9, 1\n");
    const AccuracyTable t = AccuracyTable::read(p, kParams);
    EXPECT_EQ(t.rows(), 3U);
    EXPECT_EQ(t.keys(), (std::vector<std::size_t>{1, 4}));
    // crossbar 128, ADC 8, DAC 1, cell 2, weights 9, activations 5: the other columns are free.
    const std::array<std::int32_t, 6> point{128, 8, 1, 2, 9, 5};
    EXPECT_EQ(t.find("resnet18", point), 0.5);
    EXPECT_EQ(t.find("vgg16", point), 1.0);
    const std::array<std::int32_t, 6> adc6{256, 6, 2, 1, 9, 9};
    EXPECT_EQ(t.find("resnet18", adc6), 2.25);
    EXPECT_FALSE(t.find("vgg16", adc6));     // no row: missing, never imputed
    EXPECT_FALSE(t.find("alexnet", point));  // nor for another network
}

TEST(AccuracyTable, MalformedTablesSayWhereAndWhat) {
    const auto read = [](const std::string& name, const std::string& text) {
        return message_of([&] { (void)AccuracyTable::read(table_file(name, text), kParams); });
    };
    std::string m = read("no_loss.csv", "network, adc_bits\nresnet18, 8\n");
    EXPECT_NE(m.find("no_loss.csv:1"), std::string::npos) << m;
    EXPECT_NE(m.find("accuracy_loss"), std::string::npos) << m;
    m = read("unknown.csv", "network, adc, accuracy_loss\n");
    EXPECT_NE(m.find("unknown.csv:1"), std::string::npos) << m;
    EXPECT_NE(m.find("got 'adc'"), std::string::npos) << m;
    EXPECT_NE(m.find("adc_bits"), std::string::npos) << m;  // the parameters it may name
    m = read("text.csv", "network, adc_bits, accuracy_loss\nresnet18, eight, 1\n");
    EXPECT_NE(m.find("text.csv:2"), std::string::npos) << m;
    EXPECT_NE(m.find("'adc_bits'"), std::string::npos) << m;
    EXPECT_NE(m.find("an integer, got 'eight'"), std::string::npos) << m;
    m = read("nan.csv", "network, accuracy_loss\nresnet18, nan\n");
    EXPECT_NE(m.find("nan.csv:2"), std::string::npos) << m;
    EXPECT_NE(m.find("finite"), std::string::npos) << m;
    m = read("twice.csv", "network, adc_bits, accuracy_loss\nr, 8, 1\nr, 8, 2\n");
    EXPECT_NE(m.find("twice.csv:3"), std::string::npos) << m;
    EXPECT_NE(m.find("same network and parameter values"), std::string::npos) << m;
    m = read("short.csv", "network, adc_bits, accuracy_loss\nr, 8\n");
    EXPECT_NE(m.find("expected 3 cells"), std::string::npos) << m;
    m = read("empty.csv", "# nothing\n");
    EXPECT_NE(m.find("header"), std::string::npos) << m;
    m = message_of([] { (void)AccuracyTable::read("/nonexistent/acc.csv", kParams); });
    EXPECT_NE(m.find("/nonexistent/acc.csv"), std::string::npos) << m;
}

}  // namespace
}  // namespace pimdse::io
