// A heterogeneous 3-D manycore's hardware point (hw/hetero3d.hpp): the stack string, and the
// storage and silicon of HuNT's RRFS stack computed by hand from Table II.

#include <gtest/gtest.h>

#include <utility>
#include <vector>

#include "pimdse/core/error.hpp"
#include "pimdse/hw/hetero3d.hpp"

namespace pimdse::hw {
namespace {

constexpr std::int64_t kKiB = 1024;
constexpr std::int64_t kMiB = 1024 * 1024;

Hetero3dHardware hunt(std::vector<PimDevice> stack) {
    return {4, 16, 4, SquareMillimetres(0.40), std::move(stack)};  // HuNT Table II
}

TEST(Hetero3d, StackStringsRoundTrip) {
    const auto rrfs = parse_stack("RRFS");
    ASSERT_TRUE(rrfs.has_value());
    EXPECT_EQ(*rrfs, (std::vector<PimDevice>{PimDevice::reram, PimDevice::reram, PimDevice::fefet,
                                             PimDevice::sram}));
    EXPECT_EQ(stack_string(*rrfs), "RRFS");
    EXPECT_FALSE(parse_stack("").has_value());
    EXPECT_FALSE(parse_stack("RRXS").has_value());
    EXPECT_FALSE(parse_stack("rrfs").has_value());
}

TEST(Hetero3d, RrfsStorageAndSiliconAreTheIssuesFigures) {
    const Hetero3dHardware h = hunt(*parse_stack("RRFS"));
    check(h);
    EXPECT_EQ(h.tiles_per_tier(), 64);
    // Per tile: 384 / 384 / 72 KiB (ReRAM, FeFET, SRAM).
    EXPECT_EQ(h.tile_storage(0), Bytes(384 * kKiB));
    EXPECT_EQ(h.tile_storage(2), Bytes(384 * kKiB));
    EXPECT_EQ(h.tile_storage(3), Bytes(72 * kKiB));
    // Per tier, 64 tiles: 24 / 24 / 24 / 4.5 MiB; in all 76.5 MiB.
    EXPECT_EQ(h.tier_storage(0), Bytes(24 * kMiB));
    EXPECT_EQ(h.tier_storage(1), Bytes(24 * kMiB));
    EXPECT_EQ(h.tier_storage(2), Bytes(24 * kMiB));
    EXPECT_EQ(h.tier_storage(3), Bytes(9 * kMiB / 2));
    EXPECT_EQ(h.total_storage(), Bytes(153 * kMiB / 2));
    // 4 tiers x 64 tiles x 0.40 mm² = 102.4 mm².
    EXPECT_NEAR(h.silicon_area().value(), 102.4, 1e-9);
}

TEST(Hetero3d, StorageFollowsTheStack) {
    // SSSS: 4 x 4.5 MiB; FFFS: 3 x 24 + 4.5 MiB. The silicon is the same (iso-area tiles).
    EXPECT_EQ(hunt(*parse_stack("SSSS")).total_storage(), Bytes(18 * kMiB));
    EXPECT_EQ(hunt(*parse_stack("FFFS")).total_storage(), Bytes(153 * kMiB / 2));
    EXPECT_DOUBLE_EQ(hunt(*parse_stack("SSSS")).silicon_area().value(),
                     hunt(*parse_stack("RRFS")).silicon_area().value());
}

TEST(Hetero3d, InconsistentPointsAreRefused) {
    EXPECT_THROW(check(hunt(*parse_stack("RRF"))), ModelError);
    Hetero3dHardware h = hunt(*parse_stack("RRFS"));
    h.tile_area = SquareMillimetres(0.0);
    EXPECT_THROW(check(h), ModelError);
    EXPECT_THROW((void)hunt(*parse_stack("RRF")).tier_storage(3), ModelError);
}

}  // namespace
}  // namespace pimdse::hw
