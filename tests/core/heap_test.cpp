// The heap setup of core/heap.hpp: the reserve it advises is a heap mapping the kernel marks
// for huge pages, of at least the reserved size, made once per process.
#include "pimdse/core/heap.hpp"

#include <gtest/gtest.h>

#include <cctype>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

namespace {

struct HeapMappings {
    int advised = 0;  // [heap] mappings with the `hg` (MADV_HUGEPAGE) flag
    std::uint64_t advised_kib = 0;
};

// Reads /proc/self/smaps: each mapping's header line, then `Size:` and `VmFlags:` lines.
HeapMappings heap_mappings() {
    std::ifstream in("/proc/self/smaps");
    HeapMappings h;
    std::string line;
    bool heap = false;
    std::uint64_t size_kib = 0;
    while (std::getline(in, line)) {
        if (line.rfind("Size:", 0) == 0) {
            std::istringstream(line.substr(5)) >> size_kib;
        } else if (line.rfind("VmFlags:", 0) == 0) {
            if (heap && (line + " ").find(" hg ") != std::string::npos) {
                ++h.advised;
                h.advised_kib += size_kib;
            }
        } else if (!line.empty() && std::isxdigit(static_cast<unsigned char>(line[0])) &&
                   !std::isupper(static_cast<unsigned char>(line[0]))) {
            // A mapping's header: `start-end perms offset dev inode [path]`.
            heap = line.find("[heap]") != std::string::npos;
        }
    }
    return h;
}

}  // namespace

TEST(Heap, TheReserveIsAdvisedForHugePagesOnce) {
    if (!std::filesystem::exists("/sys/kernel/mm/transparent_hugepage/enabled"))
        GTEST_SKIP() << "this kernel has no transparent huge pages";
#ifdef __SANITIZE_ADDRESS__
    GTEST_SKIP() << "AddressSanitizer's allocator does not take memory from the heap (brk)";
#endif
    pimdse::keep_freed_memory();
    ASSERT_TRUE(pimdse::prefer_huge_pages());
    const HeapMappings first = heap_mappings();
    EXPECT_EQ(first.advised, 1);
    // The whole reserve but the partial huge pages at its two ends.
    EXPECT_GE(first.advised_kib, (512u << 10) - 4096u);
    EXPECT_TRUE(pimdse::prefer_huge_pages());
    const HeapMappings again = heap_mappings();
    EXPECT_EQ(again.advised, first.advised);
    EXPECT_EQ(again.advised_kib, first.advised_kib);
}
