// TensorAccessors of sharded buffers: TILES_Y x TILES_X bf16 tiles `a` in a sharded L1 buffer (LAYOUT 2
// HEIGHT_, 3 WIDTH_, 4 BLOCK_SHARDED; shards of SHARD_Y x SHARD_X tiles on the GRID_X x GRID_Y cores from
// (0, 0), taken row by row when ROWS_FIRST is 1, else column by column) are copied by one core page by page
// through accessors (kernels/dataflow/copy_through_accessors.cpp) to an interleaved DRAM buffer `mid` and
// from there to a second sharded buffer `dst` laid out as `a`. Tensors: a (row-major), then the outputs mid
// and dst (row-major). COPY_PAGES (default: all) is how many pages the kernel copies.
#include "host_common.hpp"

using namespace sdk_style;

#ifndef COPY_PAGES
#define COPY_PAGES (TILES_Y * TILES_X)
#endif

extern "C" void tilelang_tt_run(const char* kernel_dir, void* const* tensors, int num_tensors,
                                const uint32_t* /*sizes*/, int /*num_sizes*/) {
    TT_FATAL(num_tensors == 3, "sharded_accessor takes a, mid, dst; got {} tensors", num_tensors);
    const std::string kernels(kernel_dir);
    Mesh mesh;
    const CoreRange cores({0, 0}, {GRID_X - 1, GRID_Y - 1});
    const ShardSpecBuffer spec = tile_shards(cores, SHARD_Y, SHARD_X, ROWS_FIRST, TILES_Y, TILES_X);
    const auto layout = static_cast<TensorMemoryLayout>(LAYOUT);
    const uint32_t rows = TILES_Y * TILE_HEIGHT, cols = TILES_X * TILE_WIDTH;
    auto src = upload_sharded(mesh, tensors[0], spec, layout);
    auto mid = dram_tiles(mesh, TILES_Y * TILES_X);
    auto dst = sharded_tiles(mesh, spec, layout);

    Program program = CreateProgram();
    const CoreCoord core{0, 0};
    tile_cb(program, core, tt::CBIndex::c_0, 1);
    const KernelHandle copy = CreateKernel(program, kernels + "/dataflow/copy_through_accessors.cpp", core,
                                           ReaderDataMovementConfig(accessor_args({src, mid, dst})));
    SetRuntimeArgs(program, copy, core, {address(src), address(mid), address(dst), COPY_PAGES});
    run(mesh, std::move(program));
    download(mesh, mid, tensors[1], rows, cols);
    download(mesh, dst, tensors[2], rows, cols);
}
