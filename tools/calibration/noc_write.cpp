// NOC core-to-core write bandwidth: a sender core (0, 0) writes one block of transfer_bytes `transfers`
// times into the L1 of other cores (kernels/dataflow/noc_sender.cpp), then releases them through a
// semaphore; each receiver writes what it got to DRAM (kernels/dataflow/noc_receiver.cpp) and the host
// checks every copy. Parameters:
//   mode=unicast     one receiver, logical core (to_x, to_y)
//   mode=multicast   the receivers_x x receivers_y rectangle of cores from logical (1, 0)
//   mode=linked      the same rectangle, every data multicast linked to the next
//   transfer_bytes, transfers
// Bytes sent = transfers x transfer_bytes (counted once per multicast, whatever the fan-out).
#include <random>

#include "calibration_host.hpp"

using namespace calibration;

int main(int argc, char** argv) {
    Mesh mesh;
    const CoreCoord grid = mesh.grid();
    const Params params(argc, argv,
                        {{"mode", "unicast"},
                         {"transfer_bytes", "8192"},
                         {"transfers", "16"},
                         {"to_x", "1"},
                         {"to_y", "0"},
                         {"receivers_x", std::to_string(grid.x - 1)},
                         {"receivers_y", std::to_string(grid.y)}});
    const std::string mode = params.text("mode");
    const uint32_t transfer_bytes = params.number("transfer_bytes");
    const uint32_t transfers = params.number("transfers");
    const std::map<std::string, uint32_t> mode_ids = {{"unicast", 0}, {"multicast", 1}, {"linked", 2}};
    TT_FATAL(mode_ids.count(mode), "mode={} is not one of unicast, multicast, linked", mode);
    TT_FATAL(transfer_bytes > 0 && transfer_bytes % 32 == 0, "transfer_bytes must be a positive multiple of 32");

    // The receivers: one core, or a rectangle of cores right of column 0 (the sender's).
    CoreRange receivers({params.number("to_x"), params.number("to_y")});
    if (mode != "unicast") {
        const uint32_t width = params.number("receivers_x");
        const uint32_t height = params.number("receivers_y");
        TT_FATAL(width >= 1 && height >= 1 && width < grid.x && height <= grid.y,
                 "a {}x{} receiver rectangle from (1, 0) does not fit the {}x{} grid", width, height, grid.x, grid.y);
        receivers = CoreRange({1, 0}, {width, height - 1});
    }
    const CoreCoord sender{0, 0};
    TT_FATAL(!receivers.contains(sender) && receivers.end_coord.x < grid.x && receivers.end_coord.y < grid.y,
             "receiver core ({}, {}) is the sender or off the {}x{} grid", receivers.end_coord.x, receivers.end_coord.y,
             grid.x, grid.y);
    const uint32_t num_receivers = receivers.size();

    std::vector<uint32_t> block(transfer_bytes / sizeof(uint32_t));
    std::mt19937 random(11);
    for (uint32_t& word : block) {
        word = random();
    }
    BufferPtr source = upload(mesh, block, 1, transfer_bytes);
    BufferPtr result = dram_buffer(mesh, num_receivers, transfer_bytes);

    Program program = CreateProgram();
    const CoreRangeSet all_cores(std::vector<CoreRange>{CoreRange(sender), receivers});
    page_cb(program, all_cores, tt::CBIndex::c_0, 1, transfer_bytes);
    const uint32_t semaphore = CreateSemaphore(program, all_cores, INVALID);
    const KernelHandle send = CreateKernel(program, params.kernels() + "/dataflow/noc_sender.cpp", sender,
                                           WriterDataMovementConfig(accessor_args({source})));
    const KernelHandle receive = CreateKernel(program, params.kernels() + "/dataflow/noc_receiver.cpp", receivers,
                                              WriterDataMovementConfig(accessor_args({result})));

    const CoreCoord first = mesh.noc(receivers.start_coord);
    const CoreCoord last = mesh.noc(receivers.end_coord);
    SetRuntimeArgs(program, send, sender,
                   {address(source), transfer_bytes, transfers, mode_ids.at(mode), first.x, first.y, last.x, last.y,
                    num_receivers, semaphore});
    uint32_t page = 0;
    for (const CoreCoord& core : receivers) {
        SetRuntimeArgs(program, receive, core, {address(result), transfer_bytes, page++, semaphore});
    }
    run(mesh, std::move(program));

    const std::vector<uint32_t> copies = download<uint32_t>(mesh, result);
    size_t mismatches = 0;
    std::string first_mismatch;
    for (size_t i = 0; i < copies.size(); ++i) {
        const size_t word = i % block.size();
        if (copies[i] != block[word] && mismatches++ == 0) {
            first_mismatch =
                fmt::format("receiver {} word {}: {:#x}, sent {:#x}", i / block.size(), word, copies[i], block[word]);
        }
    }
    fmt::print("noc_write: {} x {} B {} to {} receivers\n", transfers, transfer_bytes, mode, num_receivers);
    return report("noc_write", mismatches, first_mismatch);
}
