// Which RISC processor and which NOC a data-movement kernel uses, and the kind of core.
// RISCV_0 is BRISC, RISCV_1 is NCRISC; the mock runs one thread per processor of each core.
#pragma once

#include <cstdint>

namespace tt {

enum class ARCH { GRAYSKULL = 0, WORMHOLE_B0 = 1, BLACKHOLE = 2, QUASAR = 3, Invalid = 0xFF };

}  // namespace tt

namespace tt::tt_metal {

enum class DataMovementProcessor {
    RISCV_0 = 0,
    RISCV_1 = 1,
    RISCV_2 = 2,
    RISCV_3 = 3,
    RISCV_4 = 4,
    RISCV_5 = 5,
    RISCV_6 = 6,
    RISCV_7 = 7,
};

enum NOC : uint8_t {
    RISCV_0_default = 0,
    RISCV_1_default = 1,
    NOC_0 = 0,
    NOC_1 = 1,
};

enum NOC_MODE : uint8_t {
    DM_DEDICATED_NOC = 0,
    DM_DYNAMIC_NOC = 1,
};

enum Eth : uint8_t {
    SENDER = 0,
    RECEIVER = 1,
    IDLE = 2,
};

enum class CoreType { WORKER, ETH, PCIE, ARC, DRAM, ROUTER_ONLY, TENSIX = WORKER };

namespace detail {

inline NOC preferred_noc_for_dram_read(ARCH) {
    return NOC::NOC_0;
}
inline NOC preferred_noc_for_dram_write(ARCH) {
    return NOC::NOC_1;
}

}  // namespace detail

}  // namespace tt::tt_metal
