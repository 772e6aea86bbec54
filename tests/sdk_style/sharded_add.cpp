// c = a + b on TILES_Y x TILES_X bf16 tiles held in sharded L1 buffers: LAYOUT (2 HEIGHT_, 3 WIDTH_,
// 4 BLOCK_SHARDED), shards of SHARD_Y x SHARD_X tiles on the GRID_X x GRID_Y cores from (0, 0), taken row
// by row (ROWS_FIRST 1: ROW_MAJOR) or column by column (0). CBs c_0, c_1 and c_16 are globally allocated
// on a, b and c, with CB_TILES tiles each (the shard's tiles unless defined); UNWAITED adds without handing the shards
// over (kernels/compute/add_shards_unwaited.cpp: no placement). Tensors: a, b, c (row-major), and placement: one row of
// SHARD_Y * SHARD_X tiles per core of the grid (row by row), the tiles of a that core holds.
#include "host_common.hpp"

using namespace sdk_style;

namespace {

void shard_cb(Program& program, const CoreRange& cores, tt::CBIndex cb, uint32_t tiles,
              const std::shared_ptr<distributed::MeshBuffer>& buffer) {
    CreateCircularBuffer(program, cores,
                         CircularBufferConfig(tiles * kTileBytes, {{cb, tt::DataFormat::Float16_b}})
                             .set_page_size(cb, kTileBytes)
                             .set_globally_allocated_address(*buffer->get_backing_buffer()));
}

}  // namespace

#ifndef CB_TILES
#define CB_TILES (SHARD_Y * SHARD_X)
#endif

extern "C" void tilelang_tt_run(const char* kernel_dir, void* const* tensors, int num_tensors,
                                const uint32_t* /*sizes*/, int /*num_sizes*/) {
    TT_FATAL(num_tensors == 4, "sharded_add takes a, b, c, placement; got {} tensors", num_tensors);
    const std::string kernels(kernel_dir);
    Mesh mesh;
    const CoreRange cores({0, 0}, {GRID_X - 1, GRID_Y - 1});
    const ShardSpecBuffer spec = tile_shards(cores, SHARD_Y, SHARD_X, ROWS_FIRST, TILES_Y, TILES_X);
    const auto layout = static_cast<TensorMemoryLayout>(LAYOUT);
    const uint32_t rows = TILES_Y * TILE_HEIGHT, cols = TILES_X * TILE_WIDTH;
    const std::shared_ptr<distributed::MeshBuffer> inputs[] = {upload_sharded(mesh, tensors[0], spec, layout),
                                                               upload_sharded(mesh, tensors[1], spec, layout)};
    auto c = sharded_tiles(mesh, spec, layout);
    const uint32_t shard_tiles = SHARD_Y * SHARD_X;
    auto placement = dram_tiles(mesh, GRID_X * GRID_Y * shard_tiles);

    Program program = CreateProgram();
    shard_cb(program, cores, tt::CBIndex::c_0, CB_TILES, inputs[0]);
    shard_cb(program, cores, tt::CBIndex::c_1, CB_TILES, inputs[1]);
    shard_cb(program, cores, tt::CBIndex::c_16, CB_TILES, c);
#ifdef UNWAITED
    const KernelHandle compute =
        CreateKernel(program, kernels + "/compute/add_shards_unwaited.cpp", cores, ComputeConfig{});
#else
    const KernelHandle publish = CreateKernel(program, kernels + "/dataflow/publish_shards.cpp", cores,
                                              ReaderDataMovementConfig(accessor_args({placement})));
    const KernelHandle compute =
        CreateKernel(program, kernels + "/compute/eltwise_binary.cpp", cores, ComputeConfig{.compile_args = {0}});
#endif
    for (const CoreCoord& core : cores) {
#ifndef UNWAITED
        SetRuntimeArgs(program, publish, core, {address(placement), core.y * GRID_X + core.x, shard_tiles});
#endif
        SetRuntimeArgs(program, compute, core, {shard_tiles});
    }
    run(mesh, std::move(program));
    download(mesh, c, tensors[2], rows, cols);
    std::vector<bfloat16> tiles;
    distributed::EnqueueReadMeshBuffer(mesh.cq, tiles, placement, true);
    std::memcpy(tensors[3], tiles.data(), tiles.size() * sizeof(bfloat16));
}
