// C = A x B for A of SHAPE_M x SHAPE_K and B of SHAPE_K x SHAPE_N bf16 values (host defines), with block
// reuse: each core of a blocks_x x blocks_y grid computes one per_core_M x per_core_N block of C (see
// matmul_blocking.hpp), reading A and B in blocks of in0_block_w = IN0_BLOCK_W tiles along K and keeping
// partial sums in CB c_24. Tensors: A, B, C.
#include "host_common.hpp"
#include "matmul_blocking.hpp"

using namespace sdk_style;

extern "C" void tilelang_tt_run(const char* kernel_dir, void* const* tensors, int num_tensors) {
    TT_FATAL(num_tensors == 3, "matmul_block_reuse takes A, B, C; got {} tensors", num_tensors);
    const std::string kernels(kernel_dir);
    Mesh mesh;
    const MatmulBlocking plan = plan_matmul(SHAPE_M / TILE_HEIGHT, SHAPE_K / TILE_WIDTH, SHAPE_N / TILE_WIDTH,
                                            mesh.device->compute_with_storage_grid_size(), IN0_BLOCK_W);
    auto a = upload(mesh, tensors[0], SHAPE_M, SHAPE_K);
    auto b = upload(mesh, tensors[1], SHAPE_K, SHAPE_N);
    auto c = dram_tiles(mesh, plan.Mt * plan.Nt);

    Program program = CreateProgram();
    const CoreRange cores({0, 0}, {plan.blocks_x - 1, plan.blocks_y - 1});
    const uint32_t in0_block_tiles = plan.per_core_M * plan.in0_block_w;
    const uint32_t in1_block_tiles = plan.in0_block_w * plan.per_core_N;
    const uint32_t out_block_tiles = plan.per_core_M * plan.per_core_N;
    tile_cb(program, cores, tt::CBIndex::c_0, 2 * in0_block_tiles);  // double-buffered
    tile_cb(program, cores, tt::CBIndex::c_1, 2 * in1_block_tiles);
    tile_cb(program, cores, tt::CBIndex::c_16, out_block_tiles);
    tile_cb(program, cores, tt::CBIndex::c_24, out_block_tiles);

    const uint32_t in0_num_subblocks = plan.per_core_M / plan.subblock_h;
    const uint32_t in1_num_subblocks = plan.per_core_N / plan.subblock_w;
    const KernelHandle reader = CreateKernel(program, kernels + "/dataflow/reader_matmul_blocks.cpp", cores,
                                             ReaderDataMovementConfig(accessor_args({a, b})));
    const KernelHandle writer = CreateKernel(program, kernels + "/dataflow/writer_matmul_blocks.cpp", cores,
                                             WriterDataMovementConfig(accessor_args({c})));
    CreateKernel(program, kernels + "/compute/matmul_blocks.cpp", cores,
                 ComputeConfig{.math_fidelity = MathFidelity::HiFi4,
                               .compile_args = {plan.in0_block_w, in0_num_subblocks, in1_num_subblocks, plan.num_blocks,
                                                plan.subblock_h, plan.subblock_w}});

    for (const CoreCoord& core : cores) {
        const uint32_t m0 = core.y * plan.per_core_M;
        const uint32_t n0 = core.x * plan.per_core_N;
        SetRuntimeArgs(program, reader, core,
                       {address(a), address(b), plan.Kt, plan.Nt, m0, n0, plan.per_core_M, plan.per_core_N,
                        plan.in0_block_w, plan.num_blocks});
        SetRuntimeArgs(
            program, writer, core,
            {address(c), plan.Nt, m0, n0, in0_num_subblocks, in1_num_subblocks, plan.subblock_h, plan.subblock_w});
    }
    run(mesh, std::move(program));
    download(mesh, c, tensors[2], SHAPE_M, SHAPE_N);
}
