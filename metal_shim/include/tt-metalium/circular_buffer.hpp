// The SDK also spells this header circular_buffer.hpp.
#pragma once

#include <tt-metalium/circular_buffer_config.hpp>
