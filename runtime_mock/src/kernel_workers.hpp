// Kernel workers: the OS threads that run kernels, kept across runs.
//
// Model. A run needs one thread per (core, RISC) kernel, all at once (kernels block on each other).
// Threads are taken from a process-wide pool and returned to it when their kernel ends, so a run
// starts its kernels without creating threads (a run can have ~200, and creating them takes time). A
// worker takes, when it can, the job index it had in its last batch, so repeated runs of one program
// keep each kernel on the worker already placed on its core's CPU (cpu_placement.hpp). Each worker
// owns a FaultGuard for its whole life (alternate signal stack, slot in the signal handlers' thread
// table). The pool grows to the largest number of kernels running at once in the process and never
// shrinks; a worker whose kernel never returned (abandoned by the scheduler after an abort) leaves
// the pool for good and ends if its kernel ever returns. A process made by fork() starts with an
// empty pool and no fault guards.
//
// A Batch is one run's set of jobs: start() hands job i to its own worker, wait_returned(i) waits
// until that job has returned and its worker no longer uses anything of the run, abandon(i) gives up
// on a job that does not return (a job that has returned, and the worker it handed back, are left alone).
#pragma once

#include <condition_variable>
#include <cstddef>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "fault_handler.hpp"

namespace tt_mock {

class KernelBatch {
public:
    using Job = std::function<void(FaultGuard&)>;

    // Runs every job on its own worker thread. When a worker cannot be created, only the first
    // started() jobs run and `error` says why.
    static std::shared_ptr<KernelBatch> start(std::vector<Job> jobs, std::string& error);

    size_t started() const { return started_; }
    void wait_returned(size_t job);
    void abandon(size_t job);

    struct Worker;

private:
    friend struct WorkerPool;
    void mark_returned(size_t job);

    std::mutex mutex_;
    std::condition_variable returned_cv_;
    std::vector<bool> returned_;
    std::vector<Worker*> workers_;
    size_t started_ = 0;
};

}  // namespace tt_mock
