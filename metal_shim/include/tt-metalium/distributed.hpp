// The mesh host API: upload and download of mesh buffers and launch of workloads through a mesh
// command queue. Each command runs when enqueued (blocking or not); Finish() returns at once. Defined in
// metal_shim/src/distributed.cpp (the templates below forward to it).
#pragma once

#include <tt-metalium/mesh_buffer.hpp>
#include <tt-metalium/mesh_command_queue.hpp>
#include <tt-metalium/mesh_coord.hpp>
#include <tt-metalium/mesh_device.hpp>
#include <tt-metalium/mesh_workload.hpp>
#include <tt-metalium/host_buffer_memory.hpp>
#include <tt_stl/assert.hpp>

#include <memory>
#include <vector>

namespace tt::tt_metal::distributed {

namespace host_detail {

// The unit mesh's copy of a mesh buffer; throws naming `call` for a null mesh buffer.
Buffer& backing_buffer(const std::shared_ptr<MeshBuffer>& mesh_buffer, const char* call);

}  // namespace host_detail

// Writes src (at most the buffer's size) to the start of the buffer on every chip.
template <typename DType>
void EnqueueWriteMeshBuffer(MeshCommandQueue& mesh_cq, const std::shared_ptr<MeshBuffer>& mesh_buffer,
                            const std::vector<DType>& src, bool blocking = false) {
    (void)mesh_cq;
    (void)blocking;
    host_detail::backing_buffer(mesh_buffer, "EnqueueWriteMeshBuffer").write(src.data(), src.size() * sizeof(DType));
}

// Resizes dst to the buffer's size and reads the buffer into it.
template <typename DType>
void EnqueueReadMeshBuffer(MeshCommandQueue& mesh_cq, std::vector<DType>& dst,
                           const std::shared_ptr<MeshBuffer>& mesh_buffer, bool blocking = true) {
    (void)mesh_cq;
    (void)blocking;
    Buffer& source = host_detail::backing_buffer(mesh_buffer, "EnqueueReadMeshBuffer");
    tt::tt_metal::host_detail::resize_host_vector(dst, source.size() / sizeof(DType));
    source.read(dst.data(), dst.size() * sizeof(DType));
}

template <typename DType>
void WriteShard(MeshCommandQueue& mesh_cq, const std::shared_ptr<MeshBuffer>& mesh_buffer,
                const std::vector<DType>& src, const MeshCoordinate& coord, bool blocking = false) {
    (void)mesh_cq;
    (void)blocking;
    mesh_buffer->get_device_buffer(coord)->write(src.data(), src.size() * sizeof(DType));
}

template <typename DType>
void ReadShard(MeshCommandQueue& mesh_cq, std::vector<DType>& dst, const std::shared_ptr<MeshBuffer>& mesh_buffer,
               const MeshCoordinate& coord, bool blocking = true) {
    (void)mesh_cq;
    (void)blocking;
    Buffer* buffer = mesh_buffer->get_device_buffer(coord);
    tt::tt_metal::host_detail::resize_host_vector(dst, buffer->size() / sizeof(DType));
    buffer->read(dst.data(), dst.size() * sizeof(DType));
}

// Runs every program of the workload on the chips of its range.
void EnqueueMeshWorkload(MeshCommandQueue& mesh_cq, MeshWorkload& mesh_workload, bool blocking);

void Finish(MeshCommandQueue& mesh_cq);

}  // namespace tt::tt_metal::distributed
