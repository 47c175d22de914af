// api/debug/dprint.h - tt-metal's DPRINT (the stream form, DPRINT << a << ENDL();), which
// the platform provides (on ndshard's simulated device: to the launch's log), and
// DEVICE_PRINT, its fmt-style successor (api/debug/device_print.h), which tt-metal's
// documentation has kernels reach through this header.
#pragma once
#include "internal/ndshard_platform.h"
#include "api/debug/device_print.h"
