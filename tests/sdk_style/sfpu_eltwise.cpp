// Element-wise SFPU functions of NUM_INPUTS (1 to 3) ROWS x COLS bf16 matrices, one output per function.
// SFPU_OPS lists the functions as {SFPU_OP_INIT, SFPU_OP} pairs of compute-kernel code, e.g.
// {{"exp_tile_init();", "exp_tile(0);"}}: the compute kernel loads input i into DST[i], runs SFPU_OP and
// packs DST[0]. Each function is one program, its tiles split over the grid. Every program builds the same
// compute kernel (one JIT build): its SFPU_OP_CASES define holds every function, and a runtime argument
// selects the program's.
// Tensors: the inputs, then one output per function.
#include <iterator>
#include <string>

#include "host_common.hpp"

using namespace sdk_style;

namespace {

struct SfpuOp {
    const char* init;
    const char* call;
};

constexpr SfpuOp kSfpuOps[] = SFPU_OPS;
constexpr uint32_t kNumOps = std::size(kSfpuOps);

// The compute kernel's SFPU_OP_CASES: `case k: SFPU_OP_INIT SFPU_OP break;` for every function k.
std::string sfpu_op_cases() {
    std::string cases;
    for (uint32_t k = 0; k < kNumOps; ++k) {
        cases += "case " + std::to_string(k) + ": " + kSfpuOps[k].init + " " + kSfpuOps[k].call + " break; ";
    }
    return cases;
}

// c = function op of kSfpuOps (inputs) with one program.
void run_op(Mesh& mesh, const std::string& kernels, uint32_t op,
            const std::vector<std::shared_ptr<distributed::MeshBuffer>>& inputs,
            const std::shared_ptr<distributed::MeshBuffer>& c) {
    const uint32_t num_tiles = ROWS * COLS / TILE_HW;
    Program program = CreateProgram();
    auto [num_cores, all_cores, group_1, group_2, tiles_1, tiles_2] =
        split_work_to_cores(mesh.device->compute_with_storage_grid_size(), num_tiles);
    for (uint32_t i = 0; i < NUM_INPUTS; ++i) {
        tile_cb(program, all_cores, static_cast<tt::CBIndex>(i), 2);
    }
    tile_cb(program, all_cores, tt::CBIndex::c_16, 2);

    const KernelHandle reader = tile_reader(program, kernels, all_cores, inputs);
    const KernelHandle writer = tile_writer(program, kernels, all_cores, c);
    const KernelHandle compute =
        CreateKernel(program, kernels + "/compute/sfpu_eltwise.cpp", all_cores,
                     ComputeConfig{.compile_args = {NUM_INPUTS}, .defines = {{"SFPU_OP_CASES", sfpu_op_cases()}}});

    uint32_t start_tile = 0;
    for (const auto& [group, tiles_per_core] : {std::make_pair(group_1, tiles_1), std::make_pair(group_2, tiles_2)}) {
        for (const CoreCoord& core : corerange_to_cores(group)) {
            std::vector<uint32_t> reader_runtime_args;
            for (const auto& input : inputs) {
                reader_runtime_args.push_back(address(input));
            }
            reader_runtime_args.push_back(start_tile);
            reader_runtime_args.push_back(tiles_per_core);
            SetRuntimeArgs(program, reader, core, reader_runtime_args);
            SetRuntimeArgs(program, writer, core, {address(c), start_tile, tiles_per_core});
            SetRuntimeArgs(program, compute, core, {tiles_per_core, op});
            start_tile += tiles_per_core;
        }
    }
    run(mesh, std::move(program));
}

}  // namespace

extern "C" void tilelang_tt_run(const char* kernel_dir, void* const* tensors, int num_tensors,
                                const uint32_t* /*sizes*/, int /*num_sizes*/) {
    TT_FATAL(num_tensors == NUM_INPUTS + kNumOps, "sfpu_eltwise takes {} inputs and {} outputs; got {} tensors",
             NUM_INPUTS, kNumOps, num_tensors);
    const std::string kernels(kernel_dir);
    Mesh mesh;
    std::vector<std::shared_ptr<distributed::MeshBuffer>> inputs;
    for (uint32_t i = 0; i < NUM_INPUTS; ++i) {
        inputs.push_back(upload(mesh, tensors[i], ROWS, COLS));
    }
    for (uint32_t k = 0; k < kNumOps; ++k) {
        auto c = dram_tiles(mesh, ROWS * COLS / TILE_HW);
        run_op(mesh, kernels, k, inputs, c);
        download(mesh, c, tensors[NUM_INPUTS + k], ROWS, COLS);
    }
}
