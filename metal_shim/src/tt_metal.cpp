// The SDK's tt::tt_metal::detail launch without a command queue (tt-metalium/tt_metal.hpp).
#include <runtime_mock/device.hpp>
#include <tt-metalium/tt_metal.hpp>

#include "program_record.hpp"

namespace tt::tt_metal::detail {

void LaunchProgram(IDevice* device, Program& program, bool wait_until_cores_done, bool force_slow_dispatch) {
    (void)wait_until_cores_done;
    (void)force_slow_dispatch;
    TT_FATAL(device != nullptr, "LaunchProgram: device is null");
    device->mock().run(program.record().spec());
}

}  // namespace tt::tt_metal::detail
