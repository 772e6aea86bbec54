// c = f(a) on a ROWS x COLS bf16 matrix with an SFPU operation, f = SFPU_OP_CODE (0 exp, 1 relu,
// 2 sqrt, 3 recip, 4 gelu), tiles split over the grid. Tensors: a, c.
#include "host_common.hpp"

using namespace sdk_style;

namespace {

// The compute kernel's SFPU_OP_INIT / SFPU_OP defines for each operation.
const std::map<std::string, std::string> kSfpuOps[] = {
    {{"SFPU_OP_INIT", "exp_tile_init();"}, {"SFPU_OP", "exp_tile(0);"}},
    {{"SFPU_OP_INIT", "relu_tile_init();"}, {"SFPU_OP", "relu_tile(0);"}},
    {{"SFPU_OP_INIT", "sqrt_tile_init();"}, {"SFPU_OP", "sqrt_tile(0);"}},
    {{"SFPU_OP_INIT", "recip_tile_init();"}, {"SFPU_OP", "recip_tile(0);"}},
    {{"SFPU_OP_INIT", "gelu_tile_init();"}, {"SFPU_OP", "gelu_tile(0);"}},
};

}  // namespace

extern "C" void tilelang_tt_run(const char* kernel_dir, void* const* tensors, int num_tensors) {
    TT_FATAL(num_tensors == 2, "sfpu_unary takes a, c; got {} tensors", num_tensors);
    const std::string kernels(kernel_dir);
    Mesh mesh;
    const uint32_t num_tiles = ROWS * COLS / TILE_HW;
    auto a = upload(mesh, tensors[0], ROWS, COLS);
    auto c = dram_tiles(mesh, num_tiles);

    Program program = CreateProgram();
    auto [num_cores, all_cores, group_1, group_2, tiles_1, tiles_2] =
        split_work_to_cores(mesh.device->compute_with_storage_grid_size(), num_tiles);
    tile_cb(program, all_cores, tt::CBIndex::c_0, 2);
    tile_cb(program, all_cores, tt::CBIndex::c_16, 2);

    std::vector<uint32_t> reader_args = {1};
    for (uint32_t arg : accessor_args({a})) {
        reader_args.push_back(arg);
    }
    const KernelHandle reader =
        CreateKernel(program, kernels + "/dataflow/reader_tiles.cpp", all_cores, ReaderDataMovementConfig(reader_args));
    const KernelHandle writer = CreateKernel(program, kernels + "/dataflow/writer_tiles.cpp", all_cores,
                                             WriterDataMovementConfig(accessor_args({c})));
    const KernelHandle compute = CreateKernel(program, kernels + "/compute/sfpu_unary.cpp", all_cores,
                                              ComputeConfig{.defines = kSfpuOps[SFPU_OP_CODE]});

    uint32_t start_tile = 0;
    for (const auto& [group, tiles_per_core] : {std::make_pair(group_1, tiles_1), std::make_pair(group_2, tiles_2)}) {
        for (const CoreCoord& core : corerange_to_cores(group)) {
            SetRuntimeArgs(program, reader, core, {address(a), start_tile, tiles_per_core});
            SetRuntimeArgs(program, writer, core, {address(c), start_tile, tiles_per_core});
            SetRuntimeArgs(program, compute, core, {tiles_per_core});
            start_tile += tiles_per_core;
        }
    }
    run(mesh, std::move(program));
    download(mesh, c, tensors[1], ROWS, COLS);
}
