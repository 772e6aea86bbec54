// DispatchCoreConfig: which cores run the SDK's command dispatch firmware. The mock dispatches nothing, so
// the type only carries the default; it exists for the signatures that name it (create_unit_mesh).
#pragma once

namespace tt::tt_metal {

class DispatchCoreConfig {};

}  // namespace tt::tt_metal
