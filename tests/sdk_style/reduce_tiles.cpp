// Row or column reductions (sum or max) of a ROWS x COLS bf16 matrix with reduce_tile.
// REDUCE_ALONG_ROWS 1: out is ROWS x 32 with out[r][0] = reduction over c of a[r][c] (REDUCE_ROW);
// REDUCE_ALONG_ROWS 0: out is 32 x COLS with out[0][c] = reduction over r of a[r][c] (REDUCE_COL).
// REDUCE_MAX 1 takes maxima, 0 sums. The other elements of out are what the reduction leaves in DST.
// Each output tile reduces one group of input tiles (a tile row or a tile column); the groups are split
// over the grid. Tensors: a, out.
#include "host_common.hpp"

using namespace sdk_style;

extern "C" void tilelang_tt_run(const char* kernel_dir, void* const* tensors, int num_tensors,
                                const uint32_t* /*sizes*/, int /*num_sizes*/) {
    TT_FATAL(num_tensors == 2, "reduce_tiles takes a, out; got {} tensors", num_tensors);
    const std::string kernels(kernel_dir);
    Mesh mesh;
    const uint32_t Ht = ROWS / TILE_HEIGHT;
    const uint32_t Wt = COLS / TILE_WIDTH;
    // Group g's tiles are g * group_stride + i * tile_stride for i < group_size.
    const uint32_t num_groups = REDUCE_ALONG_ROWS ? Ht : Wt;
    const uint32_t group_size = REDUCE_ALONG_ROWS ? Wt : Ht;
    const uint32_t group_stride = REDUCE_ALONG_ROWS ? Wt : 1;
    const uint32_t tile_stride = REDUCE_ALONG_ROWS ? 1 : Wt;
    auto a = upload(mesh, tensors[0], ROWS, COLS);
    auto out = dram_tiles(mesh, num_groups);

    Program program = CreateProgram();
    auto [num_cores, all_cores, group_1, group_2, groups_1, groups_2] =
        split_work_to_cores(mesh.device->compute_with_storage_grid_size(), num_groups);
    tile_cb(program, all_cores, tt::CBIndex::c_0, 2);
    tile_cb(program, all_cores, tt::CBIndex::c_2, 1);
    tile_cb(program, all_cores, tt::CBIndex::c_16, 2);

    const KernelHandle reader = CreateKernel(program, kernels + "/dataflow/reader_reduce.cpp", all_cores,
                                             ReaderDataMovementConfig(accessor_args({a})));
    const KernelHandle writer = tile_writer(program, kernels, all_cores, out);
    const std::map<std::string, std::string> reduce_defines = {
        {"REDUCE_OP", REDUCE_MAX ? "PoolType::MAX" : "PoolType::SUM"},
        {"REDUCE_DIM", REDUCE_ALONG_ROWS ? "ReduceDim::REDUCE_ROW" : "ReduceDim::REDUCE_COL"}};
    const KernelHandle compute = CreateKernel(program, kernels + "/compute/reduce_tiles.cpp", all_cores,
                                              ComputeConfig{.defines = reduce_defines});

    uint32_t start_group = 0;
    for (const auto& [group, groups_per_core] :
         {std::make_pair(group_1, groups_1), std::make_pair(group_2, groups_2)}) {
        for (const CoreCoord& core : corerange_to_cores(group)) {
            SetRuntimeArgs(
                program, reader, core,
                {address(a), start_group * group_stride, groups_per_core, group_size, group_stride, tile_stride});
            SetRuntimeArgs(program, writer, core, {address(out), start_group, groups_per_core});
            SetRuntimeArgs(program, compute, core, {groups_per_core, group_size});
            start_group += groups_per_core;
        }
    }
    run(mesh, std::move(program));
    if (REDUCE_ALONG_ROWS) {
        download(mesh, out, tensors[1], ROWS, TILE_WIDTH);
    } else {
        download(mesh, out, tensors[1], TILE_HEIGHT, COLS);
    }
}
