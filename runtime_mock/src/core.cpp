#include "core.hpp"

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

}  // namespace runtime_mock
