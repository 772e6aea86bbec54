// Tile matrix multiplication into DST (the SDK's api/compute/matmul.h).
//
// matmul_tiles: DST[idst] += A[in0_tile_index] * B[in1_tile_index]. matmul_block: for r < rt_dim,
// c < ct_dim, DST[idst + r*ct_dim + c] += A[in0_tile_index + r*kt_dim] * B[in1_tile_index + c]. The
// transpose flag (from matmul_init / matmul_block_init) transposes each B tile. Tile indices are relative
// to each CB's read pointer.
//
// When both CBs hold Float16_b tiles, the runtime multiplies them as they sit in L1 (matmul_bf16_tiles:
// k in pairs, odd first, subnormals flushed, NaN results quiet 0x7fc00000); any other pair of formats is
// unpacked to fp32 and multiplied with k in order (matmul_tile). runtime_mock/kernel_abi/tile_matmul.h has both.
#pragma once

#include "api/compute/common.h"
#include "runtime_mock/kernel_abi/tile_math.h"

namespace ckernel {

// Configures unpacker and math engine for matmul_tiles (tt-metal 0.81; the packer is configured by
// compute_kernel_hw_startup). `transpose` transposes each in1 tile.
ALWI void matmul_init(uint32_t in0_cb_id, uint32_t in1_cb_id, const uint32_t transpose = 0,
                      uint32_t call_line = __builtin_LINE()) {
    (void)in0_cb_id;
    (void)in1_cb_id;
    (void)call_line;
    runtime_mock::kernel_abi::ComputeState& cs = runtime_mock::kernel_abi::ctx()->compute;
    cs.matmul_transpose = transpose;
    cs.unpack_transpose = 0;
}

// matmul_init for matmul_block over ct_dim x rt_dim DST tiles (the mock engines need no block shape).
ALWI void matmul_block_init(uint32_t in0_cb_id, uint32_t in1_cb_id, const uint32_t transpose = 0, uint32_t ct_dim = 1,
                            uint32_t rt_dim = 1, uint32_t kt_dim = 1, uint32_t call_line = __builtin_LINE()) {
    (void)ct_dim;
    (void)rt_dim;
    (void)kt_dim;
    matmul_init(in0_cb_id, in1_cb_id, transpose, call_line);
}

// Undoes matmul_init's configuration (needed on Quasar only; nothing to undo here).
ALWI void mm_uninit(uint32_t in0_cb_id, uint32_t in1_cb_id) {
    (void)in0_cb_id;
    (void)in1_cb_id;
}

namespace detail {

// Whether both operand CBs hold Float16_b tiles, which the runtime multiplies without unpacking them.
ALWI bool both_bf16(uint32_t in0_cb_id, uint32_t in1_cb_id, const char* call, runtime_mock::kernel_abi::CallSite site) {
    using runtime_mock::kernel_abi::checked_format;
    return checked_format(in0_cb_id, call, site) == DataFormat::Float16_b &&
           checked_format(in1_cb_id, call, site) == DataFormat::Float16_b;
}

// Page `index` (waited for) of `cb` as the bf16 elements of an L1 tile.
ALWI const uint16_t* bf16_tile(uint32_t cb, uint32_t index, const char* call, runtime_mock::kernel_abi::CallSite site) {
    return reinterpret_cast<const uint16_t*>(uintptr_t(runtime_mock::kernel_abi::cb_front_page(cb, index, call, site)));
}

ALWI void matmul_tiles_transposed(uint32_t in0_cb_id, uint32_t in1_cb_id, uint32_t in0_tile_index,
                                  uint32_t in1_tile_index, uint32_t idst, bool transpose,
                                  runtime_mock::kernel_abi::CallSite site) {
    float* dst = runtime_mock::kernel_abi::dst_math_tile(idst, "matmul_tiles", site);
    if (both_bf16(in0_cb_id, in1_cb_id, "matmul_tiles", site)) {
        const uint16_t* a = bf16_tile(in0_cb_id, in0_tile_index, "matmul_tiles", site);
        const uint16_t* b = bf16_tile(in1_cb_id, in1_tile_index, "matmul_tiles", site);
        runtime_mock::kernel_abi::matmul_bf16_tiles(dst, &a, 1, &b, 1, transpose);
    } else {
        runtime_mock::kernel_abi::TileBuffer a, b;
        runtime_mock::kernel_abi::unpack_from_cb(in0_cb_id, in0_tile_index, a.v, "matmul_tiles", site);
        runtime_mock::kernel_abi::unpack_from_cb(in1_cb_id, in1_tile_index, b.v, "matmul_tiles", site);
        runtime_mock::kernel_abi::matmul_tile(dst, a.v, b.v, transpose);
    }
    runtime_mock::kernel_abi::ctx()->compute.dst_written |= 1u << idst;
    runtime_mock::kernel_abi::record_compute("matmul_tiles", 1, in0_cb_id);
}

// matmul_block on Float16_b operands: the rt_dim x ct_dim products in one runtime call, which re-lays each
// B tile once.
ALWI void matmul_block_bf16(uint32_t in0_cb_id, uint32_t in1_cb_id, uint32_t in0_tile_index, uint32_t in1_tile_index,
                            uint32_t idst, bool transpose, uint32_t ct_dim, uint32_t rt_dim, uint32_t kt_dim,
                            runtime_mock::kernel_abi::CallSite site) {
    using namespace runtime_mock::kernel_abi;
    const uint16_t* a[kMaxDstTiles];
    const uint16_t* b[kMaxDstTiles];
    for (uint32_t r = 0; r < rt_dim; r++)
        a[r] = bf16_tile(in0_cb_id, in0_tile_index + r * kt_dim, "matmul_block", site);
    for (uint32_t c = 0; c < ct_dim; c++)
        b[c] = bf16_tile(in1_cb_id, in1_tile_index + c, "matmul_block", site);
    matmul_bf16_tiles(dst_math_tile(idst, "matmul_block", site), a, rt_dim, b, ct_dim, transpose);
    for (uint32_t d = idst; d < idst + rt_dim * ct_dim; d++)
        ctx()->compute.dst_written |= 1u << d;
}

}  // namespace detail

ALWI void matmul_tiles(uint32_t in0_cb_id, uint32_t in1_cb_id, uint32_t in0_tile_index, uint32_t in1_tile_index,
                       uint32_t idst, runtime_mock::kernel_abi::CallSite site = {}) {
    detail::matmul_tiles_transposed(in0_cb_id, in1_cb_id, in0_tile_index, in1_tile_index, idst,
                                    runtime_mock::kernel_abi::ctx()->compute.matmul_transpose != 0, site);
}

// Float16_b operands: one runtime call for the block (detail::matmul_block_bf16). Other formats: unpacks
// each B tile once (transposing it once if asked) and each A tile once per call, then runs the rt_dim x ct_dim
// tile products.
ALWI void matmul_block(uint32_t in0_cb_id, uint32_t in1_cb_id, uint32_t in0_tile_index, uint32_t in1_tile_index,
                       uint32_t idst, const uint32_t transpose, uint32_t ct_dim, uint32_t rt_dim, uint32_t kt_dim,
                       uint32_t call_line = __builtin_LINE(), runtime_mock::kernel_abi::CallSite site = {}) {
    using namespace runtime_mock::kernel_abi;
    (void)call_line;
    if (ct_dim == 0 || rt_dim == 0)
        return;
    // The last DST tile of the block must exist (a product that overflows 32 bits names an index past it).
    const uint64_t last = uint64_t(idst) + uint64_t(rt_dim) * ct_dim - 1;
    dst_math_tile(last > 0xffffffffu ? 0xffffffffu : uint32_t(last), "matmul_block", site);
    if (detail::both_bf16(in0_cb_id, in1_cb_id, "matmul_block", site)) {
        detail::matmul_block_bf16(in0_cb_id, in1_cb_id, in0_tile_index, in1_tile_index, idst, transpose != 0, ct_dim,
                                  rt_dim, kt_dim, site);
        record_compute("matmul_block", rt_dim * ct_dim, in0_cb_id);
        return;
    }
    TileBuffer b[kMaxDstTiles];
    for (uint32_t c = 0; c < ct_dim; c++) {
        unpack_from_cb(in1_cb_id, in1_tile_index + c, b[c].v, "matmul_block", site);
        if (transpose != 0) {
            TileBuffer plain = b[c];
            transpose_tile(b[c].v, plain.v);
        }
    }
    for (uint32_t r = 0; r < rt_dim; r++) {
        TileBuffer a;
        unpack_from_cb(in0_cb_id, in0_tile_index + r * kt_dim, a.v, "matmul_block", site);
        for (uint32_t c = 0; c < ct_dim; c++) {
            const uint32_t d = idst + r * ct_dim + c;
            matmul_tile(dst_math_tile(d, "matmul_block", site), a.v, b[c].v, false);
            ctx()->compute.dst_written |= 1u << d;
        }
    }
    record_compute("matmul_block", rt_dim * ct_dim, in0_cb_id);
}

}  // namespace ckernel
