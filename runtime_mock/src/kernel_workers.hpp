// Kernel workers: kernels run as fibers, dealt to a few OS threads ("lanes") kept across runs.
//
// Model. A run has one kernel per (core, RISC), all running at once (kernels block on each other): up to
// ~200. Each runs as a fiber (fiber.hpp) on one lane, which the scheduler chooses: a core's three kernels
// share a lane, so their circular-buffer hand-offs are fiber switches on one CPU (cpu_placement.hpp), not
// futex wake-ups across CPUs. A lane runs its ready fibers in turn, each until it parks (waits for CB pages
// or a semaphore) or ends. unpark(), from any thread, makes a parked fiber ready again; an unpark() that
// arrives while the fiber still runs makes its next park() return at once, so no wake-up is lost. A lane
// with nothing ready sleeps; while some of its parked fibers poll (semaphore waits, which a plain L1 store
// can satisfy), it resumes them every millisecond.
//
// Lanes are taken from a process-wide pool and go back to it when all their fibers have ended; a lane
// takes, when it can, the lane index it had in its last batch, so repeated runs of one program find each
// lane already on its CPU. Each lane owns a GuardedThread for its whole life, each job a FaultGuard
// (fault_handler.hpp). The pool grows to the most lanes busy at once in the process and never shrinks; a
// lane whose fiber never returns (abandoned by the scheduler after an abort) leaves the pool for good and
// ends if that fiber ever returns. A process made by fork() starts with an empty pool.
//
// Consequence: a kernel that spins outside the API (on a plain L1 word) holds its lane, so the kernels
// sharing that lane wait until it returns or the watchdog stops it.
//
// A KernelBatch is one run's set of jobs: start() runs job i on lane lane_of[i], wait_returned(i) waits until
// job i has returned and its lane no longer uses anything of it, abandon(i) gives up on a job that does not
// return (a job that has returned, and the lane it handed back, are left alone).
#pragma once

#include <condition_variable>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "fault_handler.hpp"
#include "fiber.hpp"

namespace runtime_mock {

struct Lane;
class KernelBatch;

// One job as its code sees it while it runs.
class KernelJob {
public:
    using Body = std::function<void(KernelJob&)>;

    FaultGuard& guard() { return *guard_; }

    // From the job itself: suspends it until unpark() (returns at once if unpark() came since its last
    // park). With `poll`, an idle lane also resumes it every millisecond.
    void park(bool poll);

    // From any thread: makes the job ready to run again if it is parked, or its next park() return at once.
    void unpark();

    // Whether another job of this job's lane is ready to run.
    bool lane_has_ready() const;

    // From the job itself, in a seeded batch (see KernelBatch::start): with even odds drawn from the lane's
    // generator, and only when another job of the lane is ready, lets the lane run another job first.
    // Returns whether it did (the job then runs again on its lane's thread with other jobs having run).
    bool maybe_yield();

private:
    friend struct Lane;
    friend struct LanePool;
    friend class KernelBatch;
    enum class State { Ready, Running, Parked, Finished };

    // The fiber's body: runs body_ (which reports its own errors; whatever escapes is dropped).
    static void run(void* job);

    Body body_;
    size_t index_ = 0;
    Lane* lane_ = nullptr;
    std::unique_ptr<Fiber> fiber_;
    std::optional<FaultGuard> guard_;
    // Under the lane's mutex:
    State state_ = State::Ready;
    bool wake_pending_ = false;
    // Set by the job as it parks (on its lane's thread, before the lane marks it parked under the mutex);
    // read under the mutex while it is parked.
    bool poll_ = false;
};

class KernelBatch {
public:
    // Runs job i as a fiber on lane lane_of[i] (lanes are numbered from 0). When a lane or a fiber cannot
    // be had, runs nothing (started() is 0) and says why in `error`. With a `seed`, each lane picks which
    // ready job runs next, and whether maybe_yield() yields, from a generator seeded with it: on one lane,
    // the jobs' interleaving is then a function of the seed alone.
    static std::shared_ptr<KernelBatch> start(std::vector<KernelJob::Body> jobs, const std::vector<size_t>& lane_of,
                                              std::string& error, std::optional<uint64_t> seed = std::nullopt);

    size_t started() const { return started_; }
    void wait_returned(size_t job);
    void abandon(size_t job);
    // Keeps `state` alive as long as the batch: until its caller lets go of it and every job has returned
    // (a lane whose job was abandoned holds the batch until that job returns, if it ever does).
    void keep_while_jobs_run(std::shared_ptr<void> state) { kept_.push_back(std::move(state)); }

private:
    friend struct Lane;
    friend struct LanePool;
    void mark_returned(size_t job);

    std::vector<std::unique_ptr<KernelJob>> jobs_;
    std::mutex mutex_;
    std::condition_variable returned_cv_;
    std::vector<bool> returned_;
    size_t started_ = 0;
    std::vector<std::shared_ptr<void>> kept_;
};

}  // namespace runtime_mock
