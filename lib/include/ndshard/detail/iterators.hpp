// ndshard/detail/iterators.hpp - the accessor's page iterators: accessor.hpp includes this
// at its end, after the class they are nested in; it is not included on its own.
//
// All three walk runs: consecutive pages along the last dim inside one shard, which are
// consecutive page ids at consecutive device offsets in one bank. A step inside a run is
// a few increments; at a run's end the per-dim counters carry like an odometer with
// deltas worked out when the iterator was made. None divides: page_iterator splits its
// deltas with reciprocals when it is made, shard_iterator and local_iterator find a shard
// with the accessor's reciprocals. Freestanding, C++17 and C++20.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>

namespace ndshard {
namespace detail {
// What the three iterators share: they yield page_refs, and an iterator compares equal to
// page_end once its done() is true (both argument orders before C++20, which derives them).
template <class It>
struct page_iterator_base {
    friend constexpr bool operator==(const It& it, page_sentinel) noexcept { return it.done(); }
    friend constexpr bool operator!=(const It& it, page_sentinel) noexcept { return !it.done(); }
#if !NDSHARD_CPP20
    friend constexpr bool operator==(page_sentinel, const It& it) noexcept { return it.done(); }
    friend constexpr bool operator!=(page_sentinel, const It& it) noexcept { return !it.done(); }
#endif
};
}  // namespace detail

template <auto CT>
class accessor<CT>::page_iterator : public detail::page_iterator_base<typename accessor<CT>::page_iterator> {
public:
    constexpr page_iterator() = default;
    constexpr explicit page_iterator(const accessor& a) : page_iterator(a, 0, 1) {}
    // Pages thread, thread + threads, ... (threads >= 1).
    constexpr page_iterator(const accessor& a, std::uint32_t thread, std::uint32_t threads)
        : a_(&a), rank_(a.rank()), end_(a.num_pages()), stride_(threads == 0 ? 1 : threads) {
        const auto& g = a.geo();
        by_divisor_ = g.deal_div;  // P or k: the accessor's reciprocal, so making an iterator divides nothing
        for (std::uint32_t d = 0; d < rank_; ++d) {
            const auto& x = g.dims[d];
            step_[d] = split(x.grid_stride);
            wrap_[d] = split((x.grid == 0 ? 0 : x.grid - 1) * x.grid_stride);
            wrap_offset_[d] = (x.tensor == 0 ? 0 : x.by_shard.remainder(x.tensor - 1)) * x.shard_stride;
        }
        shard_volume_ = g.shard_volume;
        if (end_ != 0) {
            const std::uint32_t last = rank_ - 1;
            t_last_ = g.dims[last].tensor;
            s_last_ = g.dims[last].by_shard.divisor();
            step_last_ = step_[last];
            wrap_last_ = wrap_[last];
            run_ = run_length_ = t_last_ < s_last_ ? t_last_ : s_last_;
            page_end_ = device_end_ = run_;  // page 0 is slot 0 of bank 0
            core_ = a.bank_coord(0);
            if (thread >= end_) run_ = 0;
            else if (thread >= run_) seek(thread);  // past the first run (a start inside it is a subtraction)
            else if (thread != 0) advance(thread);
        }
    }
    // Inside a run, page and offset are the run's ends minus the pages left in it.
    constexpr page_ref operator*() const noexcept { return {page_end_ - run_, bank_, device_end_ - run_, core_}; }
    // Inside the run (the usual case, for one thread or many): one compare and one subtract.
    constexpr page_iterator& operator++() noexcept {
        if (NDSHARD_LIKELY(stride_ < run_)) run_ -= stride_;
        else advance(stride_);
        return *this;
    }
    constexpr void operator++(int) noexcept { ++*this; }
    // Past the last page (equal to page_end).
    [[nodiscard]] constexpr bool done() const noexcept { return run_ == 0; }

private:
    struct split_delta {
        std::uint32_t major, minor;
    };
    // shard ids are tracked as major * divisor + minor, so (bank, slot) needs no division.
    constexpr split_delta split(std::uint32_t delta) const noexcept {
        const std::uint32_t q = by_divisor_.divide(delta);
        return {q, delta - q * by_divisor_.divisor()};
    }
    constexpr void add(split_delta s) noexcept {
        major_ += s.major;
        minor_ += s.minor;
        if (minor_ >= by_divisor_.divisor()) {
            minor_ -= by_divisor_.divisor();
            ++major_;
        }
    }
    constexpr void sub(split_delta s) noexcept {
        if (minor_ < s.minor) {
            minor_ += by_divisor_.divisor() - s.minor;
            major_ -= s.major + 1;
        } else {
            minor_ -= s.minor;
            major_ -= s.major;
        }
    }
    // From page 0 to page `first` (< the page count) by its digits, not a run at a time: the
    // start of one core's share deep in a large tensor of short runs (tt-metal's
    // pages(start, end)) costs a few steps a dim. Each digit goes where next_run and
    // carry_outer keep it: the outer dims' counters and in-shard offset, the shard id split
    // for the deal, and the current run of the last dim with the pages left in it.
    constexpr void seek(std::uint32_t first) noexcept {
        const auto& g = a_->geo();
        std::array<std::uint32_t, max_rank> digits{};
        a_->with_view([&](const auto& v) { detail::page_coord_of(v, first, digits); });
        std::uint32_t shard = 0, last_digit = 0;
        offset_ = 0;
        for (std::uint32_t d = rank_; d-- > 0;) {
            const auto& x = g.dims[d];
            const std::uint32_t c = digits[d];
            const std::uint32_t q = x.by_shard.divide(c), r = c - q * x.by_shard.divisor();
            shard += q * x.grid_stride;
            if (d + 1 == rank_) {
                last_digit = c;
                p_last_ = c - r;
            } else {
                p_[d] = c;
                r_[d] = r;
                offset_ += r * x.shard_stride;
            }
        }
        const split_delta at = split(shard);
        major_ = at.major;
        minor_ = at.minor;
        run_length_ = detail::real_extent_from(t_last_, s_last_, p_last_);
        run_ = run_length_ - (last_digit - p_last_);
        bank_ = contiguous ? major_ : minor_;
        core_ = a_->bank_coord(bank_);
        page_end_ = first + run_;
        device_end_ = (contiguous ? minor_ : major_) * shard_volume_ + offset_ + run_length_;
    }
    // Moves n pages on (n >= 1), a run at a time.
    constexpr void advance(std::uint32_t n) noexcept {
        if (n == run_) {  // to the next run's first page (one thread, or a stride that ends a run)
            run_ = 0;
            if (page_end_ != end_) next_run();
            return;
        }
        while (n >= run_) {
            n -= run_;
            run_ = 0;
            if (page_end_ == end_) return;  // past the last page
            next_run();
        }
        run_ -= n;
    }
    // The run that just ended covered run_length_ pages of the last dim from p_last_:
    // move past it, into the next shard along the last dim or, at the tensor's edge,
    // back to that dim's start with a carry into the outer dims. A run always starts at
    // the first slot of a shard along the last dim.
    constexpr void next_run() noexcept {
        p_last_ += run_length_;
        if (NDSHARD_LIKELY(p_last_ != t_last_)) {
            add(step_last_);
        } else {
            p_last_ = 0;
            sub(wrap_last_);
            carry_outer();
        }
        run_ = run_length_ = detail::real_extent_from(t_last_, s_last_, p_last_);
        bank_ = contiguous ? major_ : minor_;
        core_ = a_->bank_coord(bank_);
        page_end_ += run_;
        device_end_ = (contiguous ? minor_ : major_) * shard_volume_ + offset_ + run_;
    }
    constexpr void carry_outer() noexcept {
        const auto& g = a_->geo();
        for (std::uint32_t d = rank_ - 1; d-- > 0;) {
            const auto& x = g.dims[d];
            if (++p_[d] == x.tensor) {  // this dim wraps too: back to its first shard
                offset_ -= wrap_offset_[d];
                sub(wrap_[d]);
                p_[d] = 0;
                r_[d] = 0;
                continue;
            }
            if (++r_[d] == x.by_shard.divisor()) {  // into the next shard along d
                r_[d] = 0;
                offset_ -= (x.by_shard.divisor() - 1) * x.shard_stride;
                add(step_[d]);
            } else {
                offset_ += x.shard_stride;
            }
            return;
        }
    }

    const accessor* a_ = nullptr;
    std::uint32_t rank_ = 0, end_ = 0, stride_ = 1, shard_volume_ = 0;
    fast_divider by_divisor_{};
    std::uint32_t page_end_ = 0, device_end_ = 0, bank_ = 0, run_ = 0, run_length_ = 0;
    core_coord core_{};
    std::uint32_t p_last_ = 0, t_last_ = 0, s_last_ = 0;
    std::uint32_t offset_ = 0, major_ = 0, minor_ = 0;  // at the current run's first page (the last dim's offset is 0)
    split_delta step_last_{}, wrap_last_{};
    std::array<std::uint32_t, max_rank> p_{}, r_{}, wrap_offset_{};
    std::array<split_delta, max_rank> step_{}, wrap_{};
};

template <auto CT>
class accessor<CT>::shard_iterator : public detail::page_iterator_base<typename accessor<CT>::shard_iterator> {
public:
    constexpr shard_iterator() = default;
    NDSHARD_INLINE constexpr shard_iterator(const accessor& a, std::uint32_t shard_id) { start(a, shard_id); }
    // At the shard's first real page whose offset in the shard is `from` or more (done when
    // none is). The iterator is placed by the digits of `from`, not walked there: a start
    // deep in a large shard (tt-metal's shard_pages(shard, start, end)) costs a few steps a
    // dim, not one a page before it.
    constexpr shard_iterator(const accessor& a, std::uint32_t shard_id, std::uint32_t from) {
        start(a, shard_id);
        if (from != 0 && run_ != 0) seek(a, from);
    }
    // Inside a row, page and offset are the row's ends minus the pages left in it.
    NDSHARD_INLINE constexpr page_ref operator*() const noexcept {
        return {page_end_ - run_, bank_, offset_end_ - run_, core_};
    }
    NDSHARD_INLINE constexpr shard_iterator& operator++() noexcept {
        if (NDSHARD_LIKELY(--run_ != 0)) return *this;
        if (NDSHARD_LIKELY(++row_ < rows_)) {
            start_row(row_page_step_, row_offset_step_);
            return *this;
        }
        row_ = 0;
        for (std::uint32_t d = rank_ < 2 ? 0 : rank_ - 2; d-- > 0;) {  // carry into the outer dims
            if (++r_[d] < limit_[d]) {
                start_row(page_carry_[d], offset_carry_[d]);
                return *this;
            }
            r_[d] = 0;
        }
        return *this;  // run_ == 0: past the shard's last page
    }
    constexpr void operator++(int) noexcept { ++*this; }
    // Past the last page (equal to page_end).
    [[nodiscard]] constexpr bool done() const noexcept { return run_ == 0; }
    // Pages left, this one included.
    [[nodiscard]] constexpr std::uint32_t remaining() const noexcept {
        if (run_ == 0) return 0;
        std::uint32_t n = run_;
        for (std::uint32_t d = 0; d + 1 < rank_; ++d)
            n += (limit_[d] - 1 - (d + 2 == rank_ ? row_ : r_[d])) * inner_[d];
        return n;
    }

private:
    friend class local_iterator;
    // (Re)starts at a shard's first page, member by member, and inline: local_iterator
    // restarts its shard_iterator in place, so the walk keeps the hot members in registers.
    NDSHARD_INLINE constexpr void start(const accessor& a, std::uint32_t shard_id) noexcept {
        rank_ = a.rank();
        const auto& g = a.geo();
        std::array<std::uint32_t, max_rank> q{};
        a.with_view([&](const auto& v) NDSHARD_INLINE_LAMBDA { detail::shard_coord_of(v, shard_id, q); });
        std::uint32_t pages = 1, row_page = 0;
        for (std::uint32_t d = 0; d < rank_; ++d) {
            const auto& x = g.dims[d];
            const std::uint32_t s = x.by_shard.divisor();
            limit_[d] = detail::real_extent(x.tensor, s, q[d]);
            row_page += detail::page_digit<std::uint32_t>(q[d], s, 0, x.tensor_stride);
            pages *= limit_[d];
        }
        // From the first page of the last row of a block of inner dims (the last dim
        // excluded: a row is walked by the run) to the first page of the next index of d.
        std::uint32_t page_span = 0, offset_span = 0, inner = limit_[rank_ - 1];
        for (std::uint32_t d = rank_ - 1; d-- > 0;) {
            const auto& x = g.dims[d];
            page_carry_[d] = x.tensor_stride - page_span;
            offset_carry_[d] = x.shard_stride - offset_span;
            inner_[d] = inner;
            page_span += (limit_[d] - 1) * x.tensor_stride;
            offset_span += (limit_[d] - 1) * x.shard_stride;
            inner *= limit_[d];
        }
        const auto home = a.deal(shard_id);
        bank_ = home.core;
        core_ = a.bank_coord(bank_);
        row_page_ = row_page;
        row_offset_ = home.slot * g.shard_volume;
        row_length_ = limit_[rank_ - 1];
        row_ = 0;
        rows_ = 1;
        row_page_step_ = row_offset_step_ = 0;
        if (rank_ >= 2) {  // the dim rows step along, kept apart from the rarer outer carries
            rows_ = limit_[rank_ - 2];
            row_page_step_ = page_carry_[rank_ - 2];
            row_offset_step_ = offset_carry_[rank_ - 2];
        }
        for (std::uint32_t d = 0; d < rank_; ++d) r_[d] = 0;
        run_ = pages == 0 ? 0 : row_length_;
        page_end_ = row_page_ + run_;
        offset_end_ = row_offset_ + run_;
    }
    // From the shard's first page (just started, with pages): to the first real page at
    // slot offset `from` or later. Its digits in the shard shape; the first dim whose digit
    // is past the real extent there (an edge shard's padding) moves the dims before it to
    // their next real index and the rest to 0; past the last real index, done.
    constexpr void seek(const accessor& a, std::uint32_t from) noexcept {
        const auto& g = a.geo();
        if (from >= g.shard_volume) {
            run_ = 0;
            return;
        }
        std::array<std::uint32_t, max_rank> c{};
        for (std::uint32_t d = rank_, rest = from; d-- > 0;) {  // with the reciprocals: no divide on a device
            const std::uint32_t q = g.dims[d].by_shard.divide(rest);
            c[d] = rest - q * g.dims[d].by_shard.divisor();
            rest = q;
        }
        for (std::uint32_t d = 0; d < rank_; ++d) {
            if (c[d] < limit_[d]) continue;
            for (std::uint32_t e = d; e < rank_; ++e) c[e] = 0;
            std::uint32_t e = d;
            for (; e-- > 0;) {
                if (++c[e] < limit_[e]) break;
                c[e] = 0;
            }
            if (e == ~std::uint32_t{0}) {  // every dim carried: no real page at or after `from`
                run_ = 0;
                return;
            }
            break;
        }
        std::uint32_t page = 0, offset = 0;
        for (std::uint32_t d = 0; d + 1 < rank_; ++d) {
            page += c[d] * g.dims[d].tensor_stride;
            offset += c[d] * g.dims[d].shard_stride;
            if (d + 2 < rank_) r_[d] = c[d];
        }
        row_ = rank_ >= 2 ? c[rank_ - 2] : 0;
        row_page_ += page;
        row_offset_ += offset;
        run_ = row_length_ - c[rank_ - 1];
        page_end_ = row_page_ + row_length_;
        offset_end_ = row_offset_ + row_length_;
    }
    NDSHARD_INLINE constexpr void start_row(std::uint32_t page_step, std::uint32_t offset_step) noexcept {
        row_page_ += page_step;
        row_offset_ += offset_step;
        run_ = row_length_;
        page_end_ = row_page_ + run_;
        offset_end_ = row_offset_ + run_;
    }

    std::uint32_t rank_ = 0, bank_ = 0, run_ = 0;
    core_coord core_{};
    std::uint32_t row_page_ = 0, row_offset_ = 0, page_end_ = 0, offset_end_ = 0;
    std::uint32_t row_length_ = 0, row_ = 0, rows_ = 1, row_page_step_ = 0, row_offset_step_ = 0;
    std::array<std::uint32_t, max_rank> r_{}, limit_{}, page_carry_{}, offset_carry_{}, inner_{};
};

template <auto CT>
class accessor<CT>::local_iterator : public detail::page_iterator_base<typename accessor<CT>::local_iterator> {
public:
    constexpr local_iterator() = default;
    NDSHARD_INLINE constexpr local_iterator(const accessor& a, std::uint32_t bank)
        : a_(&a), bank_(bank), slots_(a.shards_in_bank(bank)) {
        if (slots_ != 0) shard_.start(a, a.shard_in_slot(bank_, 0));
    }
    NDSHARD_INLINE constexpr page_ref operator*() const noexcept { return *shard_; }
    NDSHARD_INLINE constexpr local_iterator& operator++() noexcept {
        ++shard_;
        if (NDSHARD_UNLIKELY(shard_ == page_end) && ++slot_ < slots_)
            shard_.start(*a_, a_->shard_in_slot(bank_, slot_));
        return *this;
    }
    constexpr void operator++(int) noexcept { ++*this; }
    // Past the last page (equal to page_end).
    [[nodiscard]] constexpr bool done() const noexcept { return slot_ >= slots_; }

private:
    const accessor* a_ = nullptr;
    std::uint32_t bank_ = 0, slots_ = 0, slot_ = 0;
    shard_iterator shard_{};
};

}  // namespace ndshard
