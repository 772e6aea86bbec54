#include "kernel_workers.hpp"

#include <pthread.h>

#include <algorithm>
#include <chrono>
#include <deque>
#include <future>
#include <new>
#include <random>
#include <system_error>
#include <thread>
#include <utility>

#include "cpu_placement.hpp"

namespace runtime_mock {

// One lane: an OS thread that runs the fibers of the jobs given to it.
struct Lane {
    pthread_t thread{};
    std::mutex mutex;
    std::condition_variable cv;
    // Under the mutex: the batch given by KernelBatch::start, until the lane takes it.
    bool assigned = false;
    std::shared_ptr<KernelBatch> batch;
    std::vector<KernelJob*> batch_jobs;  // this lane's jobs of the running batch
    std::deque<KernelJob*> ready;
    size_t polling = 0;                    // parked jobs that poll
    std::optional<std::mt19937_64> order;  // a seeded batch's choices (KernelBatch::start)
    // This lane's number in its batch and the batch's lane count (kept after the batch, for take()).
    size_t index = 0, lanes = 0;
    bool abandoned = false;  // under the pool's mutex: a job will not be waited for; end when it returns

    // Under the mutex: makes a parked job ready.
    void make_ready(KernelJob& job) {
        if (job.poll_)
            polling--;
        job.state_ = KernelJob::State::Ready;
        ready.push_back(&job);
    }

    // Under the mutex: waits for a ready job (resuming the polling ones every millisecond) and marks it running.
    KernelJob& next_ready(std::unique_lock<std::mutex>& lock) {
        while (ready.empty()) {
            if (polling == 0) {
                cv.wait(lock);
            } else if (cv.wait_for(lock, std::chrono::milliseconds(1)) == std::cv_status::timeout) {
                for (KernelJob* job : batch_jobs)
                    if (job->state_ == KernelJob::State::Parked && job->poll_)
                        make_ready(*job);
            }
        }
        if (order && ready.size() > 1)
            std::swap(ready.front(), ready[(*order)() % ready.size()]);
        KernelJob& job = *ready.front();
        ready.pop_front();
        job.state_ = KernelJob::State::Running;
        return job;
    }
};

void KernelJob::run(void* argument) {
    auto* job = static_cast<KernelJob*>(argument);
    try {
        job->body_(*job);
    } catch (...) {
    }
}

void KernelJob::park(bool poll) {
    // The job runs on its lane's thread, which marks it parked under the mutex once this suspends.
    poll_ = poll;
    fiber_->suspend();
}

void KernelJob::unpark() {
    std::lock_guard<std::mutex> lock(lane_->mutex);
    if (state_ == State::Parked) {
        lane_->make_ready(*this);
        lane_->cv.notify_one();
    } else if (state_ == State::Running) {
        wake_pending_ = true;
    }
}

bool KernelJob::lane_has_ready() const {
    std::lock_guard<std::mutex> lock(lane_->mutex);
    return !lane_->ready.empty();
}

bool KernelJob::maybe_yield() {
    {
        std::lock_guard<std::mutex> lock(lane_->mutex);
        if (!lane_->order || lane_->ready.empty() || ((*lane_->order)() & 1) == 0)
            return false;
        wake_pending_ = true;  // run_batch files it as ready again, behind the others
    }
    poll_ = false;
    fiber_->suspend();
    return true;
}

// Idle lanes of the process. Never destroyed: lanes may outlive static destructors. A child process made
// by fork() has none of its parent's threads: it starts with an empty pool and an empty guard table.
struct LanePool {
    std::mutex mutex;
    std::vector<Lane*> idle;

    static LanePool*& current() {
        static LanePool* pool = [] {
            pthread_atfork(nullptr, nullptr, [] {
                forget_parent_guards();
                current() = new LanePool;
            });
            return new LanePool;
        }();
        return pool;
    }
    static LanePool& instance() { return *current(); }

    // `n` lanes, the i-th for lane number i: idle ones first, each preferably for the number it had last,
    // then new ones (started together, then waited for). When a thread cannot be created or set up,
    // returns none, gives the ones it took back, and says why in `error`.
    std::vector<Lane*> take(size_t n, std::string& error) {
        std::vector<Lane*> lanes(n, nullptr);
        {
            std::lock_guard<std::mutex> lock(mutex);
            std::vector<Lane*> unmatched;
            for (Lane* lane : idle) {
                if (lane->index < n && lanes[lane->index] == nullptr) {
                    lanes[lane->index] = lane;
                } else {
                    unmatched.push_back(lane);
                }
            }
            for (Lane*& slot : lanes) {
                if (slot == nullptr && !unmatched.empty()) {
                    slot = unmatched.back();
                    unmatched.pop_back();
                }
            }
            idle = std::move(unmatched);
        }
        std::vector<std::pair<Lane**, std::future<std::string>>> starting;
        for (Lane*& slot : lanes) {
            if (slot != nullptr)
                continue;
            auto* lane = new Lane;
            std::promise<std::string> ready;  // empty, or why the lane could not set up its GuardedThread
            std::future<std::string> setup = ready.get_future();
            try {
                std::thread([this, lane, ready = std::move(ready)]() mutable {
                    loop(lane, std::move(ready));
                }).detach();
            } catch (const std::system_error& e) {
                delete lane;
                error = std::string("cannot start a kernel worker thread: ") + e.what();
                break;
            }
            slot = lane;
            starting.emplace_back(&slot, std::move(setup));
        }
        for (auto& [slot, setup] : starting) {
            const std::string why = setup.get();
            if (!why.empty()) {
                delete *slot;
                *slot = nullptr;
                error = "cannot start a kernel worker thread: " + why;
            }
        }
        if (error.empty())
            return lanes;
        give_back(lanes);
        return {};
    }

    void give_back(const std::vector<Lane*>& lanes) {
        std::lock_guard<std::mutex> lock(mutex);
        for (Lane* lane : lanes) {
            if (lane != nullptr)
                idle.push_back(lane);
        }
    }

    void loop(Lane* lane, std::promise<std::string> ready) {
        std::optional<GuardedThread> guarded;
        try {
            guarded.emplace();
        } catch (const std::exception& e) {
            ready.set_value(e.what());
            return;
        }
        lane->thread = pthread_self();
        ready.set_value("");
        while (true) {
            std::shared_ptr<KernelBatch> batch;
            {
                std::unique_lock<std::mutex> lock(lane->mutex);
                lane->cv.wait(lock, [&] { return lane->assigned; });
                lane->assigned = false;
                batch = std::move(lane->batch);
            }
            place_lane(lane->index, lane->lanes);
            const KernelJob* last = run_batch(*lane, *guarded, *batch);
            // The last job returns and the lane goes idle in one step under the pool's mutex: abandon() of
            // this batch sees the job either running here or returned, never this lane serving another
            // batch; and a run that follows the one that waited for this job finds the lane idle.
            std::lock_guard<std::mutex> lock(mutex);
            batch->mark_returned(last->index_);
            if (lane->abandoned) {
                delete lane;
                return;
            }
            idle.push_back(lane);
        }
    }

    // Resumes the lane's ready jobs until all have ended; returns the last one, not yet marked returned.
    static const KernelJob* run_batch(Lane& lane, GuardedThread& guarded, KernelBatch& batch) {
        size_t remaining = lane.batch_jobs.size();
        // One critical section per switch: the job that stopped is filed and the next one taken together.
        std::unique_lock<std::mutex> lock(lane.mutex);
        while (true) {
            KernelJob* job = &lane.next_ready(lock);
            lock.unlock();
            guarded.enter(&job->guard());
            job->fiber_->resume();
            guarded.enter(nullptr);
            lock.lock();
            if (job->fiber_->finished()) {
                job->state_ = KernelJob::State::Finished;
                job->fiber_.reset();  // its stack goes back to the pool
                if (--remaining == 0) {
                    lane.batch_jobs.clear();
                    return job;
                }
                batch.mark_returned(job->index_);
            } else if (job->wake_pending_) {
                job->wake_pending_ = false;
                job->state_ = KernelJob::State::Ready;
                lane.ready.push_back(job);
            } else {
                job->state_ = KernelJob::State::Parked;
                if (job->poll_)
                    lane.polling++;
            }
        }
    }
};

std::shared_ptr<KernelBatch> KernelBatch::start(std::vector<KernelJob::Body> bodies, const std::vector<size_t>& lane_of,
                                                std::string& error, std::optional<uint64_t> seed) {
    std::shared_ptr<KernelBatch> batch(new KernelBatch);
    batch->returned_.assign(bodies.size(), false);
    size_t lanes = 0;
    for (const size_t lane : lane_of)
        lanes = std::max(lanes, lane + 1);
    std::vector<bool> used(lanes, false);
    for (const size_t lane : lane_of)
        used[lane] = true;
    for (const bool lane_used : used) {
        if (!lane_used) {
            error = "kernel batch: lane numbers must be 0, 1, ... without gaps";
            return batch;
        }
    }
    LanePool& pool = LanePool::instance();
    const std::vector<Lane*> taken = pool.take(lanes, error);
    if (!error.empty())
        return batch;
    try {
        for (size_t i = 0; i < bodies.size(); i++) {
            auto job = std::make_unique<KernelJob>();
            job->body_ = std::move(bodies[i]);
            job->index_ = i;
            job->lane_ = taken[lane_of[i]];
            job->fiber_ = std::make_unique<Fiber>();
            job->guard_.emplace(job->lane_->thread, job->fiber_->stack_low());
            job->fiber_->start(&KernelJob::run, job.get());
            batch->jobs_.push_back(std::move(job));
        }
    } catch (const std::bad_alloc&) {
        error = "cannot map a stack for a kernel fiber";
        batch->jobs_.clear();
        pool.give_back(taken);
        return batch;
    }
    for (size_t l = 0; l < lanes; l++) {
        Lane& lane = *taken[l];
        std::lock_guard<std::mutex> lock(lane.mutex);
        lane.index = l;
        lane.lanes = lanes;
        lane.order.reset();
        if (seed)
            lane.order.emplace(*seed + l);
        for (const auto& job : batch->jobs_) {
            if (job->lane_ == &lane) {
                lane.batch_jobs.push_back(job.get());
                lane.ready.push_back(job.get());
            }
        }
        lane.batch = batch;
        lane.assigned = true;
        lane.cv.notify_one();
    }
    batch->started_ = bodies.size();
    return batch;
}

void KernelBatch::wait_returned(size_t job) {
    std::unique_lock<std::mutex> lock(mutex_);
    returned_cv_.wait(lock, [&] { return bool(returned_[job]); });
}

// A lane marks its last job returned and goes back to the pool under the pool's mutex, held here: while
// the job has not returned, its lane still runs it and belongs to this batch.
void KernelBatch::abandon(size_t job) {
    LanePool& pool = LanePool::instance();
    std::lock_guard<std::mutex> pool_lock(pool.mutex);
    std::lock_guard<std::mutex> lock(mutex_);
    if (!returned_[job])
        jobs_[job]->lane_->abandoned = true;
}

void KernelBatch::mark_returned(size_t job) {
    std::lock_guard<std::mutex> lock(mutex_);
    returned_[job] = true;
    returned_cv_.notify_all();
}

}  // namespace runtime_mock
