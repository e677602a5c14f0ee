#include "pimdse/io/workloads.hpp"

#include <gtest/gtest.h>

#include <string>

#include "pimdse/core/error.hpp"
#include "pimdse/io/network_file.hpp"

namespace pimdse::io {
namespace {

const std::string kSource = PIMDSE_SOURCE_DIR;

TEST(LoadWorkloads, DefaultSweepLoadsTheFiveNicePimNetworksInOrder) {
    const Config c = read_config_file(kSource + "/inputs/sweeps/default.yaml");
    const std::vector<LoadedWorkload> loaded = load_workloads(c);
    ASSERT_EQ(loaded.size(), 5u);
    const char* names[] = {"googlenet", "resnet152", "vgg16", "darknet53", "bert_base"};
    for (std::size_t i = 0; i < loaded.size(); ++i) {
        EXPECT_EQ(loaded[i].network.name(), names[i]);
        EXPECT_EQ(loaded[i].network.batch(), 1);
        EXPECT_EQ(loaded[i].spec, c.workloads[i]);
        EXPECT_GT(loaded[i].network.total_macs(), 0);
    }
}

TEST(LoadWorkloads, BatchOverrideScalesTheWork) {
    const Config c = parse_config(
        "workloads:\n"
        "  - {network: " +
            kSource +
            "/inputs/networks/resnet18.yaml, batch: 3}\n"
            "  - {network: " +
            kSource +
            "/inputs/networks/resnet18.yaml}\n"
            "sweep: {budget: 1}\noutput: {path: /tmp/x.h5}\n",
        "inline.yaml");
    const auto loaded = load_workloads(c);
    ASSERT_EQ(loaded.size(), 2u);
    EXPECT_EQ(loaded[0].network.batch(), 3);
    EXPECT_EQ(loaded[1].network.batch(), 1);
    EXPECT_EQ(loaded[0].network.total_macs(), 3 * loaded[1].network.total_macs());
    EXPECT_EQ(loaded[0].network.total_weights(), loaded[1].network.total_weights());
    // One network at two batch sizes: each workload gets its own readable name.
    EXPECT_EQ(loaded[0].network.name(), "resnet18_b3");
    EXPECT_EQ(loaded[1].network.name(), "resnet18_b1");
}

TEST(LoadWorkloads, NamesAreUniqueAndKeepTheNetworksNameWhereItIs) {
    const std::string r18 = kSource + "/inputs/networks/resnet18.yaml";
    const std::string vgg = kSource + "/inputs/networks/vgg16.yaml";
    const Config c = parse_config("workloads:\n  - {network: " + r18 + "}\n  - {network: " + vgg +
                                      "}\n  - {network: " + r18 +
                                      ", batch: 2}\n"
                                      "sweep: {budget: 1}\noutput: {path: /tmp/x.h5}\n",
                                  "inline.yaml");
    const auto loaded = load_workloads(c);
    ASSERT_EQ(loaded.size(), 3u);
    EXPECT_EQ(loaded[0].network.name(), "resnet18_b1");
    EXPECT_EQ(loaded[1].network.name(), "vgg16");
    EXPECT_EQ(loaded[2].network.name(), "resnet18_b2");
    // Two files whose networks share a name and a batch size: the index tells them apart.
    const LoadedWorkload one{c.workloads[0], read_network_file(r18, {})};
    EXPECT_EQ(workload_names({one, one}), (std::vector<std::string>{"resnet18_b1", "resnet18_b1_w1"}));
}

TEST(LoadWorkloads, AMalformedNetworkStopsWithItsOwnError) {
    const Config c = read_config_file(kSource + "/tests/data/workloads/references_malformed_network.yaml");
    try {
        (void)load_workloads(c);
        FAIL() << "a malformed network file must stop the load";
    } catch (const InputError& e) {
        const std::string what = e.what();
        EXPECT_NE(what.find("unknown_producer.yaml:7"), std::string::npos) << what;
        EXPECT_NE(what.find("unknown producer 'conv9'"), std::string::npos) << what;
    }
}

}  // namespace
}  // namespace pimdse::io
