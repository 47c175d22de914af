// What launch.hpp declares beside the launch itself: the names of its findings (as reports
// and the kcheck pipe spell them) and the device the kernels run on.
#include <optional>
#include <string_view>

#include "ndshard/ttsim/launch.hpp"

namespace ndshard::ttsim {

const char* to_string(finding_kind k) noexcept {
    switch (k) {
        case finding_kind::cb_protocol:
            return "cb_protocol";
        case finding_kind::noc_bounds:
            return "noc_bounds";
        case finding_kind::noc_page:
            return "noc_page";
        case finding_kind::async:
            return "async";
        case finding_kind::deadlock:
            return "deadlock";
        case finding_kind::hang:
            return "hang";
        case finding_kind::accessor:
            return "accessor";
        case finding_kind::kernel_error:
            return "kernel_error";
        case finding_kind::compile_error:
            return "compile_error";
        case finding_kind::output:
            return "output";
        case finding_kind::padding:
            return "padding";
        case finding_kind::input_changed:
            return "input_changed";
        case finding_kind::crash:
            return "crash";
        case finding_kind::uninitialized:
            return "uninitialized";
        case finding_kind::race:
            return "race";
    }
    return "?";
}

std::optional<finding_kind> finding_kind_from(std::string_view name) noexcept {
    for (int k = 0; k <= static_cast<int>(finding_kind::race); ++k)
        if (name == to_string(static_cast<finding_kind>(k))) return static_cast<finding_kind>(k);
    return std::nullopt;
}

sim::device_config kernel_device_config(std::uint32_t grid_x, std::uint32_t grid_y, std::uint32_t dram_banks) {
    sim::device_config c;
    c.grid_x = grid_x;
    c.grid_y = grid_y;
    c.l1_size = 1464ULL * 1024;  // Wormhole's MEM_L1_SIZE
    c.l1_base = l1_window;
    c.num_dram_banks = dram_banks;
    c.dram_bank_size = 1ULL << 28;
    c.alloc_alignment = 32;
    return c;
}

}  // namespace ndshard::ttsim
