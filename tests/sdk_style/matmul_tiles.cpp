// C = A x B for A of SHAPE_M x SHAPE_K and B of SHAPE_K x SHAPE_N bf16 values (host defines), one output
// tile at a time: each core computes a range of output tiles, reading Kt tile pairs per output tile. MAX_CORES = 1
// gives the single-core matmul, 0 spreads the output tiles over the whole grid. Tensors: A, B, C.
#include "host_common.hpp"

using namespace sdk_style;

extern "C" void tilelang_tt_run(const char* kernel_dir, void* const* tensors, int num_tensors,
                                const uint32_t* /*sizes*/, int /*num_sizes*/) {
    TT_FATAL(num_tensors == 3, "matmul_tiles takes A, B, C; got {} tensors", num_tensors);
    const std::string kernels(kernel_dir);
    Mesh mesh;
    const uint32_t Mt = SHAPE_M / TILE_HEIGHT;
    const uint32_t Kt = SHAPE_K / TILE_WIDTH;
    const uint32_t Nt = SHAPE_N / TILE_WIDTH;
    auto a = upload(mesh, tensors[0], SHAPE_M, SHAPE_K);
    auto b = upload(mesh, tensors[1], SHAPE_K, SHAPE_N);
    auto c = dram_tiles(mesh, Mt * Nt);

    Program program = CreateProgram();
    const CoreCoord grid = MAX_CORES == 1 ? CoreCoord{1, 1} : mesh.device->compute_with_storage_grid_size();
    auto [num_cores, all_cores, group_1, group_2, tiles_1, tiles_2] = split_work_to_cores(grid, Mt * Nt);
    tile_cb(program, all_cores, tt::CBIndex::c_0, 2);
    tile_cb(program, all_cores, tt::CBIndex::c_1, 2);
    tile_cb(program, all_cores, tt::CBIndex::c_16, 2);

    const KernelHandle reader = CreateKernel(program, kernels + "/dataflow/reader_matmul_tiles.cpp", all_cores,
                                             ReaderDataMovementConfig(accessor_args({a, b})));
    const KernelHandle writer = tile_writer(program, kernels, all_cores, c);
    const KernelHandle compute = CreateKernel(program, kernels + "/compute/matmul_tiles.cpp", all_cores,
                                              ComputeConfig{.math_fidelity = MathFidelity::HiFi4});

    uint32_t start_tile = 0;
    for (const auto& [group, tiles_per_core] : {std::make_pair(group_1, tiles_1), std::make_pair(group_2, tiles_2)}) {
        for (const CoreCoord& core : corerange_to_cores(group)) {
            SetRuntimeArgs(program, reader, core, {address(a), address(b), Kt, Nt, start_tile, tiles_per_core});
            SetRuntimeArgs(program, writer, core, {address(c), start_tile, tiles_per_core});
            SetRuntimeArgs(program, compute, core, {tiles_per_core, Kt});
            start_tile += tiles_per_core;
        }
    }
    run(mesh, std::move(program));
    download(mesh, c, tensors[2], SHAPE_M, SHAPE_N);
}
