// compute_kernel_api/matmul.h: where tt-metal kept this header until it moved to api/compute/matmul.h (the release this
// shim follows, SDK_RELEASE). It forwards there, as the SDK's own forwarding headers did while it moved them, so
// kernels written for the older API still compile.
#pragma once

#include "api/compute/matmul.h"

// The inits before tt-metal 0.81 renamed them matmul_init / matmul_block_init and left the packer to
// compute_kernel_hw_startup (out_cb_id is therefore unused), and matmul_tiles' former transpose argument.
namespace ckernel {

ALWI void mm_init(uint32_t in0_cb_id, uint32_t in1_cb_id, uint32_t out_cb_id, const uint32_t transpose = 0,
                  uint32_t call_line = __builtin_LINE()) {
    (void)out_cb_id;
    matmul_init(in0_cb_id, in1_cb_id, transpose, call_line);
}

ALWI void mm_init_short(uint32_t in0_cb_id, uint32_t in1_cb_id, const uint32_t transpose = 0,
                        uint32_t call_line = __builtin_LINE()) {
    mm_init(in0_cb_id, in1_cb_id, 0, transpose, call_line);
}

ALWI void mm_init_short_with_dt(uint32_t in0_cb_id, uint32_t in1_cb_id, uint32_t c_in_old_srca,
                                const uint32_t transpose = 0) {
    (void)c_in_old_srca;
    mm_init(in0_cb_id, in1_cb_id, 0, transpose);
}

ALWI void mm_block_init(uint32_t in0_cb_id, uint32_t in1_cb_id, uint32_t out_cb_id, const uint32_t transpose = 0,
                        uint32_t ct_dim = 1, uint32_t rt_dim = 1, uint32_t kt_dim = 1,
                        uint32_t call_line = __builtin_LINE()) {
    (void)out_cb_id;
    matmul_block_init(in0_cb_id, in1_cb_id, transpose, ct_dim, rt_dim, kt_dim, call_line);
}

ALWI void mm_block_init_short(uint32_t in0_cb_id, uint32_t in1_cb_id, const uint32_t transpose = 0, uint32_t ct_dim = 1,
                              uint32_t rt_dim = 1, uint32_t kt_dim = 1, uint32_t call_line = __builtin_LINE()) {
    mm_block_init(in0_cb_id, in1_cb_id, 0, transpose, ct_dim, rt_dim, kt_dim, call_line);
}

ALWI void mm_block_init_short_with_dt(uint32_t in0_cb_id, uint32_t in1_cb_id, uint32_t old_in1_cb_id,
                                      const uint32_t transpose = 0, uint32_t ct_dim = 1, uint32_t rt_dim = 1,
                                      uint32_t kt_dim = 1) {
    (void)old_in1_cb_id;
    mm_block_init(in0_cb_id, in1_cb_id, 0, transpose, ct_dim, rt_dim, kt_dim);
}

ALWI void mm_block_init_short_with_both_dt(uint32_t in0_cb_id, uint32_t in1_cb_id, uint32_t old_in0_cb_id,
                                           uint32_t old_in1_cb_id, const uint32_t transpose = 0, uint32_t ct_dim = 1,
                                           uint32_t rt_dim = 1, uint32_t kt_dim = 1) {
    (void)old_in0_cb_id;
    (void)old_in1_cb_id;
    mm_block_init(in0_cb_id, in1_cb_id, 0, transpose, ct_dim, rt_dim, kt_dim);
}

ALWI void matmul_tiles(uint32_t in0_cb_id, uint32_t in1_cb_id, uint32_t in0_tile_index, uint32_t in1_tile_index,
                       uint32_t idst, const uint32_t transpose, runtime_mock::kernel_abi::CallSite site = {}) {
    detail::matmul_tiles_transposed(in0_cb_id, in1_cb_id, in0_tile_index, in1_tile_index, idst, transpose != 0, site);
}

}  // namespace ckernel
