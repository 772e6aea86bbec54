// The compute engine's tile matrix product with the host CPU's vector units, in two forms:
//   fp32:  C += A * B on 32x32 fp32 tiles, row-major (operands unpacked by the kernel: Float32, Float16, ...);
//   bf16:  C += A * B (or A * transpose(B)) on Float16_b tiles as they sit in L1 (four 16x16 faces,
//          runtime_mock/kernel_abi/tile_format.h), for a block of rows x cols DST tiles (matmul_tiles, matmul_block).
// C is always fp32, row-major (DST). Kernels reach both through RuntimeFunctions (runtime_mock/kernel_abi/
// tile_matmul.h), so they are compiled once, here, instead of into every compute kernel.
//
// Each form has ONE accumulation order, followed by every path, so results are identical bit for bit
// whichever path runs:
//   fp32: each C[i][j] is updated in place by k = 0, 1, ..., 31 with a fused multiply-add,
//         C[i][j] = fma(A[i][k], B[k][j], C[i][j]), each step rounded once to fp32 (IEEE, no flushing). Which
//         NaN a NaN result carries is not defined (paths may differ; the tests use finite operands).
//   bf16: the order of the x86 instruction VDPBF16PS, which takes k in pairs, odd first:
//         for p = 0..15: C = step(A[i][2p+1], B[2p+1][j], C); C = step(A[i][2p], B[2p][j], C), where
//         step(a, b, c) = fma(a, b, c) with subnormal inputs (a, b and the incoming C) read as zero of their
//         sign and a result that is tiny after rounding (|round(x)| < 2^-126 with unbounded exponent) flushed
//         to zero of its sign, i.e. fma under x86's MXCSR DAZ and FTZ. The product of two bf16 values is
//         exact in fp32, so each step rounds once. So the Intel SDM describes VDPBF16PS (each accumulation a
//         round-to-nearest-even FMA, odd element first, denormal inputs read as zero, denormal outputs
//         flushed), and so it behaves on this project's AMD EPYC, where the SDM leaves tininess open;
//         test_tile_matmul checks each rule against the instruction where the CPU has it.
//         Any NaN result is written as the quiet NaN 0x7fc00000 (the instruction and the x86 FMA pick
//         among NaN operands by operand position, which the compiler chooses).
// Paths differ only in how many (i, j) they carry in registers at once, and how they honour the rules:
//   Portable    plain C++ (std::fma); bf16: explicit flushing of subnormal inputs and tiny results.
//   Avx2        x86 AVX2 + FMA: four rows x 16 columns of C in eight 256-bit registers.
//   Avx512      x86 AVX-512F: eight rows x 32 columns of C in sixteen 512-bit registers.
//   Avx512Bf16  x86 AVX-512 BF16 (bf16 only; fp32 runs the Avx512 code): VDPBF16PS, eight rows x 32 columns
//               of C in sixteen registers, two k per instruction, A's pairs broadcast straight from its L1
//               tile and B re-laid into k-pairs once per B tile (not per row of A); the operand tiles' cache
//               lines are requested ahead (a NOC transfer by another thread usually just wrote them).
// The bf16 form of Avx2 and Avx512 converts A and B to fp32 with k reordered (1, 0, 3, 2, ...) and runs the fp32
// code under MXCSR DAZ | FTZ. The fastest path the CPU supports is chosen once, when the runtime loads
// (tests run every supported path and compare).
#pragma once

#include <cstdint>

namespace runtime_mock::tile_matmul {

constexpr uint32_t kDim = 32;  // tile rows = columns = K

enum class Path { Portable, Avx2, Avx512, Avx512Bf16 };

constexpr Path kAllPaths[] = {Path::Portable, Path::Avx2, Path::Avx512, Path::Avx512Bf16};

const char* path_name(Path path);

// Whether this CPU can run `path`.
bool supported(Path path);

Path fastest_supported_path();

// fp32: C += A * B on row-major fp32 tiles.
using Function = void (*)(float* __restrict c, const float* __restrict a, const float* __restrict b);

// The fp32 code of `path`, which must be supported.
Function function_of(Path path);

// The fp32 code of the fastest supported path, chosen when the runtime loads.
Function selected();

// bf16: for r < rows and j < cols, DST tile c + (r * cols + j) * 1024 += A[r] * B[j] (transpose_b != 0:
// A[r] * transpose(B[j])), where a[r] and b[j] point at Float16_b tiles in L1 tile layout.
using Bf16Function = void (*)(float* c, const uint16_t* const* a, uint32_t rows, const uint16_t* const* b,
                              uint32_t cols, uint32_t transpose_b);

// The bf16 code of `path`, which must be supported.
Bf16Function bf16_function_of(Path path);

// The bf16 code of the fastest supported path, chosen when the runtime loads.
Bf16Function bf16_selected();

}  // namespace runtime_mock::tile_matmul
