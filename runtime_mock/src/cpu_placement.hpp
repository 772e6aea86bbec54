// Where kernel threads run on the host: the three kernels of one simulated core share one host CPU.
//
// Model. The kernels of a core hand circular-buffer pages to each other tile by tile, so each of them
// blocks and wakes the others thousands of times per run. When the three run on one CPU a wake-up is a
// local context switch, and the pages they pass stay in that CPU's caches; left to the OS, a wake-up
// usually crosses CPUs (an inter-processor interrupt and a cold cache) and a run of 64 cores spends most
// of its time there. Cores are dealt to the CPUs this process may use round-robin, so a run with at least
// as many cores as CPUs keeps every CPU busy. A run with fewer cores than CPUs is not placed: its
// kernels may then use every CPU. Placement only affects speed; when the OS refuses it (e.g. the
// process's CPU set shrank since the first run) the thread runs wherever the OS puts it.
#pragma once

#include <cstddef>

namespace tt_mock {

// Places the calling kernel thread for the core at position `core` of a run of `num_cores` cores.
// Cheap when the thread is already where it should be (pool workers keep their placement across runs).
void place_kernel_thread(size_t core, size_t num_cores);

}  // namespace tt_mock
