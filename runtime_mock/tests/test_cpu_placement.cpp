// Placement of lanes on host CPUs (cpu_placement.hpp): in a run with as many lanes as usable CPUs, lane i
// runs on the i-th CPU (numbers beyond wrap round-robin); in a smaller run, and after one, a lane may run
// on every usable CPU again.
#include <pthread.h>
#include <sched.h>

#include <string>
#include <thread>
#include <vector>

#include "../src/cpu_placement.hpp"
#include "test_support.hpp"

using namespace runtime_mock;

namespace {

std::vector<int> cpus_of(const cpu_set_t& set) {
    std::vector<int> cpus;
    for (int cpu = 0; cpu < CPU_SETSIZE; cpu++) {
        if (CPU_ISSET(cpu, &set))
            cpus.push_back(cpu);
    }
    return cpus;
}

std::vector<int> usable_cpus() {
    cpu_set_t set;
    if (sched_getaffinity(0, sizeof(set), &set) != 0)
        throw std::runtime_error("sched_getaffinity failed");
    return cpus_of(set);
}

std::vector<int> calling_thread_cpus() {
    cpu_set_t set;
    if (pthread_getaffinity_np(pthread_self(), sizeof(set), &set) != 0)
        throw std::runtime_error("pthread_getaffinity_np failed");
    return cpus_of(set);
}

std::string list(const std::vector<int>& cpus) {
    std::string text;
    for (const int cpu : cpus)
        text += (text.empty() ? "" : ",") + std::to_string(cpu);
    return "{" + text + "}";
}

void expect_cpus(const std::vector<int>& expected, const char* when) {
    const std::vector<int> actual = calling_thread_cpus();
    if (actual != expected)
        throw std::runtime_error(std::string(when) + ": the thread may run on CPUs " + list(actual) + ", expected " +
                                 list(expected));
}

// Runs `body` on a new thread (placement changes the calling thread's CPU set) and rethrows its failure.
template <typename Body>
void on_new_thread(Body body) {
    std::string failure;
    std::thread([&] {
        try {
            body();
        } catch (const std::exception& e) {
            failure = e.what();
        }
    }).join();
    if (!failure.empty())
        throw std::runtime_error(failure);
}

}  // namespace

TEST(a_lane_of_a_large_run_runs_on_one_cpu_dealt_round_robin) {
    const std::vector<int> cpus = usable_cpus();
    const size_t lanes = 2 * cpus.size() + 1;
    for (size_t lane = 0; lane < lanes; lane++) {
        on_new_thread([&] {
            place_lane(lane, lanes);
            // With one usable CPU there is nothing to choose: the thread keeps it.
            expect_cpus(cpus.size() > 1 ? std::vector<int>{cpus[lane % cpus.size()]} : cpus,
                        ("lane " + std::to_string(lane)).c_str());
        });
    }
}

TEST(a_run_with_fewer_lanes_than_cpus_is_not_placed) {
    const std::vector<int> cpus = usable_cpus();
    on_new_thread([&] {
        place_lane(0, cpus.size() - 1);
        expect_cpus(cpus, "a run smaller than the CPU count");
    });
}

TEST(a_placed_lane_is_released_by_a_smaller_run) {
    const std::vector<int> cpus = usable_cpus();
    on_new_thread([&] {
        place_lane(1, cpus.size());
        expect_cpus(cpus.size() > 1 ? std::vector<int>{cpus[1]} : cpus, "placed by a large run");
        place_lane(0, 1);
        expect_cpus(cpus, "then given a one-lane run");
    });
}

int main() {
    return test::run_all();
}
