// DRAM storage (dram.hpp): a new buffer reads as zeros, also when its storage is recycled from a device
// that no longer exists (a host program creates a device per call), in every bank and for a buffer
// that covers only part of a recycled chunk.
#include <string>
#include <vector>

#include "../src/scrubber.hpp"
#include "test_support.hpp"

using namespace runtime_mock;

namespace {

constexpr uint32_t kPageBytes = 2048;

// A buffer of `pages` pages filled with a non-zero pattern, left behind when `device` goes away.
void fill_buffer(Device& device, uint32_t pages) {
    const uint64_t buffer = device.allocate_dram(uint64_t(pages) * kPageBytes, kPageBytes);
    const std::vector<uint8_t> pattern(size_t(pages) * kPageBytes, 0xa5);
    device.write_interleaved(BufferKind::Dram, buffer, kPageBytes, pattern.data(), pattern.size());
}

void expect_new_buffer_reads_zeros(Device& device, uint32_t pages, const std::string& what) {
    const uint64_t buffer = device.allocate_dram(uint64_t(pages) * kPageBytes, kPageBytes);
    std::vector<uint8_t> read(size_t(pages) * kPageBytes, 0xff);
    device.read_interleaved(BufferKind::Dram, buffer, kPageBytes, read.data(), read.size());
    for (size_t i = 0; i < read.size(); i++) {
        if (read[i] != 0)
            throw std::runtime_error(what + ": byte " + std::to_string(i) + " of a new buffer is " +
                                     std::to_string(read[i]) + ", expected 0");
    }
}

}  // namespace

TEST(a_new_buffer_on_storage_of_an_earlier_device_reads_zeros) {
    constexpr uint32_t kPages = 3000;  // several 1 MiB chunks over all the banks
    {
        Device earlier;
        fill_buffer(earlier, kPages);
    }
    scrubber::wait_idle();  // the earlier device's chunks are back in the pool, zeroed
    Device later;
    expect_new_buffer_reads_zeros(later, 7, "a small buffer (part of a chunk)");
    expect_new_buffer_reads_zeros(later, kPages, "a buffer over the rest of the recycled chunks");
}

int main() {
    return test::run_all();
}
