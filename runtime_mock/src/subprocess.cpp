#include "subprocess.hpp"

#include <fcntl.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

extern char** environ;

namespace runtime_mock {

std::pair<int, std::string> run_program(const std::string& program, const std::vector<std::string>& args,
                                        const std::string& description, StandardError standard_error) {
    std::vector<char*> argv;
    argv.push_back(const_cast<char*>(program.c_str()));
    for (const auto& arg : args)
        argv.push_back(const_cast<char*>(arg.c_str()));
    argv.push_back(nullptr);
    const std::string cannot_start = "cannot start " + description + " '" + program + "': ";
    int output_pipe[2];
    if (pipe2(output_pipe, O_CLOEXEC) != 0)
        return {-1, cannot_start + "pipe: " + std::strerror(errno)};
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_adddup2(&actions, output_pipe[1], 1);
    if (standard_error == StandardError::Capture)
        posix_spawn_file_actions_adddup2(&actions, output_pipe[1], 2);
    else
        posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0);
    pid_t pid;
    const int spawn_error = posix_spawnp(&pid, program.c_str(), &actions, nullptr, argv.data(), environ);
    posix_spawn_file_actions_destroy(&actions);
    close(output_pipe[1]);
    std::string output;
    char buffer[4096];
    for (ssize_t n; (n = read(output_pipe[0], buffer, sizeof(buffer))) != 0;) {
        if (n > 0)
            output.append(buffer, size_t(n));
        else if (errno != EINTR)
            break;
    }
    close(output_pipe[0]);
    if (spawn_error != 0)
        return {-1, cannot_start + std::strerror(spawn_error)};
    int status = 0;
    while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
    }
    return {WIFEXITED(status) ? WEXITSTATUS(status) : -1, output};
}

}  // namespace runtime_mock
