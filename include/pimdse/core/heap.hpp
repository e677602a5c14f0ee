#pragma once
// How the process's heap is set up: the allocator settings every pimdse command runs with
// and, for the commands that map one network, a heap on transparent huge pages. Called once
// from main() (and from the benchmarks that measure what those commands run) before the
// work allocates; nothing here changes a result, only where the memory comes from.

namespace pimdse {

/// Keeps freed memory in the process: glibc otherwise hands large blocks back to the kernel
/// and the next evaluation faults them in again (some 5000 page faults per evaluation, 5 % of
/// a sweep worker's time). The peak footprint is unchanged.
void keep_freed_memory() noexcept;

/// Reserves heap address space (512 MiB, touched only as used) and asks the kernel to back it
/// with transparent huge pages (madvise), as glibc's `glibc.malloc.hugetlb=1` tunable does for
/// a whole process: the mapper's caches fault in a 2 MiB page at a time instead of 4 KiB and
/// miss the TLB less. Does nothing where the kernel or the allocator refuses (THP off, strict
/// overcommit); allocations past the reserve get ordinary pages. Only the first call acts; returns
/// whether a range was advised.
bool prefer_huge_pages() noexcept;

}  // namespace pimdse
