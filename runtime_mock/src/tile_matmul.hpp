// The compute engine's tile matrix product, C += A * B on 32x32 fp32 tiles (row-major), with the host
// CPU's vector units. Kernels reach it through RuntimeFunctions::tile_matmul (tt_mock_device/tile_matmul.h
// adds the transpose of B), so it is compiled once, here, instead of into every compute kernel.
//
// One accumulation order on every path, so results are identical bit for bit whichever path runs:
// each C[i][j] is updated in place by k = 0, 1, ..., 31 with a fused multiply-add,
//     C[i][j] = fma(A[i][k], B[k][j], C[i][j]),
// each step rounded once to fp32. Paths differ only in how many (i, j) they carry in registers at once:
//   Portable  plain C++ (std::fma), four rows of C at a time; the compiler vectorises it where it can.
//   Avx2      x86 AVX2 + FMA: four rows x 16 columns of C in eight 256-bit registers.
//   Avx512    x86 AVX-512F: eight rows x 32 columns of C in sixteen 512-bit registers.
// The fastest path the CPU supports is chosen once, when the runtime loads (tests run every supported path
// and compare).
#pragma once

#include <cstdint>

namespace tt_mock::tile_matmul {

constexpr uint32_t kDim = 32;  // tile rows = columns = K

enum class Path { Portable, Avx2, Avx512 };

const char* path_name(Path path);

// Whether this CPU can run `path`.
bool supported(Path path);

using Function = void (*)(float* __restrict c, const float* __restrict a, const float* __restrict b);

// The code of `path`, which must be supported.
Function function_of(Path path);

Path fastest_supported_path();

// The code of the fastest supported path, chosen when the runtime loads.
Function selected();

}  // namespace tt_mock::tile_matmul
