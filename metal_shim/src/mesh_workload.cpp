// MeshWorkload (tt-metalium/mesh_workload.hpp): one program per range of chips.
#include <tt-metalium/mesh_workload.hpp>

#include <utility>

namespace tt::tt_metal::distributed {

MeshWorkload::MeshWorkload() = default;
MeshWorkload::~MeshWorkload() = default;
MeshWorkload::MeshWorkload(MeshWorkload&& other) noexcept = default;
MeshWorkload& MeshWorkload::operator=(MeshWorkload&& other) noexcept = default;

void MeshWorkload::add_program(const MeshCoordinateRange& device_range, Program&& program) {
    TT_FATAL(programs_.count(device_range) == 0, "MeshWorkload: a program was already added for this range");
    programs_.emplace(device_range, std::move(program));
}

}  // namespace tt::tt_metal::distributed
