// shard_addressing: ndsc_locate_shard_page(s, k) is the oracle's address of slot k of
// shard s (every slot when there are at most 4 * walk_limit, sampled shards and slots
// otherwise), and agrees with ndsc_locate_page on the real pages.
#include "registry.hpp"

#include <cstdint>
#include <optional>
#include <vector>

#include <ndshard/oracle/oracle.hpp>

#include "generators.hpp"
#include "ndshard/testkit/entropy.hpp"
#include "support.hpp"

namespace ndshard::conform::laws {

namespace {

std::string need_shard(const impl_info& info) { return needs(info, NDSC_Q_SHARD_PAGE); }

std::optional<finding> check_shard_addressing(const loaded_impl& impl, const distribution_spec& s) {
    const oracle::model m = *model_of(s);
    const created c(impl, s);
    if (auto f = expect_accepted(c)) return f;
    const std::uint64_t shards = u64(m.num_shards), volume = u64(m.shard_volume);
    std::vector<std::uint64_t> shard_ids, positions;
    if (shards * volume <= 4 * walk_limit) {
        for (std::uint64_t i = 0; i < shards; ++i) shard_ids.push_back(i);
        for (std::uint64_t k = 0; k < volume; ++k) positions.push_back(k);
    } else {
        testkit::random_entropy e(spec_hash(s) ^ 0x5A5AU);
        shard_ids = {0, shards - 1};
        positions = {0, volume - 1};
        for (int i = 0; i < 8; ++i) {
            shard_ids.push_back(e.between(0, shards - 1));
            positions.push_back(e.between(0, volume - 1));
        }
    }
    for (std::uint64_t shard : shard_ids) {
        const oracle::shard_home h = oracle::shard_location(m, big(shard));
        for (std::uint64_t k : positions) {
            const place want{u32(h.core.x), u32(h.core.y), u64(h.byte_address + big(k) * m.aligned_page_size)};
            const answer a = ask_shard(impl, c.handle(), shard, k);
            if (!(a.status == NDSC_OK && a.at == want)) return finding{text(shard_call(shard, k)), show(want), show(a)};
        }
    }
    if (!impl.locate_page) return std::nullopt;
    return agrees_with_locate_page(impl, c, m, s, [&](std::uint64_t p, auto judge) {
        const oracle::location l = oracle::locate(m, big(p));
        const std::uint64_t shard = u64(l.shard_id), k = u64(l.in_shard_offset);
        judge(shard_call(shard, k), ask_shard(impl, c.handle(), shard, k));
    });
}

}  // namespace

const law shard_addressing = {
    .name = "shard_addressing",
    .summary = "ndsc_locate_shard_page(s, k) is the oracle's slot; agrees with ndsc_locate_page",
    .unavailable = need_shard,
    .generate = gen_placement,
    .fits = fits_valid,
    .check = check_shard_addressing,
    .retarget = retarget_address};

}  // namespace ndshard::conform::laws
