// DRAM -> L1 -> DRAM through one circular buffer: a reader and a writer kernel on one core, and the
// same program on every core of the grid with each core moving its own slice.
#include "test_support.hpp"

using namespace runtime_mock;

namespace {

void loopback(Arch arch, std::vector<LogicalCore> cores, uint32_t tiles_per_core) {
    Device device(arch);
    const uint32_t num_tiles = tiles_per_core * uint32_t(cores.size());
    std::vector<uint16_t> input(num_tiles * 1024);
    for (size_t i = 0; i < input.size(); i++)
        input[i] = uint16_t(i * 2654435761u >> 7);
    const uint64_t src = device.allocate_dram(input.size() * 2, test::kTileBytes);
    const uint64_t dst = device.allocate_dram(input.size() * 2, test::kTileBytes);
    device.write_interleaved(src, test::kTileBytes, input.data(), input.size() * 2);

    // Each core copies its own range of tiles: the kernels address tiles from 0, so give each core its
    // own sub-buffer by offsetting whole rows of banks.
    ProgramSpec program;
    test::Loopback kernels = test::loopback_kernels();
    const uint32_t banks = device.spec().dram_banks;
    CHECK(tiles_per_core % banks == 0 || cores.size() == 1);
    for (size_t i = 0; i < cores.size(); i++) {
        const uint32_t offset = uint32_t(i) * (tiles_per_core / banks) * test::kTileBytes;
        kernels.add_core(cores[i], uint32_t(src) + offset, uint32_t(dst) + offset, tiles_per_core);
    }
    program.kernels = {kernels.reader, kernels.writer};
    program.circular_buffers = {test::bf16_cb(tt::CBIndex::c_0, 2, cores)};
    device.run(program);

    std::vector<uint16_t> output(input.size());
    device.read_interleaved(dst, test::kTileBytes, output.data(), output.size() * 2);
    CHECK(output == input);
    uint64_t tiles_read = 0;
    for (const auto& c : device.last_run_counters())
        tiles_read += c.tiles_read;
    CHECK(tiles_read == num_tiles);
}

}  // namespace

TEST(loopback_single_core_wormhole) {
    loopback(Arch::Wormhole, {{0, 0}}, 7);
}

TEST(loopback_single_core_blackhole) {
    loopback(Arch::Blackhole, {{0, 0}}, 7);
}

TEST(loopback_every_core_wormhole) {
    std::vector<LogicalCore> cores;
    for (uint32_t y = 0; y < 8; y++)
        for (uint32_t x = 0; x < 8; x++)
            cores.push_back({x, y});
    loopback(Arch::Wormhole, cores, 24);
}

int main() {
    return test::run_all();
}
