// Every access to an interleaved buffer is checked against that one buffer: a page id at or past the
// buffer's page count, a NOC access into the padding of its last bank row or on into the next buffer,
// and a host transfer larger than the buffer are NocAccessErrors that name the buffer (kind, bank
// address, page size, page count), the page, and for kernels the core, RISC and kernel file:line.
// Each kernel case first reads the buffer's last page, which must work.
#include "test_support.hpp"

using namespace runtime_mock;

namespace {

constexpr LogicalCore kCore{0, 0};
constexpr uint32_t kL1Accessor = 0;  // TensorAccessorArgs compile-time word: interleaved, L1
constexpr uint32_t kL1Pages = 3;

std::string hex(uint64_t value) {
    char text[32];
    std::snprintf(text, sizeof(text), "0x%llx", static_cast<unsigned long long>(value));
    return text;
}

// "DRAM buffer #0 at bank address 0x10000 (page size 2048 B, 13 pages)": the device's `ordinal`-th buffer
std::string buffer_name(const char* kind, int ordinal, uint64_t bank_address, uint64_t pages) {
    return std::string(kind) + " buffer #" + std::to_string(ordinal) + " at bank address " + hex(bank_address) +
           " (page size 2048 B, " + std::to_string(pages) + " pages)";
}

struct Layout {
    uint64_t dram;             // the tensor the kernel reads
    uint64_t neighbour;        // allocated right after it
    uint64_t l1;               // pointer value into core (0,0)'s L1 (Device::allocate_l1)
    uint32_t dram_pages;       // one more than the DRAM banks: the last row has a single page
    uint32_t l1_bank_address;  // its offset in every core's L1
};

// Runs out_of_bounds.cpp with BOUNDS_<name> on core (0,0) of a Wormhole device and expects a
// NocAccessError at the marked line whose message contains each of needles(layout).
void expect_bounds_error(const std::string& name,
                         const std::function<std::vector<std::string>(const Layout&)>& needles) {
    Device device(Arch::Wormhole);
    const uint32_t banks = device.spec().dram_banks;
    Layout layout{};
    layout.dram_pages = banks + 1;
    layout.dram = device.allocate_dram(uint64_t(layout.dram_pages) * test::kTileBytes, test::kTileBytes);
    layout.neighbour = device.allocate_dram(uint64_t(banks) * test::kTileBytes, test::kTileBytes);
    layout.l1 = device.allocate_l1(kL1Pages * test::kTileBytes, test::kTileBytes);
    layout.l1_bank_address = device.spec().l1_bytes - test::kTileBytes;  // one row of pages, at the top of L1
    KernelSpec k =
        test::kernel_on("out_of_bounds.cpp", KernelRole::DataMovement1, kCore, {test::kDramAccessor, kL1Accessor},
                        {uint32_t(layout.dram), layout.dram_pages, banks, uint32_t(layout.l1), kL1Pages});
    k.defines = {{"BOUNDS_" + name, "1"}};
    ProgramSpec program;
    program.kernels = {k};
    program.circular_buffers = {test::bf16_cb(tt::CBIndex::c_0, 2, {kCore})};
    std::vector<std::string> expected = needles(layout);
    expected.push_back("core (0,0) RISCV_1 (NCRISC)");
    expected.push_back(test::marked_line("out_of_bounds.cpp", name));
    test::expect_error<NocAccessError>([&] { device.run(program); }, expected);
}

}  // namespace

TEST(accessor_page_at_page_count) {
    expect_bounds_error("ACCESSOR_PAGE_COUNT", [](const Layout& l) {
        return std::vector<std::string>{
            "TensorAccessor::get_noc_addr",
            "page id 13 is at or past the page count of the " + buffer_name("DRAM", 0, l.dram, l.dram_pages)};
    });
}

TEST(addrgen_fast_page_at_page_count) {
    expect_bounds_error("ADDRGEN_PAGE_COUNT", [](const Layout& l) {
        return std::vector<std::string>{
            "InterleavedAddrGenFast::get_noc_addr",
            "page id 13 is at or past the page count of the " + buffer_name("DRAM", 0, l.dram, l.dram_pages)};
    });
}

TEST(accessor_page_size_differs_from_buffer) {
    expect_bounds_error("ACCESSOR_PAGE_SIZE", [](const Layout& l) {
        return std::vector<std::string>{"pages are 1024 B apart, but in the " +
                                        buffer_name("DRAM", 0, l.dram, l.dram_pages) + " they are 2048 B apart"};
    });
}

TEST(raw_read_of_last_row_padding) {
    expect_bounds_error("DRAM_PADDING", [](const Layout& l) {
        const uint64_t row = l.dram + test::kTileBytes;
        return std::vector<std::string>{
            "noc_async_read",
            "DRAM bank 1 range [" + hex(row) + ", " + hex(row + test::kTileBytes) + ") reaches page 13",
            "past the last page of the " + buffer_name("DRAM", 0, l.dram, l.dram_pages)};
    });
}

TEST(read_across_into_neighbouring_buffer) {
    expect_bounds_error("DRAM_NEIGHBOUR", [](const Layout& l) {
        return std::vector<std::string>{"noc_async_read", "DRAM bank 0", "reaches page 24",
                                        "past the last page of the " + buffer_name("DRAM", 0, l.dram, l.dram_pages) +
                                            ", and on into the " + buffer_name("DRAM", 1, l.neighbour, 12)};
    });
}

TEST(l1_accessor_page_at_page_count) {
    expect_bounds_error("L1_ACCESSOR", [](const Layout& l) {
        return std::vector<std::string>{
            "TensorAccessor::get_noc_addr",
            "page id 3 is at or past the page count of the " + buffer_name("L1", 2, l.l1_bank_address, kL1Pages)};
    });
}

TEST(l1_buffer_write_past_last_page) {
    expect_bounds_error("L1_WRITE", [](const Layout& l) {
        return std::vector<std::string>{
            "noc_async_write", "L1 of core (3,0) range [" + hex(l.l1_bank_address),
            "reaches page 3, past the last page of the " + buffer_name("L1", 2, l.l1_bank_address, kL1Pages)};
    });
}

TEST(l1_buffer_multicast_past_last_page) {
    expect_bounds_error("L1_MULTICAST", [](const Layout& l) {
        return std::vector<std::string>{
            "noc_async_write_multicast", "L1 of core (3,0)",
            "reaches page 3, past the last page of the " + buffer_name("L1", 2, l.l1_bank_address, kL1Pages)};
    });
}

TEST(l1_buffer_semaphore_inc_past_last_page) {
    expect_bounds_error("L1_SEMAPHORE_INC", [](const Layout& l) {
        return std::vector<std::string>{
            "noc_semaphore_inc", "L1 of core (3,0)",
            "reaches page 3, past the last page of the " + buffer_name("L1", 2, l.l1_bank_address, kL1Pages)};
    });
}

TEST(host_write_larger_than_buffer) {
    Device device;
    const uint64_t dram = device.allocate_dram(3 * test::kTileBytes, test::kTileBytes);
    const std::vector<uint16_t> four_tiles(4 * 1024);
    test::expect_error<NocAccessError>(
        [&] { device.write_interleaved(dram, test::kTileBytes, four_tiles.data(), four_tiles.size() * 2); },
        {"host write of 8192 bytes does not fit the " + buffer_name("DRAM", 0, dram, 3) + ", which holds 6144 bytes"});
    const uint64_t l1 = device.allocate_l1(3 * test::kTileBytes, test::kTileBytes);
    test::expect_error<NocAccessError>(
        [&] { device.write_interleaved(BufferKind::L1, l1, test::kTileBytes, four_tiles.data(), 8192); },
        {"host write of 8192 bytes does not fit the L1 buffer #1 at bank address", "3 pages), which holds 6144 bytes"});
}

TEST(host_read_must_name_a_buffer_and_its_page_size) {
    Device device;
    const uint64_t dram = device.allocate_dram(3 * test::kTileBytes, test::kTileBytes);
    std::vector<uint16_t> tile(1024);
    test::expect_error<NocAccessError>(
        [&] { device.read_interleaved(dram + 1024, test::kTileBytes, tile.data(), test::kTileBytes); },
        {"host read of 2048 bytes: bank address " + hex(dram + 1024) +
         " is not the start of an allocated DRAM buffer (it lies inside the " + buffer_name("DRAM", 0, dram, 3) + ")"});
    test::expect_error<NocAccessError>([&] { device.read_interleaved(dram, 1024, tile.data(), 1024); },
                                       {"host read of 1024 bytes in pages of 1024 B: the " +
                                        buffer_name("DRAM", 0, dram, 3) + " has pages of 2048 B"});
}

int main() {
    return test::run_all();
}
