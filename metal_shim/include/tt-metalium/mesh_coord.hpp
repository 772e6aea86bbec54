// Mesh shapes and coordinates. The mock device is a unit mesh: shape 1x1, one coordinate (0, 0).
// The range's constructors and ordering are defined in metal_shim/src/mesh_coord.cpp.
#pragma once

#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <vector>

namespace tt::tt_metal::distributed {

class MeshShape {
public:
    MeshShape(uint32_t rows, uint32_t cols) : dims_{rows, cols} {}
    explicit MeshShape(const std::vector<uint32_t>& dims) : dims_(dims) {}

    size_t dims() const { return dims_.size(); }
    uint32_t operator[](size_t dim) const { return dims_.at(dim); }
    size_t mesh_size() const;
    bool operator==(const MeshShape& other) const { return dims_ == other.dims_; }
    bool operator!=(const MeshShape& other) const { return !(*this == other); }

private:
    std::vector<uint32_t> dims_;
};

class MeshCoordinate {
public:
    MeshCoordinate(uint32_t row, uint32_t col) : coords_{row, col} {}
    explicit MeshCoordinate(const std::vector<uint32_t>& coords) : coords_(coords) {}

    size_t dims() const { return coords_.size(); }
    uint32_t operator[](size_t dim) const { return coords_.at(dim); }
    bool operator==(const MeshCoordinate& other) const { return coords_ == other.coords_; }
    bool operator!=(const MeshCoordinate& other) const { return !(*this == other); }
    bool operator<(const MeshCoordinate& other) const;

private:
    std::vector<uint32_t> coords_;
};

// An inclusive box of mesh coordinates.
class MeshCoordinateRange {
public:
    // Every coordinate of the shape; throws for a shape with an empty dimension.
    explicit MeshCoordinateRange(const MeshShape& shape);
    MeshCoordinateRange(const MeshCoordinate& start, const MeshCoordinate& end) : start_(start), end_(end) {}

    const MeshCoordinate& start_coord() const { return start_; }
    const MeshCoordinate& end_coord() const { return end_; }

    bool contains(const MeshCoordinate& coord) const;

    bool operator<(const MeshCoordinateRange& other) const;

private:
    MeshCoordinate start_;
    MeshCoordinate end_;
};

}  // namespace tt::tt_metal::distributed
