// Element-wise binary operations between two DST tiles on the SFPU (the SDK's
// api/compute/eltwise_binary_sfpu.h): DST[odst] = DST[idst0] op DST[idst1], in fp32.
#pragma once

#include <cmath>

#include "api/compute/common.h"
#include "runtime_mock/kernel_abi/sfpu.h"

namespace ckernel {

ALWI void add_binary_tile_init() {
    runtime_mock::kernel_abi::sfpu_init();
}
ALWI void sub_binary_tile_init() {
    runtime_mock::kernel_abi::sfpu_init();
}
ALWI void mul_binary_tile_init() {
    runtime_mock::kernel_abi::sfpu_init();
}
ALWI void div_binary_tile_init() {
    runtime_mock::kernel_abi::sfpu_init();
}
ALWI void rsub_binary_tile_init() {
    runtime_mock::kernel_abi::sfpu_init();
}
ALWI void power_binary_tile_init() {
    runtime_mock::kernel_abi::sfpu_init();
}

ALWI void add_binary_tile(uint32_t idst0, uint32_t idst1, uint32_t odst, runtime_mock::kernel_abi::CallSite site = {}) {
    runtime_mock::kernel_abi::sfpu_apply_binary(idst0, idst1, odst, "add_binary_tile", site,
                                                [](float a, float b) { return a + b; });
}

ALWI void sub_binary_tile(uint32_t idst0, uint32_t idst1, uint32_t odst, runtime_mock::kernel_abi::CallSite site = {}) {
    runtime_mock::kernel_abi::sfpu_apply_binary(idst0, idst1, odst, "sub_binary_tile", site,
                                                [](float a, float b) { return a - b; });
}

ALWI void mul_binary_tile(uint32_t idst0, uint32_t idst1, uint32_t odst, runtime_mock::kernel_abi::CallSite site = {}) {
    runtime_mock::kernel_abi::sfpu_apply_binary(idst0, idst1, odst, "mul_binary_tile", site,
                                                [](float a, float b) { return a * b; });
}

ALWI void div_binary_tile(uint32_t idst0, uint32_t idst1, uint32_t odst, runtime_mock::kernel_abi::CallSite site = {}) {
    runtime_mock::kernel_abi::sfpu_apply_binary(idst0, idst1, odst, "div_binary_tile", site,
                                                [](float a, float b) { return a / b; });
}

ALWI void rsub_binary_tile(uint32_t idst0, uint32_t idst1, uint32_t odst,
                           runtime_mock::kernel_abi::CallSite site = {}) {
    runtime_mock::kernel_abi::sfpu_apply_binary(idst0, idst1, odst, "rsub_binary_tile", site,
                                                [](float a, float b) { return b - a; });
}

ALWI void power_binary_tile(uint32_t idst0, uint32_t idst1, uint32_t odst,
                            runtime_mock::kernel_abi::CallSite site = {}) {
    runtime_mock::kernel_abi::sfpu_apply_binary(idst0, idst1, odst, "power_binary_tile", site,
                                                [](float a, float b) { return std::pow(a, b); });
}

}  // namespace ckernel
