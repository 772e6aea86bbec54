#include "cpu_placement.hpp"

#include <pthread.h>
#include <sched.h>

#include <vector>

namespace runtime_mock {

namespace {

// The CPUs this process may run on, read once (at the first run).
const std::vector<int>& usable_cpus() {
    static const std::vector<int> cpus = [] {
        std::vector<int> found;
        cpu_set_t set;
        if (sched_getaffinity(0, sizeof(set), &set) == 0) {
            for (int cpu = 0; cpu < CPU_SETSIZE; cpu++) {
                if (CPU_ISSET(cpu, &set))
                    found.push_back(cpu);
            }
        }
        return found;
    }();
    return cpus;
}

constexpr int kAnyCpu = -1;

}  // namespace

size_t usable_cpu_count() {
    return usable_cpus().size();
}

void place_lane(size_t lane, size_t lanes) {
    // The placement this worker thread has now: a CPU, or kAnyCpu (every usable CPU, as a new thread).
    static thread_local int placed = kAnyCpu;
    const std::vector<int>& cpus = usable_cpus();
    const int wanted = cpus.size() > 1 && lanes >= cpus.size() ? cpus[lane % cpus.size()] : kAnyCpu;
    if (wanted == placed)
        return;
    cpu_set_t set;
    CPU_ZERO(&set);
    if (wanted == kAnyCpu) {
        for (const int cpu : cpus)
            CPU_SET(cpu, &set);
    } else {
        CPU_SET(wanted, &set);
    }
    if (pthread_setaffinity_np(pthread_self(), sizeof(set), &set) == 0)
        placed = wanted;
}

}  // namespace runtime_mock
