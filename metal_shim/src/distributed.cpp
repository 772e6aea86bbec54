// The mesh host API (tt-metalium/distributed.hpp): mesh buffers resolve to their unit-mesh copy, and a
// workload's programs run on the simulated chip when the workload is enqueued.
#include <runtime_mock/device.hpp>
#include <tt-metalium/distributed.hpp>

#include "program_record.hpp"

namespace tt::tt_metal::distributed {

Buffer& host_detail::backing_buffer(const std::shared_ptr<MeshBuffer>& mesh_buffer, const char* call) {
    TT_FATAL(mesh_buffer != nullptr, "{}: buffer is null", call);
    return *mesh_buffer->get_backing_buffer();
}

void EnqueueMeshWorkload(MeshCommandQueue& mesh_cq, MeshWorkload& mesh_workload, bool blocking) {
    (void)blocking;
    for (const auto& [range, program] : mesh_workload.get_programs()) {
        TT_FATAL(range.contains(MeshCoordinate(0, 0)), "EnqueueMeshWorkload: the program's range has no chip");
        mesh_cq.device()->mock().run(program.record().spec());
    }
}

void Finish(MeshCommandQueue& mesh_cq, std::span<const SubDeviceId> sub_device_ids) {
    (void)mesh_cq;
    (void)sub_device_ids;
}

void host_detail::finish(MeshCommandQueue& mesh_cq) {
    Finish(mesh_cq);
}

}  // namespace tt::tt_metal::distributed
