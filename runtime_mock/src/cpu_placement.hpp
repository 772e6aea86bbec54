// Where kernels run on the host: the lanes (worker threads, kernel_workers.hpp) of a run each on their
// own host CPU.
//
// Model. The kernels of a core hand circular-buffer pages to each other tile by tile, so each of them
// blocks and wakes the others thousands of times per run. The three are fibers on one lane, so a wake-up
// is a fiber switch and the pages they pass stay in that CPU's caches. A run has one lane per usable CPU
// (fewer when it has fewer cores) and deals its cores to them round-robin; lane i is placed on the i-th
// usable CPU, so every CPU is busy and no lane migrates. A run with fewer cores than CPUs is not placed:
// its lanes may then use every CPU. Placement only affects speed; when the OS refuses it (e.g. the
// process's CPU set shrank since the first run) the lane runs wherever the OS puts it.
#pragma once

#include <cstddef>

namespace runtime_mock {

// How many CPUs this process may run on.
size_t usable_cpu_count();

// Places the calling lane, number `lane` of a run with `lanes` lanes.
// Cheap when the thread is already where it should be (pooled lanes keep their placement across runs).
void place_lane(size_t lane, size_t lanes);

}  // namespace runtime_mock
