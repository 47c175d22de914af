// The laws of laws.hpp: generators, membership tests and checks against the oracle.
#include "ndshard/conform/laws.hpp"

#include <algorithm>
#include <array>
#include <charconv>
#include <cstring>
#include <functional>
#include <map>
#include <memory>
#include <set>
#include <span>
#include <string_view>
#include <tuple>

#include <ndshard/oracle/oracle.hpp>

#include "ndshard/conform/specs.hpp"
#include "ndshard/testkit/coords.hpp"
#include "ndshard/testkit/oracle_bridge.hpp"
#include "ndshard/testkit/spec_gen.hpp"

namespace ndshard::conform {

namespace {

using oracle::big;
constexpr std::uint64_t two_32 = std::uint64_t{1} << 32;
// Specs whose every page (and slot) a check walks; larger ones are sampled.
constexpr std::uint64_t walk_limit = 4096;

char local_query[512];
char* query_buffer = local_query;
std::size_t query_size = sizeof local_query;

// Text into a fixed buffer, cut off where it does not fit, never allocating: every query
// is noted before it is made (so that a crash names it), once per call to the implementation.
class text_buffer {
public:
    text_buffer(char* out, std::size_t capacity) : out_(out), capacity_(capacity) { out_[0] = '\0'; }
    text_buffer& operator<<(std::string_view text) {
        const std::size_t k = std::min(text.size(), capacity_ - 1 - size_);
        std::memcpy(out_ + size_, text.data(), k);
        size_ += k;
        out_[size_] = '\0';
        return *this;
    }
    text_buffer& operator<<(std::uint64_t v) {
        char digits[20];
        return *this << std::string_view(
                   digits, static_cast<std::size_t>(std::to_chars(digits, digits + sizeof digits, v).ptr - digits));
    }
    // "[a,b,c]": 32 numbers at most, then how many there are.
    text_buffer& list(std::span<const std::uint64_t> v) {
        *this << "[";
        for (std::size_t i = 0; i < v.size(); ++i) {
            if (i == 32) {
                *this << ",... (" << std::uint64_t{v.size()} << " in all)";
                break;
            }
            *this << (i ? "," : "") << v[i];
        }
        return *this << "]";
    }
    [[nodiscard]] std::string str() const { return std::string(out_, size_); }

private:
    char* out_;
    std::size_t capacity_, size_ = 0;
};

// Big enough for any text of a list (32 numbers and the count) or a call.
constexpr std::size_t text_capacity = 1024;

std::string show_list(std::span<const std::uint64_t> v) {
    char buf[text_capacity];
    return text_buffer(buf, sizeof buf).list(v).str();
}

// A call to the implementation as notes and findings spell it: "ndsc_locate_page(7)",
// "ndsc_locate_shard_page(3, 5)", "ndsc_core_pages(1, 0)", "ndsc_locate_coord([1,0,2])".
// A coordinate list is viewed, not copied: a call lives no longer than its coordinate.
struct call {
    const char* name;
    std::array<std::uint64_t, 2> numbers{};
    std::size_t count = 0;
    std::optional<std::span<const std::uint64_t>> list;
};
call page_call(std::uint64_t page) { return {"ndsc_locate_page", {page, 0}, 1, {}}; }
call shard_call(std::uint64_t shard, std::uint64_t k) { return {"ndsc_locate_shard_page", {shard, k}, 2, {}}; }
call core_pages_call(std::uint32_t x, std::uint32_t y) { return {"ndsc_core_pages", {x, y}, 2, {}}; }
call coord_call(std::span<const std::uint64_t> coord) { return {"ndsc_locate_coord", {}, 0, coord}; }

void write(const call& q, text_buffer& out) {
    out << q.name << "(";
    if (q.list) {
        out.list(*q.list);
    } else {
        for (std::size_t i = 0; i < q.count; ++i) out << (i ? ", " : "") << q.numbers[i];
    }
    out << ")";
}

std::string text(const call& q) {
    char buf[text_capacity];
    text_buffer out(buf, sizeof buf);
    write(q, out);
    return out.str();
}

void note(const call& q) {
    text_buffer out(query_buffer, query_size);
    write(q, out);
}

void note(const char* what) { text_buffer(query_buffer, query_size) << what; }

std::uint64_t u64(const big& v) { return testkit::to_u64(v); }
std::uint32_t u32(const big& v) { return static_cast<std::uint32_t>(u64(v)); }

std::optional<oracle::model> model_of(const distribution_spec& s) {
    try {
        oracle::verdict v = oracle::evaluate(testkit::to_oracle(s));
        return std::move(v.accepted);
    } catch (const std::exception&) {
        return std::nullopt;
    }
}

// ---- answers of the implementation

struct place {
    std::uint32_t x = 0, y = 0;
    std::uint64_t address = 0;
    friend bool operator==(const place&, const place&) = default;
};

std::string show(const place& p) {
    return "core (" + std::to_string(p.x) + "," + std::to_string(p.y) + ") address " + std::to_string(p.address);
}

std::string status_name(int status) {
    switch (status) {
        case NDSC_OK:
            return "NDSC_OK";
        case NDSC_REJECTED:
            return "NDSC_REJECTED";
        case NDSC_UNSUPPORTED:
            return "NDSC_UNSUPPORTED";
        case NDSC_OUT_OF_RANGE:
            return "NDSC_OUT_OF_RANGE";
        case NDSC_BUFFER_TOO_SMALL:
            return "NDSC_BUFFER_TOO_SMALL";
        default:
            return "status " + std::to_string(status);
    }
}

struct answer {
    int status = NDSC_OK;
    place at;
    friend bool operator==(const answer&, const answer&) = default;
};

std::string show(const answer& a) { return a.status == NDSC_OK ? show(a.at) : status_name(a.status); }

ndsc_location blank_location() {
    ndsc_location loc{};
    loc.struct_size = sizeof loc;
    return loc;
}

answer ask_page(const loaded_impl& impl, const ndsc_handle* h, std::uint64_t page) {
    note(page_call(page));
    ndsc_location loc = blank_location();
    const int status = impl.locate_page(h, page, &loc);
    return {status, {loc.core_x, loc.core_y, loc.address}};
}

answer ask_coord(const loaded_impl& impl, const ndsc_handle* h, const std::vector<std::uint64_t>& coord) {
    note(coord_call(coord));
    ndsc_location loc = blank_location();
    const int status = impl.locate_coord(h, coord.data(), static_cast<std::uint32_t>(coord.size()), &loc);
    return {status, {loc.core_x, loc.core_y, loc.address}};
}

answer ask_shard(const loaded_impl& impl, const ndsc_handle* h, std::uint64_t shard, std::uint64_t k) {
    note(shard_call(shard, k));
    ndsc_location loc = blank_location();
    const int status = impl.locate_shard_page(h, shard, k, &loc);
    return {status, {loc.core_x, loc.core_y, loc.address}};
}

// ndsc_core_pages with a buffer of `guess` ids (grown once when the adapter asks for more).
struct core_list {
    int status = NDSC_OK;
    std::vector<std::uint64_t> pages;
};
core_list ask_core_pages(const loaded_impl& impl, const ndsc_handle* h, std::uint32_t x, std::uint32_t y,
                         std::uint64_t guess, std::uint64_t sane_limit) {
    note(core_pages_call(x, y));
    std::vector<std::uint64_t> buffer(guess + 4, ~std::uint64_t{0});
    std::uint64_t count = ~std::uint64_t{0};
    int status = impl.core_pages(h, x, y, buffer.data(), buffer.size(), &count);
    if (status == NDSC_BUFFER_TOO_SMALL && count > buffer.size() && count <= sane_limit) {
        buffer.assign(count, ~std::uint64_t{0});
        status = impl.core_pages(h, x, y, buffer.data(), buffer.size(), &count);
    }
    core_list out{status, {}};
    if (status == NDSC_OK) {
        if (count > buffer.size()) {
            out.status = -1000;  // claims more ids than the buffer holds
            out.pages.assign(1, count);
            return out;
        }
        out.pages.assign(buffer.begin(), buffer.begin() + static_cast<std::ptrdiff_t>(count));
    }
    return out;
}

// A spec handed to ndsc_create; destroyed with the adapter's ndsc_destroy.
class created {
public:
    created(const loaded_impl& impl, const distribution_spec& s) : created(impl, abi_spec(s)) {}
    // From an abi_spec the caller owns (determinism scribbles over it afterwards).
    created(const loaded_impl& impl, const abi_spec& abi) : impl_(impl) {
        char reason[256];
        std::memset(reason, 0, sizeof reason);
        note("ndsc_create");
        status = impl.create(abi.get(), &handle_, reason, sizeof reason);
        reason[sizeof reason - 1] = '\0';
        this->reason = reason;
    }
    created(const created&) = delete;
    created& operator=(const created&) = delete;
    ~created() {
        if (status == NDSC_OK) {
            note("ndsc_destroy");
            impl_.destroy(handle_);
        }
    }
    [[nodiscard]] const ndsc_handle* handle() const noexcept { return handle_; }
    [[nodiscard]] std::string outcome() const {
        if (status == NDSC_OK) return "accepted";
        if (status == NDSC_REJECTED) return "rejected: " + (reason.empty() ? std::string("(no reason)") : reason);
        return status_name(status);
    }
    int status = NDSC_OK;
    std::string reason;

private:
    const loaded_impl& impl_;
    ndsc_handle* handle_ = nullptr;
};

std::optional<finding> expect_accepted(const created& c) {
    if (c.status == NDSC_OK) return std::nullopt;
    return finding{"ndsc_create", "accepted", c.outcome()};
}

// ---- oracle answers

place oracle_page(const oracle::model& m, std::uint64_t page) {
    const oracle::location l = oracle::locate(m, big(page));
    return {u32(l.core.x), u32(l.core.y), u64(l.byte_address)};
}

std::uint64_t spec_hash(const distribution_spec& s) { return std::hash<std::string>{}(spec_key(s)); }

// Every page of a small spec; of a large one the first, last, edges and a few random ones.
std::vector<std::uint64_t> pages_to_check(const oracle::model& m, const distribution_spec& s) {
    const std::uint64_t n = u64(m.num_pages);
    std::vector<std::uint64_t> out;
    if (n <= walk_limit) {
        for (std::uint64_t p = 0; p < n; ++p) out.push_back(p);
        return out;
    }
    testkit::random_entropy e(spec_hash(s));
    out = {0, n - 1, n / 2};
    // Pages of the last shard along every dim (uneven edges) and random ones.
    std::uint64_t stride = 1;
    for (std::size_t d = m.tensor_pages.size(); d-- > 0;) {
        const std::uint64_t extent = u64(m.tensor_pages[d]);
        if (extent > 1 && stride <= n / extent) out.push_back((extent - 1) * stride);
        stride *= std::max<std::uint64_t>(extent, 1);
    }
    for (int i = 0; i < 48; ++i) out.push_back(e.between(0, n - 1));
    return out;
}

bool small_model(const oracle::model& m) {
    return m.num_pages <= walk_limit && big(m.cores.size()) * m.reserved_pages_per_core <= 16 * walk_limit;
}

// ---- generators

// Moves every core range by one offset, so that coordinates reach past 255 and up to 65535
// (the rules' limit): an implementation that keeps a coordinate in 8 bits, or packs one
// into too few bits, answers for the wrong core. Distinct cores stay distinct; grid_2d's
// fit does not depend on where its range is. [(0,0)-(3,1)] -> [(252,0)-(255,1)] or
// [(65532,7)-(65535,8)].
void move_cores_far(testkit::entropy& e, distribution_spec& s) {
    if (s.cores.empty()) return;
    std::uint32_t min_x = UINT32_MAX, min_y = UINT32_MAX, max_x = 0, max_y = 0;
    for (const core_range& r : s.cores) {
        min_x = std::min(min_x, r.start.x);
        min_y = std::min(min_y, r.start.y);
        max_x = std::max(max_x, r.end.x);
        max_y = std::max(max_y, r.end.y);
    }
    if (max_x > 65535 || max_y > 65535) return;
    // An offset for one axis: none, the list's near edge at 256 (just past 8 bits), its far
    // edge at 65535, or anywhere up to that.
    auto offset = [&](std::uint32_t lo, std::uint32_t hi) -> std::uint64_t {
        const std::uint64_t room = 65535 - hi;
        switch (e.between(0, 3)) {
            case 0:
                return 0;
            case 1:
                return std::min<std::uint64_t>(room, hi < 256 ? 256 - lo : 0);
            case 2:
                return room;
            default:
                return e.between(0, room);
        }
    };
    const std::uint64_t dx = offset(min_x, max_x), dy = offset(min_y, max_y);
    for (core_range& r : s.cores) {
        r.start.x += static_cast<std::uint32_t>(dx);
        r.end.x += static_cast<std::uint32_t>(dx);
        r.start.y += static_cast<std::uint32_t>(dy);
        r.end.y += static_cast<std::uint32_t>(dy);
    }
}

// A dim of `pages` pages as elements, `side` elements a page, with a random remainder.
std::uint64_t to_elements(testkit::entropy& e, std::uint64_t pages, std::uint64_t side) {
    return pages == 0 ? 0 : (pages - 1) * side + e.between(1, side);
}

// A spec given in pages rewritten in elements of one byte: rows of r elements (row_major)
// or 1 x w / 2 x w tiles. Only page dims must stay below 2^32; element dims of a large
// spec now pass it ([3, 2^31] pages as row_major rows of 4 -> [3, 2^33 - 1] elements), where
// an implementation that holds element counts in 32 bits truncates them.
distribution_spec in_element_units(testkit::entropy& e, distribution_spec s) {
    s.element_size = 1;
    if (s.shard.rank() >= 2 && e.chance(50)) {
        s.page.kind = page_kind::tile;
        s.page.tile_h = e.pick<std::uint64_t>({1, 2});
        s.page.tile_w = e.pick<std::uint64_t>({2, 4, 8, 32});
        for (shape* x : {&s.tensor, &s.shard}) {
            x->back() = to_elements(e, x->back(), s.page.tile_w);
            (*x)[x->rank() - 2] = to_elements(e, (*x)[x->rank() - 2], s.page.tile_h);
        }
    } else {
        s.page.kind = page_kind::row_major;
        const std::uint64_t row = e.pick<std::uint64_t>({2, 3, 4, 8, 32});
        s.tensor.back() = to_elements(e, s.tensor.back(), row);
        s.shard.back() = row;
    }
    return s;
}

bool generate_valid(testkit::entropy& e, const impl_info& info, distribution_spec& out, std::uint64_t max_pages,
                    std::uint32_t huge_percent) {
    for (int attempt = 0; attempt < 64; ++attempt) {
        testkit::spec_options o;
        o.max_pages = max_pages;
        o.max_cores = 32;
        o.huge_percent = huge_percent;
        o.allow_grid_2d = info.has_strategy(NDSC_GRID_2D);
        distribution_spec s = testkit::generate_spec(e, o);
        if (e.chance(12)) move_cores_far(e, s);
        if (!fit_to_domain(s, info)) continue;
        auto m = model_of(s);
        if (!m || (huge_percent == 0 && !small_model(*m))) continue;
        if (!small_model(*m) && s.page.kind == page_kind::pages && e.chance(50)) {
            // A large spec: now and then in elements (kept only when valid and in the domain).
            distribution_spec elements = in_element_units(e, s);
            if (in_domain(elements, info) && model_of(elements)) s = std::move(elements);
        }
        out = std::move(s);
        return true;
    }
    return false;
}

bool fits_small_valid(const distribution_spec& s, const impl_info& info) {
    if (!in_domain(s, info)) return false;
    const auto m = model_of(s);
    return m && small_model(*m);
}

bool fits_valid(const distribution_spec& s, const impl_info& info) {
    return in_domain(s, info) && model_of(s).has_value();
}

bool gen_small(testkit::entropy& e, const impl_info& info, distribution_spec& out) {
    return generate_valid(e, info, out, 256, 0);
}

std::string needs(const impl_info& info, std::uint32_t bits) {
    std::string missing;
    const std::pair<std::uint32_t, const char*> names[] = {{NDSC_Q_PAGE_ID, "ndsc_locate_page"},
                                                           {NDSC_Q_PAGE_COORD, "ndsc_locate_coord"},
                                                           {NDSC_Q_SHARD_PAGE, "ndsc_locate_shard_page"},
                                                           {NDSC_Q_CORE_PAGES, "ndsc_core_pages"},
                                                           {NDSC_Q_PAGE_RUN, "ndsc_page_run"},
                                                           {NDSC_Q_THREAD_PAGES, "ndsc_thread_pages"}};
    for (const auto& [bit, name] : names)
        if ((bits & bit) && !info.has_query(bit)) missing += (missing.empty() ? "" : ", ") + std::string(name);
    return missing.empty() ? "" : "needs " + missing + ", which the implementation does not declare";
}

std::string always_available(const impl_info&) { return ""; }

// ---- acceptance

// A spec on one side of a rule's boundary that the general generator (sizes far from the
// limits, or far past them) does not reach; valid or invalid by one step, at random:
//   the core count 65536 / 65537, in one range or two;  a range ending at x or y = 65535 /
//   65536 from a valid start;  a zero dim beside dims whose product is just below 2^32 / at
//   it (zero dims count as 1 in that rule);  a zero-size tensor, folded or not, with a shard
//   just below 2^32 pages / at or past it (no shard, yet the rule holds);  a huge spec
//   folded (shard rank lowered);  shard rank 0;  an aligned page of 2^32 - 1 / 2^32 bytes;
//   a tile side 0;  and, only invalid, a page size past 2^64, dims whose product is 2^64,
//   a range reversed by exactly one. The mutation studies found each boundary unvisited
//   (conformance/mutants/README.md).
void boundary_spec(testkit::entropy& e, distribution_spec& s) {
    const bool past = e.chance(50);
    const auto u32 = [](std::uint64_t v) { return static_cast<std::uint32_t>(v); };
    switch (e.between(0, 10)) {
        case 0: {  // core count
            const std::uint64_t width = e.pick<std::uint64_t>({256, 512, 4096, 65536}), height = 65536 / width;
            s.strat = e.chance(50) ? strategy::round_robin_1d : strategy::contiguous_1d;
            if (height >= 2 && e.chance(50)) {
                const std::uint64_t cut = e.between(1, height - 1);
                s.cores = {{{0, 0}, {u32(width - 1), u32(cut - 1)}},
                           {{0, u32(cut)}, {u32(width - 1), u32(height - 1)}}};
            } else {
                s.cores = {{{0, 0}, {u32(width - 1), u32(height - 1)}}};
            }
            if (past)
                s.cores.push_back(width < 65536 ? core_range{{u32(width), 0}, {u32(width), 0}}
                                                : core_range{{0, u32(height)}, {0, u32(height)}});
            break;
        }
        case 1: {  // core coordinate limit
            const std::uint32_t end = past ? 65536 : 65535, start = u32(65535 - e.between(0, 2));
            if (e.chance(50)) {
                s.cores = {{{start, 0}, {end, 0}}};
            } else {
                s.cores = {{{0, start}, {0, end}}};
            }
            if (s.strat == strategy::grid_2d) s.strat = strategy::round_robin_1d;
            break;
        }
        case 2: {  // zero dim beside a product near 2^32 (counted with the zero as 1)
            // a * b is the largest product below 2^32 (b + 1 reaches it).
            const std::uint64_t a = e.pick<std::uint64_t>({65536, 65537, 3, 2}), b = ((std::uint64_t{1} << 32) - 1) / a;
            s.tensor = {0, a, past ? b + 1 : b - e.between(0, 1)};
            s.shard = {1, e.between(1, 4), e.between(1, 4)};
            s.page = page_config{};
            break;
        }
        case 3: {  // zero-size tensor (sometimes folded), oversize shard: 2^32 or more pages, or just below
            s.tensor = {0, e.between(1, 4)};
            if (e.chance(50)) s.tensor.push_back(e.between(1, 4));
            s.shard = {past ? std::uint64_t{65536} : std::uint64_t{65535}, past ? e.between(65536, 65537) : 65536};
            s.page = page_config{};
            break;
        }
        case 4: {  // a huge spec folded: the 32-bit rules over the folded dims
            testkit::spec_options o;
            o.huge_percent = 100;
            o.allow_grid_2d = false;
            s = testkit::generate_spec(e, o);
            if (s.shard.rank() >= 2) {
                shape folded;
                for (std::size_t d = 1; d < s.shard.rank(); ++d) folded.push_back(s.shard[d]);
                s.shard = folded;
            } else {
                s.tensor = {2, s.tensor[0] / 2 + (past ? 1 : 0)};
            }
            break;
        }
        case 5:  // shard rank 0
            s.shard = shape{};
            break;
        case 8: {  // a range reversed by exactly one (x1 - x0 + 1 is 0: sized as empty), among valid ones
            const auto x = static_cast<std::uint32_t>(e.between(1, 8)), y = static_cast<std::uint32_t>(e.between(1, 8));
            const core_range reversed = e.chance(50) ? core_range{{x, y}, {x - 1, y}} : core_range{{x, y}, {x, y - 1}};
            if (s.strat == strategy::grid_2d) s.strat = strategy::round_robin_1d;
            s.cores.insert(s.cores.begin() + static_cast<std::ptrdiff_t>(e.between(0, s.cores.size())), reversed);
            break;
        }
        case 9: {  // dims whose product is 2^64 (a 64-bit volume wraps to 0), in the tensor or the shard
            const std::uint64_t k = e.pick<std::uint64_t>({1, 2, 16, 32}), a = std::uint64_t{1} << k,
                                b = std::uint64_t{1} << (64 - k);
            s.page = page_config{};
            if (e.chance(50)) {
                s.tensor = {a, b};
                s.shard = {1, 1};
            } else {
                s.tensor = {e.between(1, 4), e.between(1, 4)};
                s.shard = {a, b};
            }
            break;
        }
        case 10: {  // an aligned page of 2^32 - 1 bytes, or of exactly 2^32, one page on one core
            s.tensor = {1};
            s.shard = {1};
            s.page = page_config{};
            s.element_size = (std::uint64_t{1} << 32) - e.between(1, 2);
            s.alignment = past ? 2 : 1;
            s.cores = {{{0, 0}, {0, 0}}};
            s.strat = strategy::round_robin_1d;
            s.bank_base = 0;
            break;
        }
        case 7:  // a page size past 2^64 (a 64-bit product wraps to a small one)
            if (e.chance(50) || s.shard.rank() < 2 || s.tensor.rank() < 2) {
                s.page = page_config{};
                s.element_size = ~std::uint64_t{0} - e.between(0, 2);
            } else {
                s.page.kind = page_kind::tile;
                s.page.tile_h = std::uint64_t{1} << 32;
                s.page.tile_w = (std::uint64_t{1} << 32) + e.between(0, 1);
                s.element_size = e.between(1, 2);
            }
            s.alignment = e.pick<std::uint64_t>({1, 2, 64});
            break;
        default:  // a tile side 0
            if (s.shard.rank() < 2) s.shard = {1, 1};
            if (s.tensor.rank() < 2) s.tensor = {1, s.tensor.rank() ? s.tensor[0] : 1};
            s.page.kind = page_kind::tile;
            (e.chance(50) ? s.page.tile_h : s.page.tile_w) = 0;
            break;
    }
}

bool gen_acceptance(testkit::entropy& e, const impl_info& info, distribution_spec& out) {
    for (int attempt = 0; attempt < 64; ++attempt) {
        // A quarter of the specs sit at one rule's boundary, on a valid base already moved into
        // the domain (so that nothing but the boundary decides, and a pages-only implementation
        // meets them too); the rest break rules at random.
        const bool boundary = e.chance(25);
        testkit::spec_options o;
        o.max_pages = 256;
        o.max_cores = 32;
        o.huge_percent = 10;
        o.invalid_percent = boundary ? 0 : 40;
        o.allow_grid_2d = info.has_strategy(NDSC_GRID_2D);
        distribution_spec s = testkit::generate_spec(e, o);
        if (e.chance(12)) move_cores_far(e, s);
        if (!fit_to_domain(s, info)) continue;
        if (boundary) {
            boundary_spec(e, s);
            if (!in_domain(s, info)) continue;
        }
        out = std::move(s);
        return true;
    }
    return false;
}

bool fits_any(const distribution_spec& s, const impl_info& info) { return in_domain(s, info); }

std::optional<finding> acceptance_verdict(const created& c, const distribution_spec& s) {
    oracle::verdict v = oracle::evaluate(testkit::to_oracle(s));
    if (c.status != NDSC_OK && c.status != NDSC_REJECTED)
        return finding{"ndsc_create", v.accepted ? "accepted" : "rejected [rule " + v.rule + "]: " + v.message,
                       c.outcome() + " (a spec inside the declared domain must be accepted or rejected)"};
    if (v.accepted && c.status != NDSC_OK) return finding{"ndsc_create", "accepted", c.outcome()};
    if (!v.accepted && c.status == NDSC_OK)
        return finding{"ndsc_create", "rejected [rule " + v.rule + "]: " + v.message, "accepted"};
    return std::nullopt;
}

std::optional<finding> check_acceptance(const loaded_impl& impl, const distribution_spec& s) {
    const created c(impl, s);
    return acceptance_verdict(c, s);
}

// ---- address_limit_32bit

// bank_base + reserved bytes per core, computed with bank_base 0 (nullopt when even that is rejected).
std::optional<big> buffer_end(const distribution_spec& s) {
    distribution_spec probe = s;
    probe.bank_base = 0;
    const auto m = model_of(probe);
    if (!m) return std::nullopt;
    return big(s.bank_base) + m->reserved_pages_per_core * m->aligned_page_size;
}

bool gen_address_limit(testkit::entropy& e, const impl_info& info, distribution_spec& out) {
    for (int attempt = 0; attempt < 64; ++attempt) {
        distribution_spec s;
        if (e.between(0, 9) < 3) {
            testkit::spec_options o;
            o.huge_percent = 100;
            o.allow_grid_2d = info.has_strategy(NDSC_GRID_2D);
            s = testkit::generate_spec(e, o);
            if (!fit_to_domain(s, info)) continue;
            out = std::move(s);
            return true;
        }
        if (!generate_valid(e, info, s, 64, 0)) continue;
        s.bank_base = 0;
        if (e.chance(10) && s.tensor.rank() > 0) {
            // No shard, no reservation: any bank base below 2^32 is valid, up to 2^32 - 1.
            s.tensor[e.between(0, s.tensor.rank() - 1)] = 0;
            s.bank_base = two_32 - 1 - e.between(0, 3);
            if (!model_of(s)) continue;
            out = std::move(s);
            return true;
        }
        auto m = model_of(s);
        if (!m || m->reserved_pages_per_core == 0) continue;
        if (e.chance(40) && s.page.kind == page_kind::pages) {
            // Few pages, each huge: the limit is reached by the page size.
            const big per_core = m->reserved_pages_per_core;
            const big size = (big(two_32) / per_core);
            s.element_size = u64(std::max<big>(1, size - e.between(0, 3)));
            s.alignment = 1;
        }
        const auto end = buffer_end(s);
        if (!end || *end > big(two_32) + 64) continue;
        const auto aligned = model_of(s) ? model_of(s)->aligned_page_size : big(1);
        const big deltas[] = {0, 0, 1, -1, aligned, -aligned, 2 * aligned, 7};
        const big base = big(two_32) - *end + deltas[e.between(0, 7)];
        if (base < 0) continue;
        s.bank_base = u64(base);
        out = std::move(s);
        return true;
    }
    return false;
}

// Keeps a shrink candidate as close to the 32-bit limit as the original: an original whose
// buffer ends within 2^20 bytes below 2^32 keeps that distance; one rejected for passing
// 2^32 ends its candidates just past it (by as much as the original, when that is known
// and small, else by one byte). Other originals are left alone: the limit is not what
// made them fail.
void retarget_address(distribution_spec& candidate, const distribution_spec& original) {
    big delta;
    if (const auto m = model_of(original)) {
        delta = big(original.bank_base) + m->reserved_pages_per_core * m->aligned_page_size - big(two_32);
        if (delta < -big(1 << 20)) return;
    } else {
        oracle::verdict v;
        try {
            v = oracle::evaluate(testkit::to_oracle(original));
        } catch (const std::exception&) {
            return;
        }
        if (v.rule != "address_32bit") return;
        const auto end = buffer_end(original);
        delta = end && *end - big(two_32) <= big(1 << 20) ? *end - big(two_32) : big(1);
    }
    distribution_spec probe = candidate;
    probe.bank_base = 0;
    const auto m = model_of(probe);
    if (!m) return;
    const big base = big(two_32) + delta - m->reserved_pages_per_core * m->aligned_page_size;
    if (base >= 0 && base <= big(UINT64_MAX)) candidate.bank_base = u64(base);
}

std::optional<finding> check_address_limit(const loaded_impl& impl, const distribution_spec& s) {
    const created c(impl, s);
    if (auto f = acceptance_verdict(c, s)) return f;
    if (c.status != NDSC_OK) return std::nullopt;
    const oracle::model m = *model_of(s);
    auto judge = [&](const answer& a, const place& want, const call& query) -> std::optional<finding> {
        if (a.status == NDSC_OK && a.at.address >= two_32)
            return finding{text(query), show(want), show(a) + " (not below 2^32)"};
        if (!(a.status == NDSC_OK && a.at == want)) return finding{text(query), show(want), show(a)};
        return std::nullopt;
    };
    if (impl.locate_page) {
        for (std::uint64_t p : pages_to_check(m, s))
            if (auto f = judge(ask_page(impl, c.handle(), p), oracle_page(m, p), page_call(p))) return f;
    }
    if (impl.locate_shard_page && m.num_shards > 0) {
        // The last slot of the last shard and of the last shard of the first core's block:
        // the highest addresses of the 1D strategies.
        const std::uint64_t last = u64(m.num_shards) - 1, k = u64(m.shard_volume) - 1;
        const std::uint64_t block_end = std::min(u64(m.max_shards_per_core), u64(m.num_shards)) - 1;
        for (std::uint64_t shard : {last, block_end}) {
            const oracle::shard_home h = oracle::shard_location(m, big(shard));
            const place want{u32(h.core.x), u32(h.core.y), u64(h.byte_address + big(k) * m.aligned_page_size)};
            if (auto f = judge(ask_shard(impl, c.handle(), shard, k), want, shard_call(shard, k))) return f;
        }
    }
    return std::nullopt;
}

// ---- page_placement

bool gen_placement(testkit::entropy& e, const impl_info& info, distribution_spec& out) {
    return generate_valid(e, info, out, 256, 3);
}

std::string need_page(const impl_info& info) { return needs(info, NDSC_Q_PAGE_ID); }

std::optional<finding> check_placement(const loaded_impl& impl, const distribution_spec& s) {
    const oracle::model m = *model_of(s);
    const created c(impl, s);
    if (auto f = expect_accepted(c)) return f;
    for (std::uint64_t p : pages_to_check(m, s)) {
        const answer a = ask_page(impl, c.handle(), p);
        const place want = oracle_page(m, p);
        if (!(a.status == NDSC_OK && a.at == want)) return finding{text(page_call(p)), show(want), show(a)};
    }
    return std::nullopt;
}

// ---- bijectivity (structural: no placement from the oracle)

std::optional<finding> check_bijectivity(const loaded_impl& impl, const distribution_spec& s) {
    const oracle::model m = *model_of(s);
    const created c(impl, s);
    if (auto f = expect_accepted(c)) return f;
    std::set<std::pair<std::uint32_t, std::uint32_t>> listed;
    for (const auto& core : oracle::expand_cores(testkit::to_oracle(s).cores, testkit::to_oracle(s).orient))
        listed.insert({u32(core.x), u32(core.y)});
    const std::uint64_t base = u64(m.bank_base), aligned = u64(m.aligned_page_size);
    const std::uint64_t end = u64(m.bank_base + m.reserved_pages_per_core * m.aligned_page_size);
    std::map<std::tuple<std::uint32_t, std::uint32_t, std::uint64_t>, std::uint64_t> seen;
    const std::uint64_t n = u64(m.num_pages);
    for (std::uint64_t p = 0; p < n; ++p) {
        const answer a = ask_page(impl, c.handle(), p);
        const call query = page_call(p);
        if (a.status != NDSC_OK) return finding{text(query), "a location", show(a)};
        if (!listed.count({a.at.x, a.at.y})) return finding{text(query), "a core of the list", show(a)};
        if (a.at.address < base || a.at.address >= end)
            return finding{text(query), "an address in [" + std::to_string(base) + ", " + std::to_string(end) + ")",
                           show(a)};
        if ((a.at.address - base) % aligned != 0)
            return finding{text(query), "an address bank_base + k * " + std::to_string(aligned), show(a)};
        const auto [it, fresh] = seen.emplace(std::make_tuple(a.at.x, a.at.y, a.at.address), p);
        if (!fresh)
            return finding{text(page_call(it->second)) + " and " + text(query), "two different locations",
                           "both at " + show(a)};
    }
    return std::nullopt;
}

// ---- balance

std::optional<finding> check_balance(const loaded_impl& impl, const distribution_spec& s) {
    const oracle::model m = *model_of(s);
    const created c(impl, s);
    if (auto f = expect_accepted(c)) return f;
    struct tally {
        std::uint64_t pages = 0;
        std::set<std::uint64_t> shards;
    };
    std::map<std::pair<std::uint32_t, std::uint32_t>, tally> per_core;
    const std::uint64_t n = u64(m.num_pages);
    for (std::uint64_t p = 0; p < n; ++p) {
        const answer a = ask_page(impl, c.handle(), p);
        if (a.status != NDSC_OK) return finding{text(page_call(p)), "a location", show(a)};
        tally& t = per_core[{a.at.x, a.at.y}];
        ++t.pages;
        t.shards.insert(u64(oracle::locate(m, big(p)).shard_id));
    }
    auto counts = [](std::uint64_t pages, std::uint64_t shards) {
        return std::to_string(pages) + " pages in " + std::to_string(shards) + " shards";
    };
    const std::string query = "pages and shards per core (from ndsc_locate_page of every page)";
    for (std::size_t i = 0; i < m.cores.size(); ++i) {
        const std::pair<std::uint32_t, std::uint32_t> key{u32(m.cores[i].x), u32(m.cores[i].y)};
        const std::uint64_t want_pages = u64(oracle::pages_on_core(m, big(i)));
        const std::uint64_t want_shards = u64(oracle::shards_on_core(m, big(i)));
        const auto it = per_core.find(key);
        const std::uint64_t got_pages = it == per_core.end() ? 0 : it->second.pages;
        const std::uint64_t got_shards = it == per_core.end() ? 0 : it->second.shards.size();
        if (got_pages != want_pages || got_shards != want_shards) {
            const std::string core = "core (" + std::to_string(key.first) + "," + std::to_string(key.second) + "): ";
            return finding{query, core + counts(want_pages, want_shards), core + counts(got_pages, got_shards)};
        }
        if (it != per_core.end()) per_core.erase(it);
    }
    if (!per_core.empty()) {
        const auto& [key, t] = *per_core.begin();
        const std::string core = "core (" + std::to_string(key.first) + "," + std::to_string(key.second) + "): ";
        return finding{query, core + "no pages (not a core of the distribution)",
                       core + counts(t.pages, t.shards.size())};
    }
    return std::nullopt;
}

// ---- coord_page_agreement

std::string need_page_coord(const impl_info& info) { return needs(info, NDSC_Q_PAGE_ID | NDSC_Q_PAGE_COORD); }

// Every page of pages_to_check located twice, first by `ask_other(p)` (another query that
// names the same page: its coordinate, or its shard and position) and then by
// ndsc_locate_page: the other query must answer a location, and the same one. The other
// query is given to `with_other(p, f)`, which calls f(query, its answer).
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

std::optional<finding> check_coord_page(const loaded_impl& impl, const distribution_spec& s) {
    const oracle::model m = *model_of(s);
    const created c(impl, s);
    if (auto f = expect_accepted(c)) return f;
    return agrees_with_locate_page(impl, c, m, s, [&](std::uint64_t p, auto judge) {
        const std::vector<std::uint64_t> coord = testkit::row_major_coord(p, m.tensor_pages);
        judge(coord_call(coord), ask_coord(impl, c.handle(), coord));
    });
}

// ---- shard_addressing

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

// ---- iteration_order

// ndsc_core_pages' buffer contract, with a capacity one short of the `held` ids of core
// (x, y): NDSC_BUFFER_TOO_SMALL, *count = held, and no id written at or past the capacity.
std::optional<finding> check_capacity(const loaded_impl& impl, const created& c, std::uint32_t x, std::uint32_t y,
                                      std::uint64_t held) {
    if (held == 0) return std::nullopt;
    constexpr std::uint64_t untouched = 0xA5A5A5A5A5A5A5A5ULL;
    std::vector<std::uint64_t> buffer(held + 3, untouched);
    std::uint64_t count = ~std::uint64_t{0};
    const std::uint64_t capacity = held - 1;
    note(core_pages_call(x, y));
    const int status = impl.core_pages(c.handle(), x, y, buffer.data(), capacity, &count);
    const std::string query = text(core_pages_call(x, y)) + " with capacity " + std::to_string(capacity);
    const std::string want = "NDSC_BUFFER_TOO_SMALL with count " + std::to_string(held);
    if (status != NDSC_BUFFER_TOO_SMALL || count != held)
        return finding{query, want, status_name(status) + " with count " + std::to_string(count)};
    for (std::uint64_t k = capacity; k < buffer.size(); ++k)
        if (buffer[k] != untouched)
            return finding{query, want + ", nothing written at index " + std::to_string(capacity) + " or later",
                           "id " + std::to_string(buffer[k]) + " written at index " + std::to_string(k)};
    return std::nullopt;
}

std::string need_core_pages(const impl_info& info) { return needs(info, NDSC_Q_CORE_PAGES); }

// Past the small walk, yet every core's list cheap: more than 65,536 slots in all (where an
// implementation may switch to another code path, as ndsc_table does at that size), at most
// 8,192 per core and 2^20 pages.
bool medium_model(const oracle::model& m) {
    return !small_model(m) && m.reserved_pages_per_core <= 8192 && m.num_pages <= big(1 << 20);
}

// Mostly small specs (every core's list compared); 10% medium ones (three cores' lists).
bool gen_iteration(testkit::entropy& e, const impl_info& info, distribution_spec& out) {
    if (e.chance(10)) {
        for (int attempt = 0; attempt < 64; ++attempt) {
            testkit::spec_options o;
            o.max_pages = 1 << 18;
            o.max_cores = 4096;
            o.allow_grid_2d = info.has_strategy(NDSC_GRID_2D);
            distribution_spec s = testkit::generate_spec(e, o);
            if (!fit_to_domain(s, info)) continue;
            const auto m = model_of(s);
            if (!m || !medium_model(*m)) continue;
            out = std::move(s);
            return true;
        }
    }
    return gen_small(e, info, out);
}

bool fits_iteration(const distribution_spec& s, const impl_info& info) {
    if (!in_domain(s, info)) return false;
    const auto m = model_of(s);
    return m && (small_model(*m) || medium_model(*m));
}

std::optional<finding> check_iteration(const loaded_impl& impl, const distribution_spec& s) {
    const oracle::model m = *model_of(s);
    const created c(impl, s);
    if (auto f = expect_accepted(c)) return f;
    const std::uint64_t n = u64(m.num_pages);
    // Every core of a small spec; of a medium one the first, the middle and the last.
    std::vector<std::size_t> cores;
    if (small_model(m)) {
        for (std::size_t i = 0; i < m.cores.size(); ++i) cores.push_back(i);
    } else if (!m.cores.empty()) {
        cores = {0, m.cores.size() / 2, m.cores.size() - 1};
    }
    for (const std::size_t i : cores) {
        const std::uint32_t x = u32(m.cores[i].x), y = u32(m.cores[i].y);
        std::vector<std::uint64_t> want;
        for (const big& p : oracle::local_pages(m, big(i))) want.push_back(u64(p));
        const call query = core_pages_call(x, y);
        const core_list got = ask_core_pages(impl, c.handle(), x, y, want.size(), 4 * n + 64);
        if (got.status == -1000)
            return finding{text(query), show_list(want),
                           "a count of " + std::to_string(got.pages[0]) + " above the capacity"};
        if (got.status != NDSC_OK) return finding{text(query), show_list(want), status_name(got.status)};
        if (got.pages != want) return finding{text(query), show_list(want), show_list(got.pages)};
        if (auto f = check_capacity(impl, c, x, y, want.size())) return f;
        if (impl.locate_page) {
            // Device order: the pages' addresses ascend, all on this core.
            std::uint64_t last = 0;
            for (std::size_t j = 0; j < got.pages.size(); ++j) {
                const answer a = ask_page(impl, c.handle(), got.pages[j]);
                if (a.status != NDSC_OK || a.at.x != x || a.at.y != y || (j > 0 && a.at.address <= last))
                    return finding{text(query) + " then " + text(page_call(got.pages[j])),
                                   "on core (" + std::to_string(x) + "," + std::to_string(y) + ") above address " +
                                       std::to_string(last),
                                   show(a)};
                last = a.at.address;
            }
        }
    }
    if (s.strat == strategy::grid_2d && !s.cores.empty()) {
        // Cores of the range trimmed off the shard grid hold no page (NDSC_OK, count 0);
        // the first few in row-major order of the range.
        std::set<std::pair<std::uint32_t, std::uint32_t>> effective;
        for (const auto& core : m.cores) effective.insert({u32(core.x), u32(core.y)});
        const core_range& r = s.cores.front();
        int asked = 0;
        for (std::uint64_t y = r.start.y; y <= r.end.y && asked < 4; ++y)
            for (std::uint64_t x = r.start.x; x <= r.end.x && asked < 4; ++x) {
                const auto cx = static_cast<std::uint32_t>(x), cy = static_cast<std::uint32_t>(y);
                if (effective.count({cx, cy})) continue;
                ++asked;
                const core_list got = ask_core_pages(impl, c.handle(), cx, cy, 0, 4 * n + 64);
                if (got.status != NDSC_OK || !got.pages.empty())
                    return finding{
                        text(core_pages_call(cx, cy)) + ", a core of the range trimmed off the shard grid",
                        "NDSC_OK with []",
                        got.status == NDSC_OK ? "NDSC_OK with " + show_list(got.pages) : status_name(got.status)};
            }
    }
    return std::nullopt;
}

// ---- contiguous_runs and thread_split_iteration (ABI version 2)

call page_run_call(std::uint64_t page) { return {"ndsc_page_run", {page, 0}, 1, {}}; }
call thread_pages_call(std::uint32_t thread, std::uint32_t threads) {
    return {"ndsc_thread_pages", {thread, threads}, 2, {}};
}

std::string need_page_run(const impl_info& info) { return needs(info, NDSC_Q_PAGE_RUN); }
std::string need_thread_pages(const impl_info& info) { return needs(info, NDSC_Q_THREAD_PAGES); }

// ndsc_page_run(page): the status and the length (~0 when the adapter left it alone).
struct run_answer {
    int status = NDSC_OK;
    std::uint64_t length = 0;
};
run_answer ask_run(const loaded_impl& impl, const ndsc_handle* h, std::uint64_t page) {
    note(page_run_call(page));
    std::uint64_t length = ~std::uint64_t{0};
    const int status = impl.page_run(h, page, &length);
    return {status, length};
}

std::string show_run(const run_answer& a) {
    return a.status == NDSC_OK ? "a run of " + std::to_string(a.length) : status_name(a.status);
}

// The bank base that puts the end of the spec's buffer `below` aligned pages under 2^32
// (nullopt when the buffer alone does not fit).
std::optional<std::uint64_t> base_near_limit(const distribution_spec& s, std::uint64_t below) {
    distribution_spec probe = s;
    probe.bank_base = 0;
    const auto m = model_of(probe);
    if (!m) return std::nullopt;
    const big base =
        big(two_32) - m->reserved_pages_per_core * m->aligned_page_size - big(below) * m->aligned_page_size;
    if (base < 0) return std::nullopt;
    return u64(base);
}

// A spec made for long runs and their ends: shard dims that span the tensor's trailing dims
// whole (rows follow rows in one shard, and a full shard is followed by the next shard in
// the core's next slot under contiguous_1d, or round_robin_1d on one core), or not
// (uneven edges, a shard larger than the tensor); rank 1 to 8; sometimes more cores than
// shards; grid_2d over a range a little larger than the shard grid.
bool gen_run_shaped(testkit::entropy& e, const impl_info& info, distribution_spec& out) {
    for (int attempt = 0; attempt < 32; ++attempt) {
        distribution_spec s;
        const auto rank = static_cast<std::size_t>(e.between(info.min_rank, info.max_rank));
        const std::uint64_t per_dim = rank == 1 ? 48 : rank == 2 ? 12 : rank == 3 ? 6 : rank <= 5 ? 3 : 2;
        for (std::size_t d = 0; d < rank; ++d) s.tensor.push_back(e.between(1, per_dim));
        const std::size_t shard_rank = e.chance(25) ? static_cast<std::size_t>(e.between(1, rank)) : rank;
        // The folded tensor the shard applies to: leading dims multiplied into the first.
        std::vector<std::uint64_t> folded(shard_rank, 1);
        for (std::size_t d = 0; d <= rank - shard_rank; ++d) folded[0] *= s.tensor[d];
        for (std::size_t d = 1; d < shard_rank; ++d) folded[d] = s.tensor[rank - shard_rank + d];
        for (std::size_t d = 0; d < shard_rank; ++d) {
            const std::uint64_t t = std::max<std::uint64_t>(folded[d], 1);
            switch (d == 0 ? e.between(1, 3) : e.between(0, 3)) {
                case 0:
                case 1:  // whole: runs go on into the next row
                    s.shard.push_back(t);
                    break;
                case 2:  // a part: full shards and, unless it divides, an uneven edge
                    s.shard.push_back(e.between(1, t));
                    break;
                default:  // larger than the tensor: one shard with padding
                    s.shard.push_back(t + e.between(1, 2));
                    break;
            }
        }
        const std::uint64_t kind = e.between(0, 9);
        s.strat = kind < 4 ? strategy::contiguous_1d : kind < 7 ? strategy::round_robin_1d : strategy::grid_2d;
        s.orient = e.chance(30) ? orientation::col_major : orientation::row_major;
        if (s.strat == strategy::grid_2d) {
            std::uint64_t gw = 1, gh = 1;
            for (std::size_t d = 0; d < shard_rank; ++d) {
                const std::uint64_t g = (folded[d] + s.shard[d] - 1) / s.shard[d];
                (d + 1 == shard_rank ? gw : gh) *= g;
            }
            const bool rows = s.orient == orientation::row_major;
            const std::uint64_t w = (rows ? gw : gh) + e.between(0, 1), h = (rows ? gh : gw) + e.between(0, 1);
            if (w > 64 || h > 64) continue;
            s.cores = {{{0, 0}, {static_cast<std::uint32_t>(w - 1), static_cast<std::uint32_t>(h - 1)}}};
        } else {
            const auto n = static_cast<std::uint32_t>(e.pick<std::uint64_t>({1, 1, 2, 3, 4, 7, 16}));
            if (e.chance(50)) {
                s.cores = {{{0, 0}, {n - 1, 0}}};
            } else {
                const auto x = static_cast<std::uint32_t>(e.between(1, 3));
                s.cores = {{{0, 0}, {x - 1, (n + x - 1) / x - 1}}};
            }
        }
        s.element_size = e.pick<std::uint64_t>({1, 2, 32, 2048});
        s.alignment = e.pick<std::uint64_t>({1, 1, 16, 64});
        if (e.chance(8)) s.tensor[e.between(0, rank - 1)] = 0;  // no page at all
        if (!fit_to_domain(s, info)) continue;
        if (!model_of(s)) continue;
        out = std::move(s);
        return true;
    }
    return false;
}

// A large spec whose runs a check can ask of an implementation that walks a run a shard
// at a time (ndshard's contiguous_pages does): at most 2^16 shards a core, so that no run
// crosses more. Small specs are walked whole.
bool runs_model(const oracle::model& m) {
    return m.num_pages <= big(walk_limit) || m.max_shards_per_core <= big(1 << 16);
}

// A fifth of the specs moved to end their buffer exactly at 2^32 or one aligned page below.
void near_limit_now_and_then(testkit::entropy& e, distribution_spec& s) {
    if (!e.chance(20)) return;
    if (const auto base = base_near_limit(s, e.between(0, 1))) {
        distribution_spec moved = s;
        moved.bank_base = *base;
        if (model_of(moved)) s = std::move(moved);
    }
}

// The specs of the version-2 laws: 40% run-shaped, 45% from the general generator (small
// enough to be checked whole), 15% made by the law's `large` (checked in part); a fifth
// of them end their buffer at or just below 2^32.
bool gen_v2_mix(testkit::entropy& e, const impl_info& info, distribution_spec& out,
                bool (*large)(testkit::entropy&, const impl_info&, distribution_spec&)) {
    distribution_spec s;
    const std::uint64_t kind = e.between(0, 19);
    const bool made = kind < 8    ? gen_run_shaped(e, info, s)
                      : kind < 17 ? generate_valid(e, info, s, 256, 0)
                                  : large(e, info, s);
    if (!made) return false;
    near_limit_now_and_then(e, s);
    out = std::move(s);
    return true;
}

// contiguous_runs' large specs: runs sampled, not walked.
bool gen_large_runs(testkit::entropy& e, const impl_info& info, distribution_spec& s) {
    bool made = false;
    for (int attempt = 0; attempt < 8 && !made; ++attempt) {
        made = generate_valid(e, info, s, 256, 100);
        if (made) {
            const auto m = model_of(s);
            made = m && runs_model(*m);
        }
    }
    return made;
}

bool gen_runs(testkit::entropy& e, const impl_info& info, distribution_spec& out) {
    return gen_v2_mix(e, info, out, gen_large_runs);
}

bool fits_runs(const distribution_spec& s, const impl_info& info) {
    if (!in_domain(s, info)) return false;
    const auto m = model_of(s);
    return m && runs_model(*m);
}

// Maximal runs of a small spec from the oracle's page locations, in one backward pass:
// run(n-1) = 1; run(p) = run(p+1) + 1 when page p+1 lies on p's core one aligned page
// above p, else 1.
std::vector<std::uint64_t> oracle_runs(const std::vector<place>& at, std::uint64_t aligned_page_size) {
    std::vector<std::uint64_t> run(at.size(), 1);
    for (std::size_t p = at.size(); p-- > 1;) {
        const place &here = at[p - 1], next = at[p];
        if (next.x == here.x && next.y == here.y && next.address == here.address + aligned_page_size)
            run[p - 1] = run[p] + 1;
    }
    return run;
}

std::vector<place> oracle_places(const oracle::model& m) {
    std::vector<place> at;
    const std::uint64_t n = u64(m.num_pages);
    at.reserve(n);
    for (std::uint64_t p = 0; p < n; ++p) at.push_back(oracle_page(m, p));
    return at;
}

std::optional<finding> check_runs(const loaded_impl& impl, const distribution_spec& s) {
    const oracle::model m = *model_of(s);
    const created c(impl, s);
    if (auto f = expect_accepted(c)) return f;
    const std::uint64_t n = u64(m.num_pages), step = u64(m.aligned_page_size);
    if (n <= walk_limit) {
        const std::vector<place> at = oracle_places(m);
        const std::vector<std::uint64_t> want = oracle_runs(at, step);
        for (std::uint64_t p = 0; p < n; ++p) {
            const run_answer a = ask_run(impl, c.handle(), p);
            if (a.status != NDSC_OK || a.length != want[p]) {
                const place& last = at[p + want[p] - 1];
                std::string why = " (pages " + std::to_string(p) + ".." + std::to_string(p + want[p] - 1) +
                                  " on core (" + std::to_string(at[p].x) + "," + std::to_string(at[p].y) + ") at " +
                                  std::to_string(at[p].address) + ".." + std::to_string(last.address);
                why += p + want[p] < n ? "; page " + std::to_string(p + want[p]) + " at " + show(at[p + want[p]]) + ")"
                                       : "; the last page)";
                return finding{text(page_run_call(p)), "a run of " + std::to_string(want[p]) + why, show_run(a)};
            }
        }
        return std::nullopt;
    }
    // A large spec: its runs may hold billions of pages, so the claimed run is checked at
    // points instead of walked: its first, second, second-to-last and last page, 8 pages in
    // between, and the first page past it (which must be past the tensor or not continue
    // the run). The compromise: an adapter wrong only at an interior page no sample hits
    // passes here; the small specs, walked whole, are where such a defect shows.
    testkit::random_entropy e(spec_hash(s) ^ 0x3C3CU);
    for (const std::uint64_t p : pages_to_check(m, s)) {
        const run_answer a = ask_run(impl, c.handle(), p);
        const std::string query = text(page_run_call(p));
        if (a.status != NDSC_OK) return finding{query, "a run of at least 1", show_run(a)};
        if (a.length == 0 || a.length > n - p)
            return finding{query, "a run of 1.." + std::to_string(n - p) + " (it cannot pass the last page)",
                           show_run(a)};
        const place first = oracle_page(m, p);
        std::vector<std::uint64_t> inside = {1, a.length - 2, a.length - 1};
        for (int i = 0; i < 8; ++i) inside.push_back(e.between(0, a.length - 1));
        for (const std::uint64_t j : inside) {
            if (j == 0 || j >= a.length) continue;
            const place got = oracle_page(m, p + j);
            if (!(got.x == first.x && got.y == first.y && got.address == first.address + j * step))
                return finding{query,
                               "no run through page " + std::to_string(p + j) + ", which lies at " + show(got) +
                                   " (page " + std::to_string(p) + " at " + show(first) + ")",
                               show_run(a)};
        }
        if (p + a.length < n) {
            const place past = oracle_page(m, p + a.length);
            if (past.x == first.x && past.y == first.y && past.address == first.address + a.length * step)
                return finding{query,
                               "a longer run: page " + std::to_string(p + a.length) + " lies at " + show(past) +
                                   ", the next aligned page of page " + std::to_string(p) + "'s core",
                               show_run(a)};
        }
    }
    return std::nullopt;
}

// ---- thread_split_iteration

struct thread_choice {
    std::uint32_t thread, threads;
};

// The (thread, threads) pairs asked of a spec of n pages whose longest oracle run is
// `run` and whose shard holds `volume` slots: one thread; a few threads, dividing the run
// lengths or not; as many threads as the longest run, one more and one fewer; more threads
// than pages (a thread past the last page holds none); and each with thread 0, 1, a middle
// one, the last, and the one that holds the last page. A share above `share_limit` pages
// is not asked (a larger spec is split among enough threads). Deterministic in the spec,
// so that a shrunk spec is asked alike.
std::vector<thread_choice> thread_choices(std::uint64_t n, std::uint64_t run, std::uint64_t volume,
                                          std::uint64_t share_limit) {
    std::vector<std::uint64_t> counts = {1, 2, 3, 4, 5, 7, run, run + 1, volume, volume + 1, n, n + 1, n + 3};
    if (run > 1) counts.push_back(run - 1);
    if (n > 0) counts.push_back(2 * n - 1);
    const std::uint64_t least = n / share_limit + 1;  // every share at most share_limit pages
    counts.push_back(least);
    counts.push_back(least + 1);
    counts.push_back(least * 3 + 2);
    std::vector<thread_choice> out;
    std::set<std::pair<std::uint64_t, std::uint64_t>> seen;
    for (const std::uint64_t k : counts) {
        if (k == 0 || k > UINT32_MAX || (n + k - 1) / k > share_limit) continue;
        for (const std::uint64_t i : {std::uint64_t{0}, std::uint64_t{1}, k / 2, k - 1, n > 0 ? (n - 1) % k : 0})
            if (i < k && seen.insert({i, k}).second)
                out.push_back({static_cast<std::uint32_t>(i), static_cast<std::uint32_t>(k)});
    }
    return out;
}

// The specs of thread_split_iteration: at most 2^20 pages, since an implementation may
// walk every run before a thread's first page and between its pages (ndshard's
// page_iterator does, as a device thread would).
bool thread_model(const oracle::model& m) { return m.num_pages <= big(1 << 20); }

bool fits_thread_split(const distribution_spec& s, const impl_info& info) {
    if (!in_domain(s, info)) return false;
    const auto m = model_of(s);
    return m && thread_model(*m);
}

std::string show_share(std::span<const ndsc_page_location> v) {
    std::string out = "[";
    for (std::size_t i = 0; i < v.size(); ++i) {
        if (i == 8) {
            out += ",... (" + std::to_string(v.size()) + " in all)";
            break;
        }
        out += (i ? ", " : "") + std::to_string(v[i].page_id) + "@(" + std::to_string(v[i].core_x) + "," +
               std::to_string(v[i].core_y) + "):" + std::to_string(v[i].address);
    }
    return out + "]";
}

std::optional<finding> check_thread_split(const loaded_impl& impl, const distribution_spec& s) {
    const oracle::model m = *model_of(s);
    const created c(impl, s);
    if (auto f = expect_accepted(c)) return f;
    const std::uint64_t n = u64(m.num_pages);
    // Small specs: every page's oracle location once, and the longest run for the choices.
    std::vector<place> at;
    std::uint64_t longest = 1;
    if (n <= walk_limit) {
        at = oracle_places(m);
        for (const std::uint64_t r : oracle_runs(at, u64(m.aligned_page_size))) longest = std::max(longest, r);
    }
    auto expected_at = [&](std::uint64_t p) { return n <= walk_limit ? at[p] : oracle_page(m, p); };
    ndsc_page_location blank{};
    std::memset(&blank, 0xA5, sizeof blank);
    auto is_blank = [&](const ndsc_page_location& l) { return std::memcmp(&l, &blank, sizeof l) == 0; };
    // A spec past the walk is located page by page: its shares are kept to 512 pages.
    const std::uint64_t share_limit = n <= walk_limit ? std::max<std::uint64_t>(n, 1) : 512;
    for (const thread_choice& tc : thread_choices(n, longest, u64(m.shard_volume), share_limit)) {
        const std::uint64_t held = tc.thread < n ? (n - 1 - tc.thread) / tc.threads + 1 : 0;
        const call query = thread_pages_call(tc.thread, tc.threads);
        std::vector<ndsc_page_location> buffer(held + 4, blank);
        std::uint64_t count = ~std::uint64_t{0};
        note(query);
        const int status = impl.thread_pages(c.handle(), tc.thread, tc.threads, buffer.data(), buffer.size(), &count);
        const std::string want = held == 0 ? std::string("no page (NDSC_OK, count 0)")
                                           : std::to_string(held) + (held == 1 ? " page: " : " pages: ") +
                                                 std::to_string(tc.thread) + ", " + std::to_string(tc.thread) + " + " +
                                                 std::to_string(tc.threads) + ", ... below " + std::to_string(n);
        auto count_text = [](std::uint64_t k) {
            return k == ~std::uint64_t{0} ? std::string("the count not set") : "count " + std::to_string(k);
        };
        if (status != NDSC_OK) return finding{text(query), want, status_name(status) + " with " + count_text(count)};
        if (count != held)
            return finding{text(query), want,
                           std::to_string(count) + (count == 1 ? " page" : " pages") +
                               (count <= buffer.size()
                                    ? ": " + show_share(std::span(buffer.data(), static_cast<std::size_t>(count)))
                                    : std::string(" (more than the capacity)"))};
        for (std::uint64_t j = 0; j < held; ++j) {
            const std::uint64_t p = tc.thread + j * tc.threads;
            const place w = expected_at(p);
            const ndsc_page_location& g = buffer[j];
            if (g.page_id != p || g.core_x != w.x || g.core_y != w.y || g.address != w.address)
                return finding{
                    text(query) + " element " + std::to_string(j), "page " + std::to_string(p) + " at " + show(w),
                    "page " + std::to_string(g.page_id) + " at " + show(place{g.core_x, g.core_y, g.address})};
        }
        for (std::size_t k = held; k < buffer.size(); ++k)
            if (!is_blank(buffer[k]))
                return finding{text(query) + " with capacity " + std::to_string(buffer.size()),
                               want + ", nothing written at index " + std::to_string(held) + " or later",
                               "element " + std::to_string(k) + " written"};
        if (held == 0) continue;
        // A capacity of exactly the share is enough: NDSC_OK.
        {
            std::vector<ndsc_page_location> exact(held, blank);
            count = ~std::uint64_t{0};
            note(query);
            const int exact_status = impl.thread_pages(c.handle(), tc.thread, tc.threads, exact.data(), held, &count);
            if (exact_status != NDSC_OK || count != held)
                return finding{text(query) + " with capacity " + std::to_string(held), want,
                               status_name(exact_status) + " with " + count_text(count)};
        }
        // A capacity one short, and half the share: NDSC_BUFFER_TOO_SMALL, the count, nothing
        // written at or past the capacity (the mutation study found a write past a capacity
        // two short that one short does not show).
        for (const std::uint64_t capacity : {held - 1, held / 2}) {
            if (capacity != held - 1 && held < 4) continue;
            std::vector<ndsc_page_location> short_buffer(held + 3, blank);
            count = ~std::uint64_t{0};
            note(query);
            const int short_status =
                impl.thread_pages(c.handle(), tc.thread, tc.threads, short_buffer.data(), capacity, &count);
            const std::string short_query = text(query) + " with capacity " + std::to_string(capacity);
            const std::string short_want = "NDSC_BUFFER_TOO_SMALL with count " + std::to_string(held);
            if (short_status != NDSC_BUFFER_TOO_SMALL || count != held)
                return finding{short_query, short_want, status_name(short_status) + " with " + count_text(count)};
            for (std::uint64_t k = capacity; k < short_buffer.size(); ++k)
                if (!is_blank(short_buffer[k]))
                    return finding{
                        short_query,
                        short_want + ", nothing written at index " + std::to_string(capacity) + " or later",
                        "page " + std::to_string(short_buffer[k].page_id) + " written at index " + std::to_string(k)};
        }
    }
    return std::nullopt;
}

// thread_split_iteration's medium specs, split among enough threads that a share stays
// below 512 pages. At most 2^15 pages: an implementation that walks its runs to a thread's
// first page and from page to page (ndshard's page_iterator does) spends about n / run
// steps on each of the ~35 (thread, threads) pairs asked; at 2^18 pages this law cost 50x
// any other and cut fuzz_conform's executions per second five times.
bool gen_medium_split(testkit::entropy& e, const impl_info& info, distribution_spec& s) {
    bool made = false;
    for (int attempt = 0; attempt < 64 && !made; ++attempt) {
        testkit::spec_options o;
        o.max_pages = 1 << 15;
        o.max_cores = 4096;
        o.allow_grid_2d = info.has_strategy(NDSC_GRID_2D);
        s = testkit::generate_spec(e, o);
        if (!fit_to_domain(s, info)) continue;
        const auto m = model_of(s);
        made = m && thread_model(*m) && m->num_pages > big(walk_limit);
    }
    return made;
}

bool gen_thread_split(testkit::entropy& e, const impl_info& info, distribution_spec& out) {
    return gen_v2_mix(e, info, out, gen_medium_split);
}

// ---- interleaved_equivalence

std::string need_interleaved(const impl_info& info) {
    if (auto missing = needs(info, NDSC_Q_PAGE_ID); !missing.empty()) return missing;
    if (!info.has_strategy(NDSC_ROUND_ROBIN_1D))
        return "needs round_robin_1d, which the implementation does not declare";
    if (!info.has_page_kind(NDSC_PAGES) && !info.has_page_kind(NDSC_ROW_MAJOR_PAGES))
        return "needs page kind pages or row_major, which the implementation does not declare";
    return "";
}

bool gen_interleaved(testkit::entropy& e, const impl_info& info, distribution_spec& out) {
    distribution_spec s;
    const auto rank = static_cast<std::size_t>(e.between(info.min_rank, info.max_rank));
    const std::uint64_t per_dim = rank <= 1 ? 64 : rank == 2 ? 12 : rank == 3 ? 5 : 3;
    std::uint64_t volume = 1;
    for (std::size_t d = 0; d < rank; ++d) {
        const std::uint64_t extent = e.between(1, per_dim);
        s.tensor.push_back(extent);
        volume *= extent;
    }
    (void)volume;
    const std::size_t shard_rank = e.chance(30) ? static_cast<std::size_t>(e.between(1, rank)) : rank;
    for (std::size_t d = 0; d < shard_rank; ++d) s.shard.push_back(1);
    const auto banks = static_cast<std::uint32_t>(e.between(1, 12));
    s.orient = e.chance(50) ? orientation::col_major : orientation::row_major;
    switch (e.between(0, 2)) {
        case 0:
            s.cores = {{{0, 0}, {banks - 1, 0}}};
            break;
        case 1: {
            const auto x = static_cast<std::uint32_t>(e.between(1, 4));
            s.cores = {{{0, 0}, {x - 1, static_cast<std::uint32_t>((banks + x - 1) / x - 1)}}};
            break;
        }
        default: {
            std::set<std::pair<std::uint32_t, std::uint32_t>> used;
            for (std::uint32_t i = 0; i < banks * 3 && used.size() < banks; ++i) {
                const auto x = static_cast<std::uint32_t>(e.between(0, 7)),
                           y = static_cast<std::uint32_t>(e.between(0, 7));
                if (used.insert({x, y}).second) s.cores.push_back({{x, y}, {x, y}});
            }
        }
    }
    s.element_size = e.pick<std::uint64_t>({1, 2, 32, 100});
    s.alignment = e.pick<std::uint64_t>({1, 1, 16, 32});
    s.bank_base = e.chance(30) ? e.between(0, 1024) * 32 : 0;
    if (!info.has_page_kind(NDSC_PAGES)) {
        // A row of one element per page: still one page per shard.
        s.page.kind = page_kind::row_major;
        s.shard.back() = 1;
    }
    if (!in_domain(s, info) || !model_of(s)) return false;
    out = std::move(s);
    return true;
}

bool fits_interleaved(const distribution_spec& s, const impl_info& info) {
    if (!in_domain(s, info) || s.strat != strategy::round_robin_1d) return false;
    const auto m = model_of(s);
    if (!m || !small_model(*m)) return false;
    return std::all_of(m->shard_pages.begin(), m->shard_pages.end(), [](const big& d) { return d == 1; });
}

std::optional<finding> check_interleaved(const loaded_impl& impl, const distribution_spec& s) {
    const oracle::model m = *model_of(s);
    const created c(impl, s);
    if (auto f = expect_accepted(c)) return f;
    const big banks(m.cores.size());
    const std::uint64_t n = u64(m.num_pages);
    for (std::uint64_t p = 0; p < n; ++p) {
        const oracle::bank_offset b = oracle::interleaved(big(p), banks);
        const auto& core = m.cores[static_cast<std::size_t>(b.bank)];
        const place want{u32(core.x), u32(core.y), u64(m.bank_base + b.offset * m.aligned_page_size)};
        const answer a = ask_page(impl, c.handle(), p);
        if (!(a.status == NDSC_OK && a.at == want))
            return finding{
                text(page_call(p)),
                show(want) + " (bank " + oracle::to_string(b.bank) + ", offset " + oracle::to_string(b.offset) + ")",
                show(a)};
    }
    return std::nullopt;
}

// ---- legacy_equivalence

enum class legacy { none, height, width, block };

std::string need_legacy(const impl_info& info) {
    if (auto missing = needs(info, NDSC_Q_PAGE_ID); !missing.empty()) return missing;
    if (!info.has_page_kind(NDSC_PAGES)) return "needs page kind pages, which the implementation does not declare";
    if (info.max_rank < 2) return "needs rank 2 or more, which the implementation does not declare";
    if ((info.strategies & 0x7U) == 0) return "needs a strategy";
    return "";
}

// Which legacy layout an ND spec spells (shapes in pages, shard rank 2).
legacy classify(const distribution_spec& s, const oracle::model& m) {
    if (s.page.kind != page_kind::pages || s.tensor.rank() < 2 || s.shard.rank() != 2) return legacy::none;
    const big H = m.folded_tensor[0], W = m.folded_tensor[1];
    if (s.strat == strategy::grid_2d) return s.cores.size() == 1 ? legacy::block : legacy::none;
    if (big(m.cores.size()) < m.num_shards) return legacy::none;  // legacy never puts two shards on a core
    if (big(s.shard[1]) == W) return legacy::height;
    if (big(s.shard[0]) == H) return legacy::width;
    return legacy::none;
}

bool gen_legacy(testkit::entropy& e, const impl_info& info, distribution_spec& out) {
    const bool one_d = info.has_strategy(NDSC_ROUND_ROBIN_1D) || info.has_strategy(NDSC_CONTIGUOUS_1D);
    const bool block = info.has_strategy(NDSC_GRID_2D);
    const std::uint32_t lo = std::max<std::uint32_t>(2, info.min_rank), hi = std::min<std::uint32_t>(4, info.max_rank);
    if (lo > hi || (!one_d && !block)) return false;
    distribution_spec s;
    const auto rank = static_cast<std::size_t>(e.between(lo, hi));
    std::uint64_t H = 1;
    for (std::size_t d = 0; d + 1 < rank; ++d) {
        const std::uint64_t extent = e.between(1, d + 2 == rank ? 8 : 3);
        s.tensor.push_back(extent);
        H *= extent;
    }
    const std::uint64_t W = e.between(1, 8);
    s.tensor.push_back(W);
    const std::uint64_t kind = !one_d ? 2 : !block ? e.between(0, 1) : e.between(0, 2);
    s.orient = e.chance(50) ? orientation::col_major : orientation::row_major;
    auto line_of_cores = [&](std::uint64_t n) {
        if (e.chance(50)) {
            s.cores = {{{0, 0}, {static_cast<std::uint32_t>(n - 1), 0}}};
        } else {
            const auto x = static_cast<std::uint32_t>(e.between(1, 4));
            s.cores = {{{0, 0}, {x - 1, static_cast<std::uint32_t>((n + x - 1) / x - 1)}}};
        }
    };
    if (kind == 0) {  // HEIGHT
        const std::uint64_t sh = e.between(1, H);
        s.shard = {sh, W};
        line_of_cores((H + sh - 1) / sh + e.between(0, 2));
    } else if (kind == 1) {  // WIDTH
        const std::uint64_t sw = e.between(1, W);
        s.shard = {H, sw};
        line_of_cores((W + sw - 1) / sw + e.between(0, 2));
    } else {  // BLOCK
        const std::uint64_t sh = e.between(1, H), sw = e.between(1, W);
        s.shard = {sh, sw};
        const std::uint64_t gh = (H + sh - 1) / sh, gw = (W + sw - 1) / sw;
        const bool rows = s.orient == orientation::row_major;
        const auto x0 = static_cast<std::uint32_t>(e.chance(30) ? e.between(1, 3) : 0);
        const auto y0 = static_cast<std::uint32_t>(e.chance(30) ? e.between(1, 3) : 0);
        const auto w = static_cast<std::uint32_t>((rows ? gw : gh) + e.between(0, 1));
        const auto h = static_cast<std::uint32_t>((rows ? gh : gw) + e.between(0, 1));
        s.cores = {{{x0, y0}, {x0 + w - 1, y0 + h - 1}}};
        s.strat = strategy::grid_2d;
    }
    if (kind != 2)
        s.strat = info.has_strategy(NDSC_ROUND_ROBIN_1D) ? strategy::round_robin_1d : strategy::contiguous_1d;
    s.element_size = e.pick<std::uint64_t>({1, 2, 32, 2048});
    s.alignment = e.pick<std::uint64_t>({1, 1, 16, 32});
    s.bank_base = e.chance(30) ? e.between(0, 1024) * 32 : 0;
    const auto m = model_of(s);
    if (!in_domain(s, info) || !m || classify(s, *m) == legacy::none) return false;
    out = std::move(s);
    return true;
}

bool fits_legacy(const distribution_spec& s, const impl_info& info) {
    if (!in_domain(s, info)) return false;
    const auto m = model_of(s);
    return m && small_model(*m) && classify(s, *m) != legacy::none;
}

std::optional<finding> check_legacy(const loaded_impl& impl, const distribution_spec& s) {
    const oracle::model m = *model_of(s);
    const created c(impl, s);
    if (auto f = expect_accepted(c)) return f;
    const legacy kind = classify(s, m);
    const big H = m.folded_tensor[0], W = m.folded_tensor[1];
    const oracle::spec os = testkit::to_oracle(s);
    const std::vector<oracle::core_xy> list = oracle::expand_cores(os.cores, os.orient);
    const std::uint64_t n = u64(m.num_pages);
    for (std::uint64_t p = 0; p < n; ++p) {
        const big r = big(p) / W, col = big(p) % W;
        oracle::legacy_place lp;
        oracle::core_xy core;
        const char* name = "HEIGHT";
        if (kind == legacy::height) {
            lp = oracle::legacy_height(r, col, H, W, big(s.shard[0]));
            core = list[static_cast<std::size_t>(lp.core_index)];
        } else if (kind == legacy::width) {
            name = "WIDTH";
            lp = oracle::legacy_width(r, col, H, W, big(s.shard[1]));
            core = list[static_cast<std::size_t>(lp.core_index)];
        } else {
            name = "BLOCK";
            lp = oracle::legacy_block(r, col, H, W, big(s.shard[0]), big(s.shard[1]), os.orient, os.cores[0], &core);
        }
        const place want{u32(core.x), u32(core.y), u64(m.bank_base + lp.offset * m.aligned_page_size)};
        const answer a = ask_page(impl, c.handle(), p);
        if (!(a.status == NDSC_OK && a.at == want))
            return finding{text(page_call(p)),
                           show(want) + " (" + name + ": row " + oracle::to_string(r) + ", column " +
                               oracle::to_string(col) + ", offset " + oracle::to_string(lp.offset) + ")",
                           show(a)};
    }
    return std::nullopt;
}

// ---- determinism

std::optional<finding> check_determinism(const loaded_impl& impl, const distribution_spec& s) {
    const oracle::model m = *model_of(s);
    auto first_spec = std::make_unique<abi_spec>(s);
    const created first(impl, *first_spec);
    if (auto f = expect_accepted(first)) return f;
    first_spec->scribble();
    first_spec.reset();
    const abi_spec second_spec(s);
    const created second(impl, second_spec);
    if (auto f = expect_accepted(second)) return f;
    for (std::uint64_t p : pages_to_check(m, s)) {
        const answer a = ask_page(impl, first.handle(), p);
        const answer b = ask_page(impl, second.handle(), p);
        if (!(a == b))
            return finding{text(page_call(p)) +
                               " on two handles of the spec (the first one's "
                               "ndsc_spec overwritten after ndsc_create)",
                           show(b) + " on both", show(a) + " on the first"};
    }
    return std::nullopt;
}

// ---- out_of_range

std::string need_any_query(const impl_info& info) {
    return info.queries ? "" : "needs a query, and the implementation declares none";
}

std::optional<finding> check_out_of_range(const loaded_impl& impl, const distribution_spec& s) {
    const oracle::model m = *model_of(s);
    const created c(impl, s);
    if (auto f = expect_accepted(c)) return f;
    const std::string want = status_name(NDSC_OUT_OF_RANGE);
    auto bad = [&](const answer& a, std::string query) -> std::optional<finding> {
        if (a.status == NDSC_OUT_OF_RANGE) return std::nullopt;
        return finding{std::move(query), want, show(a)};
    };
    // Arguments past 32 bits whose low 32 bits are valid: an implementation that narrows a
    // 64-bit argument to its device's 32 bits before the range check answers for them.
    if (impl.locate_page) {
        const std::uint64_t n = u64(m.num_pages);
        if (auto f = bad(ask_page(impl, c.handle(), n), text(page_call(n)) + ", the page count")) return f;
        for (const std::uint64_t p : {two_32, two_32 + n / 2, ~std::uint64_t{0}})
            if (auto f = bad(ask_page(impl, c.handle(), p), text(page_call(p)) + ", past 32 bits")) return f;
    }
    if (impl.locate_coord) {
        const std::size_t rank = m.tensor_pages.size();
        for (std::size_t d = 0; d < rank; ++d) {
            std::vector<std::uint64_t> coord(rank, 0);
            coord[d] = u64(m.tensor_pages[d]);
            if (auto f = bad(ask_coord(impl, c.handle(), coord), text(coord_call(coord)))) return f;
            coord[d] = two_32;
            if (auto f = bad(ask_coord(impl, c.handle(), coord), text(coord_call(coord)) + ", past 32 bits")) return f;
        }
        // A coordinate of the wrong rank (one entry short or one too many), every entry in range.
        for (const std::size_t wrong : {rank - 1, rank + 1}) {
            if (wrong == 0 || wrong > NDSC_MAX_RANK) continue;
            const std::vector<std::uint64_t> coord(wrong, 0);
            if (auto f = bad(ask_coord(impl, c.handle(), coord), text(coord_call(coord)) + ", " +
                                                                     std::to_string(wrong) + " entries for a rank-" +
                                                                     std::to_string(rank) + " tensor"))
                return f;
        }
    }
    if (impl.locate_shard_page) {
        const std::uint64_t shards = u64(m.num_shards), volume = u64(m.shard_volume);
        if (auto f = bad(ask_shard(impl, c.handle(), shards, 0), text(shard_call(shards, 0)) + ", the shard count"))
            return f;
        if (auto f = bad(ask_shard(impl, c.handle(), two_32, 0), text(shard_call(two_32, 0)) + ", past 32 bits"))
            return f;
        if (shards > 0) {
            if (auto f =
                    bad(ask_shard(impl, c.handle(), 0, volume), text(shard_call(0, volume)) + ", the shard volume"))
                return f;
            if (auto f = bad(ask_shard(impl, c.handle(), 0, two_32), text(shard_call(0, two_32)) + ", past 32 bits"))
                return f;
        }
    }
    if (impl.page_run) {
        const std::uint64_t n = u64(m.num_pages);
        auto bad_run = [&](std::uint64_t p, const std::string& why) -> std::optional<finding> {
            const run_answer a = ask_run(impl, c.handle(), p);
            if (a.status == NDSC_OUT_OF_RANGE) return std::nullopt;
            return finding{text(page_run_call(p)) + ", " + why, want, show_run(a)};
        };
        if (auto f = bad_run(n, "the page count")) return f;
        for (const std::uint64_t p : {two_32, two_32 + n / 2, ~std::uint64_t{0}})
            if (auto f = bad_run(p, "past 32 bits")) return f;
    }
    if (impl.thread_pages) {
        // No thread at all, and a thread number at or past the thread count.
        for (const auto& [thread, threads] : std::initializer_list<std::pair<std::uint32_t, std::uint32_t>>{
                 {0, 0}, {1, 0}, {1, 1}, {3, 3}, {4, 3}, {UINT32_MAX, UINT32_MAX}}) {
            ndsc_page_location buffer[4] = {};
            std::uint64_t count = 0;
            note(thread_pages_call(thread, threads));
            const int status = impl.thread_pages(c.handle(), thread, threads, buffer, 4, &count);
            if (status != NDSC_OUT_OF_RANGE)
                return finding{text(thread_pages_call(thread, threads)) +
                                   (threads == 0 ? ", no thread" : ", a thread past the thread count"),
                               want, status_name(status) + " with count " + std::to_string(count)};
        }
    }
    if (impl.core_pages) {
        // Cores not in the list: past the largest x; at a listed x below the largest y; a
        // listed core moved by 2^8 or 2^16 in x or y (what a coordinate kept in too few bits
        // takes for that core); and a hole of the list's bounding box next to a listed core
        // (what a membership test by comparisons or by the bounding box takes for a core).
        const oracle::spec os = testkit::to_oracle(s);
        std::set<std::pair<std::uint32_t, std::uint32_t>> listed;
        for (const auto& core : oracle::expand_cores(os.cores, os.orient)) listed.insert({u32(core.x), u32(core.y)});
        std::uint32_t max_x = 0, max_y = 0;
        for (const auto& [x, y] : listed) {
            max_x = std::max(max_x, x);
            max_y = std::max(max_y, y);
        }
        const auto [x0, y0] = *listed.begin();
        std::vector<std::pair<std::uint64_t, std::uint64_t>> probes = {{std::uint64_t{max_x} + 1, 0},
                                                                       {x0, std::uint64_t{max_y} + 1},
                                                                       {x0 + 256ULL, y0},
                                                                       {x0, y0 + 256ULL},
                                                                       {x0 + 65536ULL, y0},
                                                                       {x0, y0 + 65536ULL}};
        std::size_t looked = 0;  // the first hole right of or below a listed core, inside the bounding box
        for (auto it = listed.begin(); it != listed.end() && looked < 4096; ++it, ++looked) {
            const auto [x, y] = *it;
            if (x < max_x && !listed.count({x + 1, y})) {
                probes.emplace_back(x + 1, y);
                break;
            }
            if (y < max_y && !listed.count({x, y + 1})) {
                probes.emplace_back(x, y + 1);
                break;
            }
        }
        for (const auto& [px, py] : probes) {
            if (px > UINT32_MAX || py > UINT32_MAX) continue;
            const auto x = static_cast<std::uint32_t>(px), y = static_cast<std::uint32_t>(py);
            if (listed.count({x, y})) continue;
            const core_list got = ask_core_pages(impl, c.handle(), x, y, 0, 0);
            if (got.status != NDSC_OUT_OF_RANGE)
                return finding{
                    text(core_pages_call(x, y)) + ", a core not in the list", want,
                    got.status == NDSC_OK ? "NDSC_OK with " + show_list(got.pages) : status_name(got.status)};
        }
    }
    return std::nullopt;
}

}  // namespace

void set_query_buffer(char* buffer, std::size_t size) noexcept {
    if (buffer && size > 1) {
        query_buffer = buffer;
        query_size = size;
    } else {
        query_buffer = local_query;
        query_size = sizeof local_query;
    }
    query_buffer[0] = '\0';
}

std::string current_query() { return std::string(query_buffer, ::strnlen(query_buffer, query_size)); }

const std::vector<law>& all_laws() {
    static const std::vector<law> laws = {
        {"acceptance", "accept/reject agrees with the oracle (the reason may differ)", always_available, gen_acceptance,
         fits_any, check_acceptance, retarget_address},
        {"address_limit_32bit", "specs whose largest address reaches 2^32 are rejected; accepted ones stay below",
         always_available, gen_address_limit, fits_any, check_address_limit, retarget_address},
        {"page_placement", "ndsc_locate_page equals the oracle", need_page, gen_placement, fits_valid, check_placement,
         retarget_address},
        {"bijectivity", "distinct pages at distinct (core, address), inside the buffer, aligned, on a listed core",
         need_page, gen_small, fits_small_valid, check_bijectivity, retarget_address},
        {"balance", "per-core page and shard counts are the strategy's counts", need_page, gen_small, fits_small_valid,
         check_balance, retarget_address},
        {"coord_page_agreement", "ndsc_locate_coord(coordinate of p) == ndsc_locate_page(p)", need_page_coord,
         gen_placement, fits_valid, check_coord_page, retarget_address},
        {"shard_addressing", "ndsc_locate_shard_page(s, k) is the oracle's slot; agrees with ndsc_locate_page",
         need_shard, gen_placement, fits_valid, check_shard_addressing, retarget_address},
        {"iteration_order",
         "ndsc_core_pages(c) is the oracle's real pages of c in device order, within the buffer's capacity",
         need_core_pages, gen_iteration, fits_iteration, check_iteration, retarget_address},
        {"contiguous_runs",
         "ndsc_page_run(p) is the oracle's maximal run from p: consecutive pages at consecutive aligned pages of "
         "p's core",
         need_page_run, gen_runs, fits_runs, check_runs, retarget_address},
        {"thread_split_iteration",
         "ndsc_thread_pages(i, k) is pages i, i+k, ... with the oracle's locations, within the buffer's capacity",
         need_thread_pages, gen_thread_split, fits_thread_split, check_thread_split, retarget_address},
        {"interleaved_equivalence", "every shard dim 1: page i -> bank i % B, offset i / B", need_interleaved,
         gen_interleaved, fits_interleaved, check_interleaved, retarget_address},
        {"legacy_equivalence", "HEIGHT / WIDTH / BLOCK specs agree with the legacy formulas", need_legacy, gen_legacy,
         fits_legacy, check_legacy, retarget_address},
        {"determinism", "two handles of one spec answer alike; the spec is not read after ndsc_create", need_page,
         gen_placement, fits_valid, check_determinism, retarget_address},
        {"out_of_range", "a page, coordinate, shard slot or core outside the spec is NDSC_OUT_OF_RANGE", need_any_query,
         gen_placement, fits_valid, check_out_of_range, retarget_address},
    };
    return laws;
}

const law* find_law(std::string_view name) {
    for (const law& l : all_laws())
        if (name == l.name) return &l;
    return nullptr;
}

}  // namespace ndshard::conform
