#include "pimdse/core/heap.hpp"

#include <malloc.h>
#include <sys/mman.h>
#include <unistd.h>

#include <cstdint>
#include <cstdlib>

namespace pimdse {

void keep_freed_memory() noexcept {
    mallopt(M_MMAP_THRESHOLD, 256 << 20);
    mallopt(M_TRIM_THRESHOLD, 1 << 30);
}

namespace {

bool advise_heap_reserve() noexcept {
#ifdef MADV_HUGEPAGE
    constexpr std::uintptr_t kHugePage = std::uintptr_t{2} << 20;
    constexpr int kReserve = 512 << 20;
    constexpr int kDefaultTopPad = 128 << 10;  // glibc's M_TOP_PAD default
    // The next extension of the heap grows it by the request plus the pad; a block larger
    // than any free space at the top forces that extension now. The trim threshold of
    // keep_freed_memory() keeps the reserve mapped after the block is freed.
    const auto before = reinterpret_cast<std::uintptr_t>(sbrk(0));
    mallopt(M_TOP_PAD, kReserve);
    void* probe = std::malloc(std::size_t{4} << 20);
    const auto after = reinterpret_cast<std::uintptr_t>(sbrk(0));
    std::free(probe);
    mallopt(M_TOP_PAD, kDefaultTopPad);
    const std::uintptr_t first = (before + kHugePage - 1) & ~(kHugePage - 1);
    const std::uintptr_t last = after & ~(kHugePage - 1);
    if (probe == nullptr || last <= first) return false;
    return madvise(reinterpret_cast<void*>(first), last - first, MADV_HUGEPAGE) == 0;
#else
    return false;
#endif
}

}  // namespace

bool prefer_huge_pages() noexcept {
    static const bool advised = advise_heap_reserve();  // once per process
    return advised;
}

}  // namespace pimdse
