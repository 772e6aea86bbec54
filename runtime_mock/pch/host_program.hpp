// The headers generated host programs include (tilelang_tt/codegen/host.py), which the build precompiles
// (//runtime_mock:pch, with runtime_mock.host_flags's flags) and build_host_program force-includes
// first: a generated main.cpp then compiles in about 2 s instead of 3.6. The list only has to be close to
// main.cpp's: a header missing here is parsed as usual, one extra is harmless (each is guarded).
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <limits>
#include <memory>
#include <sstream>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include <tt-metalium/distributed.hpp>
#include <tt-metalium/host_api.hpp>
#include <tt-metalium/tensor_accessor_args.hpp>
#include <tt-metalium/tilize_utils.hpp>
