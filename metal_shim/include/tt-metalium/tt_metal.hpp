// The SDK's tt::tt_metal::detail helpers for the single-device API: direct buffer reads/writes and
// launching a program without a command queue. LaunchProgram is defined in metal_shim/src/tt_metal.cpp.
#pragma once

#include <tt-metalium/buffer.hpp>
#include <tt-metalium/device.hpp>
#include <tt-metalium/program.hpp>
#include <tt-metalium/host_buffer_memory.hpp>
#include <tt_stl/assert.hpp>

#include <memory>
#include <vector>

namespace tt::tt_metal::detail {

template <typename DType>
void WriteToBuffer(Buffer& buffer, const std::vector<DType>& host_buffer) {
    tt::tt_metal::host_detail::write_buffer(buffer, host_buffer.data(), host_buffer.size() * sizeof(DType));
}

template <typename DType>
void WriteToBuffer(const std::shared_ptr<Buffer>& buffer, const std::vector<DType>& host_buffer) {
    WriteToBuffer(*buffer, host_buffer);
}

// Resizes host_buffer to the buffer's size and reads the buffer into it.
template <typename DType>
void ReadFromBuffer(Buffer& buffer, std::vector<DType>& host_buffer) {
    tt::tt_metal::host_detail::resize_host_vector(host_buffer, buffer.size() / sizeof(DType));
    tt::tt_metal::host_detail::read_buffer(buffer, host_buffer.data(), host_buffer.size() * sizeof(DType));
}

template <typename DType>
void ReadFromBuffer(const std::shared_ptr<Buffer>& buffer, std::vector<DType>& host_buffer) {
    ReadFromBuffer(*buffer, host_buffer);
}

// Runs the program to completion (the mock always waits for the cores).
void LaunchProgram(IDevice* device, Program& program, bool wait_until_cores_done = true,
                   bool force_slow_dispatch = false);

}  // namespace tt::tt_metal::detail
