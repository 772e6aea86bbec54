// The single-device command queue of the older API (device->command_queue()). The mock executes
// every command when it is enqueued, so Finish() has nothing left to wait for.
#pragma once

#include <cstdint>

namespace tt::tt_metal {

class IDevice;

class CommandQueue {
public:
    explicit CommandQueue(IDevice& device) : device_(&device) {}
    CommandQueue(const CommandQueue&) = delete;
    CommandQueue& operator=(const CommandQueue&) = delete;

    IDevice* device() const { return device_; }
    uint32_t id() const { return 0; }

private:
    IDevice* device_;
};

}  // namespace tt::tt_metal
