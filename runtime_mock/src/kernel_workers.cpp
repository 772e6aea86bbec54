#include "kernel_workers.hpp"

#include <pthread.h>

#include <future>
#include <optional>
#include <string>
#include <system_error>
#include <thread>
#include <utility>

namespace tt_mock {

struct KernelBatch::Worker {
    std::mutex mutex;
    std::condition_variable cv;
    bool has_job = false;  // the three fields below are set: run the job
    KernelBatch::Job job;
    std::shared_ptr<KernelBatch> batch;
    size_t index = 0;        // of its job in the batch (kept after the job, for take())
    bool abandoned = false;  // under the pool's mutex: its job will not be waited for, end when it returns
};

// Idle workers of the process. Never destroyed: workers may outlive static destructors. A child
// process made by fork() has none of its parent's threads: it starts with an empty pool and an empty
// guard table.
struct WorkerPool {
    using Worker = KernelBatch::Worker;

    std::mutex mutex;
    std::vector<Worker*> idle;

    static WorkerPool*& current() {
        static WorkerPool* pool = [] {
            pthread_atfork(nullptr, nullptr, [] {
                forget_parent_guards();
                current() = new WorkerPool;
            });
            return new WorkerPool;
        }();
        return pool;
    }
    static WorkerPool& instance() { return *current(); }

    // `n` workers, the i-th for job i: idle ones first, each preferably for the job it ran last (a run
    // like the previous one finds each kernel's worker where it left it: on that core's CPU,
    // cpu_placement.hpp), then new ones (started together, then waited for). When a thread cannot be
    // created or set up, returns fewer and says why in `error`.
    std::vector<Worker*> take(size_t n, std::string& error) {
        std::vector<Worker*> workers(n, nullptr);
        {
            std::lock_guard<std::mutex> lock(mutex);
            std::vector<Worker*> unmatched;
            for (Worker* worker : idle) {
                if (worker->index < n && workers[worker->index] == nullptr) {
                    workers[worker->index] = worker;
                } else {
                    unmatched.push_back(worker);
                }
            }
            for (Worker*& slot : workers) {
                if (slot == nullptr && !unmatched.empty()) {
                    slot = unmatched.back();
                    unmatched.pop_back();
                }
            }
            idle = std::move(unmatched);
        }
        std::vector<std::pair<Worker**, std::future<std::string>>> starting;
        for (Worker*& slot : workers) {
            if (slot != nullptr)
                continue;
            auto* worker = new Worker;
            std::promise<std::string> ready;  // empty, or why the worker could not set up its FaultGuard
            std::future<std::string> setup = ready.get_future();
            try {
                std::thread([this, worker, ready = std::move(ready)]() mutable {
                    loop(worker, std::move(ready));
                }).detach();
            } catch (const std::system_error& e) {
                delete worker;
                error = std::string("cannot start a kernel thread: ") + e.what();
                break;
            }
            slot = worker;
            starting.emplace_back(&slot, std::move(setup));
        }
        for (auto& [slot, setup] : starting) {
            const std::string why = setup.get();
            if (!why.empty()) {
                delete *slot;
                *slot = nullptr;
                error = "cannot start a kernel thread: " + why;
            }
        }
        // Without a worker for every job, the first jobs get the workers there are.
        std::vector<Worker*> taken;
        for (Worker* worker : workers) {
            if (worker != nullptr)
                taken.push_back(worker);
        }
        return taken;
    }

    void loop(Worker* worker, std::promise<std::string> ready) {
        std::optional<FaultGuard> guard;
        try {
            guard.emplace();
        } catch (const std::exception& e) {
            ready.set_value(e.what());
            return;
        }
        ready.set_value("");
        while (true) {
            KernelBatch::Job job;
            std::shared_ptr<KernelBatch> batch;
            size_t index = 0;
            {
                std::unique_lock<std::mutex> lock(worker->mutex);
                worker->cv.wait(lock, [&] { return worker->has_job; });
                worker->has_job = false;
                job = std::move(worker->job);
                batch = std::move(worker->batch);
                index = worker->index;
            }
            job(*guard);
            job = nullptr;
            // Returned and idle in one step under the pool's mutex: abandon() of this batch sees the
            // job either running here or returned, never this worker serving another batch; and a run
            // that follows the one that waited for this job finds the worker idle.
            std::lock_guard<std::mutex> lock(mutex);
            batch->mark_returned(index);
            if (worker->abandoned) {
                delete worker;
                return;
            }
            idle.push_back(worker);
        }
    }
};

std::shared_ptr<KernelBatch> KernelBatch::start(std::vector<Job> jobs, std::string& error) {
    std::shared_ptr<KernelBatch> batch(new KernelBatch);
    batch->returned_.assign(jobs.size(), false);
    batch->workers_ = WorkerPool::instance().take(jobs.size(), error);
    for (size_t i = 0; i < batch->workers_.size(); i++) {
        Worker* worker = batch->workers_[i];
        {
            std::lock_guard<std::mutex> lock(worker->mutex);
            worker->job = std::move(jobs[i]);
            worker->batch = batch;
            worker->index = i;
            worker->has_job = true;
        }
        worker->cv.notify_one();
        batch->started_++;
    }
    return batch;
}

void KernelBatch::wait_returned(size_t job) {
    std::unique_lock<std::mutex> lock(mutex_);
    returned_cv_.wait(lock, [&] { return bool(returned_[job]); });
}

// A worker marks its job returned and goes back to the pool under the pool's mutex, held here: while
// the job has not returned, workers_[job] still runs it and belongs to this batch.
void KernelBatch::abandon(size_t job) {
    WorkerPool& pool = WorkerPool::instance();
    std::lock_guard<std::mutex> pool_lock(pool.mutex);
    std::lock_guard<std::mutex> lock(mutex_);
    if (!returned_[job])
        workers_[job]->abandoned = true;
}

void KernelBatch::mark_returned(size_t job) {
    std::lock_guard<std::mutex> lock(mutex_);
    returned_[job] = true;
    returned_cv_.notify_all();
}

}  // namespace tt_mock
