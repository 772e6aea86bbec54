// DST, runtime side: the destination register file each compute kernel gets for a run.
//
// The register file's model runs inside the compute kernel (runtime_mock/kernel_abi/dst.h: fp32 tiles,
// the MATH/PACK hand-over, zeroing on acquire, capacity checks). The runtime sizes the file by the SDK's
// table and owns its storage: 16 tiles of 16-bit data in full-sync mode on Wormhole and Blackhole
// (ArchSpec::dst_tiles_16bit), halved when fp32_dest_acc_en holds 32-bit data, halved again in the
// default half-sync (double-buffered) mode.
#pragma once

#include <cstdint>
#include <memory>

#include "runtime_mock/arch.hpp"
#include "runtime_mock/program_spec.hpp"

namespace runtime_mock {

struct DstRegisters {
    std::unique_ptr<float[]> tiles;  // capacity tiles of 32x32 fp32
    uint32_t capacity = 0;
};

// Tiles of DST a compute kernel with these options may use on this arch.
uint32_t dst_capacity(const ArchSpec& arch, const ComputeOptions& options);

// A compute kernel's register file (zeroed; the kernel zeroes it again on every acquire).
DstRegisters allocate_dst(const ArchSpec& arch, const ComputeOptions& options);

}  // namespace runtime_mock
