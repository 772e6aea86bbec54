// MeshWorkload: programs to run on ranges of a mesh's chips (on the unit mesh: the whole mesh).
#pragma once

#include <tt-metalium/mesh_coord.hpp>
#include <tt-metalium/program.hpp>

#include <map>
#include <utility>

namespace tt::tt_metal::distributed {

class MeshWorkload {
public:
    MeshWorkload() = default;

    void add_program(const MeshCoordinateRange& device_range, Program&& program) {
        TT_FATAL(programs_.count(device_range) == 0, "MeshWorkload: a program was already added for this range");
        programs_.emplace(device_range, std::move(program));
    }

    std::map<MeshCoordinateRange, Program>& get_programs() { return programs_; }
    const std::map<MeshCoordinateRange, Program>& get_programs() const { return programs_; }

private:
    std::map<MeshCoordinateRange, Program> programs_;
};

}  // namespace tt::tt_metal::distributed
