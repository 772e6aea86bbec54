// c = a OP b on ROWS x COLS bf16 matrices, OP = ELTWISE_OP (0 add, 1 sub, 2 mul); the tiles are split
// over the whole compute grid with split_work_to_cores. Tensors: a, b, c.
#include "host_common.hpp"

using namespace sdk_style;

extern "C" void tilelang_tt_run(const char* kernel_dir, void* const* tensors, int num_tensors,
                                const uint32_t* /*sizes*/, int /*num_sizes*/) {
    TT_FATAL(num_tensors == 3, "eltwise_binary takes a, b, c; got {} tensors", num_tensors);
    const std::string kernels(kernel_dir);
    Mesh mesh;
    const uint32_t num_tiles = ROWS * COLS / TILE_HW;
    auto a = upload(mesh, tensors[0], ROWS, COLS);
    auto b = upload(mesh, tensors[1], ROWS, COLS);
    auto c = dram_tiles(mesh, num_tiles);

    Program program = CreateProgram();
    auto [num_cores, all_cores, group_1, group_2, tiles_1, tiles_2] =
        split_work_to_cores(mesh.device->compute_with_storage_grid_size(), num_tiles);
    tile_cb(program, all_cores, tt::CBIndex::c_0, 2);
    tile_cb(program, all_cores, tt::CBIndex::c_1, 2);
    tile_cb(program, all_cores, tt::CBIndex::c_16, 2);

    const KernelHandle reader = tile_reader(program, kernels, all_cores, {a, b});
    const KernelHandle writer = tile_writer(program, kernels, all_cores, c);
    const KernelHandle compute = CreateKernel(program, kernels + "/compute/eltwise_binary.cpp", all_cores,
                                              ComputeConfig{.compile_args = {ELTWISE_OP}});

    uint32_t start_tile = 0;
    for (const auto& [group, tiles_per_core] : {std::make_pair(group_1, tiles_1), std::make_pair(group_2, tiles_2)}) {
        for (const CoreCoord& core : corerange_to_cores(group)) {
            SetRuntimeArgs(program, reader, core, {address(a), address(b), start_tile, tiles_per_core});
            SetRuntimeArgs(program, writer, core, {address(c), start_tile, tiles_per_core});
            SetRuntimeArgs(program, compute, core, {tiles_per_core});
            start_tile += tiles_per_core;
        }
    }
    run(mesh, std::move(program));
    download(mesh, c, tensors[2], ROWS, COLS);
}
