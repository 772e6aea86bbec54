// Kernel jobs as fibers on lanes (kernel_workers.hpp): parking and unparking within a lane and across
// lanes, polling, an unpark that comes before the park; and the lane pool shared by all runs of the
// process: a batch's abandon() of a job that has returned (its lane already serving another batch) must
// leave that other batch's job alone, and a batch like the previous one gets each lane number the thread
// that ran it before.
#include <atomic>
#include <chrono>
#include <future>
#include <thread>

#include "../src/kernel_workers.hpp"
#include "test_support.hpp"

using namespace runtime_mock;

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

// Starts `jobs`, job i on lane lane_of[i] (every job on lane 0 when lane_of is empty).
std::shared_ptr<KernelBatch> start(std::vector<KernelJob::Body> jobs, std::vector<size_t> lane_of = {}) {
    if (lane_of.empty())
        lane_of.assign(jobs.size(), 0);
    std::string error;
    std::shared_ptr<KernelBatch> batch = KernelBatch::start(std::move(jobs), lane_of, error);
    if (!error.empty())
        throw std::runtime_error(error);
    return batch;
}

}  // namespace

// The scheduler decides to abandon a job from a snapshot taken before the job returned; by the time it
// calls abandon(), the job's worker (the most recently returned one, reused first) runs another batch.
TEST(late_abandon_leaves_the_next_batch_of_the_worker_alone) {
    const std::shared_ptr<KernelBatch> first = start({[](KernelJob&) {}});
    CHECK(returns_in_time(first, 0));
    std::promise<void> release;
    std::shared_future<void> released = release.get_future().share();
    const std::shared_ptr<KernelBatch> second = start({[released](KernelJob&) { released.wait(); }});
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
    const std::shared_ptr<KernelBatch> stuck = start({[released](KernelJob&) { released.wait(); }});
    stuck->abandon(0);
    release.set_value();
    CHECK(returns_in_time(stuck, 0));
}

// Each lane keeps its number across batches, so a core's kernels stay on the thread already placed on its
// CPU (cpu_placement.hpp) and a run of the same program does not move threads between CPUs.
TEST(lanes_keep_their_number_across_batches) {
    constexpr size_t kJobs = 6, kLanes = 3;
    std::thread::id ran_on[2][kJobs];
    for (auto& ids : ran_on) {
        std::vector<KernelJob::Body> jobs;
        std::vector<size_t> lane_of;
        for (size_t i = 0; i < kJobs; i++) {
            jobs.push_back([&ids, i](KernelJob&) { ids[i] = std::this_thread::get_id(); });
            lane_of.push_back(i % kLanes);
        }
        const std::shared_ptr<KernelBatch> batch = start(std::move(jobs), lane_of);
        for (size_t i = 0; i < kJobs; i++)
            CHECK(returns_in_time(batch, i));
    }
    for (size_t i = 0; i < kJobs; i++) {
        if (ran_on[0][i] != ran_on[1][i])
            throw std::runtime_error("job " + std::to_string(i) +
                                     " of the second batch ran on another thread than in the first batch");
        if (ran_on[0][i] != ran_on[0][i % kLanes])
            throw std::runtime_error("job " + std::to_string(i) + " did not run on its lane's thread");
    }
}

// Two jobs on one lane hand a token back and forth 1000 times, each parking until the other unparks it:
// both run on one thread, interleaved, and no wake-up is lost (an unpark often comes before the park).
TEST(jobs_on_one_lane_take_turns_by_parking) {
    constexpr int kRounds = 1000;
    std::atomic<int> token{0};  // even: job 0's turn, odd: job 1's
    KernelJob* jobs_by_index[2] = {nullptr, nullptr};
    std::atomic<int> known{0};
    auto player = [&](int me) {
        return [&, me](KernelJob& job) {
            jobs_by_index[me] = &job;
            known++;
            while (known.load() < 2)
                job.park(true);  // polled until the partner is known
            for (int round = 0; round < kRounds; round++) {
                while (token.load() % 2 != me)
                    job.park(false);
                token++;
                jobs_by_index[1 - me]->unpark();
            }
        };
    };
    const std::shared_ptr<KernelBatch> batch = start({player(0), player(1)});
    CHECK(returns_in_time(batch, 0));
    CHECK(returns_in_time(batch, 1));
    CHECK(token.load() == 2 * kRounds);
}

// The same hand-off between jobs on two lanes: an unpark from another thread wakes a sleeping lane.
TEST(an_unpark_from_another_lane_wakes_the_parked_job) {
    constexpr int kRounds = 1000;
    std::atomic<int> token{0};
    std::atomic<KernelJob*> jobs_by_index[2] = {nullptr, nullptr};
    auto player = [&](int me) {
        return [&, me](KernelJob& job) {
            jobs_by_index[me] = &job;
            while (jobs_by_index[1 - me].load() == nullptr)
                job.park(true);
            for (int round = 0; round < kRounds; round++) {
                while (token.load() % 2 != me)
                    job.park(false);
                token++;
                jobs_by_index[1 - me].load()->unpark();
            }
        };
    };
    const std::shared_ptr<KernelBatch> batch = start({player(0), player(1)}, {0, 1});
    CHECK(returns_in_time(batch, 0));
    CHECK(returns_in_time(batch, 1));
    CHECK(token.load() == 2 * kRounds);
}

// A job that parks with polling is resumed by its idle lane although nobody unparks it.
TEST(a_polling_job_is_resumed_without_an_unpark) {
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::milliseconds(20);
    int resumed = 0;
    const std::shared_ptr<KernelBatch> batch = start({[&](KernelJob& job) {
        while (std::chrono::steady_clock::now() < deadline) {
            job.park(true);
            resumed++;
        }
    }});
    CHECK(returns_in_time(batch, 0));
    CHECK(resumed >= 2);
}

// Lane numbers with a gap are refused: the lane in the gap would wait for jobs forever.
TEST(lane_numbers_with_a_gap_are_refused) {
    std::string error;
    const std::shared_ptr<KernelBatch> batch = KernelBatch::start({[](KernelJob&) {}}, {1}, error);
    CHECK(batch->started() == 0);
    CHECK(error.find("without gaps") != std::string::npos);
}

int main() {
    return test::run_all();
}
