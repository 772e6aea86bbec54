// Zeroes memory that a destroyed device used, on a background thread, before the next device gets it.
//
// Every device starts from zeroed L1 and zeroed DRAM buffers, so a kernel that reads memory nothing wrote
// sees zeros on every run, never an earlier run's data (which could hide the bug by being right). Devices
// hand the L1 pool and DRAM chunks they used to the next device instead of unmapping them (faulting tens
// of MiB in again costs more than the run), and that memory must be zeroed in between. Zeroing it when the
// next device is created put 20% of a warm 1024^3 GEMM call on the host thread while the kernels' CPUs
// sat idle; the scrubber does it as soon as the device is gone, while the caller goes on with host work.
// Memory a job zeroes belongs to no device until the job hands it on (its completion step).
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>

namespace runtime_mock::scrubber {

// Runs `job` on the scrubber thread, after the jobs submitted before it. The job must not throw.
void submit(std::function<void()> job);
// Returns when every job submitted so far has run.
void wait_idle();
// Zeroes [memory, memory + bytes) for a job: with non-temporal stores where the CPU has them, which neither
// read the lines first nor evict what the caller's next device has in the caches.
void zero(uint8_t* memory, size_t bytes);

}  // namespace runtime_mock::scrubber
