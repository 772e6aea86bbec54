// Row sums of a ROWS x COLS bf16 matrix: out is ROWS x 32 with out[r][0] = sum over c of a[r][c]
// (the other columns are what REDUCE_ROW leaves there). Tile rows are split over the grid.
// Tensors: a, out.
#include "host_common.hpp"

using namespace sdk_style;

extern "C" void tilelang_tt_run(const char* kernel_dir, void* const* tensors, int num_tensors) {
    TT_FATAL(num_tensors == 2, "reduce_rows takes a, out; got {} tensors", num_tensors);
    const std::string kernels(kernel_dir);
    Mesh mesh;
    const uint32_t Ht = ROWS / TILE_HEIGHT;
    const uint32_t Wt = COLS / TILE_WIDTH;
    auto a = upload(mesh, tensors[0], ROWS, COLS);
    auto out = dram_tiles(mesh, Ht);

    Program program = CreateProgram();
    auto [num_cores, all_cores, group_1, group_2, rows_1, rows_2] =
        split_work_to_cores(mesh.device->compute_with_storage_grid_size(), Ht);
    tile_cb(program, all_cores, tt::CBIndex::c_0, 2);
    tile_cb(program, all_cores, tt::CBIndex::c_2, 1);
    tile_cb(program, all_cores, tt::CBIndex::c_16, 2);

    const KernelHandle reader = CreateKernel(program, kernels + "/dataflow/reader_reduce.cpp", all_cores,
                                             ReaderDataMovementConfig(accessor_args({a})));
    const KernelHandle writer = CreateKernel(program, kernels + "/dataflow/writer_tiles.cpp", all_cores,
                                             WriterDataMovementConfig(accessor_args({out})));
    const KernelHandle compute =
        CreateKernel(program, kernels + "/compute/reduce_rows.cpp", all_cores, ComputeConfig{});

    uint32_t start_row = 0;
    for (const auto& [group, rows_per_core] : {std::make_pair(group_1, rows_1), std::make_pair(group_2, rows_2)}) {
        for (const CoreCoord& core : corerange_to_cores(group)) {
            SetRuntimeArgs(program, reader, core, {address(a), start_row * Wt, rows_per_core * Wt});
            SetRuntimeArgs(program, writer, core, {address(out), start_row, rows_per_core});
            SetRuntimeArgs(program, compute, core, {rows_per_core, Wt});
            start_row += rows_per_core;
        }
    }
    run(mesh, std::move(program));
    download(mesh, out, tensors[1], ROWS, TILE_WIDTH);
}
