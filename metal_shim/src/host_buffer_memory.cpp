#include <tt-metalium/host_buffer_memory.hpp>

#include <sys/mman.h>

#include <cstdint>

namespace tt::tt_metal::host_detail {

void advise_huge_pages(void* data, std::size_t bytes) {
    constexpr std::uintptr_t kHugePage = std::uintptr_t{2} << 20;
    const auto begin = reinterpret_cast<std::uintptr_t>(data);
    const std::uintptr_t first = (begin + kHugePage - 1) & ~(kHugePage - 1);
    const std::uintptr_t last = (begin + bytes) & ~(kHugePage - 1);
    if (last > first) {
        // Advice only: where THP is off the pages stay 4 KiB, which is correct too.
        (void)madvise(reinterpret_cast<void*>(first), last - first, MADV_HUGEPAGE);
    }
}

}  // namespace tt::tt_metal::host_detail
