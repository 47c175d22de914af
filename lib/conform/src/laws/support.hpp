// What several laws share: noting and spelling the queries asked of the implementation
// under test, asking them, the oracle's answers to compare with, and the shrinker's retarget.
// Checks run in the calling process (isolate.hpp's worker child, or the fuzz target) and
// note every query before making it, so that a crash names the query that caused it.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include <ndshard/oracle/oracle.hpp>

#include "ndshard/conform/impl.hpp"
#include "ndshard/conform/laws.hpp"
#include "ndshard/conform/specs.hpp"
#include "ndshard/spec.hpp"

namespace ndshard::conform::laws {

using oracle::big;
inline constexpr std::uint64_t two_32 = std::uint64_t{1} << 32;
// Specs whose every page (and slot) a check walks; larger ones are sampled.
inline constexpr std::uint64_t walk_limit = 4096;

// ---- queries as notes and findings spell them

// A call to the implementation: "ndsc_locate_page(7)", "ndsc_locate_shard_page(3, 5)",
// "ndsc_core_pages(1, 0)", "ndsc_locate_coord([1,0,2])". A coordinate list is viewed, not
// copied: a call lives no longer than its coordinate.
struct call {
    const char* name;
    std::array<std::uint64_t, 2> numbers{};
    std::size_t count = 0;
    std::optional<std::span<const std::uint64_t>> list;
};
call page_call(std::uint64_t page);
call shard_call(std::uint64_t shard, std::uint64_t k);
call core_pages_call(std::uint32_t x, std::uint32_t y);
call coord_call(std::span<const std::uint64_t> coord);
call page_run_call(std::uint64_t page);
call thread_pages_call(std::uint32_t thread, std::uint32_t threads);

std::string text(const call& q);
// Where the implementation is about to be: the query buffer of laws.hpp, never allocating.
void note(const call& q);
void note(const char* what);

// "[a,b,c]": 32 numbers at most, then how many there are.
std::string show_list(std::span<const std::uint64_t> v);

// ---- numbers and the oracle's model

std::uint64_t u64(const big& v);
std::uint32_t u32(const big& v);
// The oracle's model of an accepted spec; nullopt when it rejects the spec.
std::optional<oracle::model> model_of(const distribution_spec& s);
std::uint64_t spec_hash(const distribution_spec& s);
// Few enough pages (and slots) that a check walks every one.
bool small_model(const oracle::model& m);
// Every page of a small spec; of a large one the first, last, edges and a few random ones.
std::vector<std::uint64_t> pages_to_check(const oracle::model& m, const distribution_spec& s);

// ---- answers of the implementation and of the oracle

struct place {
    std::uint32_t x = 0, y = 0;
    std::uint64_t address = 0;
    friend bool operator==(const place&, const place&) = default;
};
std::string show(const place& p);
std::string status_name(int status);

struct answer {
    int status = NDSC_OK;
    place at;
    friend bool operator==(const answer&, const answer&) = default;
};
std::string show(const answer& a);

answer ask_page(const loaded_impl& impl, const ndsc_handle* h, std::uint64_t page);
answer ask_coord(const loaded_impl& impl, const ndsc_handle* h, const std::vector<std::uint64_t>& coord);
answer ask_shard(const loaded_impl& impl, const ndsc_handle* h, std::uint64_t shard, std::uint64_t k);

// ndsc_core_pages with a buffer of `guess` ids (grown once when the adapter asks for more,
// up to `sane_limit`). Status -1000: the adapter claims more ids than the buffer holds
// (the claimed count is the one page).
struct core_list {
    int status = NDSC_OK;
    std::vector<std::uint64_t> pages;
};
core_list ask_core_pages(const loaded_impl& impl, const ndsc_handle* h, std::uint32_t x, std::uint32_t y,
                         std::uint64_t guess, std::uint64_t sane_limit);

// ndsc_page_run(page): the status and the length (~0 when the adapter left it alone).
struct run_answer {
    int status = NDSC_OK;
    std::uint64_t length = 0;
};
run_answer ask_run(const loaded_impl& impl, const ndsc_handle* h, std::uint64_t page);
std::string show_run(const run_answer& a);

// A spec handed to ndsc_create; destroyed with the adapter's ndsc_destroy.
class created {
public:
    created(const loaded_impl& impl, const distribution_spec& s) : created(impl, abi_spec(s)) {}
    // From an abi_spec the caller owns (determinism scribbles over it afterwards).
    created(const loaded_impl& impl, const abi_spec& abi);
    created(const created&) = delete;
    created& operator=(const created&) = delete;
    ~created();
    [[nodiscard]] const ndsc_handle* handle() const noexcept { return handle_; }
    // "accepted", "rejected: <reason>" or the status's name.
    [[nodiscard]] std::string outcome() const;
    int status = NDSC_OK;
    std::string reason;

private:
    const loaded_impl& impl_;
    ndsc_handle* handle_ = nullptr;
};

std::optional<finding> expect_accepted(const created& c);
// ndsc_create's outcome against the oracle's verdict on the spec.
std::optional<finding> acceptance_verdict(const created& c, const distribution_spec& s);

place oracle_page(const oracle::model& m, std::uint64_t page);
// Every page's oracle location, in page order.
std::vector<place> oracle_places(const oracle::model& m);
// Maximal runs from the oracle's page locations, in one backward pass: run(n-1) = 1;
// run(p) = run(p+1) + 1 when page p+1 lies on p's core one aligned page above p, else 1.
std::vector<std::uint64_t> oracle_runs(const std::vector<place>& at, std::uint64_t aligned_page_size);

// Every page of pages_to_check located twice, first by another query that names the same
// page (its coordinate, or its shard and position) and then by ndsc_locate_page: the other
// query must answer a location, and the same one. The other query is made by
// `with_other(p, f)`, which calls f(query, its answer).
template <class WithOther>
std::optional<finding> agrees_with_locate_page(const loaded_impl& impl, const created& c, const oracle::model& m,
                                               const distribution_spec& s, WithOther with_other) {
    for (std::uint64_t p : pages_to_check(m, s)) {
        std::optional<finding> f;
        with_other(p, [&](const call& query, const answer& other) {
            const answer by_page = ask_page(impl, c.handle(), p);
            if (other.status != NDSC_OK || !(other == by_page))
                f = finding{text(query) + " vs " + text(page_call(p)), "the same location: " + show(by_page),
                            show(other)};
        });
        if (f) return f;
    }
    return std::nullopt;
}

// ---- availability: the queries a law needs

// "" when the implementation declares every query of `bits` (NDSC_Q_*), else what it lacks.
std::string needs(const impl_info& info, std::uint32_t bits);
std::string always_available(const impl_info&);
std::string need_page(const impl_info& info);

// ---- shrinking near 2^32

// bank_base + reserved bytes per core, computed with bank_base 0 (nullopt when even that is rejected).
std::optional<big> buffer_end(const distribution_spec& s);
// Keeps a shrink candidate as close to the 32-bit limit as the original (every law's retarget).
void retarget_address(distribution_spec& candidate, const distribution_spec& original);

}  // namespace ndshard::conform::laws
