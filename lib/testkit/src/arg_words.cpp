#include "ndshard/testkit/arg_words.hpp"

#include <cstddef>

namespace ndshard::testkit::arg_words {

std::uint32_t checksum(std::span<const std::uint32_t> compile_time, std::span<const std::uint32_t> runtime) {
    // Word i of the compile-time list followed by the runtime list goes to lane i % 4. The
    // loops read through pointers into the spans (sizes known): in the ASan+UBSan build a
    // checked operator[] is a call per word.
    std::uint32_t lanes[4] = {2166136261U, 2166136261U, 2166136261U, 2166136261U};
    std::size_t lane = 0;
    for (std::span<const std::uint32_t> list : {compile_time, runtime}) {
        const std::uint32_t* w = list.data();
        const std::uint32_t* const end = w + list.size();
        for (; w != end && lane != 0; ++w, lane = (lane + 1) % 4) lanes[lane] = (lanes[lane] ^ *w) * 16777619U;
        std::uint32_t l0 = lanes[0], l1 = lanes[1], l2 = lanes[2], l3 = lanes[3];
        for (; end - w >= 4; w += 4) {  // four words at a time, one per lane
            l0 = (l0 ^ w[0]) * 16777619U;
            l1 = (l1 ^ w[1]) * 16777619U;
            l2 = (l2 ^ w[2]) * 16777619U;
            l3 = (l3 ^ w[3]) * 16777619U;
        }
        lanes[0] = l0, lanes[1] = l1, lanes[2] = l2, lanes[3] = l3;
        for (; w != end; ++w, lane = (lane + 1) % 4) lanes[lane] = (lanes[lane] ^ *w) * 16777619U;
    }
    std::uint32_t h = 2166136261U;
    for (std::uint32_t lane_hash : lanes) h = (h ^ lane_hash) * 16777619U;
    return h;
}

std::optional<read_words> read(std::span<const std::uint32_t> compile_time, std::span<const std::uint32_t> runtime) {
    if (compile_time.empty() || runtime.empty()) return std::nullopt;
    read_words out;
    out.config = compile_time[0];
    const std::uint32_t mask = out.mask();
    if ((out.config & 0xFFFF0000U) != magic || (out.config & ~(0xFFFF0000U | 31U | contiguous_flag)) != 0 ||
        !valid_mask(mask))
        return std::nullopt;
    const std::span<const std::uint32_t> rt = runtime.first(runtime.size() - 1);  // the checksum is last
    std::size_t ct_at = 1, rt_at = 0;
    bool short_list = false;
    auto next = [&](std::uint32_t flag) -> std::uint32_t {
        const bool is_static = (mask & flag) != 0;
        const std::span<const std::uint32_t> list = is_static ? compile_time : rt;
        std::size_t& at = is_static ? ct_at : rt_at;
        if (at >= list.size()) {
            short_list = true;
            return 0;
        }
        return list[at++];
    };
    fields& f = out.args;
    f.rank = next(rank);
    f.banks = next(banks);
    if (short_list || f.rank < 1 || f.rank > 8 || f.banks > 65536) return std::nullopt;
    for (std::uint32_t d = 0; d < f.rank; ++d) f.tensor.push_back(next(tensor));
    for (std::uint32_t d = 0; d < f.rank; ++d) f.shard.push_back(next(shard));
    {  // the coordinates, next(coords) f.banks times: all from the one list the mask picks
        const bool is_static = (mask & coords) != 0;
        const std::span<const std::uint32_t> list = is_static ? compile_time : rt;
        std::size_t& at = is_static ? ct_at : rt_at;
        if (list.size() - at < f.banks) return std::nullopt;  // a short list
        f.coords.resize(f.banks);
        const std::uint32_t* word = list.data() + at;
        for (core_coord& c : f.coords) {
            c = {*word >> 16, *word & 0xFFFFU};
            ++word;
        }
        at += f.banks;
    }
    if (short_list || ct_at != compile_time.size() || rt_at != rt.size()) return std::nullopt;
    if (runtime.back() != checksum(compile_time, rt)) return std::nullopt;
    return out;
}

accessor_words write(const fields& args, std::uint32_t mask, bool contiguous) {
    accessor_words w;
    w.compile_time.push_back(config_word(mask, contiguous));
    auto put = [&](std::uint32_t flag, std::uint32_t word) {
        ((mask & flag) ? w.compile_time : w.runtime).push_back(word);
    };
    put(rank, args.rank);
    put(banks, args.banks);
    for (std::uint32_t t : args.tensor) put(tensor, t);
    for (std::uint32_t s : args.shard) put(shard, s);
    for (core_coord c : args.coords) put(coords, (c.x << 16) | c.y);
    w.runtime.push_back(checksum(w.compile_time, w.runtime));
    return w;
}

}  // namespace ndshard::testkit::arg_words
