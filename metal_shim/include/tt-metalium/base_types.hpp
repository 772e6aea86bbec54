// Math fidelity of the matrix/vector engines and the unpack-to-DST mode of a CB (global namespace,
// as in the SDK). The mock computes in fp32 whatever the fidelity; it is recorded, not modelled.
#pragma once

#include <cstdint>

enum class MathFidelity : uint8_t {
    LoFi = 0,
    HiFi2 = 2,
    HiFi3 = 3,
    HiFi4 = 4,
    Invalid = 0xff,
};

enum class UnpackToDestMode : uint8_t { UnpackToDestFp32, Default };
