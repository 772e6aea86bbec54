// Interleaved L1 buffers: the address allocate_l1 hands out is dereferenceable by a kernel on core (0,0),
// which holds bank 0, and designates the same buffer to the NOC from any core and to host reads/writes.
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <future>
#include <thread>

#include "../src/low_address_space.hpp"
#include "../src/scrubber.hpp"
#include "test_support.hpp"

using namespace runtime_mock;

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

TEST(l1_of_a_destroyed_device_is_reused_and_starts_zeroed) {
    // Once the scrubber has zeroed it, the second device of the same grid takes over the first one's L1
    // pool (the same addresses, its pages still in memory), and reads zeros where the first one wrote.
    std::vector<uint32_t> pattern(1024);
    for (size_t i = 0; i < pattern.size(); i++)
        pattern[i] = uint32_t(i * 2654435761u) | 1;
    uint64_t first_address = 0;
    {
        Device device;
        first_address = device.allocate_l1(pattern.size() * 4, kPageBytes);
        device.write_interleaved(BufferKind::L1, first_address, kPageBytes, pattern.data(), pattern.size() * 4);
    }
    scrubber::wait_idle();
    Device device;
    const uint64_t address = device.allocate_l1(pattern.size() * 4, kPageBytes);
    CHECK(address == first_address);
    std::vector<uint32_t> read(pattern.size(), 1);
    device.read_interleaved(BufferKind::L1, address, kPageBytes, read.data(), read.size() * 4);
    CHECK(read == std::vector<uint32_t>(pattern.size(), 0));
}

TEST(retired_reservation_is_zeroed_then_reused_by_its_layout_only) {
    constexpr size_t kBytes = size_t(1) << 20;
    uint8_t* base = low_address_space::reserve(kBytes, "the test");
    CHECK(mprotect(base, kBytes, PROT_READ | PROT_WRITE) == 0);
    base[100] = 42;
    base[200] = 43;
    // The owner's zeroing clears only what it knows it wrote: the rest shows that pages and contents are kept.
    low_address_space::retire(base, kBytes, 7, [](uint8_t* memory) { memory[100] = 0; });
    scrubber::wait_idle();
    CHECK(low_address_space::reuse(kBytes, 8) == nullptr);      // another layout of the same size
    CHECK(low_address_space::reuse(kBytes / 2, 7) == nullptr);  // another size
    uint8_t* again = low_address_space::reuse(kBytes, 7);
    CHECK(again == base);
    CHECK(again[100] == 0 && again[200] == 43);
    CHECK(low_address_space::reuse(kBytes, 7) == nullptr);  // it had one taker
    low_address_space::release(again, kBytes);
}

TEST(reservation_being_zeroed_is_declined_once_then_waited_for) {
    // The first time a layout's only retired reservation is still being zeroed, reuse() declines it (the
    // caller maps a second one, and the two alternate); after that it waits for the zeroing.
    constexpr size_t kBytes = size_t(1) << 20;
    constexpr uint64_t kLayout = 11;
    std::promise<void> gate;  // holds the scrubber in the zeroing until set
    std::shared_future<void> opened = gate.get_future().share();
    uint8_t* first = low_address_space::reserve(kBytes, "the test");
    low_address_space::retire(first, kBytes, kLayout, [opened](uint8_t*) { opened.wait(); });
    CHECK(low_address_space::reuse(kBytes, kLayout) == nullptr);
    std::thread release_later([&gate] {
        std::this_thread::sleep_for(std::chrono::milliseconds(50));
        gate.set_value();
    });
    uint8_t* again = low_address_space::reuse(kBytes, kLayout);
    release_later.join();
    CHECK(again == first);
    low_address_space::release(again, kBytes);
}

TEST(child_made_by_fork_does_not_wait_for_the_parents_zeroing) {
    // The child has no scrubber thread: a reservation the parent was zeroing at the fork is never zeroed
    // there, so the child must neither reuse it nor wait for it (with the layout alternating, reuse waits).
    constexpr size_t kBytes = size_t(1) << 20;
    constexpr uint64_t kLayout = 12;
    std::promise<void> gate;
    std::shared_future<void> opened = gate.get_future().share();
    low_address_space::retire(low_address_space::reserve(kBytes, "the test"), kBytes, kLayout, [](uint8_t*) {});
    scrubber::wait_idle();
    CHECK(low_address_space::reuse(kBytes, kLayout) != nullptr);  // (leaked: the test ends soon)
    uint8_t* first = low_address_space::reserve(kBytes, "the test");
    low_address_space::retire(first, kBytes, kLayout, [opened](uint8_t*) { opened.wait(); });
    CHECK(low_address_space::reuse(kBytes, kLayout) == nullptr);  // declined once: the layout alternates now
    const pid_t child = fork();
    if (child == 0) {
        alarm(10);  // a reuse that waits for the parent's zeroing never returns: SIGALRM ends the child
        _exit(low_address_space::reuse(kBytes, kLayout) == nullptr ? 0 : 1);
    }
    int status = 0;
    const bool exited = waitpid(child, &status, 0) == child && WIFEXITED(status);
    gate.set_value();
    scrubber::wait_idle();
    CHECK(exited && WEXITSTATUS(status) == 0);
    CHECK(low_address_space::reuse(kBytes, kLayout) == first);
}

int main() {
    return test::run_all();
}
