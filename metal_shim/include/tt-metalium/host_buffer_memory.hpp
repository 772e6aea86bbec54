// Host vectors the host API fills (downloads, layout conversions): not an SDK header, the shim's own.
//
// A host program makes such vectors afresh on every call, and one of tens of MiB is above glibc's largest
// mmap threshold, so each is a new mapping whose every 4 KiB page faults and is cleared on first touch: for
// a 4096^3 GEMM, five 32 MiB vectors per call cost more page faults than the tilizing itself. Backed by
// transparent huge pages (where the kernel's THP mode is "madvise"), they fault once per 2 MiB instead.
#pragma once

#include <cstddef>
#include <vector>

namespace tt::tt_metal::host_detail {

// Asks for transparent huge pages for the 2 MiB-aligned part of [data, data + bytes) (madvise
// MADV_HUGEPAGE); a range smaller than that, or a kernel without THP, is left as it is.
void advise_huge_pages(void* data, std::size_t bytes);

// vector.resize(size), with new storage advised as above before it is first touched.
template <typename T>
void resize_host_vector(std::vector<T>& vector, std::size_t size) {
    if (size > vector.capacity()) {
        vector.reserve(size);
        advise_huge_pages(vector.data(), size * sizeof(T));
    }
    vector.resize(size);
}

}  // namespace tt::tt_metal::host_detail
