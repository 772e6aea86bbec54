// What the calibration host programs of this directory share. Each is a standalone SDK-style program run as
//     PROGRAM KERNEL_DIR [name=value]...
// (tools/calibrate.py and calibration_test.py drive them through tools/run_sdk_program.py). A program
// reads its parameters with Params, builds its data on the host, runs on a unit mesh, checks the device's
// result against a host reference and returns 0 only when they match (report()), so each one is a
// functional test of the simulator as well as a timing microbenchmark.
#pragma once

#include <tt-metalium/bfloat16.hpp>
#include <tt-metalium/constants.hpp>
#include <tt-metalium/distributed.hpp>
#include <tt-metalium/host_api.hpp>
#include <tt-metalium/tensor_accessor_args.hpp>
#include <tt-metalium/tilize_utils.hpp>

#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <map>
#include <memory>
#include <random>
#include <string>
#include <vector>

namespace calibration {

using namespace tt::tt_metal;
using tt::constants::TILE_HW;

constexpr uint32_t kTileBytes = sizeof(bfloat16) * TILE_HW;

// The command line: KERNEL_DIR, then name=value pairs, each name one of the program's parameters
// (with its default). A name the program does not know or a value that is not a number is an error.
class Params {
public:
    Params(int argc, char** argv, std::map<std::string, std::string> defaults) : values_(std::move(defaults)) {
        std::string names;
        for (const auto& [name, value] : values_) {
            names += " " + name + "=" + value;
        }
        TT_FATAL(argc >= 2, "usage: {} KERNEL_DIR [name=value]...; parameters and defaults:{}", argv[0], names);
        kernels_ = argv[1];
        for (int i = 2; i < argc; ++i) {
            const std::string arg = argv[i];
            const size_t eq = arg.find('=');
            TT_FATAL(eq != std::string::npos && values_.count(arg.substr(0, eq)),
                     "argument '{}' is not name=value with a known name; parameters and defaults:{}", arg, names);
            values_[arg.substr(0, eq)] = arg.substr(eq + 1);
        }
    }

    const std::string& kernels() const { return kernels_; }

    const std::string& text(const std::string& name) const { return values_.at(name); }

    uint32_t number(const std::string& name) const {
        const std::string& value = values_.at(name);
        char* end = nullptr;
        const unsigned long parsed = std::strtoul(value.c_str(), &end, 10);
        TT_FATAL(!value.empty() && *end == '\0', "parameter {}={} is not a non-negative integer", name, value);
        return static_cast<uint32_t>(parsed);
    }

private:
    std::string kernels_;
    std::map<std::string, std::string> values_;
};

struct Mesh {
    std::shared_ptr<distributed::MeshDevice> device = distributed::MeshDevice::create_unit_mesh(0);
    distributed::MeshCommandQueue& cq = device->mesh_command_queue();

    CoreCoord grid() const { return device->compute_with_storage_grid_size(); }
    CoreCoord noc(const CoreCoord& logical) const { return device->worker_core_from_logical_core(logical); }
};

using BufferPtr = std::shared_ptr<distributed::MeshBuffer>;

// An interleaved DRAM buffer of num_pages pages of page_bytes each.
inline BufferPtr dram_buffer(Mesh& mesh, uint32_t num_pages, uint32_t page_bytes) {
    const distributed::DeviceLocalBufferConfig dram{.page_size = page_bytes, .buffer_type = BufferType::DRAM};
    const distributed::ReplicatedBufferConfig size{.size = uint64_t{num_pages} * page_bytes};
    return distributed::MeshBuffer::create(size, dram, mesh.device.get());
}

// A DRAM buffer holding `values` (num_pages pages).
template <typename T>
BufferPtr upload(Mesh& mesh, const std::vector<T>& values, uint32_t num_pages, uint32_t page_bytes) {
    BufferPtr buffer = dram_buffer(mesh, num_pages, page_bytes);
    distributed::EnqueueWriteMeshBuffer(mesh.cq, buffer, values, false);
    return buffer;
}

template <typename T>
std::vector<T> download(Mesh& mesh, const BufferPtr& buffer) {
    std::vector<T> values;
    distributed::EnqueueReadMeshBuffer(mesh.cq, values, buffer, true);
    return values;
}

// A CB at index cb on the cores: num_pages pages of page_bytes, bf16 data.
inline void page_cb(Program& program, const CoreSpec& cores, tt::CBIndex cb, uint32_t num_pages,
                    uint32_t page_bytes = kTileBytes) {
    CreateCircularBuffer(
        program, cores,
        CircularBufferConfig(num_pages * page_bytes, {{cb, tt::DataFormat::Float16_b}}).set_page_size(cb, page_bytes));
}

inline std::vector<uint32_t> accessor_args(std::initializer_list<BufferPtr> buffers) {
    std::vector<uint32_t> args;
    for (const BufferPtr& buffer : buffers) {
        TensorAccessorArgs(*buffer).append_to(args);
    }
    return args;
}

inline uint32_t address(const BufferPtr& buffer) {
    return static_cast<uint32_t>(buffer->address());
}

inline void run(Mesh& mesh, Program&& program) {
    distributed::MeshWorkload workload;
    workload.add_program(distributed::MeshCoordinateRange(mesh.device->shape()), std::move(program));
    distributed::EnqueueMeshWorkload(mesh.cq, workload, false);
    distributed::Finish(mesh.cq);
}

// n bf16 values drawn uniformly from [low, high).
inline std::vector<bfloat16> random_bf16(size_t n, float low, float high, uint32_t seed) {
    std::mt19937 random(seed);
    std::uniform_real_distribution<float> uniform(low, high);
    std::vector<bfloat16> values(n);
    for (bfloat16& value : values) {
        value = bfloat16(uniform(random));
    }
    return values;
}

inline std::vector<float> to_float(const std::vector<bfloat16>& values) {
    return std::vector<float>(values.begin(), values.end());
}

// The row-major rows x cols matrix of a DRAM buffer of tiles.
inline std::vector<float> download_matrix(Mesh& mesh, const BufferPtr& buffer, uint32_t rows, uint32_t cols) {
    return to_float(untilize_nfaces(download<bfloat16>(mesh, buffer), rows, cols));
}

// C = A x B in fp32 (A: m x k, B: k x n, row-major).
inline std::vector<float> matmul_reference(const std::vector<bfloat16>& a, const std::vector<bfloat16>& b, uint32_t m,
                                           uint32_t k, uint32_t n) {
    std::vector<float> c(size_t{m} * n, 0.0f);
    for (uint32_t i = 0; i < m; ++i) {
        for (uint32_t p = 0; p < k; ++p) {
            const float a_ip = static_cast<float>(a[size_t{i} * k + p]);
            for (uint32_t j = 0; j < n; ++j) {
                c[size_t{i} * n + j] += a_ip * static_cast<float>(b[size_t{p} * n + j]);
            }
        }
    }
    return c;
}

// The fidelity named by a parameter value: lofi, hifi2, hifi3 or hifi4.
inline MathFidelity fidelity_named(const std::string& name) {
    const std::map<std::string, MathFidelity> fidelities = {{"lofi", MathFidelity::LoFi},
                                                            {"hifi2", MathFidelity::HiFi2},
                                                            {"hifi3", MathFidelity::HiFi3},
                                                            {"hifi4", MathFidelity::HiFi4}};
    const auto found = fidelities.find(name);
    TT_FATAL(found != fidelities.end(), "fidelity={} is not one of lofi, hifi2, hifi3, hifi4", name);
    return found->second;
}

// Prints "NAME: pass" or "NAME: FAIL (mismatches, first: ...)" and returns main's exit status.
inline int report(const std::string& name, size_t mismatches, const std::string& first_mismatch) {
    if (mismatches == 0) {
        fmt::print("{}: pass\n", name);
        return 0;
    }
    fmt::print("{}: FAIL ({} mismatches, first: {})\n", name, mismatches, first_mismatch);
    return 1;
}

// Compares device values with the reference within rtol/atol; returns report()'s status.
inline int check_close(const std::string& name, const std::vector<float>& got, const std::vector<float>& want,
                       float rtol, float atol) {
    size_t mismatches = got.size() == want.size() ? 0 : 1;
    std::string first = mismatches ? fmt::format("{} values, expected {}", got.size(), want.size()) : "";
    for (size_t i = 0; i < got.size() && i < want.size(); ++i) {
        if (!(std::abs(got[i] - want[i]) <= atol + rtol * std::abs(want[i]))) {
            if (mismatches++ == 0) {
                first = fmt::format("element {}: {} vs reference {}", i, got[i], want[i]);
            }
        }
    }
    return report(name, mismatches, first);
}

}  // namespace calibration
