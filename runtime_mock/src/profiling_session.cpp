// Profiling sessions: the stack of sessions open on each thread, which every profiled run reports to.
#include <algorithm>

#include "config.hpp"
#include "runtime_mock/profile.hpp"

namespace runtime_mock {

namespace {

thread_local std::vector<ProfilingSession*> t_open_sessions;

}  // namespace

ProfilingSession::ProfilingSession() {
    t_open_sessions.push_back(this);
}

ProfilingSession::~ProfilingSession() {
    close();
}

void ProfilingSession::close() {
    t_open_sessions.erase(std::remove(t_open_sessions.begin(), t_open_sessions.end(), this), t_open_sessions.end());
}

bool ProfilingSession::recording_on_this_thread() {
    return !t_open_sessions.empty() || config::profile_every_run();
}

void ProfilingSession::deliver(const std::shared_ptr<const RunProfile>& profile) {
    for (ProfilingSession* session : t_open_sessions)
        session->runs_.push_back(profile);
}

}  // namespace runtime_mock
