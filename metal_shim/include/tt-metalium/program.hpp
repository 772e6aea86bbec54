// Program: the kernels, circular buffers and semaphores of one launch, with each kernel's runtime
// args. Host API calls (CreateKernel, SetRuntimeArgs, ...) fill its record (metal_shim/src/program_record.hpp),
// which turns into the plain runtime_mock::ProgramSpec that runtime_mock::Device::run executes. Move-only, like the
// SDK's; a moved-from Program refuses further use.
#pragma once

#include <tt-metalium/circular_buffer_config.hpp>
#include <tt-metalium/core_coord.hpp>
#include <tt-metalium/kernel_types.hpp>
#include <tt-metalium/runtime_args_data.hpp>
#include <tt_stl/assert.hpp>

#include <cstdint>
#include <memory>

namespace tt::tt_metal {

constexpr uint32_t NUM_SEMAPHORES = 8;

class Program {
public:
    Program();
    ~Program();
    Program(Program&& other) noexcept;
    Program& operator=(Program&& other) noexcept;
    Program(const Program&) = delete;
    Program& operator=(const Program&) = delete;

    // What the host API has recorded (shim-specific); throws for a moved-from Program.
    struct Record;
    Record& record() const;

private:
    std::unique_ptr<Record> record_;
};

}  // namespace tt::tt_metal
