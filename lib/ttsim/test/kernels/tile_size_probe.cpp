// Prints get_tile_size, get_tile_hw and get_dataformat of circular buffers 0..3: the bytes
// of one tile of each CB's format and tile shape, whatever its page (slot) size.
#include "api/dataflow/dataflow_api.h"

void kernel_main() {
    for (uint32_t cb = 0; cb < 4; ++cb) {
        DPRINT << "cb " << cb << ": " << get_tile_size(cb) << " bytes, " << get_tile_hw(cb) << " elements, format "
               << static_cast<uint32_t>(get_dataformat(cb)) << ENDL();
    }
}
