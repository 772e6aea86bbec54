// Element-wise binary operations between two DST tiles on the SFPU (the SDK's
// compute_kernel_api/eltwise_binary_sfpu.h): DST[odst] = DST[idst0] op DST[idst1], in fp32.
#pragma once

#include <cmath>

#include "compute_kernel_api/common.h"
#include "tt_mock_device/sfpu.h"

namespace ckernel {

namespace detail {

template <typename F>
ALWI void binary_sfpu(uint32_t idst0, uint32_t idst1, uint32_t odst, const char* call, tt_mock_device::CallSite site,
                      F f) {
    using namespace tt_mock_device;
    const float* a = dst_math_tile(idst0, call, site);
    const float* b = dst_math_tile(idst1, call, site);
    float* out = dst_math_tile(odst, call, site);
    for (uint32_t i = 0; i < kTileElements; i++)
        out[i] = f(a[i], b[i]);
    ctx()->compute.dst_written |= 1u << odst;
}

}  // namespace detail

ALWI void add_binary_tile_init() {
    tt_mock_device::sfpu_init();
}
ALWI void sub_binary_tile_init() {
    tt_mock_device::sfpu_init();
}
ALWI void mul_binary_tile_init() {
    tt_mock_device::sfpu_init();
}
ALWI void div_binary_tile_init() {
    tt_mock_device::sfpu_init();
}
ALWI void rsub_binary_tile_init() {
    tt_mock_device::sfpu_init();
}
ALWI void power_binary_tile_init() {
    tt_mock_device::sfpu_init();
}

ALWI void add_binary_tile(uint32_t idst0, uint32_t idst1, uint32_t odst, tt_mock_device::CallSite site = {}) {
    detail::binary_sfpu(idst0, idst1, odst, "add_binary_tile", site, [](float a, float b) { return a + b; });
}

ALWI void sub_binary_tile(uint32_t idst0, uint32_t idst1, uint32_t odst, tt_mock_device::CallSite site = {}) {
    detail::binary_sfpu(idst0, idst1, odst, "sub_binary_tile", site, [](float a, float b) { return a - b; });
}

ALWI void mul_binary_tile(uint32_t idst0, uint32_t idst1, uint32_t odst, tt_mock_device::CallSite site = {}) {
    detail::binary_sfpu(idst0, idst1, odst, "mul_binary_tile", site, [](float a, float b) { return a * b; });
}

ALWI void div_binary_tile(uint32_t idst0, uint32_t idst1, uint32_t odst, tt_mock_device::CallSite site = {}) {
    detail::binary_sfpu(idst0, idst1, odst, "div_binary_tile", site, [](float a, float b) { return a / b; });
}

ALWI void rsub_binary_tile(uint32_t idst0, uint32_t idst1, uint32_t odst, tt_mock_device::CallSite site = {}) {
    detail::binary_sfpu(idst0, idst1, odst, "rsub_binary_tile", site, [](float a, float b) { return b - a; });
}

ALWI void power_binary_tile(uint32_t idst0, uint32_t idst1, uint32_t odst, tt_mock_device::CallSite site = {}) {
    detail::binary_sfpu(idst0, idst1, odst, "power_binary_tile", site, [](float a, float b) { return std::pow(a, b); });
}

}  // namespace ckernel
