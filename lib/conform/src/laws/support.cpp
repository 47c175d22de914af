// The shared part of the laws (support.hpp) and laws.hpp's query buffer.
#include "support.hpp"

#include <algorithm>
#include <charconv>
#include <cstring>
#include <functional>
#include <string_view>
#include <utility>

#include "ndshard/testkit/entropy.hpp"
#include "ndshard/testkit/oracle_bridge.hpp"

namespace ndshard::conform {

namespace {

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

void write(const laws::call& q, text_buffer& out) {
    out << q.name << "(";
    if (q.list) {
        out.list(*q.list);
    } else {
        for (std::size_t i = 0; i < q.count; ++i) out << (i ? ", " : "") << q.numbers[i];
    }
    out << ")";
}

ndsc_location blank_location() {
    ndsc_location loc{};
    loc.struct_size = sizeof loc;
    return loc;
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

namespace laws {

// ---- queries as notes and findings spell them

call page_call(std::uint64_t page) { return {"ndsc_locate_page", {page, 0}, 1, {}}; }
call shard_call(std::uint64_t shard, std::uint64_t k) { return {"ndsc_locate_shard_page", {shard, k}, 2, {}}; }
call core_pages_call(std::uint32_t x, std::uint32_t y) { return {"ndsc_core_pages", {x, y}, 2, {}}; }
call coord_call(std::span<const std::uint64_t> coord) { return {"ndsc_locate_coord", {}, 0, coord}; }
call page_run_call(std::uint64_t page) { return {"ndsc_page_run", {page, 0}, 1, {}}; }
call thread_pages_call(std::uint32_t thread, std::uint32_t threads) {
    return {"ndsc_thread_pages", {thread, threads}, 2, {}};
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

std::string show_list(std::span<const std::uint64_t> v) {
    char buf[text_capacity];
    return text_buffer(buf, sizeof buf).list(v).str();
}

// ---- numbers and the oracle's model

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

std::uint64_t spec_hash(const distribution_spec& s) { return std::hash<std::string>{}(spec_key(s)); }

bool small_model(const oracle::model& m) {
    return m.num_pages <= walk_limit && big(m.cores.size()) * m.reserved_pages_per_core <= 16 * walk_limit;
}

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

// ---- answers of the implementation

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

std::string show(const answer& a) { return a.status == NDSC_OK ? show(a.at) : status_name(a.status); }

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

run_answer ask_run(const loaded_impl& impl, const ndsc_handle* h, std::uint64_t page) {
    note(page_run_call(page));
    std::uint64_t length = ~std::uint64_t{0};
    const int status = impl.page_run(h, page, &length);
    return {status, length};
}

std::string show_run(const run_answer& a) {
    return a.status == NDSC_OK ? "a run of " + std::to_string(a.length) : status_name(a.status);
}

created::created(const loaded_impl& impl, const abi_spec& abi) : impl_(impl) {
    char reason[256];
    std::memset(reason, 0, sizeof reason);
    note("ndsc_create");
    status = impl.create(abi.get(), &handle_, reason, sizeof reason);
    reason[sizeof reason - 1] = '\0';
    this->reason = reason;
}

created::~created() {
    if (status == NDSC_OK) {
        note("ndsc_destroy");
        impl_.destroy(handle_);
    }
}

std::string created::outcome() const {
    if (status == NDSC_OK) return "accepted";
    if (status == NDSC_REJECTED) return "rejected: " + (reason.empty() ? std::string("(no reason)") : reason);
    return status_name(status);
}

std::optional<finding> expect_accepted(const created& c) {
    if (c.status == NDSC_OK) return std::nullopt;
    return finding{"ndsc_create", "accepted", c.outcome()};
}

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

// ---- answers of the oracle

place oracle_page(const oracle::model& m, std::uint64_t page) {
    const oracle::location l = oracle::locate(m, big(page));
    return {u32(l.core.x), u32(l.core.y), u64(l.byte_address)};
}

std::vector<place> oracle_places(const oracle::model& m) {
    std::vector<place> at;
    const std::uint64_t n = u64(m.num_pages);
    at.reserve(n);
    for (std::uint64_t p = 0; p < n; ++p) at.push_back(oracle_page(m, p));
    return at;
}

std::vector<std::uint64_t> oracle_runs(const std::vector<place>& at, std::uint64_t aligned_page_size) {
    std::vector<std::uint64_t> run(at.size(), 1);
    for (std::size_t p = at.size(); p-- > 1;) {
        const place &here = at[p - 1], next = at[p];
        if (next.x == here.x && next.y == here.y && next.address == here.address + aligned_page_size)
            run[p - 1] = run[p] + 1;
    }
    return run;
}

// ---- availability

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

std::string need_page(const impl_info& info) { return needs(info, NDSC_Q_PAGE_ID); }

// ---- shrinking near 2^32

std::optional<big> buffer_end(const distribution_spec& s) {
    distribution_spec probe = s;
    probe.bank_base = 0;
    const auto m = model_of(probe);
    if (!m) return std::nullopt;
    return big(s.bank_base) + m->reserved_pages_per_core * m->aligned_page_size;
}

// An original whose buffer ends within 2^20 bytes below 2^32 keeps that distance; one
// rejected for passing 2^32 ends its candidates just past it (by as much as the original,
// when that is known and small, else by one byte). Other originals are left alone: the
// limit is not what made them fail.
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

}  // namespace laws

}  // namespace ndshard::conform
