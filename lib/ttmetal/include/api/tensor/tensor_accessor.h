// api/tensor/tensor_accessor.h - tt-metal's TensorAccessor, with tt-metal's names and
// signatures, over ndshard's accessor. Freestanding, C++17 and C++20, no exceptions needed.
//
// A kernel builds it as on tt-metal:
//   constexpr auto args = TensorAccessorArgs<0>();          // or <CTA, CRTA>, or <CTA>(crta)
//   const auto s = TensorAccessor(args, bank_base_address);  // page size from the words (layout 2)
//   noc_async_read(s.get_noc_addr(page_id), l1_addr, s.get_aligned_page_size());
// Every address comes from ndshard::accessor (accessor.hpp) built from the same arguments:
// the compile-time words translated at compile time (ndshard/tt/words.hpp), the common
// runtime words read in place, in tt-metal's dialect. Construction checks the words (a bad
// list traps, or throws spec_error on a hosted platform); queries then divide nothing.
// Where tt-metal's published accessor is wrong, this one is right (docs/tt-args.md lists
// each difference): a shard coordinate's address uses the coordinate, the strided shard
// walk visits every shard of the grid, and DRAM addresses add the bank's offset.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <tuple>
#include <type_traits>
#include <utility>

#include "api/tensor/page.h"
#include "api/tensor/tensor_accessor_args.h"
#include "internal/ndshard_banks.h"
#include "internal/ndshard_platform.h"
#include "ndshard/accessor.hpp"
#include "ndshard/tt/interleaved.hpp"
#include "ndshard/tt/noc.hpp"

namespace tensor_accessor {

// tt-metal's Metal 2.0 tensor binding (TensorAccessor(ta::name)): the accessor's words are
// compile-time arguments from CTA_OFFSET, its bank base address the common runtime argument
// at byte ADDR_CRTA_OFFSET. A kernel's bindings are declared by its kernel_desc
// (internal/ndshard_kernel_bindings.h).
template <std::uint32_t CTA_OFFSET, std::uint32_t ADDR_CRTA_OFFSET>
struct TensorAccessorBindingToken {
    using args_t = TensorAccessorArgs<CTA_OFFSET>;
    static constexpr args_t args{};
    static constexpr std::uint32_t addr_crta_offset = ADDR_CRTA_OFFSET;
    static std::uint32_t address() { return get_common_arg_val<std::uint32_t>(ADDR_CRTA_OFFSET / 4); }
};

// What TensorAccessor's type says about one TensorAccessorArgs: tt-metal's DistributionSpec
// traits, for code that asks `Accessor::DSpec::is_dram`.
template <class Args>
struct DistributionSpec {
    using args_type = Args;
    static constexpr bool is_interleaved = !Args::is_sharded;
    static constexpr bool is_dram = Args::is_dram;
    static constexpr bool has_static_rank = !Args::rank_is_crta;
    static constexpr bool has_static_num_banks = !Args::num_banks_is_crta;
    static constexpr bool tensor_shape_static = has_static_rank && !Args::tensor_shape_is_crta;
    static constexpr bool shard_shape_static = has_static_rank && !Args::shard_shape_is_crta;
    static constexpr bool bank_coords_static = has_static_num_banks && !Args::bank_coords_is_crta;
    static constexpr bool shapes_static = tensor_shape_static && shard_shape_static;
    static constexpr bool is_static = shapes_static && bank_coords_static;
    static constexpr std::uint32_t rank_ct = Args::RankCT;
    static constexpr std::uint32_t num_banks_ct = Args::NumBanksCT;
};

namespace detail {
template <class T, class = void>
inline constexpr bool has_subscript_operator_v = false;
template <class T>
inline constexpr bool has_subscript_operator_v<T, std::void_t<decltype(std::declval<T>()[0])>> = true;
template <class T>
inline constexpr bool always_false_v = false;
}  // namespace detail

// One of the extents, strides or coordinates dspec() shows, indexed by dim (or bank).
template <class Engine>
class dim_values {
public:
    enum class what : std::uint8_t { tensor, shard, grid, tensor_stride, shard_stride, grid_stride, bank_xy };
    constexpr dim_values(const Engine& a, what w) noexcept : a_(&a), w_(w) {}
    constexpr std::uint32_t operator[](std::uint32_t i) const noexcept {
        switch (w_) {
            case what::tensor:
                return a_->tensor_extent(i);
            case what::shard:
                return a_->shard_extent(i);
            case what::grid:
                return a_->grid_extent(i);
            case what::tensor_stride:
                return a_->tensor_stride(i);
            case what::shard_stride:
                return a_->shard_stride(i);
            case what::grid_stride:
                return a_->grid_stride(i);
            default: {
                const ::ndshard::core_coord c = a_->bank_coord(i);
                return ::ndshard::tt::pack_bank(c);
            }
        }
    }
    [[nodiscard]] constexpr std::uint32_t size() const noexcept {
        return w_ == what::bank_xy ? a_->num_banks() : a_->rank();
    }

private:
    const Engine* a_;
    what w_;
};

// tt-metal's dspec(): the distribution's sizes, read from the accessor's geometry.
template <class Engine>
class dspec_view {
public:
    using values = dim_values<Engine>;
    constexpr explicit dspec_view(const Engine& a) noexcept : a_(&a) {}
    [[nodiscard]] constexpr std::uint32_t rank() const noexcept { return a_->rank(); }
    [[nodiscard]] constexpr std::uint32_t num_banks() const noexcept { return a_->num_banks(); }
    [[nodiscard]] constexpr std::uint32_t tensor_volume() const noexcept { return a_->num_pages(); }
    [[nodiscard]] constexpr std::uint32_t shard_volume() const noexcept { return a_->shard_volume(); }
    [[nodiscard]] constexpr values tensor_shape() const noexcept { return {*a_, values::what::tensor}; }
    [[nodiscard]] constexpr values shard_shape() const noexcept { return {*a_, values::what::shard}; }
    [[nodiscard]] constexpr values shard_grid() const noexcept { return {*a_, values::what::grid}; }
    [[nodiscard]] constexpr values tensor_strides() const noexcept { return {*a_, values::what::tensor_stride}; }
    [[nodiscard]] constexpr values shard_strides() const noexcept { return {*a_, values::what::shard_stride}; }
    [[nodiscard]] constexpr values shard_grid_strides() const noexcept { return {*a_, values::what::grid_stride}; }
    [[nodiscard]] constexpr values packed_xy_coords() const noexcept { return {*a_, values::what::bank_xy}; }

private:
    const Engine* a_;
};

template <class Accessor>
class ShardPages;

// Pages [start, end) in id order, every stride-th: what pages() and strided_pages() give.
template <class Accessor>
class PagesAddressIterator {
public:
    using value_type = Page;
    using difference_type = std::ptrdiff_t;
    using reference = const Page&;
    using pointer = const Page*;
    using engine_iterator = typename Accessor::engine::page_iterator;

    PagesAddressIterator(const Accessor& a, std::uint32_t start, std::uint32_t end, std::uint32_t stride,
                         std::uint8_t noc)
        : a_(&a), end_(end), noc_(noc) {
        if (start >= end_) {
            id_ = end_;
            return;
        }
        it_ = engine_iterator(a.engine_, start, stride == 0 ? 1 : stride);
        update();
    }
    [[nodiscard]] std::uint32_t page_id() const noexcept { return id_; }
    reference operator*() const noexcept { return page_; }
    pointer operator->() const noexcept { return &page_; }
    PagesAddressIterator& operator++() {
        if (id_ == end_) return *this;
        ++it_;
        update();
        return *this;
    }
    PagesAddressIterator operator++(int) {
        PagesAddressIterator old = *this;
        ++*this;
        return old;
    }
    PagesAddressIterator& operator+=(difference_type steps) {
        for (; steps > 0 && id_ != end_; --steps) ++*this;
        return *this;
    }
    friend bool operator==(const PagesAddressIterator& a, const PagesAddressIterator& b) noexcept {
        return a.id_ == b.id_;
    }
    friend bool operator!=(const PagesAddressIterator& a, const PagesAddressIterator& b) noexcept {
        return a.id_ != b.id_;
    }

private:
    void update() {
        if (it_ == ::ndshard::page_end || (*it_).page_id >= end_) {
            id_ = end_;
            return;
        }
        const ::ndshard::page_ref r = *it_;
        id_ = r.page_id;
        page_ = Page(a_->noc_addr_of(r.bank, r.page_offset, 0, noc_), r.page_id);
    }
    const Accessor* a_;
    engine_iterator it_{};
    std::uint32_t id_ = 0, end_ = 0;
    std::uint8_t noc_ = 0;
    Page page_{};
};

// The same for an interleaved accessor: every page's address from get_noc_addr.
template <class Accessor>
class PagesAddressIteratorInterleaved {
public:
    using value_type = Page;
    using difference_type = std::ptrdiff_t;
    using reference = const Page&;
    using pointer = const Page*;

    PagesAddressIteratorInterleaved(const Accessor& a, std::uint32_t start, std::uint32_t end, std::uint32_t stride,
                                    std::uint8_t noc)
        : a_(&a), id_(start < end ? start : end), end_(end), stride_(stride == 0 ? 1 : stride), noc_(noc) {
        update();
    }
    [[nodiscard]] std::uint32_t page_id() const noexcept { return id_; }
    reference operator*() const noexcept { return page_; }
    pointer operator->() const noexcept { return &page_; }
    PagesAddressIteratorInterleaved& operator++() {
        id_ = end_ - id_ > stride_ ? id_ + stride_ : end_;
        update();
        return *this;
    }
    PagesAddressIteratorInterleaved operator++(int) {
        PagesAddressIteratorInterleaved old = *this;
        ++*this;
        return old;
    }
    PagesAddressIteratorInterleaved& operator+=(difference_type steps) {
        for (; steps > 0 && id_ != end_; --steps) ++*this;
        return *this;
    }
    friend bool operator==(const PagesAddressIteratorInterleaved& a,
                           const PagesAddressIteratorInterleaved& b) noexcept {
        return a.id_ == b.id_;
    }
    friend bool operator!=(const PagesAddressIteratorInterleaved& a,
                           const PagesAddressIteratorInterleaved& b) noexcept {
        return a.id_ != b.id_;
    }

private:
    void update() {
        if (id_ != end_) page_ = Page(a_->get_noc_addr(id_, 0, noc_), id_);
    }
    const Accessor* a_;
    std::uint32_t id_, end_, stride_;
    std::uint8_t noc_;
    Page page_{};
};

template <class Accessor>
class Pages {
public:
    using iterator = std::conditional_t<Accessor::DSpec::is_interleaved, PagesAddressIteratorInterleaved<Accessor>,
                                        PagesAddressIterator<Accessor>>;
    using const_iterator = iterator;
    Pages(const Accessor& a, std::uint32_t start, std::uint32_t end, std::uint32_t stride, std::uint8_t noc)
        : a_(&a), start_(start), end_(end), stride_(stride), noc_(noc) {}
    iterator begin() const { return iterator(*a_, start_, end_, stride_, noc_); }
    iterator end() const { return iterator(*a_, end_, end_, stride_, noc_); }
    const_iterator cbegin() const { return begin(); }
    const_iterator cend() const { return end(); }

private:
    const Accessor* a_;
    std::uint32_t start_, end_, stride_;
    std::uint8_t noc_;
};

// A shard's real pages whose offset in the shard's slot is in [start, end), in slot order.
template <class Accessor>
class ShardPagesAddressIterator {
public:
    using value_type = Page;
    using difference_type = std::ptrdiff_t;
    using reference = const Page&;
    using pointer = const Page*;
    using engine_iterator = typename Accessor::engine::shard_iterator;

    ShardPagesAddressIterator(const Accessor& a, std::uint32_t shard, std::uint32_t start, std::uint32_t end,
                              std::uint8_t noc)
        : a_(&a), shard_(shard), end_(end), noc_(noc) {
        slot_base_ = a.engine_.deal(shard).slot * a.engine_.shard_volume();
        if (start < end_) it_ = engine_iterator(a.engine_, shard, start);
        update();
    }
    // The page's id in the tensor (tt-metal's name).
    [[nodiscard]] std::uint32_t page_id() const noexcept { return page_.page_id(); }
    reference operator*() const noexcept { return page_; }
    pointer operator->() const noexcept { return &page_; }
    ShardPagesAddressIterator& operator++() {
        if (offset_ == end_) return *this;
        ++it_;
        update();
        return *this;
    }
    ShardPagesAddressIterator operator++(int) {
        ShardPagesAddressIterator old = *this;
        ++*this;
        return old;
    }
    ShardPagesAddressIterator& operator+=(difference_type steps) {
        for (; steps > 0 && offset_ != end_; --steps) ++*this;
        return *this;
    }
    friend bool operator==(const ShardPagesAddressIterator& a, const ShardPagesAddressIterator& b) noexcept {
        return a.shard_ == b.shard_ && a.offset_ == b.offset_;
    }
    friend bool operator!=(const ShardPagesAddressIterator& a, const ShardPagesAddressIterator& b) noexcept {
        return !(a == b);
    }

private:
    void update() {
        if (it_ == ::ndshard::page_end || (*it_).page_offset - slot_base_ >= end_) {
            offset_ = end_;
            return;
        }
        const ::ndshard::page_ref r = *it_;
        offset_ = r.page_offset - slot_base_;
        page_ = Page(a_->noc_addr_of(r.bank, r.page_offset, 0, noc_), r.page_id);
    }
    const Accessor* a_;
    engine_iterator it_{};
    std::uint32_t shard_ = 0, slot_base_ = 0, offset_ = 0, end_ = 0;
    std::uint8_t noc_ = 0;
    Page page_{};
};

template <class Accessor>
class ShardPages {
public:
    using iterator = ShardPagesAddressIterator<Accessor>;
    using const_iterator = iterator;
    ShardPages(const Accessor& a, std::uint32_t shard, std::uint32_t start, std::uint32_t end, std::uint8_t noc)
        : a_(&a), shard_(shard), start_(start), end_(end), noc_(noc) {}
    iterator begin() const { return iterator(*a_, shard_, start_, end_, noc_); }
    iterator end() const { return iterator(*a_, shard_, end_, end_, noc_); }
    const_iterator cbegin() const { return begin(); }
    const_iterator cend() const { return end(); }

private:
    const Accessor* a_;
    std::uint32_t shard_, start_, end_;
    std::uint8_t noc_;
};

// Shards first, first + stride, ... of the shard grid, each as its ShardPages.
template <class Accessor>
class StridedShardPagesIterator {
public:
    using value_type = ShardPages<Accessor>;
    StridedShardPagesIterator(const Accessor& a, std::uint32_t shard, std::uint32_t end, std::uint32_t stride,
                              std::uint8_t noc)
        : a_(&a), shard_(shard < end ? shard : end), end_(end), stride_(stride == 0 ? 1 : stride), noc_(noc) {}
    value_type operator*() const { return value_type(*a_, shard_, 0, a_->engine_.shard_volume(), noc_); }
    StridedShardPagesIterator& operator++() {
        shard_ = end_ - shard_ > stride_ ? shard_ + stride_ : end_;
        return *this;
    }
    StridedShardPagesIterator operator++(int) {
        StridedShardPagesIterator old = *this;
        ++*this;
        return old;
    }
    friend bool operator==(const StridedShardPagesIterator& a, const StridedShardPagesIterator& b) noexcept {
        return a.shard_ == b.shard_;
    }
    friend bool operator!=(const StridedShardPagesIterator& a, const StridedShardPagesIterator& b) noexcept {
        return a.shard_ != b.shard_;
    }

private:
    const Accessor* a_;
    std::uint32_t shard_, end_, stride_;
    std::uint8_t noc_;
};

template <class Accessor>
class StridedShardPages {
public:
    using iterator = StridedShardPagesIterator<Accessor>;
    using const_iterator = iterator;
    // tt-metal's constructor: the NoC defaults to noc_index, so StridedShardPages(accessor,
    // first, total, stride) deduces its accessor type.
    StridedShardPages(const Accessor& a, std::uint32_t first, std::uint32_t total, std::uint32_t stride,
                      std::uint8_t noc = noc_index)
        : a_(&a), first_(first), total_(total), stride_(stride), noc_(noc) {}
    iterator begin() const { return iterator(*a_, first_, total_, stride_, noc_); }
    iterator end() const { return iterator(*a_, total_, total_, stride_, noc_); }
    const_iterator cbegin() const { return begin(); }
    const_iterator cend() const { return end(); }

private:
    const Accessor* a_;
    std::uint32_t first_, total_, stride_;
    std::uint8_t noc_;
};

}  // namespace tensor_accessor

// Index checks of the queries, as tt-metal's ASSERTs in a watcher build: a platform that
// defines NDSHARD_TT_CHECKED provides ndshard::tt::platform::out_of_range(what, index,
// limit), which stops the kernel (ndshard's simulator reports it); elsewhere they cost
// nothing.
#if defined(NDSHARD_TT_CHECKED) && NDSHARD_TT_CHECKED
#define NDSHARD_TT_CHECK_INDEX(what, index, limit)                                           \
    do {                                                                                     \
        if (!((index) < (limit)))                                                            \
            ::ndshard::tt::platform::out_of_range((what), static_cast<std::uint32_t>(index), \
                                                  static_cast<std::uint32_t>(limit));        \
    } while (0)
#else
#define NDSHARD_TT_CHECK_INDEX(what, index, limit) ((void)0)
#endif

namespace ndshard::tt::detail {
// The common runtime words of an accessor's arguments, as far as the platform has them.
template <class Args>
::ndshard::word_span runtime_words(const Args& args) {
    if constexpr (!Args::rank_is_crta && !Args::num_banks_is_crta && !Args::tensor_shape_is_crta &&
                  !Args::shard_shape_is_crta && !Args::bank_coords_is_crta) {
        return {};
    } else {
        const std::uint32_t at = args.crta_offset();
        const std::uint32_t have = ::ndshard::tt::platform::common_arg_count();
        if (at >= have) return {};  // the accessor refuses it: its first part is missing
        const auto addr = static_cast<std::uintptr_t>(get_common_arg_addr(static_cast<int>(at)));
        return {reinterpret_cast<const std::uint32_t*>(addr), have - at};
    }
}
}  // namespace ndshard::tt::detail

// The sharded accessor; the interleaved one is the specialization below.
template <class DSpecT, bool Interleaved = DSpecT::is_interleaved>
struct TensorAccessor {
    using DSpec = DSpecT;
    using Args = typename DSpec::args_type;
    using engine = ::ndshard::accessor<&Args::ndshard_words>;
    static constexpr bool is_dram = DSpec::is_dram;

    struct PageMapping {
        std::size_t bank_id;
        std::size_t bank_page_offset;
    };

    template <std::size_t CTA_OFFSET, std::size_t CRTA_OFFSET>
    TensorAccessor(const TensorAccessorArgs<CTA_OFFSET, CRTA_OFFSET>& args, const std::size_t bank_base_address_in,
                   const std::uint32_t page_size_in = TensorAccessorArgs<CTA_OFFSET, CRTA_OFFSET>::AlignedPageSize)
        : engine_(::ndshard::tt::detail::runtime_words(args), static_cast<std::uint32_t>(bank_base_address_in),
                  page_size_in) {}
    template <std::uint32_t CTA_OFFSET, std::uint32_t ADDR_CRTA_OFFSET>
    TensorAccessor(tensor_accessor::TensorAccessorBindingToken<CTA_OFFSET, ADDR_CRTA_OFFSET> token)
        : TensorAccessor(token.args, token.address()) {}

    [[nodiscard]] tensor_accessor::dspec_view<engine> dspec() const noexcept {
        return tensor_accessor::dspec_view<engine>(engine_);
    }
    [[nodiscard]] std::uint32_t get_aligned_page_size() const noexcept { return engine_.page_size(); }
    [[nodiscard]] std::uint32_t get_bank_base_address() const noexcept { return engine_.bank_base(); }

    // --- NoC addresses ---
    [[nodiscard]] std::uint64_t get_noc_addr(const std::uint32_t page_id, const std::uint32_t offset = 0,
                                             std::uint8_t noc = noc_index) const {
        NDSHARD_TT_CHECK_INDEX("get_noc_addr: page id", page_id, engine_.num_pages());
        const ::ndshard::bank_and_offset bo = engine_.get_bank_and_offset(page_id);
        return noc_addr_of(bo.bank, bo.page_offset, offset, noc);
    }
    template <class ArrType, std::enable_if_t<tensor_accessor::detail::has_subscript_operator_v<ArrType>, int> = 0>
    [[nodiscard]] std::uint64_t get_noc_addr(const ArrType page_coord, const std::uint32_t offset = 0,
                                             std::uint8_t noc = noc_index) const {
        check_page_coord(page_coord);
        const ::ndshard::bank_and_offset bo = engine_.get_bank_and_offset_at(page_coord);
        return noc_addr_of(bo.bank, bo.page_offset, offset, noc);
    }
    [[nodiscard]] std::uint64_t get_shard_noc_addr(const std::uint32_t shard_id, const std::uint32_t offset = 0,
                                                   std::uint8_t noc = noc_index) const {
        NDSHARD_TT_CHECK_INDEX("get_shard_noc_addr: shard id", shard_id, engine_.num_shards());
        const ::ndshard::bank_and_offset bo = engine_.shard_bank_and_offset(shard_id);
        return noc_addr_of(bo.bank, bo.page_offset, offset, noc);
    }
    template <class ArrType, std::enable_if_t<tensor_accessor::detail::has_subscript_operator_v<ArrType>, int> = 0>
    [[nodiscard]] std::uint64_t get_shard_noc_addr(const ArrType shard_coord, const std::uint32_t offset = 0,
                                                   std::uint8_t noc = noc_index) const {
        for (std::uint32_t d = 0; d < engine_.rank(); ++d)
            NDSHARD_TT_CHECK_INDEX("get_shard_noc_addr: shard coordinate", shard_coord[d], engine_.grid_extent(d));
        return get_shard_noc_addr(engine_.shard_id_at(shard_coord), offset, noc);
    }
    [[nodiscard]] PageMapping get_bank_and_offset(std::uint32_t page_id) const {
        NDSHARD_TT_CHECK_INDEX("get_bank_and_offset: page id", page_id, engine_.num_pages());
        const ::ndshard::bank_and_offset bo = engine_.get_bank_and_offset(page_id);
        return {bo.bank, bo.page_offset};
    }
    template <class ArrType, std::enable_if_t<tensor_accessor::detail::has_subscript_operator_v<ArrType>, int> = 0>
    [[nodiscard]] PageMapping get_bank_and_offset(const ArrType page_coord) const {
        check_page_coord(page_coord);
        const ::ndshard::bank_and_offset bo = engine_.get_bank_and_offset_at(page_coord);
        return {bo.bank, bo.page_offset};
    }
    // Pages page_id, page_id + 1, ... at consecutive addresses of one bank (one transfer can
    // move them): ndshard's exact run, across shards where the next one follows in the bank.
    // It is 1 whenever contiguous_page_stride() > 1, a valid (short) answer of tt-metal's
    // contract below; the two-argument form walks that stride.
    [[nodiscard]] std::uint32_t num_contiguous_pages(std::uint32_t page_id) const {
        return engine_.contiguous_pages(page_id);
    }
    // tt-metal's: pages page_id + k * contiguous_page_stride() below end_page_id (capped at
    // the tensor) at get_noc_addr(page_id) + k * aligned page size, k = 0, 1, ...
    [[nodiscard]] std::uint32_t num_contiguous_pages(std::uint32_t page_id, std::uint32_t end_page_id) const {
        NDSHARD_TT_CHECK_INDEX("num_contiguous_pages: page id", page_id, engine_.num_pages());
        const std::uint32_t end = end_page_id < engine_.num_pages() ? end_page_id : engine_.num_pages();
        if (page_id >= end) return 0;
        const std::uint32_t stride = contiguous_page_stride();
        if (stride == 1) {
            const std::uint32_t run = engine_.contiguous_pages(page_id);
            return run < end - page_id ? run : end - page_id;
        }
        const ::ndshard::bank_and_offset first = engine_.get_bank_and_offset(page_id);
        std::uint32_t run = 1;
        while (std::uint64_t{end - page_id} > std::uint64_t{run} * stride) {
            const ::ndshard::bank_and_offset next = engine_.get_bank_and_offset(page_id + run * stride);
            if (next.bank != first.bank || next.page_offset != first.page_offset + run) break;
            ++run;
        }
        return run;
    }
    // The page-id step between the pages of a run: 1, but for a shard one page wide in its
    // inner dims, the tensor's pages inside the innermost dim the shard spans
    // (tensor_shape[-1] for a [.., n, 1] shard, as on tt-metal).
    [[nodiscard]] std::uint32_t contiguous_page_stride() const noexcept {
        std::uint32_t stride = 1;
        for (std::uint32_t d = engine_.rank(); d-- > 0;) {
            if (engine_.shard_extent(d) > 1) return stride;
            stride *= engine_.tensor_extent(d);
        }
        return 1;  // one-page shards: no run goes past its page
    }

    // --- locality: the bank's coordinate against this core's on the NoC ---
    [[nodiscard]] bool is_local_bank(std::uint32_t virtual_x, std::uint32_t virtual_y,
                                     std::uint8_t noc = noc_index) const {
        return virtual_x == my_x[noc] && virtual_y == my_y[noc];
    }
    [[nodiscard]] bool is_local_addr(const std::uint64_t noc_addr, std::uint8_t noc = noc_index) const {
        return is_local_bank(::ndshard::tt::noc_addr_x(noc_addr), ::ndshard::tt::noc_addr_y(noc_addr), noc);
    }
    [[nodiscard]] bool is_local_page(const std::uint32_t page_id, std::uint8_t noc = noc_index) const {
        NDSHARD_TT_CHECK_INDEX("is_local_page: page id", page_id, engine_.num_pages());
        const ::ndshard::core_coord c = engine_.bank_coord(engine_.get_bank_and_offset(page_id).bank);
        return is_local_bank(c.x, c.y, noc);
    }
    [[nodiscard]] bool is_local_shard(const std::uint32_t shard_id, std::uint8_t noc = noc_index) const {
        NDSHARD_TT_CHECK_INDEX("is_local_shard: shard id", shard_id, engine_.num_shards());
        const ::ndshard::core_coord c = engine_.bank_coord(engine_.deal(shard_id).core);
        return is_local_bank(c.x, c.y, noc);
    }

    // --- iteration ---
    // Pages [start_page_id, end_page_id) in id order; end 0 means every page.
    [[nodiscard]] tensor_accessor::Pages<TensorAccessor> pages(std::uint32_t start_page_id = 0,
                                                               std::uint32_t end_page_id = 0,
                                                               std::uint8_t noc = noc_index) const {
        return {*this, start_page_id, end_page_id == 0 ? engine_.num_pages() : end_page_id, 1, noc};
    }
    // The real pages of one shard whose offset in its slot is in [start, end); end 0 means the whole slot.
    [[nodiscard]] tensor_accessor::ShardPages<TensorAccessor> shard_pages(std::uint32_t shard_id,
                                                                          std::uint32_t start_page_offset = 0,
                                                                          std::uint32_t end_page_offset = 0,
                                                                          std::uint8_t noc = noc_index) const {
        const std::uint32_t end = end_page_offset == 0 ? engine_.shard_volume() : end_page_offset;
        return {*this, shard_id, start_page_offset, end, noc};
    }
    // This data-movement thread's pages: get_my_thread_id(), + get_num_threads(), ...
    [[nodiscard]] tensor_accessor::Pages<TensorAccessor> strided_pages(std::uint8_t noc = noc_index) const {
        return strided_pages(get_my_thread_id(), get_num_threads(), noc);
    }
    [[nodiscard]] tensor_accessor::Pages<TensorAccessor> strided_pages(std::uint32_t thread, std::uint32_t threads,
                                                                       std::uint8_t noc = noc_index) const {
        return {*this, thread, engine_.num_pages(), threads, noc};
    }
    // This thread's shards, every shard of the grid (vol(G), not ceil(pages / shard volume)).
    [[nodiscard]] tensor_accessor::StridedShardPages<TensorAccessor> strided_shard_pages(
        std::uint8_t noc = noc_index) const {
        return strided_shard_pages(get_my_thread_id(), get_num_threads(), noc);
    }
    [[nodiscard]] tensor_accessor::StridedShardPages<TensorAccessor> strided_shard_pages(
        std::uint32_t thread, std::uint32_t threads, std::uint8_t noc = noc_index) const {
        return {*this, thread, engine_.num_shards(), threads, noc};
    }

    // ndshard's own accessor underneath, for code that wants its richer interface.
    [[nodiscard]] const engine& ndshard_accessor() const noexcept { return engine_; }

    // The NoC address of a bank's page offset (+ a byte offset): an L1 bank by its
    // coordinate; a DRAM bank (its coordinate's x is the bank id) through the bank table.
    [[nodiscard]] std::uint64_t noc_addr_of(std::uint32_t bank, std::uint32_t page_offset, std::uint32_t offset,
                                            std::uint8_t noc) const {
        const std::uint32_t addr = engine_.bank_address(page_offset, offset);
        const ::ndshard::core_coord c = engine_.bank_coord(bank);
        if constexpr (is_dram) {
            return ::ndshard::tt::noc_packed_addr(::ndshard::tt::platform::dram_bank_xy(c.x, noc),
                                                  ::ndshard::tt::platform::dram_bank_offset(c.x) + addr);
        } else {
            (void)noc;
            return ::ndshard::tt::noc_xy_addr(c.x, c.y, addr);
        }
    }

private:
    template <class ArrType>
    void check_page_coord([[maybe_unused]] const ArrType& page_coord) const {
        for (std::uint32_t d = 0; d < engine_.rank(); ++d)
            NDSHARD_TT_CHECK_INDEX("page coordinate", page_coord[d], engine_.tensor_extent(d));
    }
    template <class>
    friend class tensor_accessor::PagesAddressIterator;
    template <class>
    friend class tensor_accessor::ShardPagesAddressIterator;
    template <class>
    friend class tensor_accessor::StridedShardPagesIterator;
    engine engine_;
};

// An interleaved buffer (no Sharded bit): page i in bank i % B of the platform's bank
// table, row i / B, rows the page size rounded up to the allocator's alignment apart.
template <class DSpecT>
struct TensorAccessor<DSpecT, true> {
    using DSpec = DSpecT;
    static constexpr bool is_dram = DSpec::is_dram;
    static constexpr std::uint32_t alignment = ::ndshard::tt::bank_alignment<is_dram>;

    template <std::size_t CTA_OFFSET, std::size_t CRTA_OFFSET>
    TensorAccessor(const TensorAccessorArgs<CTA_OFFSET, CRTA_OFFSET>&, const std::size_t bank_base_address_in,
                   const std::uint32_t page_size_in = TensorAccessorArgs<CTA_OFFSET, CRTA_OFFSET>::AlignedPageSize)
        : bank_base_address(static_cast<std::uint32_t>(bank_base_address_in)), page_size(page_size_in) {}
    template <std::uint32_t CTA_OFFSET, std::uint32_t ADDR_CRTA_OFFSET>
    TensorAccessor(tensor_accessor::TensorAccessorBindingToken<CTA_OFFSET, ADDR_CRTA_OFFSET> token)
        : TensorAccessor(token.args, token.address()) {}

    std::uint32_t bank_base_address;
    std::uint32_t page_size;

    [[nodiscard]] std::uint32_t get_aligned_page_size() const noexcept { return page_size; }
    [[nodiscard]] std::uint32_t get_bank_base_address() const noexcept { return bank_base_address; }
    [[nodiscard]] std::uint64_t get_noc_addr(const std::uint32_t page_id, const std::uint32_t offset = 0,
                                             std::uint8_t noc = noc_index) const {
        const std::uint32_t row = ::ndshard::tt::align_up(page_size, alignment);
        return ::ndshard::tt::interleaved_noc_addr(
            page_id, bank_base_address, offset, [row](std::uint32_t r) { return r * row; },
            ::ndshard::tt::platform_banks<is_dram>{noc});
    }
    // Pages page_id, page_id + B, ... below end_page_id (B banks) lie in one bank, a row
    // apart: what tt-metal's num_contiguous_pages and contiguous_page_stride() say.
    [[nodiscard]] std::uint32_t num_contiguous_pages(std::uint32_t page_id, std::uint32_t end_page_id) const {
        if (page_id >= end_page_id) return 0;
        const std::uint32_t b = contiguous_page_stride();
        return (end_page_id - page_id - 1) / b + 1;
    }
    [[nodiscard]] std::uint32_t contiguous_page_stride() const {
        return ::ndshard::tt::platform_banks<is_dram>{noc_index}.count();
    }
    // Pages [start, end): an interleaved accessor does not know how many pages there are.
    [[nodiscard]] tensor_accessor::Pages<TensorAccessor> pages(std::uint32_t start_page_id, std::uint32_t end_page_id,
                                                               std::uint8_t noc = noc_index) const {
        return {*this, start_page_id, end_page_id, 1, noc};
    }
    [[nodiscard]] tensor_accessor::Pages<TensorAccessor> strided_pages(std::uint32_t total_pages,
                                                                       std::uint8_t noc = noc_index) const {
        return {*this, get_my_thread_id(), total_pages, get_num_threads(), noc};
    }
    template <class... Any>
    bool is_local_page(Any...) const {
        static_assert(tensor_accessor::detail::always_false_v<DSpecT>,
                      "is_local_* is not supported by the interleaved tensor accessor (as on tt-metal)");
        return false;
    }
    template <class... Any>
    bool is_local_shard(Any...) const {
        static_assert(tensor_accessor::detail::always_false_v<DSpecT>,
                      "is_local_* is not supported by the interleaved tensor accessor (as on tt-metal)");
        return false;
    }
    template <class... Any>
    void shard_pages(Any...) const {
        static_assert(tensor_accessor::detail::always_false_v<DSpecT>,
                      "shard_pages() is not supported by the interleaved tensor accessor (as on tt-metal)");
    }
};

template <std::size_t CTA_OFFSET, std::size_t CRTA_OFFSET>
TensorAccessor(const TensorAccessorArgs<CTA_OFFSET, CRTA_OFFSET>&, std::size_t)
    -> TensorAccessor<tensor_accessor::DistributionSpec<TensorAccessorArgs<CTA_OFFSET, CRTA_OFFSET>>>;
template <std::size_t CTA_OFFSET, std::size_t CRTA_OFFSET>
TensorAccessor(const TensorAccessorArgs<CTA_OFFSET, CRTA_OFFSET>&, std::size_t, std::uint32_t)
    -> TensorAccessor<tensor_accessor::DistributionSpec<TensorAccessorArgs<CTA_OFFSET, CRTA_OFFSET>>>;

template <std::uint32_t CTA_OFFSET, std::uint32_t ADDR_CRTA_OFFSET>
TensorAccessor(tensor_accessor::TensorAccessorBindingToken<CTA_OFFSET, ADDR_CRTA_OFFSET>)
    -> TensorAccessor<tensor_accessor::DistributionSpec<TensorAccessorArgs<CTA_OFFSET>>>;

// tt-metal's older name for TensorAccessor(args, base, page_size).
template <std::size_t CTA_OFFSET, std::size_t CRTA_OFFSET>
auto make_tensor_accessor_from_args(
    const TensorAccessorArgs<CTA_OFFSET, CRTA_OFFSET>& args, std::size_t bank_base_address,
    std::uint32_t page_size = TensorAccessorArgs<CTA_OFFSET, CRTA_OFFSET>::AlignedPageSize) {
    return TensorAccessor(args, bank_base_address, page_size);
}

namespace tensor_accessor::detail {
template <class... Args, std::uint32_t... I>
auto make_accessor_tuple(const std::tuple<Args...>& args, std::uint32_t first_address_arg,
                         std::integer_sequence<std::uint32_t, I...>) {
    return std::make_tuple(
        TensorAccessor(std::get<I>(args), get_arg_val<std::uint32_t>(static_cast<int>(first_address_arg + I)))...);
}
}  // namespace tensor_accessor::detail

// One TensorAccessor per TensorAccessorArgs of the tuple, their bank base addresses the
// runtime arguments from address_rt_arg_index_start on.
template <class... Args>
auto make_tensor_accessor_tuple(const std::tuple<Args...>& args, std::uint32_t address_rt_arg_index_start) {
    return tensor_accessor::detail::make_accessor_tuple(args, address_rt_arg_index_start,
                                                        std::make_integer_sequence<std::uint32_t, sizeof...(Args)>());
}

// Any accessor behind one type (its get_noc_addr only), for arrays of accessors.
class AbstractTensorAccessorWrapper {
public:
    AbstractTensorAccessorWrapper() = default;
    template <class Accessor>
    AbstractTensorAccessorWrapper(const Accessor& accessor)  // NOLINT: implicit, as tt-metal's
        : accessor_(&accessor),
          get_noc_addr_(+[](const void* a, std::uint32_t page, std::uint32_t offset, std::uint8_t noc) {
              return static_cast<const Accessor*>(a)->get_noc_addr(page, offset, noc);
          }) {}
    [[nodiscard]] std::uint64_t get_noc_addr(std::uint32_t page_id, std::uint32_t offset = 0,
                                             std::uint8_t noc = noc_index) const {
        return get_noc_addr_(accessor_, page_id, offset, noc);
    }

private:
    const void* accessor_ = nullptr;
    std::uint64_t (*get_noc_addr_)(const void*, std::uint32_t, std::uint32_t, std::uint8_t) = nullptr;
};

template <class... Accessors>
auto make_abstract_tensor_accessor_wrappers(const std::tuple<Accessors...>& accessors) {
    return std::apply(
        [](const auto&... a) { return std::array<AbstractTensorAccessorWrapper, sizeof...(Accessors)>{{a...}}; },
        accessors);
}
