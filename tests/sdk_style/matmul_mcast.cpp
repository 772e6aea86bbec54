// C = A x B (A: SHAPE_M x SHAPE_K, B: SHAPE_K x SHAPE_N, bf16) with block reuse and multicast: the blocking of
// matmul_blocking.hpp, but only the cores of column 0 read A (and multicast each A block along their
// row) and only the cores of row 0 read B (and multicast down their column); semaphores pace the
// handshake (see kernels/dataflow/reader_matmul_mcast.cpp). Tensors: A, B, C.
#include "host_common.hpp"
#include "matmul_blocking.hpp"

using namespace sdk_style;

extern "C" void tilelang_tt_run(const char* kernel_dir, void* const* tensors, int num_tensors,
                                const uint32_t* /*sizes*/, int /*num_sizes*/) {
    TT_FATAL(num_tensors == 3, "matmul_mcast takes A, B, C; got {} tensors", num_tensors);
    const std::string kernels(kernel_dir);
    Mesh mesh;
    const MatmulBlocking plan = plan_matmul(SHAPE_M / TILE_HEIGHT, SHAPE_K / TILE_WIDTH, SHAPE_N / TILE_WIDTH,
                                            mesh.device->compute_with_storage_grid_size(), IN0_BLOCK_W);
    auto a = upload(mesh, tensors[0], SHAPE_M, SHAPE_K);
    auto b = upload(mesh, tensors[1], SHAPE_K, SHAPE_N);
    auto c = dram_tiles(mesh, plan.Mt * plan.Nt);

    Program program = CreateProgram();
    const CoreRange cores = block_cores(plan);
    create_block_cbs(program, cores, plan);
    const uint32_t in0_sender_sem = CreateSemaphore(program, cores, INVALID);
    const uint32_t in0_receiver_sem = CreateSemaphore(program, cores, INVALID);
    const uint32_t in1_sender_sem = CreateSemaphore(program, cores, INVALID);
    const uint32_t in1_receiver_sem = CreateSemaphore(program, cores, INVALID);

    // The reader multicasts on NOC 0, whose multicast rectangles run from the low to the high corner.
    const KernelHandle reader = CreateKernel(
        program, kernels + "/dataflow/reader_matmul_mcast.cpp", cores,
        DataMovementConfig{
            .processor = DataMovementProcessor::RISCV_1, .noc = NOC::NOC_0, .compile_args = accessor_args({a, b})});
    const KernelHandle writer = CreateKernel(
        program, kernels + "/dataflow/writer_matmul_blocks.cpp", cores,
        DataMovementConfig{
            .processor = DataMovementProcessor::RISCV_0, .noc = NOC::NOC_1, .compile_args = accessor_args({c})});
    create_block_compute_kernel(program, kernels, cores, plan);

    auto noc = [&](uint32_t x, uint32_t y) { return mesh.device->worker_core_from_logical_core({x, y}); };
    for (const CoreCoord& core : cores) {
        const uint32_t x = core.x;
        const uint32_t y = core.y;
        // A: sender (0, y) multicasts to (1..blocks_x-1, y); B: sender (x, 0) to (x, 1..blocks_y-1).
        const CoreCoord in0_sender = noc(0, y);
        const CoreCoord in0_first = noc(std::min(1u, plan.blocks_x - 1), y);
        const CoreCoord in0_last = noc(plan.blocks_x - 1, y);
        const CoreCoord in1_sender = noc(x, 0);
        const CoreCoord in1_first = noc(x, std::min(1u, plan.blocks_y - 1));
        const CoreCoord in1_last = noc(x, plan.blocks_y - 1);
        std::vector<uint32_t> args = block_reader_args(a, b, plan, core);
        const std::vector<uint32_t> in0_args = {x == 0,         in0_sender.x,    in0_sender.y, in0_first.x,
                                                in0_first.y,    in0_last.x,      in0_last.y,   plan.blocks_x - 1,
                                                in0_sender_sem, in0_receiver_sem};
        const std::vector<uint32_t> in1_args = {y == 0,         in1_sender.x,    in1_sender.y, in1_first.x,
                                                in1_first.y,    in1_last.x,      in1_last.y,   plan.blocks_y - 1,
                                                in1_sender_sem, in1_receiver_sem};
        args.insert(args.end(), in0_args.begin(), in0_args.end());
        args.insert(args.end(), in1_args.begin(), in1_args.end());
        SetRuntimeArgs(program, reader, core, args);
        SetRuntimeArgs(program, writer, core, block_writer_args(c, plan, core));
    }
    run(mesh, std::move(program));
    download(mesh, c, tensors[2], SHAPE_M, SHAPE_N);
}
