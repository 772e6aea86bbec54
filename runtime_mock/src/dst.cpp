#include "dst.hpp"

#include "runtime_mock/kernel_abi/tile_format.h"

namespace runtime_mock {

uint32_t dst_capacity(const ArchSpec& arch, const ComputeOptions& options) {
    uint32_t tiles = arch.dst_tiles_16bit;
    if (options.fp32_dest_acc_en)
        tiles /= 2;
    if (!options.dst_full_sync_en)
        tiles /= 2;
    return tiles;
}

DstRegisters allocate_dst(const ArchSpec& arch, const ComputeOptions& options) {
    DstRegisters dst;
    dst.capacity = dst_capacity(arch, options);
    dst.tiles = std::make_unique<float[]>(size_t(dst.capacity) * kernel_abi::kTileElements);
    return dst;
}

}  // namespace runtime_mock
