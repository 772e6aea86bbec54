// A stand-in for the TT-Metalium SDK's host_api.hpp, laid out like the SDK, used only to prove
// that --config=tt_metal builds against $TT_METAL_HOME. It declares nothing of the real API.
#pragma once
#define TT_METALIUM_STANDIN_SDK 1
