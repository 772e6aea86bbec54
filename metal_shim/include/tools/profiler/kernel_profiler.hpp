// The SDK's device profiler zones (tools/profiler/kernel_profiler.hpp): DeviceZoneScopedN("name") marks
// the rest of the enclosing scope as a named zone of this RISC's timeline.
//
// On the mock device a zone is a begin and an end event in the timing record (profile_event.h), shown
// as a span on the RISC's zone track of the Chrome trace; without a profiling session it costs one test
// of the recording flag at each end. The name must be a string literal, as in the SDK.
#pragma once

#include "runtime_mock/kernel_abi/profile_event.h"

namespace runtime_mock::kernel_abi {

class ProfilerZone {
public:
    explicit ProfilerZone(const char* name) : name_(name) {
        record_event(ctx(), ProfileEvent{EventKind::ZoneBegin, kNoFormat, kNoCb, 0, name_, 0, 0, 0, 0});
    }
    ~ProfilerZone() { record_event(ctx(), ProfileEvent{EventKind::ZoneEnd, kNoFormat, kNoCb, 0, name_, 0, 0, 0, 0}); }
    ProfilerZone(const ProfilerZone&) = delete;
    ProfilerZone& operator=(const ProfilerZone&) = delete;

private:
    const char* name_;
};

}  // namespace runtime_mock::kernel_abi

#define RUNTIME_MOCK_PROFILER_CONCAT_INNER(a, b) a##b
#define RUNTIME_MOCK_PROFILER_CONCAT(a, b) RUNTIME_MOCK_PROFILER_CONCAT_INNER(a, b)
#define DeviceZoneScopedN(name) \
    ::runtime_mock::kernel_abi::ProfilerZone RUNTIME_MOCK_PROFILER_CONCAT(runtime_mock_profiler_zone_, __LINE__)(name)
