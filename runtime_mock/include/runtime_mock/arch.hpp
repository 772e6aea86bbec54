// Facts of the simulated architectures (Wormhole B0 n150, Blackhole p150), from the SDK's
// dev_mem_map.h, soc descriptors and hal (see shared notes/metalium-api.md §7).
#pragma once

#include <cstdint>
#include <string>

namespace tt_mock {

enum class Arch { Wormhole, Blackhole };

struct ArchSpec {
    Arch arch;
    const char* name;         // "wormhole_b0" / "blackhole"
    uint32_t grid_x, grid_y;  // compute grid used by programs
    uint32_t l1_bytes;        // per Tensix core
    uint32_t dram_banks;
    uint64_t dram_bank_bytes;
    uint32_t num_circular_buffers;
    uint32_t dram_alignment;  // bytes; interleaved pages are padded to this
    uint32_t l1_alignment;
    uint32_t dst_tiles_16bit;  // DST capacity in full-sync mode, 16-bit; halve for fp32, halve for half-sync
};

const ArchSpec& arch_spec(Arch arch);

// Parses "wormhole", "wormhole_b0", "blackhole"; throws std::invalid_argument naming the value.
Arch parse_arch(const std::string& name);

// The arch new devices get: the calling thread's ThreadArch, else set_default_arch(), else
// $TT_METAL_MOCK_ARCH, else Wormhole.
Arch default_arch();
void set_default_arch(Arch arch);

// While alive, devices created on this thread get `arch`: host programs running on several threads at
// once, each for its own arch, do not race on the process-wide default.
class ThreadArch {
public:
    explicit ThreadArch(Arch arch);
    ~ThreadArch();
    ThreadArch(const ThreadArch&) = delete;
    ThreadArch& operator=(const ThreadArch&) = delete;

private:
    int previous_;
};

}  // namespace tt_mock
