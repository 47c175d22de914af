// ndshard/testkit/entropy.hpp - one source of randomness for properties and fuzzers.
//
// Generators in the testkit ask an `entropy` for choices. Three sources implement it:
// random_entropy (a seeded PRNG, for sampling and examples), byte_entropy (a fuzzer's
// input bytes, decoded compactly like FuzzedDataProvider) and rc_entropy
// (rc_entropy.hpp: RapidCheck generators, so failures shrink). A spec generator is thus
// written once and explores the same space under RapidCheck and libFuzzer.
//
// Convention: smaller values are simpler. `chance(p)` is true for the TOP p% of the
// range, so RapidCheck shrinking (towards low values) turns special cases off.
#pragma once

#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <limits>
#include <span>
#include <type_traits>
#include <vector>

#include "ndshard/testkit/splitmix64.hpp"

namespace ndshard::testkit {

class entropy {
public:
    virtual ~entropy() = default;
    // An integer in [lo, hi] (lo <= hi).
    virtual std::uint64_t between(std::uint64_t lo, std::uint64_t hi) = 0;

    bool chance(std::uint32_t percent) { return between(0, 99) >= 100 - percent; }
    template <class T>
    T pick(std::initializer_list<T> options) {
        return options.begin()[between(0, options.size() - 1)];
    }
};

// splitmix64 (splitmix64.hpp): deterministic per seed.
class random_entropy final : public entropy {
public:
    explicit random_entropy(std::uint64_t seed) : gen_{seed} {}
    std::uint64_t next() { return gen_.next(); }
    std::uint64_t between(std::uint64_t lo, std::uint64_t hi) override {
        const std::uint64_t span = hi - lo;
        if (span == std::numeric_limits<std::uint64_t>::max()) return next();
        return lo + next() % (span + 1);
    }

private:
    splitmix64 gen_;
};

// Decodes a fuzzer's bytes: each choice takes just enough bytes for its range (none for
// a single value); an exhausted input answers `lo`, the simplest choice.
class byte_entropy final : public entropy {
public:
    explicit byte_entropy(std::span<const std::uint8_t> bytes) : bytes_(bytes) {}
    std::uint64_t between(std::uint64_t lo, std::uint64_t hi) override {
        const std::uint64_t span = hi - lo;
        std::uint64_t value = 0;
        for (std::uint64_t covered = 0; covered < span && pos_ < bytes_.size();) {
            value = (value << 8) | bytes_[pos_++];
            covered = covered == 0 ? 0xFF : (covered << 8) | 0xFF;
            if (covered >= span) break;
        }
        if (span == std::numeric_limits<std::uint64_t>::max()) return value;
        return lo + value % (span + 1);
    }
    [[nodiscard]] std::size_t consumed() const noexcept { return pos_; }
    [[nodiscard]] std::span<const std::uint8_t> rest() const noexcept { return bytes_.subspan(pos_); }

private:
    std::span<const std::uint8_t> bytes_;
    std::size_t pos_ = 0;
};

// One choice, read or written. A listing of fields written once against `Io` both decodes
// (choice_reader: v = e.between(lo, hi)) and encodes (choice_writer: the bytes that make
// byte_entropy answer v), so a fuzzer seed can be built for an exact value.
struct choice_reader {
    static constexpr bool writing = false;
    entropy& source;
    template <class T>
    void operator()(std::uint64_t lo, std::uint64_t hi, T& v) {
        v = static_cast<T>(source.between(lo, hi));
    }
};

// The inverse of byte_entropy: between(lo, hi) reads just enough big-endian bytes to
// cover hi - lo, so v - lo written in that many bytes decodes back to v (lo <= v <= hi).
struct choice_writer {
    static constexpr bool writing = true;
    std::vector<std::uint8_t>& bytes;
    template <class T>
    void operator()(std::uint64_t lo, std::uint64_t hi, const T& v) {
        const std::uint64_t span = hi - lo;
        const std::uint64_t value = static_cast<std::uint64_t>(v) - lo;
        int count = 0;
        for (std::uint64_t covered = 0; covered < span; covered = (covered << 8) | 0xFF) {
            ++count;
            if (count == 8) break;
        }
        for (int i = count; i-- > 0;) bytes.push_back(static_cast<std::uint8_t>(value >> (8 * i)));
    }
};

// A value of T (uint32_t or uint64_t) in one of four forms, so that a few bytes reach the
// edges: small (0..15), 16-bit, next to a power of two (2^k - 8 .. 2^k + 7 for k in
// 0..k_max, modulo 2^bits), or any value. Both directions, like the choices above.
template <unsigned k_max, class Io, class T>
void edge_value(Io& io, T& v) {
    static_assert(std::is_same_v<T, std::uint32_t> || std::is_same_v<T, std::uint64_t>);
    static_assert(k_max < 64);
    std::uint64_t form = 3, k = 0, delta = 0;
    if constexpr (Io::writing) {
        if (v <= 15) {
            form = 0;
        } else if (v <= 65535) {
            form = 1;
        } else {
            for (k = 0; k <= k_max; ++k) {
                delta = static_cast<T>(v - static_cast<T>(std::uint64_t{1} << k) + 8U);
                if (delta <= 15) {
                    form = 2;
                    break;
                }
            }
        }
    }
    io(0, 3, form);
    switch (form) {
        case 0:
            io(0, 15, v);
            break;
        case 1:
            io(0, 65535, v);
            break;
        case 2:
            io(0, k_max, k);
            io(0, 15, delta);
            if constexpr (!Io::writing) v = static_cast<T>((std::uint64_t{1} << k) + delta - 8);
            break;
        default:
            io(0, std::numeric_limits<T>::max(), v);
            break;
    }
}

}  // namespace ndshard::testkit
