// Semaphores and multicast: one sender core multicasts a tile to a row of receiver cores after a
// semaphore handshake (the protocol of the SDK's reuse/mcast matmul readers); every core then writes
// its copy to its own page of the output.
#include "test_support.hpp"

using namespace runtime_mock;

TEST(multicast_row_with_semaphores) {
    for (Arch arch : {Arch::Wormhole, Arch::Blackhole}) {
        Device device(arch);
        const uint32_t receivers = device.spec().grid_x - 1;
        std::vector<uint16_t> tile(1024);
        for (size_t i = 0; i < tile.size(); i++)
            tile[i] = uint16_t(i * 7 + 3);
        const uint64_t src = device.allocate_dram(test::kTileBytes, test::kTileBytes);
        device.write_interleaved(src, test::kTileBytes, tile.data(), test::kTileBytes);
        const uint64_t dst = device.allocate_dram((receivers + 1) * test::kTileBytes, test::kTileBytes);

        const LogicalCore sender{0, 2};
        std::vector<LogicalCore> all = {sender};
        const LogicalCore first_noc = device.worker_noc_coord({1, 2});
        const LogicalCore last_noc = device.worker_noc_coord({receivers, 2});
        const LogicalCore sender_noc = device.worker_noc_coord(sender);
        constexpr uint32_t kSenderSem = 0, kReceiverSem = 1;

        ProgramSpec program;
        program.kernels.push_back(test::kernel_on(
            "mcast_sender.cpp", KernelRole::DataMovement1, sender, {test::kDramAccessor},
            {uint32_t(src), first_noc.x, first_noc.y, last_noc.x, last_noc.y, receivers, kSenderSem, kReceiverSem}));
        KernelSpec receiver;
        receiver.source_path = test::kernel("mcast_receiver.cpp");
        receiver.role = KernelRole::DataMovement1;
        KernelSpec writer;
        writer.source_path = test::kernel("writer_tile_at.cpp");
        writer.role = KernelRole::DataMovement0;
        writer.compile_args = {test::kDramAccessor};
        writer.cores = {sender};
        writer.runtime_args[sender] = {uint32_t(dst), 0};
        for (uint32_t x = 1; x <= receivers; x++) {
            const LogicalCore core{x, 2};
            all.push_back(core);
            receiver.cores.push_back(core);
            receiver.runtime_args[core] = {sender_noc.x, sender_noc.y, kSenderSem, kReceiverSem};
            writer.cores.push_back(core);
            writer.runtime_args[core] = {uint32_t(dst), x};
        }
        program.kernels.push_back(receiver);
        program.kernels.push_back(writer);
        program.circular_buffers = {test::bf16_cb(0, 1, all)};
        program.semaphores = {{kSenderSem, all, 0}, {kReceiverSem, all, 0}};
        device.run(program);

        std::vector<uint16_t> out((receivers + 1) * 1024);
        device.read_interleaved(dst, test::kTileBytes, out.data(), out.size() * 2);
        for (uint32_t c = 0; c <= receivers; c++)
            CHECK(std::equal(tile.begin(), tile.end(), out.begin() + c * 1024));
    }
}

int main() {
    return test::run_all();
}
