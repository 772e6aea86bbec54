#include "core.hpp"

#include <cstdlib>
#include <sstream>

namespace runtime_mock {

KernelThread& thread_of(kernel_abi::KernelContext* ctx) {
    return *static_cast<KernelThread*>(ctx->thread);
}

const char* role_name(KernelRole role) {
    switch (role) {
        case KernelRole::DataMovement0:
            return "RISCV_0 (BRISC)";
        case KernelRole::DataMovement1:
            return "RISCV_1 (NCRISC)";
        case KernelRole::Compute:
            return "compute (TRISC)";
    }
    return "?";
}

std::string describe(const KernelThread& thread, const char* call, CallSite site) {
    std::ostringstream out;
    out << "core (" << thread.core->core.logical_x << "," << thread.core->core.logical_y << ") "
        << role_name(thread.role) << " [" << thread.source_path << "]: " << call;
    if (site.file != nullptr && *site.file != '\0')
        out << " at " << site.file << ":" << site.line;
    return out.str();
}

std::string l1_core_name(uint32_t slot, uint32_t grid_x) {
    return "core (" + std::to_string(slot % grid_x) + "," + std::to_string(slot / grid_x) + ")";
}

// "core (x,y) <role> [<kernel>]: <what> at <file>:<line>" for instruction `pc` of the kernel's code (without
// the place when the object has no line for it).
std::string describe_at(const KernelThread& thread, const char* what, uintptr_t pc) {
    const std::string line = source_line_of(thread.code, pc, thread.source_path);
    const size_t colon = line.rfind(':');
    const std::string file = colon == std::string::npos ? "" : line.substr(0, colon);
    const int line_number = colon == std::string::npos ? 0 : std::atoi(line.c_str() + colon + 1);
    return describe(thread, what, CallSite{file.c_str(), line_number});
}

}  // namespace runtime_mock
