// tt-metalium/host_buffer_memory.hpp: resize_host_vector sizes a vector like resize (zeroed new datums,
// old ones kept) and asks for transparent huge pages for new storage, which the kernel grants when its THP
// mode is "always" or "madvise" (read from /sys; with "never" only the sizing is checked).
#include <cstdint>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include <tt-metalium/host_buffer_memory.hpp>

#include "test_support.hpp"

namespace {

using tt::tt_metal::host_detail::advise_huge_pages;
using tt::tt_metal::host_detail::resize_host_vector;

constexpr size_t kElements = size_t{32} << 20 >> 1;  // 32 MiB of uint16_t, above glibc's mmap threshold

bool huge_pages_possible() {
    std::ifstream mode("/sys/kernel/mm/transparent_hugepage/enabled");
    std::string text((std::istreambuf_iterator<char>(mode)), std::istreambuf_iterator<char>());
    return text.find("[always]") != std::string::npos || text.find("[madvise]") != std::string::npos;
}

// AnonHugePages (kB) of the mapping of this process that contains `address`, from /proc/self/smaps.
uint64_t huge_kib_of_mapping(const void* address) {
    const auto at = reinterpret_cast<uintptr_t>(address);
    std::ifstream smaps("/proc/self/smaps");
    bool inside = false;
    for (std::string line; std::getline(smaps, line);) {
        uintptr_t begin = 0, end = 0;
        char dash = 0;
        std::istringstream header(line);
        if (header >> std::hex >> begin >> dash >> end && dash == '-') {
            inside = begin <= at && at < end;
            continue;
        }
        if (inside && line.rfind("AnonHugePages:", 0) == 0)
            return std::stoull(line.substr(std::string("AnonHugePages:").size()));
    }
    throw std::runtime_error("no mapping of /proc/self/smaps holds the vector's storage");
}

TEST(new_storage_is_sized_zeroed_and_backed_by_huge_pages) {
    std::vector<uint16_t> vector;
    resize_host_vector(vector, kElements);
    CHECK(vector.size() == kElements);
    for (size_t i = 0; i < kElements; i += 997)
        CHECK(vector[i] == 0);
    if (!huge_pages_possible()) {
        std::printf("transparent huge pages are off on this machine: sizing checked only\n");
        return;
    }
    // The middle of the vector: the advice covers its 2 MiB-aligned part, a mapping of its own.
    const uint64_t huge = huge_kib_of_mapping(vector.data() + kElements / 2);
    if (huge == 0)
        throw std::runtime_error("the 32 MiB vector has no huge pages although THP is enabled or madvise");
}

TEST(growing_keeps_the_datums_and_zeroes_the_new_ones) {
    std::vector<uint16_t> vector(1000);
    for (size_t i = 0; i < vector.size(); i++)
        vector[i] = uint16_t(i + 1);
    resize_host_vector(vector, kElements);
    for (size_t i = 0; i < 1000; i++)
        CHECK(vector[i] == uint16_t(i + 1));
    CHECK(vector[1000] == 0 && vector[kElements - 1] == 0);
    resize_host_vector(vector, 10);  // shrinking keeps the storage, like resize
    CHECK(vector.size() == 10 && vector[9] == 10);
}

TEST(advice_on_a_range_without_a_whole_huge_page_does_nothing) {
    std::vector<uint8_t> small(5000, 7);
    advise_huge_pages(small.data() + 1, small.size() - 1);
    advise_huge_pages(small.data(), 0);
    CHECK(small[0] == 7 && small[4999] == 7);
}

}  // namespace

int main() {
    return test::run_all();
}
