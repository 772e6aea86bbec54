// Subprocesses: a program run with an argument vector (no shell, so paths need no quoting), its output
// read through a pipe.
//
// Model. run_program spawns `program` (looked up on PATH) with `args`, reads its standard output (and its
// standard error, or discards it) until it ends, waits for it and returns its exit status with the text.
#pragma once

#include <string>
#include <utility>
#include <vector>

namespace runtime_mock {

enum class StandardError { Capture, Discard };

// {exit status, output}; status -1 when it did not exit normally. When the pipe cannot be made or the
// program cannot start, {-1, "cannot start <description> '<program>': <reason>"}.
std::pair<int, std::string> run_program(const std::string& program, const std::vector<std::string>& args,
                                        const std::string& description, StandardError standard_error);

}  // namespace runtime_mock
