// The kernel worker pool shared by all runs of the process: a batch's abandon() of a job that has returned
// (its worker already serving another batch) must leave that other batch's job alone, so the other batch
// still sees its job return; and a batch like the previous one gets each job the worker that ran it before.
#include <chrono>
#include <future>
#include <thread>

#include "../src/kernel_workers.hpp"
#include "test_support.hpp"

using namespace tt_mock;

namespace {

// Waits up to 10 s for `batch`'s `job` to return; false when it did not. The waiting thread is
// detached, so a job that never returns fails this test instead of hanging it.
bool returns_in_time(const std::shared_ptr<KernelBatch>& batch, size_t job) {
    auto returned = std::make_shared<std::promise<void>>();
    std::future<void> done = returned->get_future();
    std::thread([batch, job, returned] {
        batch->wait_returned(job);
        returned->set_value();
    }).detach();
    return done.wait_for(std::chrono::seconds(10)) == std::future_status::ready;
}

std::shared_ptr<KernelBatch> start(std::vector<KernelBatch::Job> jobs) {
    std::string error;
    std::shared_ptr<KernelBatch> batch = KernelBatch::start(std::move(jobs), error);
    if (!error.empty())
        throw std::runtime_error(error);
    return batch;
}

}  // namespace

// The scheduler decides to abandon a job from a snapshot taken before the job returned; by the time it
// calls abandon(), the job's worker (the most recently returned one, reused first) runs another batch.
TEST(late_abandon_leaves_the_next_batch_of_the_worker_alone) {
    const std::shared_ptr<KernelBatch> first = start({[](FaultGuard&) {}});
    CHECK(returns_in_time(first, 0));
    std::promise<void> release;
    std::shared_future<void> released = release.get_future().share();
    const std::shared_ptr<KernelBatch> second = start({[released](FaultGuard&) { released.wait(); }});
    first->abandon(0);
    release.set_value();
    if (!returns_in_time(second, 0))
        throw std::runtime_error(
            "the second batch's job never counted as returned: abandon() of the first batch "
            "took over the worker it had handed back");
}

// A job abandoned while it runs still counts as returned when it ends (its worker then leaves the pool).
TEST(abandoned_job_counts_as_returned_when_it_ends) {
    std::promise<void> release;
    std::shared_future<void> released = release.get_future().share();
    const std::shared_ptr<KernelBatch> stuck = start({[released](FaultGuard&) { released.wait(); }});
    stuck->abandon(0);
    release.set_value();
    CHECK(returns_in_time(stuck, 0));
}

// Each worker keeps its job index across batches, so a kernel stays on the worker already placed on its
// core's CPU (cpu_placement.hpp) and a run of the same program does not move threads between CPUs.
TEST(workers_keep_their_job_index_across_batches) {
    constexpr size_t kJobs = 6;
    std::thread::id ran_on[2][kJobs];
    for (auto& ids : ran_on) {
        std::vector<KernelBatch::Job> jobs;
        for (size_t i = 0; i < kJobs; i++)
            jobs.push_back([&ids, i](FaultGuard&) { ids[i] = std::this_thread::get_id(); });
        const std::shared_ptr<KernelBatch> batch = start(std::move(jobs));
        for (size_t i = 0; i < kJobs; i++)
            CHECK(returns_in_time(batch, i));
    }
    for (size_t i = 0; i < kJobs; i++) {
        if (ran_on[0][i] != ran_on[1][i])
            throw std::runtime_error("job " + std::to_string(i) +
                                     " of the second batch ran on another worker than in the first batch");
    }
}

int main() {
    return test::run_all();
}
