// The mesh command queue: uploads, downloads and workload launches run when enqueued (see
// distributed.hpp), so Finish() has nothing to wait for.
#pragma once

#include <cstdint>

namespace tt::tt_metal::distributed {

class MeshDevice;

class MeshCommandQueue {
public:
    explicit MeshCommandQueue(MeshDevice& device) : device_(&device) {}
    MeshCommandQueue(const MeshCommandQueue&) = delete;
    MeshCommandQueue& operator=(const MeshCommandQueue&) = delete;

    MeshDevice* device() const { return device_; }
    uint32_t id() const { return 0; }

private:
    MeshDevice* device_;
};

}  // namespace tt::tt_metal::distributed
