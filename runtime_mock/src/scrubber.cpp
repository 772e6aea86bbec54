#include "scrubber.hpp"

#if defined(__x86_64__)
#include <emmintrin.h>
#endif

#include <condition_variable>
#include <cstring>
#include <deque>
#include <mutex>
#include <thread>

#include "per_process.hpp"

namespace runtime_mock::scrubber {

namespace {

// The queue and its thread, started with the first job. One per process (per_process: never destroyed, as
// the detached thread may still wait on the condition variable at exit; a forked child starts a fresh one).
class Scrubber {
public:
    void submit(std::function<void()> job) {
        std::lock_guard<std::mutex> lock(mutex_);
        jobs_.push_back(std::move(job));
        pending_++;
        if (!started_) {
            started_ = true;
            std::thread([this] { serve(); }).detach();
        }
        work_.notify_one();
    }

    void wait_idle() {
        std::unique_lock<std::mutex> lock(mutex_);
        idle_.wait(lock, [this] { return pending_ == 0; });
    }

private:
    void serve() {
        std::unique_lock<std::mutex> lock(mutex_);
        while (true) {
            work_.wait(lock, [this] { return !jobs_.empty(); });
            std::function<void()> job = std::move(jobs_.front());
            jobs_.pop_front();
            lock.unlock();
            job();
            lock.lock();
            if (--pending_ == 0)
                idle_.notify_all();
        }
    }

    std::mutex mutex_;
    std::condition_variable work_;
    std::condition_variable idle_;
    std::deque<std::function<void()>> jobs_;
    size_t pending_ = 0;  // submitted and not finished
    bool started_ = false;
};

}  // namespace

void submit(std::function<void()> job) {
    per_process<Scrubber>().submit(std::move(job));
}

void wait_idle() {
    per_process<Scrubber>().wait_idle();
}

void zero(uint8_t* memory, size_t bytes) {
#if defined(__x86_64__)
    // SSE2 (every x86-64 CPU) streaming stores over the 16-byte-aligned middle; memset for the ends.
    uint8_t* first = reinterpret_cast<uint8_t*>((uintptr_t(memory) + 15) & ~uintptr_t(15));
    uint8_t* last = reinterpret_cast<uint8_t*>(uintptr_t(memory + bytes) & ~uintptr_t(15));
    if (first < last) {
        std::memset(memory, 0, size_t(first - memory));
        const __m128i zeros = _mm_setzero_si128();
        for (uint8_t* p = first; p < last; p += 16)
            _mm_stream_si128(reinterpret_cast<__m128i*>(p), zeros);
        _mm_sfence();
        std::memset(last, 0, size_t(memory + bytes - last));
        return;
    }
#endif
    std::memset(memory, 0, bytes);
}

}  // namespace runtime_mock::scrubber
