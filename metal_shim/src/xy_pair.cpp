// tt::xy_pair's text form (umd/device/types/xy_pair.hpp), used in error messages.
#include <umd/device/types/xy_pair.hpp>

namespace tt {

std::string xy_pair::str() const {
    return "(x=" + std::to_string(x) + ",y=" + std::to_string(y) + ")";
}

}  // namespace tt
