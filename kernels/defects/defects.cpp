// kernels/defects/defects.cpp - the defect registry and the expectations file's reader.
#include "defects/defects.hpp"

#include <algorithm>
#include <charconv>
#include <fstream>

#include "ndshard/error.hpp"

namespace ndshard::kernels {
namespace {

// The defect's kernel is defects/<name>.cpp, in place of the op's reader or writer.
defect reader_defect(std::string name, std::string op, std::string mistake) {
    kernel_swap swap;
    swap.reader = "defects/" + name + ".cpp";
    return {std::move(name), std::move(op), std::move(swap), std::move(mistake)};
}

// A mistake in both kernels: defects/<name>_reader.cpp and defects/<name>_writer.cpp.
defect pair_defect(std::string name, std::string op, std::string mistake, bool semaphore = false) {
    kernel_swap swap;
    swap.reader = "defects/" + name + "_reader.cpp";
    swap.writer = "defects/" + name + "_writer.cpp";
    swap.semaphore = semaphore;
    return {std::move(name), std::move(op), std::move(swap), std::move(mistake)};
}

defect writer_defect(std::string name, std::string op, std::string mistake, bool semaphore = false) {
    kernel_swap swap;
    swap.writer = "defects/" + name + ".cpp";
    swap.semaphore = semaphore;
    return {std::move(name), std::move(op), std::move(swap), std::move(mistake)};
}

// The finding kinds of launch.hpp, and the two checks kcheck adds after a launch.
bool is_check(std::string_view c) {
    constexpr std::string_view known[] = {"cb_protocol", "noc_bounds",    "noc_page",     "async",         "deadlock",
                                          "hang",        "accessor",      "kernel_error", "compile_error", "output",
                                          "padding",     "uninitialized", "race"};
    return std::find(std::begin(known), std::end(known), c) != std::end(known);
}

[[noreturn]] void reject_line(const std::filesystem::path& file, std::size_t line, const std::string& why) {
    throw spec_error("expectations", file.string() + ":" + std::to_string(line) + ": " + why +
                                         " (expected: name check[|check...] pages<=N [schedules=K]  # comment)");
}

}  // namespace

const std::vector<defect>& defects() {
    static const std::vector<defect> all = {
        reader_defect("interleaved_on_sharded", "copy", "pages addressed through InterleavedAddrGen on any buffer"),
        reader_defect("grid2d_row_major_cores", "copy",
                      "a bank's core computed as a row-major walk of a rectangle, not read from the args"),
        reader_defect("missing_dram_bank_offset", "copy",
                      "DRAM-sharded addresses built from the bank table without bank_to_dram_offset"),
        reader_defect("push_before_read_barrier", "copy", "cb_push_back before noc_async_read_barrier"),
        reader_defect("read_barrier_wrong_noc", "copy", "reads on NoC 1, barrier on the default NoC 0"),
        reader_defect("start_id_off_by_one", "copy",
                      "pages first + 1 .. first + count read instead of first .. first + count - 1"),
        writer_defect("page_size_from_cb", "copy", "the accessor's page size taken from get_tile_size(cb)"),
        writer_defect("read_barrier_for_writes", "copy", "noc_async_read_barrier where the write flush belongs"),
        writer_defect("wait_block_tail", "copy", "cb_wait_front of a full block for a shorter last block"),
        writer_defect("semaphore_never_set", "copy", "waits for a semaphore no kernel sets", true),
        writer_defect("skip_every_second_shard", "copy_shards", "the shard walk steps by 2n instead of n"),
        writer_defect("shard_count_by_volume", "copy_shards",
                      "shards counted as ceil(pages / shard volume), not vol(shard grid)"),
        writer_defect("shard_pages_packed", "copy_shards",
                      "a shard's i-th page written at slot position i, as if its pages were packed"),
        reader_defect("reserve_beyond_cb", "reduce:0", "cb_reserve_back of K pages on a 2-page CB"),
        reader_defect("read_barrier_after_loop", "reduce:0", "each page pushed before the one barrier after the loop"),
        writer_defect("sum_not_reset", "reduce:0", "the running sum zeroed once, not per output page"),
        reader_defect("permute_output_strides", "permute:1,0", "the input page strides taken from the output grid"),
        writer_defect("missing_final_write_barrier", "copy",
                      "each write flushed, no noc_async_write_barrier before the kernel ends"),
        writer_defect("signal_before_write_barrier", "copy",
                      "a semaphore signalled on NoC 0 before the barrier of the writes on NoC 1 it announces", true),
        reader_defect("read_size_in_words", "copy", "noc_async_read given the page's size in 32-bit words, not bytes"),
        pair_defect("overlapping_work_split", "copy",
                    "each core's page range starts one page early: two cores write the same page, unordered"),
        reader_defect("page_id_uint16", "copy", "the page id kept in a uint16_t: past page 65535 it wraps to 0"),
        writer_defect("shard_offset_uint16", "copy_shards",
                      "a page's byte offset in its shard kept in a uint16_t: past 64 KiB it wraps"),
        writer_defect("pair_wait_one", "copy", "pages written and popped two at a time after a cb_wait_front of one"),
        pair_defect("counter_lost_update", "copy",
                    "reader and writer count pages in one L1 word with a load and a store around NoC calls", true),
    };
    return all;
}

ttsim::op_desc defect_op(std::string_view name) {
    const auto& all = defects();
    const auto it = std::find_if(all.begin(), all.end(), [&](const defect& d) { return d.name == name; });
    if (it == all.end()) {
        std::string names;
        for (const defect& d : all) names += (names.empty() ? "" : ", ") + d.name;
        throw spec_error("op", "unknown defect '" + std::string(name) + "' (the defects: " + names + ")");
    }
    ttsim::op_desc op = make_op(it->op, it->swap);
    op.name = it->name;
    return op;
}

std::vector<defect_expectation> read_expectations(const std::filesystem::path& file) {
    std::ifstream in(file);
    if (!in) throw spec_error("expectations", file.string() + ": cannot be read");
    std::vector<defect_expectation> out;
    std::string text;
    for (std::size_t line = 1; std::getline(in, text); ++line) {
        defect_expectation e;
        if (const std::size_t hash = text.find('#'); hash != std::string::npos) {
            const std::size_t from = text.find_first_not_of(' ', hash + 1);
            e.comment = from == std::string::npos ? "" : text.substr(from);
            text.resize(hash);
        }
        std::vector<std::string> fields;
        for (std::size_t at = 0;;) {
            at = text.find_first_not_of(" \t", at);
            if (at == std::string::npos) break;
            const std::size_t end = text.find_first_of(" \t", at);
            fields.push_back(text.substr(at, end == std::string::npos ? end : end - at));
            at = end;
        }
        if (fields.empty()) continue;  // a comment or a blank line
        if (fields.size() != 3 && fields.size() != 4)
            reject_line(file, line, std::to_string(fields.size()) + " fields");
        e.name = fields[0];
        for (std::size_t at = 0;;) {
            const std::size_t bar = fields[1].find('|', at);
            std::string check = fields[1].substr(at, bar == std::string::npos ? bar : bar - at);
            if (!is_check(check)) reject_line(file, line, "'" + check + "' is not a check");
            e.checks.push_back(std::move(check));
            if (bar == std::string::npos) break;
            at = bar + 1;
        }
        const std::string_view bound = fields[2];
        constexpr std::string_view prefix = "pages<=";
        const std::string_view digits = bound.substr(std::min(bound.size(), prefix.size()));
        const auto [end, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), e.max_pages);
        if (!bound.starts_with(prefix) || digits.empty() || ec != std::errc{} || end != digits.data() + digits.size())
            reject_line(file, line, "'" + fields[2] + "' is not pages<=N");
        if (fields.size() == 4) {
            const std::string_view k = fields[3];
            constexpr std::string_view key = "schedules=";
            const std::string_view n = k.substr(std::min(k.size(), key.size()));
            const auto [stop, err] = std::from_chars(n.data(), n.data() + n.size(), e.schedules);
            if (!k.starts_with(key) || n.empty() || err != std::errc{} || stop != n.data() + n.size() ||
                e.schedules < 1 || e.schedules > 64)
                reject_line(file, line, "'" + fields[3] + "' is not schedules=K with K in 1..64");
        }
        if (e.comment.empty()) reject_line(file, line, "no comment saying what real mistake it is");
        out.push_back(std::move(e));
    }
    return out;
}

std::vector<defect_expectation> read_expectations() {
    return read_expectations(kernels_dir() / "defects" / "expectations.txt");
}

}  // namespace ndshard::kernels
