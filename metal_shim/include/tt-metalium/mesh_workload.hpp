// MeshWorkload: programs to run on ranges of a mesh's chips (on the unit mesh: the whole mesh). Defined in
// metal_shim/src/mesh_workload.cpp.
#pragma once

#include <tt-metalium/mesh_coord.hpp>
#include <tt-metalium/program.hpp>

#include <map>

namespace tt::tt_metal::distributed {

class MeshWorkload {
public:
    MeshWorkload();
    ~MeshWorkload();
    MeshWorkload(MeshWorkload&& other) noexcept;
    MeshWorkload& operator=(MeshWorkload&& other) noexcept;

    // Throws if a program was already added for this range.
    void add_program(const MeshCoordinateRange& device_range, Program&& program);

    std::map<MeshCoordinateRange, Program>& get_programs() { return programs_; }
    const std::map<MeshCoordinateRange, Program>& get_programs() const { return programs_; }

private:
    std::map<MeshCoordinateRange, Program> programs_;
};

}  // namespace tt::tt_metal::distributed
