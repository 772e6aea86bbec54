// A process-wide object for state that outlives devices (pools, the scrubber's queue).
#pragma once

#include <pthread.h>

namespace runtime_mock {

// The one T of this process, made on first use. It is never destroyed: devices may be destroyed during
// static destruction, after it would be. A child made by fork() gets a fresh T instead of the parent's,
// whose mutexes another thread may have held at the fork and whose threads do not exist in the child.
template <typename T>
T& per_process() {
    static T* instance = nullptr;
    static const bool made = [] {
        pthread_atfork(nullptr, nullptr, [] { instance = new T; });
        instance = new T;
        return true;
    }();
    (void)made;
    return *instance;
}

}  // namespace runtime_mock
