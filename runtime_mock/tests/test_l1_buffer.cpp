// Interleaved L1 buffers: the address allocate_l1 hands out is dereferenceable by a kernel on core (0,0),
// which holds bank 0, and designates the same buffer to the NOC from any core and to host reads/writes.
#include "test_support.hpp"

using namespace tt_mock;

namespace {

constexpr uint32_t kPageBytes = 16;
constexpr uint32_t kPageWords = kPageBytes / 4;
constexpr uint32_t kL1Accessor = 0;  // TensorAccessorArgs compile-time word: interleaved, L1

void l1_buffer_deref_then_gather(Arch arch) {
    Device device(arch);
    // Two pages more than there are banks: pages 0 and num_banks share bank 0 (core (0,0)).
    const uint32_t num_pages = device.spec().grid_x * device.spec().grid_y + 2;
    std::vector<uint32_t> input(num_pages * kPageWords);
    for (size_t i = 0; i < input.size(); i++)
        input[i] = uint32_t(i * 2654435761u);
    const uint64_t l1_buffer = device.allocate_l1(input.size() * 4, kPageBytes);
    const uint64_t dram_buffer = device.allocate_dram(input.size() * 4, kPageBytes);
    device.write_interleaved(BufferKind::L1, l1_buffer, kPageBytes, input.data(), input.size() * 4);

    ProgramSpec deref;
    deref.kernels = {test::kernel_on("l1_buffer_deref.cpp", KernelRole::DataMovement0, {0, 0}, {},
                                     {uint32_t(l1_buffer), kPageWords})};
    device.run(deref);
    std::vector<uint32_t> expected = input;
    for (uint32_t i = 0; i < kPageWords; i++)
        expected[i] = input[i] * 2 + 1;

    const LogicalCore other{1, 0};
    ProgramSpec gather;
    gather.kernels = {test::kernel_on("l1_buffer_gather.cpp", KernelRole::DataMovement1, other,
                                      {kL1Accessor, test::kDramAccessor},
                                      {uint32_t(l1_buffer), uint32_t(dram_buffer), num_pages, kPageBytes})};
    CircularBufferSpec scratch;
    scratch.cores = {other};
    scratch.total_size = kPageBytes;
    scratch.indices = {{tt::CBIndex::c_0, DataFormat::Float32, kPageBytes}};
    gather.circular_buffers = {scratch};
    device.run(gather);

    std::vector<uint32_t> through_noc(input.size()), from_host(input.size());
    device.read_interleaved(BufferKind::Dram, dram_buffer, kPageBytes, through_noc.data(), through_noc.size() * 4);
    device.read_interleaved(BufferKind::L1, l1_buffer, kPageBytes, from_host.data(), from_host.size() * 4);
    CHECK(through_noc == expected);
    CHECK(from_host == expected);

    device.deallocate(BufferKind::L1, l1_buffer);
    test::expect_error<DeviceError>([&] { device.deallocate(BufferKind::L1, l1_buffer); }, {"no L1 buffer"});
}

}  // namespace

TEST(l1_buffer_deref_then_gather_wormhole) {
    l1_buffer_deref_then_gather(Arch::Wormhole);
}

TEST(l1_buffer_deref_then_gather_blackhole) {
    l1_buffer_deref_then_gather(Arch::Blackhole);
}

TEST(l1_buffer_host_access_with_unknown_address) {
    Device device;
    const uint64_t l1_buffer = device.allocate_l1(64, kPageBytes);
    uint32_t word = 0;
    test::expect_error<NocAccessError>(
        [&] { device.read_interleaved(BufferKind::L1, l1_buffer - device.spec().l1_bytes, kPageBytes, &word, 4); },
        {"was not returned by allocate_l1"});
}

int main() {
    return test::run_all();
}
