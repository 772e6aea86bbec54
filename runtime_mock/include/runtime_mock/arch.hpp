// Facts of the simulated architectures (Wormhole B0 n150, Blackhole p150) and the constants of the timing
// model. Their one home is runtime_mock/python/runtime_mock/arch/<arch>.json (each figure with its source);
// the build generates the tables (arch_data.hpp) from those files.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

namespace runtime_mock {

enum class Arch { Wormhole, Blackhole };

// Cycles per 32x32 tile of one compute API call (its `call` name in the shim), indexed by the SDK's
// MathFidelity value (LoFi=0, HiFi2=2, HiFi3=3, HiFi4=4); calls that fidelity does not affect repeat one value.
struct OpCost {
    const char* name;
    uint32_t cycles[5];
};

// The timing model's constants (see timing_model.hpp for how they are used).
struct TimingConstants {
    double clock_ghz;
    const OpCost* ops;  // sorted by name
    size_t num_ops;
    uint32_t float32_unpack_pack_factor;  // copy_tile, pack_tile, tilize, untilize on Float32 tiles
    uint32_t kernel_launch_cycles;        // every RISC's clock starts here
    uint32_t cb_api_cycles;               // each cb_reserve_back / push_back / wait_front / pop_front
    uint32_t dst_sync_cycles;             // each tile_regs_* / acquire_dst / release_dst
    uint32_t noc_issue_cycles;            // each NOC request, before the RISC goes on
    uint32_t semaphore_api_cycles;        // each local semaphore set / wait check
    uint32_t noc_latency_cycles;          // from the end of a transfer's occupancy to its completion
    double dram_bandwidth_gb_s;           // whole chip, shared evenly by the banks
    double dram_read_bytes_per_cycle;     // one core's NOC port reading from DRAM
    double dram_write_bytes_per_cycle;
    double one_to_one_bytes_per_cycle;  // core to core
    double multicast_bytes_per_cycle;
    double linked_multicast_bytes_per_cycle;    // back-to-back multicasts that keep their path (`linked`)
    uint32_t multicast_per_destination_cycles;  // added to a multicast's completion per destination
};

struct ArchSpec {
    Arch arch;
    const char* name;         // "wormhole_b0" / "blackhole"
    uint32_t grid_x, grid_y;  // compute grid used by programs
    uint32_t l1_bytes;        // per Tensix core
    // L1 below the first circular buffer (the SDK's unreserved base): firmware, kernel configuration,
    // runtime args and semaphores.
    uint32_t l1_reserved_bytes;
    uint32_t dram_banks;
    uint64_t dram_bank_bytes;
    uint32_t num_circular_buffers;
    uint32_t dram_alignment;  // bytes; interleaved pages are padded to this
    uint32_t l1_alignment;
    uint32_t dst_tiles_16bit;  // DST capacity in full-sync mode, 16-bit; halve for fp32, halve for half-sync
    const TimingConstants* timing;
};

const ArchSpec& arch_spec(Arch arch);

// Parses "wormhole", "wormhole_b0", "blackhole"; throws std::invalid_argument naming the value.
Arch parse_arch(const std::string& name);

// The arch new devices get: the calling thread's ThreadArch, else set_default_arch(), else
// $RUNTIME_MOCK_ARCH, else Wormhole.
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

}  // namespace runtime_mock
