// Packing a block of DST tiles after one cb_reserve_back: c = a with the tiles of every block of BLOCK
// consecutive tiles (row-major tile order) packed in order (OUT_OF_ORDER 0: pack_tile(i, cb), one page
// after the other) or reversed (OUT_OF_ORDER 1: pack_tile<true>(i, cb, BLOCK - 1 - i), at a page index
// relative to the write pointer). ROWS x COLS bf16 matrices; the blocks are split over the grid.
// Tensors: a, c.
#include "host_common.hpp"

using namespace sdk_style;

extern "C" void tilelang_tt_run(const char* kernel_dir, void* const* tensors, int num_tensors,
                                const uint32_t* /*sizes*/, int /*num_sizes*/) {
    TT_FATAL(num_tensors == 2, "pack_tiles takes a, c; got {} tensors", num_tensors);
    static_assert(ROWS * COLS / TILE_HW % BLOCK == 0, "the tiles must divide into blocks");
    const std::string kernels(kernel_dir);
    Mesh mesh;
    const uint32_t num_blocks = ROWS * COLS / TILE_HW / BLOCK;
    auto a = upload(mesh, tensors[0], ROWS, COLS);
    auto c = dram_tiles(mesh, num_blocks * BLOCK);

    Program program = CreateProgram();
    auto [num_cores, all_cores, group_1, group_2, blocks_1, blocks_2] =
        split_work_to_cores(mesh.device->compute_with_storage_grid_size(), num_blocks);
    tile_cb(program, all_cores, tt::CBIndex::c_0, 2 * BLOCK);
    tile_cb(program, all_cores, tt::CBIndex::c_16, 2 * BLOCK);

    const KernelHandle reader = tile_reader(program, kernels, all_cores, {a});
    const KernelHandle writer = tile_writer(program, kernels, all_cores, c);
    const KernelHandle compute = CreateKernel(
        program, kernels + "/compute/pack_tiles.cpp", all_cores,
        ComputeConfig{.compile_args = {BLOCK}, .defines = {{"OUT_OF_ORDER", std::to_string(OUT_OF_ORDER)}}});

    uint32_t start_block = 0;
    for (const auto& [group, blocks_per_core] :
         {std::make_pair(group_1, blocks_1), std::make_pair(group_2, blocks_2)}) {
        for (const CoreCoord& core : corerange_to_cores(group)) {
            const uint32_t start_tile = start_block * BLOCK, num_tiles = blocks_per_core * BLOCK;
            SetRuntimeArgs(program, reader, core, {address(a), start_tile, num_tiles});
            SetRuntimeArgs(program, writer, core, {address(c), start_tile, num_tiles});
            SetRuntimeArgs(program, compute, core, {blocks_per_core});
            start_block += blocks_per_core;
        }
    }
    run(mesh, std::move(program));
    download(mesh, c, tensors[1], ROWS, COLS);
}
