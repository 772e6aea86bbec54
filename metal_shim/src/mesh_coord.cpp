// Mesh shapes, coordinates and coordinate ranges (tt-metalium/mesh_coord.hpp): sizes, containment and the
// orders that let ranges key a MeshWorkload's programs.
#include <tt-metalium/mesh_coord.hpp>
#include <tt_stl/assert.hpp>

namespace tt::tt_metal::distributed {

namespace {

// The last coordinate of a shape (every dimension's size - 1).
MeshCoordinate last_of(const MeshShape& shape) {
    std::vector<uint32_t> last;
    for (size_t i = 0; i < shape.dims(); ++i) {
        TT_FATAL(shape[i] > 0, "MeshShape has an empty dimension");
        last.push_back(shape[i] - 1);
    }
    return MeshCoordinate(last);
}

}  // namespace

size_t MeshShape::mesh_size() const {
    size_t size = 1;
    for (uint32_t d : dims_) {
        size *= d;
    }
    return size;
}

bool MeshCoordinate::operator<(const MeshCoordinate& other) const {
    return coords_ < other.coords_;
}

MeshCoordinateRange::MeshCoordinateRange(const MeshShape& shape)
    : start_(std::vector<uint32_t>(shape.dims(), 0)), end_(last_of(shape)) {}

bool MeshCoordinateRange::contains(const MeshCoordinate& coord) const {
    for (size_t i = 0; i < coord.dims(); ++i) {
        if (coord[i] < start_[i] || coord[i] > end_[i]) {
            return false;
        }
    }
    return true;
}

bool MeshCoordinateRange::operator<(const MeshCoordinateRange& other) const {
    return start_ != other.start_ ? start_ < other.start_ : end_ < other.end_;
}

}  // namespace tt::tt_metal::distributed
