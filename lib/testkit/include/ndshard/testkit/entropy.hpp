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
#include <vector>

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

// splitmix64: deterministic per seed.
class random_entropy final : public entropy {
public:
    explicit random_entropy(std::uint64_t seed) : state_(seed) {}
    std::uint64_t next() {
        std::uint64_t z = (state_ += 0x9E3779B97F4A7C15ULL);
        z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
        z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
        return z ^ (z >> 31);
    }
    std::uint64_t between(std::uint64_t lo, std::uint64_t hi) override {
        const std::uint64_t span = hi - lo;
        if (span == std::numeric_limits<std::uint64_t>::max()) return next();
        return lo + next() % (span + 1);
    }

private:
    std::uint64_t state_;
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

}  // namespace ndshard::testkit
