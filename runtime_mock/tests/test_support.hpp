// A small test harness for the device tests: TEST cases, CHECKs, the environment the JIT needs (shim
// include dir and kernel cache from Bazel's runfiles / TEST_TMPDIR), and tile/bfloat16 helpers.
//
// Outside Bazel, set RUNTIME_MOCK_TEST_ROOT to the repository root (and optionally RUNTIME_MOCK_CACHE_DIR).
#pragma once

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <functional>
#include <random>
#include <stdexcept>
#include <string>
#include <vector>

#include <unistd.h>

#include "hostdevcommon/kernel_structs.h"
#include "runtime_mock/device.hpp"
#include "runtime_mock/program_spec.hpp"

namespace test {

struct Case {
    const char* name;
    std::function<void()> body;
};

inline std::vector<Case>& cases() {
    static std::vector<Case> all;
    return all;
}

struct Register {
    Register(const char* name, std::function<void()> body) { cases().push_back({name, std::move(body)}); }
};

#define TEST(name)                                      \
    static void name();                                 \
    static test::Register register_##name(#name, name); \
    static void name()

#define CHECK(cond)                                                                           \
    do {                                                                                      \
        if (!(cond))                                                                          \
            throw std::runtime_error(std::string(__FILE__) + ":" + std::to_string(__LINE__) + \
                                     ": CHECK failed: " #cond);                               \
    } while (0)

inline std::string root() {
    if (const char* srcdir = std::getenv("TEST_SRCDIR"))
        return std::string(srcdir) + "/tilelang_tt";
    if (const char* repo = std::getenv("RUNTIME_MOCK_TEST_ROOT"))
        return repo;
    throw std::runtime_error("run under bazel test, or set RUNTIME_MOCK_TEST_ROOT to the repository root");
}

inline void setup_environment() {
    setenv("RUNTIME_MOCK_SHIM_INCLUDE", (root() + "/metal_shim/include").c_str(), 0);
    setenv("RUNTIME_MOCK_KERNEL_ABI_INCLUDE", (root() + "/runtime_mock/include").c_str(), 0);
    if (const char* tmp = std::getenv("TEST_TMPDIR")) {
        setenv("RUNTIME_MOCK_CACHE_DIR", (std::string(tmp) + "/kernels").c_str(), 0);
    }
}

inline std::string kernel(const std::string& name) {
    return root() + "/runtime_mock/tests/kernels/" + name;
}

// "<file>:<line>" of the line of kernel `file` marked "// misuse:<name>", where a test expects an error.
inline std::string marked_line(const std::string& file, const std::string& name) {
    std::ifstream in(kernel(file));
    std::string line;
    for (int n = 1; std::getline(in, line); n++) {
        if (line.find("// misuse:" + name) != std::string::npos)
            return file + ":" + std::to_string(n);
    }
    throw std::runtime_error("no marker " + name + " in " + file);
}

inline int run_all() {
    setup_environment();
    int failed = 0;
    for (const Case& c : cases()) {
        try {
            c.body();
            std::printf("[ OK ] %s\n", c.name);
        } catch (const std::exception& e) {
            std::printf("[FAIL] %s\n%s\n", c.name, e.what());
            failed++;
        }
    }
    std::printf("%zu tests, %d failed\n", cases().size(), failed);
    return failed == 0 ? 0 : 1;
}

// Runs `body`, which must throw ErrorType with a message containing every one of `needles`.
template <typename ErrorType>
void expect_error(const std::function<void()>& body, const std::vector<std::string>& needles) {
    try {
        body();
    } catch (const ErrorType& e) {
        const std::string message = e.what();
        for (const auto& needle : needles) {
            if (message.find(needle) == std::string::npos) {
                throw std::runtime_error("error message lacks '" + needle + "':\n" + message);
            }
        }
        return;
    } catch (const std::exception& e) {
        throw std::runtime_error(std::string("wrong error type: ") + e.what());
    }
    throw std::runtime_error("expected an error, none was raised");
}

// Runs `body` with `stream` (stdout or stderr) redirected to a temporary file; returns what was written to it.
inline std::string capture(FILE* stream, const std::function<void()>& body) {
    std::fflush(stream);
    const int saved = dup(fileno(stream));
    FILE* capture = std::tmpfile();
    dup2(fileno(capture), fileno(stream));
    auto restore = [&] {
        std::fflush(stream);
        dup2(saved, fileno(stream));
        close(saved);
    };
    try {
        body();
    } catch (...) {
        restore();
        std::fclose(capture);
        throw;
    }
    restore();
    std::string text;
    std::rewind(capture);
    for (int c; (c = std::fgetc(capture)) != EOF;)
        text += char(c);
    std::fclose(capture);
    return text;
}

inline std::string capture_stderr(const std::function<void()>& body) {
    return capture(stderr, body);
}

// How many times `needle` occurs in `text`.
inline size_t count(const std::string& text, const std::string& needle) {
    size_t n = 0;
    for (size_t at = text.find(needle); at != std::string::npos; at = text.find(needle, at + 1))
        n++;
    return n;
}

inline uint16_t to_bf16(float f) {
    uint32_t u;
    std::memcpy(&u, &f, 4);
    return uint16_t((u + 0x7fffu + ((u >> 16) & 1u)) >> 16);
}

inline float from_bf16(uint16_t b) {
    uint32_t u = uint32_t(b) << 16;
    float f;
    std::memcpy(&f, &u, 4);
    return f;
}

inline std::vector<float> random_values(size_t n, float lo, float hi, unsigned seed) {
    std::mt19937 rng(seed);
    std::uniform_real_distribution<float> dist(lo, hi);
    std::vector<float> v(n);
    for (auto& x : v)
        x = from_bf16(to_bf16(dist(rng)));
    return v;
}

// Calls f(tiled, row_major) for every element of a rows x cols matrix: its index in tile order (row-major
// tile order, four 16x16 faces per tile) and its index in the row-major matrix.
template <typename F>
inline void for_each_tiled_element(uint32_t rows, uint32_t cols, F f) {
    size_t i = 0;
    for (uint32_t tr = 0; tr < rows / 32; tr++)
        for (uint32_t tc = 0; tc < cols / 32; tc++)
            for (uint32_t face = 0; face < 4; face++)
                for (uint32_t r = 0; r < 16; r++)
                    for (uint32_t c = 0; c < 16; c++)
                        f(i++, size_t(tr * 32 + (face / 2) * 16 + r) * cols + tc * 32 + (face % 2) * 16 + c);
}

// Row-major rows x cols matrix -> bf16 tiles.
inline std::vector<uint16_t> tilize_bf16(const std::vector<float>& m, uint32_t rows, uint32_t cols) {
    std::vector<uint16_t> out(m.size());
    for_each_tiled_element(rows, cols, [&](size_t tiled, size_t row_major) { out[tiled] = to_bf16(m[row_major]); });
    return out;
}

inline std::vector<float> untilize_bf16(const std::vector<uint16_t>& t, uint32_t rows, uint32_t cols) {
    std::vector<float> out(t.size());
    for_each_tiled_element(rows, cols, [&](size_t tiled, size_t row_major) { out[row_major] = from_bf16(t[tiled]); });
    return out;
}

// Largest |a - b| relative to max(1, |b|).
inline float max_rel_error(const std::vector<float>& a, const std::vector<float>& b) {
    float worst = 0;
    for (size_t i = 0; i < a.size(); i++)
        worst = std::max(worst, std::fabs(a[i] - b[i]) / std::max(1.0f, std::fabs(b[i])));
    return worst;
}

constexpr uint32_t kTileBytes = 2048;  // bf16 tile

// A kernel on one core.
inline runtime_mock::KernelSpec kernel_on(const std::string& file, runtime_mock::KernelRole role,
                                          runtime_mock::LogicalCore core, std::vector<uint32_t> compile_args,
                                          std::vector<uint32_t> runtime_args) {
    runtime_mock::KernelSpec k;
    k.source_path = kernel(file);
    k.role = role;
    k.noc = role == runtime_mock::KernelRole::DataMovement1 ? 0 : 1;
    k.cores = {core};
    k.compile_args = std::move(compile_args);
    k.runtime_args[core] = std::move(runtime_args);
    return k;
}

// A bf16 circular buffer of `pages` tiles at `index` on the given cores.
inline runtime_mock::CircularBufferSpec bf16_cb(uint32_t index, uint32_t pages,
                                                std::vector<runtime_mock::LogicalCore> cores) {
    runtime_mock::CircularBufferSpec cb;
    cb.cores = std::move(cores);
    cb.total_size = pages * kTileBytes;
    cb.indices = {{index, runtime_mock::DataFormat::Float16_b, kTileBytes}};
    return cb;
}

constexpr uint32_t kDramAccessor = 2;  // TensorAccessorArgs compile-time word: interleaved, DRAM

// The loopback kernels (DRAM -> CB c_0 -> DRAM): reader_unary on NCRISC and writer_unary on BRISC, with no
// cores yet; each core gets runtime args {DRAM address, tiles} for both.
struct Loopback {
    runtime_mock::KernelSpec reader, writer;
    void add_core(runtime_mock::LogicalCore core, uint32_t src, uint32_t dst, uint32_t tiles) {
        reader.cores.push_back(core);
        writer.cores.push_back(core);
        reader.runtime_args[core] = {src, tiles};
        writer.runtime_args[core] = {dst, tiles};
    }
};

inline Loopback loopback_kernels() {
    Loopback l{kernel_on("reader_unary.cpp", runtime_mock::KernelRole::DataMovement1, {0, 0}, {kDramAccessor}, {}),
               kernel_on("writer_unary.cpp", runtime_mock::KernelRole::DataMovement0, {0, 0}, {0, kDramAccessor}, {})};
    for (runtime_mock::KernelSpec* k : {&l.reader, &l.writer}) {
        k->cores.clear();
        k->runtime_args.clear();
    }
    return l;
}

// An interleaved DRAM tensor of bf16 pages (tiles, or 1024-element row-major pages).
struct Tensor {
    uint64_t address;
    uint32_t tiles;
};

inline Tensor upload(runtime_mock::Device& device, const std::vector<uint16_t>& pages) {
    const uint64_t address = device.allocate_dram(pages.size() * 2, kTileBytes);
    device.write_interleaved(address, kTileBytes, pages.data(), pages.size() * 2);
    return {address, uint32_t(pages.size() / 1024)};
}

inline Tensor allocate(runtime_mock::Device& device, uint32_t tiles) {
    return {device.allocate_dram(uint64_t(tiles) * kTileBytes, kTileBytes), tiles};
}

inline std::vector<uint16_t> download(runtime_mock::Device& device, const Tensor& t) {
    std::vector<uint16_t> pages(size_t(t.tiles) * 1024);
    device.read_interleaved(t.address, kTileBytes, pages.data(), pages.size() * 2);
    return pages;
}

inline void check_close(const std::vector<float>& got, const std::vector<float>& want, float tolerance) {
    const float error = max_rel_error(got, want);
    if (error > tolerance) {
        throw std::runtime_error("max relative error " + std::to_string(error) + " > " + std::to_string(tolerance));
    }
}

}  // namespace test
