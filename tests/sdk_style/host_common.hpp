// What the SDK-style host programs of this directory share: a unit mesh, DRAM tensors of bf16 tiles
// made from row-major host data (bf16 bits, as tilelang_tt_run receives them), one-size CBs, and
// launching a program. Each host program defines
//     extern "C" void tilelang_tt_run(const char* kernel_dir, void* const* tensors, int num_tensors,
//                                     const uint32_t* sizes, int num_sizes);
// with its shapes fixed by host defines (ROWS, COLS, M, N, K, ...), so tests build it per shape.
#pragma once

#include <tt-metalium/bfloat16.hpp>
#include <tt-metalium/constants.hpp>
#include <tt-metalium/distributed.hpp>
#include <tt-metalium/host_api.hpp>
#include <tt-metalium/tensor_accessor_args.hpp>
#include <tt-metalium/tilize_utils.hpp>
#include <tt-metalium/work_split.hpp>

#include <cstdint>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

namespace sdk_style {

using namespace tt::tt_metal;
using tt::constants::TILE_HEIGHT;
using tt::constants::TILE_HW;
using tt::constants::TILE_WIDTH;

constexpr uint32_t kTileBytes = sizeof(bfloat16) * TILE_HW;

struct Mesh {
    std::shared_ptr<distributed::MeshDevice> device = distributed::MeshDevice::create_unit_mesh(0);
    distributed::MeshCommandQueue& cq = device->mesh_command_queue();
};

// A DRAM tensor of num_tiles bf16 tiles, one tile per page.
inline std::shared_ptr<distributed::MeshBuffer> dram_tiles(Mesh& mesh, uint32_t num_tiles) {
    const distributed::DeviceLocalBufferConfig dram{.page_size = kTileBytes, .buffer_type = BufferType::DRAM};
    const distributed::ReplicatedBufferConfig size{.size = num_tiles * kTileBytes};
    return distributed::MeshBuffer::create(size, dram, mesh.device.get());
}

// The layout of a tiles_y x tiles_x tile tensor in shards of shard_y x shard_x tiles on the cores, taken row
// by row (rows_first) or column by column.
inline ShardSpecBuffer tile_shards(const CoreRange& cores, uint32_t shard_y, uint32_t shard_x, bool rows_first,
                                   uint32_t tiles_y, uint32_t tiles_x) {
    return ShardSpecBuffer(cores, {shard_y * TILE_HEIGHT, shard_x * TILE_WIDTH},
                           rows_first ? ShardOrientation::ROW_MAJOR : ShardOrientation::COL_MAJOR,
                           {TILE_HEIGHT, TILE_WIDTH}, {tiles_y, tiles_x});
}

// A sharded L1 tensor of bf16 tiles (one tile per page) laid out by `spec` as `layout` says.
inline std::shared_ptr<distributed::MeshBuffer> sharded_tiles(Mesh& mesh, const ShardSpecBuffer& spec,
                                                              TensorMemoryLayout layout) {
    const distributed::DeviceLocalBufferConfig l1{
        .page_size = kTileBytes,
        .buffer_type = BufferType::L1,
        .sharding_args = BufferShardingArgs(spec, layout),
    };
    const auto [tiles_y, tiles_x] = spec.tensor2d_shape_in_pages;
    const distributed::ReplicatedBufferConfig size{.size = tiles_y * tiles_x * kTileBytes};
    return distributed::MeshBuffer::create(size, l1, mesh.device.get());
}

// Uploads the row-major bf16 matrix of a sharded tile tensor (sharded_tiles) shard by shard.
inline std::shared_ptr<distributed::MeshBuffer> upload_sharded(Mesh& mesh, const void* data,
                                                               const ShardSpecBuffer& spec, TensorMemoryLayout layout) {
    const uint32_t rows = spec.tensor2d_shape_in_pages[0] * TILE_HEIGHT;
    const uint32_t cols = spec.tensor2d_shape_in_pages[1] * TILE_WIDTH;
    std::vector<bfloat16> values(static_cast<size_t>(rows) * cols);
    std::memcpy(values.data(), data, values.size() * sizeof(bfloat16));
    auto buffer = sharded_tiles(mesh, spec, layout);
    distributed::EnqueueWriteMeshBuffer(mesh.cq, buffer, tilize_nfaces(values, rows, cols), false);
    return buffer;
}

// Uploads a rows x cols row-major bf16 matrix in tiled (four-face) layout.
inline std::shared_ptr<distributed::MeshBuffer> upload(Mesh& mesh, const void* data, uint32_t rows, uint32_t cols) {
    std::vector<bfloat16> values(static_cast<size_t>(rows) * cols);
    std::memcpy(values.data(), data, values.size() * sizeof(bfloat16));
    auto buffer = dram_tiles(mesh, rows * cols / TILE_HW);
    distributed::EnqueueWriteMeshBuffer(mesh.cq, buffer, tilize_nfaces(values, rows, cols), false);
    return buffer;
}

// Downloads a tiled rows x cols bf16 matrix into row-major host memory.
inline void download(Mesh& mesh, const std::shared_ptr<distributed::MeshBuffer>& buffer, void* data, uint32_t rows,
                     uint32_t cols) {
    std::vector<bfloat16> tiles;
    distributed::EnqueueReadMeshBuffer(mesh.cq, tiles, buffer, true);
    const std::vector<bfloat16> values = untilize_nfaces(tiles, rows, cols);
    std::memcpy(data, values.data(), values.size() * sizeof(bfloat16));
}

// A CB of num_tiles bf16 tiles at index cb on the cores.
inline void tile_cb(Program& program, const CoreSpec& cores, tt::CBIndex cb, uint32_t num_tiles) {
    CreateCircularBuffer(
        program, cores,
        CircularBufferConfig(num_tiles * kTileBytes, {{cb, tt::DataFormat::Float16_b}}).set_page_size(cb, kTileBytes));
}

inline std::vector<uint32_t> accessor_args(std::initializer_list<std::shared_ptr<distributed::MeshBuffer>> buffers) {
    std::vector<uint32_t> args;
    for (const auto& buffer : buffers) {
        TensorAccessorArgs(*buffer).append_to(args);
    }
    return args;
}

// kernels/dataflow/reader_tiles.cpp on the cores: one tile of each input per step into CBs c_0, c_1, ...
// Runtime args: the input addresses, start_tile, num_tiles.
inline KernelHandle tile_reader(Program& program, const std::string& kernels, const CoreSpec& cores,
                                const std::vector<std::shared_ptr<distributed::MeshBuffer>>& inputs) {
    std::vector<uint32_t> args = {static_cast<uint32_t>(inputs.size())};
    for (const auto& input : inputs) {
        TensorAccessorArgs(*input).append_to(args);
    }
    return CreateKernel(program, kernels + "/dataflow/reader_tiles.cpp", cores, ReaderDataMovementConfig(args));
}

// kernels/dataflow/writer_tiles.cpp on the cores: CB c_16 to the output. Runtime args: the output address,
// start_tile, num_tiles.
inline KernelHandle tile_writer(Program& program, const std::string& kernels, const CoreSpec& cores,
                                const std::shared_ptr<distributed::MeshBuffer>& output) {
    return CreateKernel(program, kernels + "/dataflow/writer_tiles.cpp", cores,
                        WriterDataMovementConfig(accessor_args({output})));
}

inline void run(Mesh& mesh, Program&& program) {
    distributed::MeshWorkload workload;
    workload.add_program(distributed::MeshCoordinateRange(mesh.device->shape()), std::move(program));
    distributed::EnqueueMeshWorkload(mesh.cq, workload, false);
    distributed::Finish(mesh.cq);
}

inline uint32_t address(const std::shared_ptr<distributed::MeshBuffer>& buffer) {
    return static_cast<uint32_t>(buffer->address());
}

}  // namespace sdk_style
