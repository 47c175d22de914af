#include "ndshard/sim/device.hpp"

#include <algorithm>
#include <cstring>
#include <stdexcept>

#include "ndshard/host_mapping.hpp"

namespace ndshard::sim {
namespace {

std::uint64_t round_up(std::uint64_t v, std::uint64_t align) { return (v + align - 1) / align * align; }

// Hops on a mesh NoC with dimension-ordered routing: the Manhattan distance.
std::uint64_t distance(core_coord a, core_coord b) {
    const auto d = [](std::uint32_t u, std::uint32_t v) { return u > v ? u - v : v - u; };
    return std::uint64_t{d(a.x, b.x)} + d(a.y, b.y);
}

std::string at_text(noc_addr a) { return to_string(core_coord{a.x, a.y}) + " " + hex(a.addr); }

// Every page of a distribution with its NoC address, in page_runs order: the host's view
// of a buffer (no kernel runs it, so no traffic is counted).
template <class F>
void for_each_page_at(const buffer_info& b, F&& f) {
    const distribution& d = b.dist;
    for (std::size_t core = 0; core < b.runs.size(); ++core)
        for (const page_run& r : b.runs[core])
            for (std::uint64_t i = 0; i < r.count; ++i)
                f(r.first_page + i, noc_addr{d.cores[core].x, d.cores[core].y,
                                             static_cast<std::uint32_t>(d.byte_address(r.device_offset + i))});
}

}  // namespace

// The sentinel byte in all four bytes, so that an int32 read of untouched memory is
// recognisable as such.
std::int32_t sentinel_value(const device_config& c) noexcept {
    const auto b = std::to_integer<std::uint32_t>(c.sentinel);
    return static_cast<std::int32_t>(b | (b << 8) | (b << 16) | (b << 24));
}

device::device(device_config config) : config_(config) {
    if (config_.grid_x == 0 || config_.grid_y == 0)
        throw std::invalid_argument("device: the worker grid " + std::to_string(config_.grid_x) + "x" +
                                    std::to_string(config_.grid_y) + " is empty");
    // DRAM banks sit in columns right of the workers (dram_bank); every coordinate must
    // still pack into a 16-bit NoC coordinate, as on the device.
    const std::uint64_t dram_columns = (std::uint64_t{config_.num_dram_banks} + config_.grid_y - 1) / config_.grid_y;
    if (std::uint64_t{config_.grid_x} + dram_columns > max_core_coord + 1 || config_.grid_y > max_core_coord + 1)
        throw std::invalid_argument("device: NoC coordinates past 65535 (grid " + std::to_string(config_.grid_x) + "x" +
                                    std::to_string(config_.grid_y) + " plus " + std::to_string(config_.num_dram_banks) +
                                    " DRAM banks)");
    if (config_.l1_size > two_pow_32 || config_.dram_bank_size > two_pow_32 ||
        config_.l1_base > two_pow_32 - config_.l1_size)
        throw std::invalid_argument("device: memories end at most at 2^32 (device addresses are 32-bit)");
    if (config_.alloc_alignment == 0 || (config_.alloc_alignment & (config_.alloc_alignment - 1)) != 0)
        throw std::invalid_argument("device: alloc_alignment " + std::to_string(config_.alloc_alignment) +
                                    " is not a power of two");
    l1_.reserve(num_workers());
    for (std::uint32_t w = 0; w < num_workers(); ++w)
        l1_.emplace_back(memory_kind::l1, worker(w), config_.l1_size, 0, config_.l1_base);
    dram_.reserve(config_.num_dram_banks);
    for (std::uint32_t b = 0; b < config_.num_dram_banks; ++b)
        dram_.emplace_back(memory_kind::dram, dram_bank(b), config_.dram_bank_size, b);
}

core_coord device::worker(std::uint32_t w) const noexcept { return {w % config_.grid_x, w / config_.grid_x}; }

core_range device::worker_range() const noexcept { return grid_range(config_.grid_x, config_.grid_y); }

core_coord device::dram_bank(std::uint32_t b) const noexcept {
    return {config_.grid_x + b / config_.grid_y, b % config_.grid_y};
}

std::vector<core_range> device::dram_bank_ranges(std::uint32_t count) const {
    if (count > config_.num_dram_banks)
        throw std::invalid_argument("device has " + std::to_string(config_.num_dram_banks) + " DRAM banks, not " +
                                    std::to_string(count));
    std::vector<core_range> out;
    for (std::uint32_t b = 0; b < count; ++b) out.push_back({dram_bank(b), dram_bank(b)});
    return out;
}

// Every NoC access asks for its endpoint (check_access): inline, as the calls are all here.
inline memory* device::endpoint(core_coord c) noexcept {
    return const_cast<memory*>(static_cast<const device*>(this)->endpoint(c));
}

inline const memory* device::endpoint(core_coord c) const noexcept {
    if (c.y >= config_.grid_y) return nullptr;
    if (c.x < config_.grid_x) return &l1_[std::size_t{c.y} * config_.grid_x + c.x];
    const std::uint64_t b = std::uint64_t{c.x - config_.grid_x} * config_.grid_y + c.y;
    return b < dram_.size() ? &dram_[b] : nullptr;
}

const memory* device::memory_at(core_coord c) const noexcept { return endpoint(c); }
memory* device::memory_at(core_coord c) noexcept { return endpoint(c); }

// A DRAM bank has no core of its own to run the kernel that serves it, so workers take
// the DRAM banks in turn; an L1 bank is served by its own core (its reads are local).
core_coord device::executor_for(core_coord bank) const noexcept {
    const memory* m = endpoint(bank);
    if (m == nullptr || m->kind() == memory_kind::l1) return bank;
    const std::uint32_t b = (bank.x - config_.grid_x) * config_.grid_y + bank.y;
    return worker(b % num_workers());
}

buffer_id device::allocate(distribution_spec spec, std::string name) {
    return place(std::move(spec), std::move(name), true);
}

buffer_id device::allocate_at(const distribution_spec& spec, std::string name) {
    return place(spec, std::move(name), false);
}

buffer_id device::place(distribution_spec spec, std::string name, bool choose_base) {
    const buffer_id id{next_id_};
    if (name.empty()) name = "buffer" + std::to_string(id.value);
    distribution d = make_distribution(spec);  // spec_error for an invalid spec
    if (d.page_size % 4 != 0)                  // kernels and dense tensors move int32 values
        throw op_error("buffer '" + name + "': page size " + std::to_string(d.page_size) +
                       " bytes is not a whole number of int32 values");
    std::vector<memory*> banks;
    for (const core_coord& c : d.cores) {
        memory* m = endpoint(c);
        if (m == nullptr)
            throw alloc_error("cannot allocate '" + name + "': no core or DRAM bank at " + to_string(c) + " (workers " +
                              std::to_string(config_.grid_x) + "x" + std::to_string(config_.grid_y) + ", " +
                              std::to_string(config_.num_dram_banks) + " DRAM banks)");
        if (!banks.empty() && m->kind() != banks.front()->kind())
            throw alloc_error("cannot allocate '" + name + "': its banks mix " + banks.front()->label() + " and " +
                              m->label() + "; a buffer lives in L1 or in DRAM");
        banks.push_back(m);
    }
    const std::uint64_t bytes = d.reserved_pages_per_core() * d.aligned_page_size;
    const memory_kind kind = banks.empty() ? memory_kind::l1 : banks.front()->kind();  // no banks: no shards
    // The start of a refusal, in words only when there is one.
    const auto what = [&] {
        return "cannot allocate '" + name + "' (" + std::to_string(bytes) + " bytes in each of " +
               std::to_string(banks.size()) + " " + to_string(kind) + " banks)";
    };
    if (choose_base) {
        const std::uint64_t align = std::max(spec.alignment, config_.alloc_alignment);
        // The lowest base free in every bank is 0 or the (aligned) end of some live
        // allocation, so only those need trying.
        std::vector<std::uint64_t> candidates{banks.empty() ? 0 : round_up(banks.front()->base(), align)};
        for (const memory* m : banks)
            for (const allocation& a : m->live()) candidates.push_back(round_up(a.end, align));
        std::sort(candidates.begin(), candidates.end());
        auto fits = [&](std::uint64_t base) {
            return std::all_of(banks.begin(), banks.end(),
                               [&](const memory* m) { return m->is_free(base, base + bytes); });
        };
        auto found = std::find_if(candidates.begin(), candidates.end(), fits);
        if (found == candidates.end())
            throw alloc_error(what() + ": no address is free in every bank (capacity " +
                              hex(banks.front()->capacity()) +
                              " bytes per bank)");  // banks is not empty: with none, base 0 fits
        if (*found != spec.bank_base) {             // again: the byte addresses include the base
            spec.bank_base = *found;
            d = make_distribution(spec);
        }
    } else {
        const std::uint64_t base = spec.bank_base;
        for (const memory* m : banks) {
            if (base < m->base() || base + bytes > m->end())
                throw alloc_error(what() + " at " + hex(base) + ": ends at " + hex(base + bytes) + ", outside [" +
                                  hex(m->base()) + ", " + hex(m->end()) + ") of " + m->label());
            if (!m->is_free(base, base + bytes)) {
                const allocation* hit = m->find(base);
                if (hit == nullptr) {
                    for (const allocation& a : m->live())
                        if (a.begin < base + bytes && base < a.end) {
                            hit = &a;
                            break;
                        }
                }
                throw alloc_error(what() + " at " + hex(base) + ": overlaps " + (hit ? describe(*hit) : "a buffer") +
                                  " in " + m->label());
            }
        }
    }
    accessor_words words = make_accessor_words(d, arg::all_runtime);
    std::vector<std::vector<page_run>> runs = page_runs(d);
    // Filled with the sentinel, so padding_violations can tell a write into padding or an
    // alignment gap from untouched memory.
    for (memory* m : banks) m->reserve({d.bank_base, d.bank_base + bytes, id.value, name}, config_.sentinel);
    buffers_.emplace(id.value,
                     buffer_info{id, std::move(name), std::move(d), std::move(words), kind, bytes, std::move(runs)});
    ++next_id_;
    return id;
}

device::region device::reserve_l1(core_coord core, std::uint64_t bytes, std::uint64_t alignment, std::string name) {
    memory* m = endpoint(core);
    if (m == nullptr || m->kind() != memory_kind::l1)
        throw alloc_error("cannot reserve '" + name + "': no worker core at " + to_string(core));
    const std::uint64_t align = std::max<std::uint64_t>(alignment, 1);
    std::vector<std::uint64_t> candidates{round_up(m->base(), align)};
    for (const allocation& a : m->live()) candidates.push_back(round_up(a.end, align));
    std::sort(candidates.begin(), candidates.end());
    for (std::uint64_t at : candidates)
        if (m->is_free(at, at + bytes)) {
            const buffer_id id{next_id_++};
            m->reserve({at, at + bytes, id.value, std::move(name)}, std::byte{0});
            return {id, at};
        }
    throw alloc_error("cannot reserve '" + name + "' (" + std::to_string(bytes) + " bytes) in " + m->label() +
                      ": no free range is large enough");
}

void device::release_l1(core_coord core, buffer_id id) noexcept {
    if (memory* m = endpoint(core)) m->release(id.value);
}

void device::free(buffer_id id) {
    const buffer_info& b = buffer(id);
    for (const core_coord& c : b.dist.cores) endpoint(c)->release(id.value);
    buffers_.erase(id.value);
}

const buffer_info& device::buffer(buffer_id id) const {
    auto it = buffers_.find(id.value);
    if (it == buffers_.end()) throw alloc_error("no live buffer #" + std::to_string(id.value));
    return it->second;
}

const memory& device::check_access(const char* what, std::optional<core_coord> by, noc_addr at, std::uint64_t size,
                                   std::optional<buffer_id> expect, buffer_id* landed) const {
    // The access in words, built only for an error (every page the simulator moves passes here).
    const auto head = [&] {
        return std::string(what) + " by " + (by ? "core " + to_string(*by) : std::string("the host")) + " of " +
               std::to_string(size) + " bytes at " + at_text(at);
    };
    const memory* m = endpoint({at.x, at.y});
    if (m == nullptr) throw noc_error(head() + ": no core or DRAM bank at " + to_string(core_coord{at.x, at.y}));
    const allocation* a = m->find(at.addr);
    if (a == nullptr) {
        const allocation* below = m->below(at.addr);
        throw noc_error(head() + ": outside every live buffer of " + m->label() +
                        (below ? "; nearest below is " + describe(*below) : std::string("; no buffer lies below")));
    }
    if (at.addr + size > a->end) throw noc_error(head() + ": overruns " + describe(*a) + " of " + m->label());
    // Inside some live buffer is not enough: a page address that lands in a neighbouring
    // buffer is silent corruption on hardware, so the buffer the caller addressed must match.
    if (expect && a->buffer != expect->value) {
        auto it = buffers_.find(expect->value);
        const std::string meant = it == buffers_.end() ? "#" + std::to_string(expect->value) + " (not live)"
                                                       : "'" + it->second.name + "' #" + std::to_string(expect->value);
        throw noc_error(head() + ": lands in " + describe(*a) + " of " + m->label() + ", not in the addressed buffer " +
                        meant);
    }
    if (landed) *landed = buffer_id{a->buffer};
    return *m;
}

void device::count(bool is_write, core_coord by, noc_addr at, std::uint64_t size, buffer_id landed) {
    const core_coord target{at.x, at.y};
    const bool local = target == by;
    if (is_write) {
        ++traffic_.pages_written;
        traffic_.bytes_written += size;
        ++(local ? traffic_.local_writes : traffic_.remote_writes);
    } else {
        ++traffic_.pages_read;
        traffic_.bytes_read += size;
        ++(local ? traffic_.local_reads : traffic_.remote_reads);
    }
    traffic_.hops += distance(by, target);
    if (recording_) log_.push_back({is_write, by, target, at.addr, static_cast<std::uint32_t>(size), landed});
}

void device::noc_read(core_coord by, noc_addr src, std::span<std::byte> dst, std::optional<buffer_id> expect) {
    buffer_id landed;
    const auto bytes = check_access("noc read", by, src, dst.size(), expect, &landed).bytes(src.addr, dst.size());
    std::copy(bytes.begin(), bytes.end(), dst.begin());
    count(false, by, src, dst.size(), landed);
}

void device::noc_write(core_coord by, noc_addr dst, std::span<const std::byte> src, std::optional<buffer_id> expect) {
    buffer_id landed;
    check_access("noc write", by, dst, src.size(), expect, &landed);
    const auto bytes = endpoint({dst.x, dst.y})->bytes(dst.addr, src.size());
    std::copy(src.begin(), src.end(), bytes.begin());
    count(true, by, dst, src.size(), landed);
}

// Host writes and reads go through the same bounds checks as the NoC, so a distribution
// that places a page outside its buffer fails here too, before any kernel runs.
void device::write(buffer_id id, const dense_tensor& t) {
    const buffer_info& b = buffer(id);
    const distribution& d = b.dist;
    if (!(t.pages == d.tensor_pages) || std::uint64_t{t.page_elems} * 4 != d.page_size)
        throw op_error("host write into '" + b.name + "': tensor " + to_string(t.pages) + " x " +
                       std::to_string(t.page_elems) + " int32 does not match the buffer's " +
                       to_string(d.tensor_pages) + " x " + std::to_string(d.page_size / 4));
    for_each_page_at(b, [&](std::uint64_t page, noc_addr at) {
        check_access("host write", std::nullopt, at, d.page_size, id, nullptr);
        const auto dst = endpoint({at.x, at.y})->bytes(at.addr, d.page_size);
        const auto src = std::as_bytes(t.page(page));
        std::copy(src.begin(), src.end(), dst.begin());
    });
}

dense_tensor device::read(buffer_id id) const {
    const buffer_info& b = buffer(id);
    const distribution& d = b.dist;
    dense_tensor t = dense_tensor::filled(d.tensor_pages, b.page_elems(), 0);
    for_each_page_at(b, [&](std::uint64_t page, noc_addr at) {
        const memory& m = check_access("host read", std::nullopt, at, d.page_size, id, nullptr);
        const auto src = m.bytes(at.addr, d.page_size);
        const auto dst = std::as_writable_bytes(t.page(page));
        std::copy(src.begin(), src.end(), dst.begin());
    });
    return t;
}

std::vector<std::string> device::padding_violations(buffer_id id) const {
    const buffer_info& b = buffer(id);
    const distribution& d = b.dist;
    std::vector<std::string> out;
    const std::uint64_t slots = d.reserved_pages_per_core();
    const std::vector<std::byte> untouched(d.aligned_page_size, config_.sentinel);  // what a clean slot holds
    for (std::size_t core = 0; core < b.runs.size(); ++core) {
        const memory* m = endpoint(d.cores[core]);
        const std::vector<page_run>& runs = b.runs[core];  // in device order
        std::size_t next = 0;                              // the first run not wholly below the slot
        for (std::uint64_t slot = 0; slot < slots; ++slot) {
            while (next < runs.size() && runs[next].device_offset + runs[next].count <= slot) ++next;
            const bool padding = next == runs.size() || slot < runs[next].device_offset;
            const std::uint64_t from = padding ? 0 : d.page_size;  // a real page: only its alignment gap
            // Only the first changed byte of a slot is reported: one line per damaged slot.
            const auto bytes = m->bytes(d.byte_address(slot), d.aligned_page_size);
            if (from >= bytes.size() || std::memcmp(bytes.data() + from, untouched.data(), bytes.size() - from) == 0)
                continue;  // clean (compared a block at a time; the byte is looked for only if not)
            for (std::uint64_t k = from; k < bytes.size(); ++k)
                if (bytes[k] != config_.sentinel) {
                    const std::uint64_t page = padding ? 0 : runs[next].first_page + (slot - runs[next].device_offset);
                    out.push_back("core " + to_string(d.cores[core]) + " slot " + std::to_string(slot) +
                                  (padding ? " (padding)" : " (gap after page " + std::to_string(page) + ")") +
                                  ": byte " + std::to_string(k) + " is " + hex(std::to_integer<unsigned>(bytes[k])));
                    break;
                }
        }
    }
    return out;
}

}  // namespace ndshard::sim
