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
#include <tt-metalium/sub_device_types.hpp>
#include <tt_stl/assert.hpp>

#include <memory>
#include <vector>
#if __cplusplus >= 202002L
#include <span>
#endif

namespace tt::tt_metal::distributed {

namespace host_detail {

// The unit mesh's copy of a mesh buffer; throws naming `call` for a null mesh buffer.
Buffer& backing_buffer(const std::shared_ptr<MeshBuffer>& mesh_buffer, const char* call);

// Finish for C++17 programs (the shim's own entry point, see Finish).
void finish(MeshCommandQueue& mesh_cq);

}  // namespace host_detail

// Writes src (at most the buffer's size) to the start of the buffer on every chip.
template <typename DType>
void EnqueueWriteMeshBuffer(MeshCommandQueue& mesh_cq, const std::shared_ptr<MeshBuffer>& mesh_buffer,
                            const std::vector<DType>& src, bool blocking = false) {
    (void)mesh_cq;
    (void)blocking;
    tt::tt_metal::host_detail::write_buffer(host_detail::backing_buffer(mesh_buffer, "EnqueueWriteMeshBuffer"),
                                            src.data(), src.size() * sizeof(DType));
}

// Resizes dst to the buffer's size and reads the buffer into it.
template <typename DType>
void EnqueueReadMeshBuffer(MeshCommandQueue& mesh_cq, std::vector<DType>& dst,
                           const std::shared_ptr<MeshBuffer>& mesh_buffer, bool blocking = true) {
    (void)mesh_cq;
    (void)blocking;
    Buffer& source = host_detail::backing_buffer(mesh_buffer, "EnqueueReadMeshBuffer");
    tt::tt_metal::host_detail::resize_host_vector(dst, source.size() / sizeof(DType));
    tt::tt_metal::host_detail::read_buffer(source, dst.data(), dst.size() * sizeof(DType));
}

template <typename DType>
void WriteShard(MeshCommandQueue& mesh_cq, const std::shared_ptr<MeshBuffer>& mesh_buffer,
                const std::vector<DType>& src, const MeshCoordinate& coord, bool blocking = false) {
    (void)mesh_cq;
    (void)blocking;
    tt::tt_metal::host_detail::write_buffer(*mesh_buffer->get_device_buffer(coord), src.data(),
                                            src.size() * sizeof(DType));
}

template <typename DType>
void ReadShard(MeshCommandQueue& mesh_cq, std::vector<DType>& dst, const std::shared_ptr<MeshBuffer>& mesh_buffer,
               const MeshCoordinate& coord, bool blocking = true) {
    (void)mesh_cq;
    (void)blocking;
    Buffer* buffer = mesh_buffer->get_device_buffer(coord);
    tt::tt_metal::host_detail::resize_host_vector(dst, buffer->size() / sizeof(DType));
    tt::tt_metal::host_detail::read_buffer(*buffer, dst.data(), dst.size() * sizeof(DType));
}

// Runs every program of the workload on the chips of its range.
void EnqueueMeshWorkload(MeshCommandQueue& mesh_cq, MeshWorkload& mesh_workload, bool blocking);

// Waits for the queue's commands (the mock's have all run). The SDK's signature needs C++20 (std::span), as
// its host API does; C++17 programs wait for every sub-device, through the shim's own entry point.
#if __cplusplus >= 202002L
void Finish(MeshCommandQueue& mesh_cq, std::span<const SubDeviceId> sub_device_ids = {});
#else
inline void Finish(MeshCommandQueue& mesh_cq) {
    host_detail::finish(mesh_cq);
}
#endif

}  // namespace tt::tt_metal::distributed
