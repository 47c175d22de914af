// api/debug/dprint.h - tt-metal's DPRINT (the stream form, DPRINT << a << ENDL();), which
// the platform provides (on ndshard's simulated device: to the launch's log).
#pragma once
#include "internal/ndshard_platform.h"
