// C = A x B for A of SHAPE_M x SHAPE_K and B of SHAPE_K x SHAPE_N bf16 values (host defines), with block
// reuse: each core of a blocks_x x blocks_y grid computes one per_core_M x per_core_N block of C (see
// matmul_blocking.hpp), reading A and B in blocks of in0_block_w = IN0_BLOCK_W tiles along K and keeping
// partial sums in CB c_24. Tensors: A, B, C.
#include "host_common.hpp"
#include "matmul_blocking.hpp"

using namespace sdk_style;

extern "C" void tilelang_tt_run(const char* kernel_dir, void* const* tensors, int num_tensors,
                                const uint32_t* /*sizes*/, int /*num_sizes*/) {
    TT_FATAL(num_tensors == 3, "matmul_block_reuse takes A, B, C; got {} tensors", num_tensors);
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

    const KernelHandle reader = CreateKernel(program, kernels + "/dataflow/reader_matmul_blocks.cpp", cores,
                                             ReaderDataMovementConfig(accessor_args({a, b})));
    const KernelHandle writer = CreateKernel(program, kernels + "/dataflow/writer_matmul_blocks.cpp", cores,
                                             WriterDataMovementConfig(accessor_args({c})));
    create_block_compute_kernel(program, kernels, cores, plan);

    for (const CoreCoord& core : cores) {
        SetRuntimeArgs(program, reader, core, block_reader_args(a, b, plan, core));
        SetRuntimeArgs(program, writer, core, block_writer_args(c, plan, core));
    }
    run(mesh, std::move(program));
    download(mesh, c, tensors[2], SHAPE_M, SHAPE_N);
}
