// Self-test of the oracle: the conformance vectors of docs/semantics.md's conformance vectors and the
// validation rules of docs/rules.md. Every expected value is typed in by hand from those
// documents, never computed by the oracle.
#include <cstddef>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include <ndshard/oracle/oracle.hpp>

namespace {

using namespace ndshard::oracle;
using slots = std::vector<std::vector<std::optional<big>>>;

const big two_to_31 = big(1) << 31;
const big two_to_32 = big(1) << 32;

// Parses the notation of docs/semantics.md: "{0,1} {2,P}" -> one list of slots per core.
slots parse_slots(const std::string& text) {
  slots table;
  std::string token;
  for (char ch : text) {
    if (ch == '{') {
      table.emplace_back();
    } else if (ch == ',' || ch == '}') {
      table.back().push_back(token == "P" ? std::nullopt : std::optional<big>(big(token)));
      token.clear();
    } else if (ch != ' ') {
      token += ch;
    }
  }
  return table;
}

std::vector<big> shape(const std::vector<long long>& dims) {
  std::vector<big> v;
  for (long long d : dims) v.emplace_back(d);
  return v;
}

core_range range(long long x0, long long y0, long long x1, long long y1) {
  return {big(x0), big(y0), big(x1), big(y1)};
}

spec pages_spec(const std::vector<long long>& tensor, const std::vector<long long>& shard,
                std::vector<core_range> cores) {
  spec s;
  s.tensor = shape(tensor);
  s.shard = shape(shard);
  s.cores = std::move(cores);
  return s;
}

model accept(const spec& s) {
  const verdict v = evaluate(s);
  EXPECT_TRUE(v.accepted.has_value()) << v.rule << ": " << v.message;
  if (!v.accepted) throw std::runtime_error("spec rejected: " + v.message);
  return *v.accepted;
}

void expect_rule(const spec& s, const std::string& rule, const std::string& in_message) {
  const verdict v = evaluate(s);
  EXPECT_FALSE(v.accepted.has_value());
  EXPECT_EQ(v.rule, rule) << v.message;
  EXPECT_NE(v.message.find(in_message), std::string::npos)
      << "message \"" << v.message << "\" does not name \"" << in_message << "\"";
}

// Self-consistency of one model: locate, page_at, slot_table, local_pages, counts agree.
void expect_consistent(const model& m) {
  const slots table = slot_table(m);
  for (big p = 0; p < m.num_pages; ++p) {
    const location loc = locate(m, p);
    EXPECT_EQ(table.at(static_cast<std::size_t>(loc.core_index)).at(static_cast<std::size_t>(loc.device_offset)),
              std::optional<big>(p));
    EXPECT_EQ(page_at(m, loc.core_index, loc.device_offset), std::optional<big>(p));
    EXPECT_EQ(loc.byte_address, m.bank_base + loc.device_offset * m.aligned_page_size);
    const shard_home home = shard_location(m, loc.shard_coord);
    EXPECT_EQ(home.core_index, loc.core_index);
    EXPECT_EQ(home.device_offset + loc.in_shard_offset, loc.device_offset);
  }
  big shards = 0;
  for (std::size_t c = 0; c < table.size(); ++c) {
    std::vector<big> real;
    for (std::size_t o = 0; o < table[c].size(); ++o) {
      EXPECT_EQ(page_at(m, c, o), table[c][o]);
      if (table[c][o]) real.push_back(*table[c][o]);
    }
    EXPECT_EQ(local_pages(m, c), real);
    EXPECT_EQ(pages_on_core(m, c), big(real.size()));
    shards += shards_on_core(m, c);
  }
  EXPECT_EQ(shards, m.num_shards);
}

// ---- Conformance vectors (docs/semantics.md) ---------------------------------------------

TEST(Conformance, V1_tile_round_robin_16_cores) {
  spec s = pages_spec({2, 64, 96}, {1, 32, 64}, {range(0, 0, 3, 3)});
  s.page = page_kind::tile;
  s.element_size = 2;
  const model m = accept(s);
  EXPECT_EQ(m.tensor_pages, shape({2, 2, 3}));
  EXPECT_EQ(m.shard_pages, shape({1, 1, 2}));
  EXPECT_EQ(m.num_shards, 8);
  EXPECT_EQ(m.cores.size(), 16u);
  EXPECT_EQ(m.page_size, 2048);
  EXPECT_EQ(locate(m, big(6)).core.x, 0);  // shard 4 on core 4 of (0,0),(1,0),(2,0),(3,0),(0,1),...
  EXPECT_EQ(locate(m, big(6)).core.y, 1);
  EXPECT_EQ(locate(m, big(11)).core.x, 3);  // shard 7 on (3,1)
  EXPECT_EQ(locate(m, big(11)).core.y, 1);
  EXPECT_EQ(slot_table(m), parse_slots("{0,1} {2,P} {3,4} {5,P} {6,7} {8,P} {9,10} {11,P} "
                                       "{P,P} {P,P} {P,P} {P,P} {P,P} {P,P} {P,P} {P,P}"));
  expect_consistent(m);
}

TEST(Conformance, V4_row_major_pages_col_major_range) {
  spec s = pages_spec({3, 2, 2, 3, 4}, {1, 1, 2, 2, 4}, {range(0, 0, 1, 4)});
  s.page = page_kind::row_major;
  s.orient = orientation::col_major;
  const model m = accept(s);
  ASSERT_EQ(m.cores.size(), 10u);
  EXPECT_EQ(m.cores[4].x, 0);  // (0,4)
  EXPECT_EQ(m.cores[4].y, 4);
  EXPECT_EQ(m.cores[5].x, 1);  // (1,0)
  EXPECT_EQ(m.cores[5].y, 0);
  EXPECT_EQ(m.page_size, 4);
  EXPECT_EQ(slot_table(m), parse_slots("{0,1,3,4,30,31,33,34} {2,P,5,P,32,P,35,P} {6,7,9,10,P,P,P,P} "
                                       "{8,P,11,P,P,P,P,P} {12,13,15,16,P,P,P,P} {14,P,17,P,P,P,P,P} "
                                       "{18,19,21,22,P,P,P,P} {20,P,23,P,P,P,P,P} {24,25,27,28,P,P,P,P} "
                                       "{26,P,29,P,P,P,P,P}"));
  expect_consistent(m);
}

TEST(Conformance, V7_two_by_three_on_4_banks) {
  const model m = accept(pages_spec({2, 3}, {1, 2}, {range(0, 0, 3, 0)}));
  // page -> (bank, offset): 0->(0,0) 1->(0,1) 2->(1,0) 3->(2,0) 4->(2,1) 5->(3,0)
  const long long expected[6][2] = {{0, 0}, {0, 1}, {1, 0}, {2, 0}, {2, 1}, {3, 0}};
  for (int p = 0; p < 6; ++p) {
    const location loc = locate(m, big(p));
    EXPECT_EQ(loc.core_index, expected[p][0]) << "page " << p;
    EXPECT_EQ(loc.device_offset, expected[p][1]) << "page " << p;
  }
  EXPECT_EQ(slot_table(m), parse_slots("{0,1} {2,P} {3,4} {5,P}"));
  expect_consistent(m);
}

TEST(Conformance, V7_rank4_on_6_banks) {
  const model m = accept(pages_spec({2, 1, 3, 4}, {2, 2, 1, 2}, {range(0, 0, 5, 0)}));
  // p < 12 -> (p/2, p%2), p >= 12 -> ((p-12)/2, 4+p%2), written out:
  const long long expected[24][2] = {{0, 0}, {0, 1}, {1, 0}, {1, 1}, {2, 0}, {2, 1}, {3, 0}, {3, 1},
                                     {4, 0}, {4, 1}, {5, 0}, {5, 1}, {0, 4}, {0, 5}, {1, 4}, {1, 5},
                                     {2, 4}, {2, 5}, {3, 4}, {3, 5}, {4, 4}, {4, 5}, {5, 4}, {5, 5}};
  for (int p = 0; p < 24; ++p) {
    const location loc = locate(m, big(p));
    EXPECT_EQ(loc.core_index, expected[p][0]) << "page " << p;
    EXPECT_EQ(loc.device_offset, expected[p][1]) << "page " << p;
  }
  EXPECT_EQ(slot_table(m), parse_slots("{0,1,P,P,12,13,P,P} {2,3,P,P,14,15,P,P} "
                                       "{4,5,P,P,16,17,P,P} {6,7,P,P,18,19,P,P} "
                                       "{8,9,P,P,20,21,P,P} {10,11,P,P,22,23,P,P}"));
  expect_consistent(m);
}

TEST(Conformance, V8_shards_per_core_on_2x2_grid) {
  struct row {
    std::vector<long long> tensor, shard;
    long long max_per_core;
    long long per_core[4];
  };
  const row rows[] = {{{2, 2, 2}, {1, 1, 1}, 2, {2, 2, 2, 2}},
                      {{3, 3, 3}, {2, 2, 2}, 2, {2, 2, 2, 2}},
                      {{2, 2, 4}, {2, 2, 2}, 1, {1, 1, 0, 0}},
                      {{0, 0, 0}, {1, 1, 1}, 0, {0, 0, 0, 0}}};
  for (const row& r : rows) {
    const model m = accept(pages_spec(r.tensor, r.shard, {range(0, 0, 1, 1)}));
    EXPECT_EQ(m.max_shards_per_core, r.max_per_core);
    for (int c = 0; c < 4; ++c) EXPECT_EQ(shards_on_core(m, c), r.per_core[c]) << "core " << c;
    expect_consistent(m);
  }
  EXPECT_EQ(accept(pages_spec({0, 0, 0}, {1, 1, 1}, {range(0, 0, 1, 1)})).num_shards, 0);
  EXPECT_EQ(accept(pages_spec({3, 3}, {2, 2}, {range(0, 0, 1, 1)})).num_shards, 4);  // not ceil(9/4)
}

TEST(Conformance, proposal_picture_3x7x5_on_6_cores) {
  const model m = accept(pages_spec({3, 7, 5}, {2, 2, 2}, {range(0, 0, 5, 0)}));
  EXPECT_EQ(m.num_shards, 24);
  EXPECT_EQ(m.max_shards_per_core, 4);
  const long long real_per_core[6] = {24, 24, 12, 18, 18, 9};
  const slots table = slot_table(m);
  ASSERT_EQ(table.size(), 6u);
  for (int c = 0; c < 6; ++c) {
    EXPECT_EQ(pages_on_core(m, c), real_per_core[c]) << "core " << c;
    long long real = 0;
    for (const auto& slot : table[static_cast<std::size_t>(c)]) real += slot ? 1 : 0;
    EXPECT_EQ(real, real_per_core[c]) << "core " << c;
  }
  const slots core0_start = parse_slots("{0,1,5,6,35,36,40,41,20,21,25,26,55,56,60,61}");
  ASSERT_GE(table[0].size(), 16u);
  EXPECT_EQ(std::vector<std::optional<big>>(table[0].begin(), table[0].begin() + 16), core0_start[0]);
  expect_consistent(m);
}

// ---- Strategies and legacy special cases ------------------------------------------------------

TEST(Strategies, contiguous_and_grid_2d) {
  spec s = pages_spec({5}, {1}, {range(0, 0, 3, 0)});
  s.strat = strategy::contiguous_1d;  // k = 2: core 0 {0,1}, core 1 {2,3}, core 2 {4,P}
  model m = accept(s);
  EXPECT_EQ(slot_table(m), parse_slots("{0,1} {2,3} {4,P} {P,P}"));
  expect_consistent(m);

  s = pages_spec({2, 4}, {1, 1}, {range(3, 5, 4, 8)});  // Gh = 2, Gw = 4 on a 2 wide, 4 high range
  s.strat = strategy::grid_2d;
  s.orient = orientation::col_major;  // shard (i, j) on (x0+i, y0+j)
  m = accept(s);
  const long long xy[8][2] = {{3, 5}, {3, 6}, {3, 7}, {3, 8}, {4, 5}, {4, 6}, {4, 7}, {4, 8}};
  ASSERT_EQ(m.cores.size(), 8u);
  for (std::size_t c = 0; c < 8; ++c) {
    EXPECT_EQ(m.cores[c].x, xy[c][0]);
    EXPECT_EQ(m.cores[c].y, xy[c][1]);
  }
  expect_consistent(m);
}

TEST(Cores, expansion_order) {
  // Ranges in the order given; row_major: x fastest, col_major: y fastest.
  const std::vector<core_range> ranges = {range(0, 0, 1, 1), range(5, 7, 5, 7)};
  const long long row[5][2] = {{0, 0}, {1, 0}, {0, 1}, {1, 1}, {5, 7}};
  const long long col[5][2] = {{0, 0}, {0, 1}, {1, 0}, {1, 1}, {5, 7}};
  const std::vector<core_xy> r = expand_cores(ranges, orientation::row_major);
  const std::vector<core_xy> c = expand_cores(ranges, orientation::col_major);
  ASSERT_EQ(r.size(), 5u);
  ASSERT_EQ(c.size(), 5u);
  for (std::size_t i = 0; i < 5; ++i) {
    EXPECT_EQ(r[i].x, row[i][0]);
    EXPECT_EQ(r[i].y, row[i][1]);
    EXPECT_EQ(c[i].x, col[i][0]);
    EXPECT_EQ(c[i].y, col[i][1]);
  }
  EXPECT_THROW(expand_cores({range(1, 0, 0, 0)}, orientation::row_major), std::out_of_range);
  EXPECT_THROW(expand_cores({{0, 0, big(1) << 32, 0}}, orientation::col_major), std::out_of_range);
  // Coordinates up to rule core_coord's 65535, up to rule too_many_cores' 65536 cores.
  const std::vector<core_xy> far = expand_cores({range(65534, 65535, 65535, 65535)}, orientation::col_major);
  ASSERT_EQ(far.size(), 2u);
  EXPECT_EQ(far[1].x, 65535);
  EXPECT_EQ(far[1].y, 65535);
  EXPECT_THROW(expand_cores({range(0, 65535, 0, 65536)}, orientation::row_major), std::out_of_range);
  EXPECT_EQ(expand_core_list({range(0, 0, 255, 255)}, orientation::row_major).size(), 65536u);
  EXPECT_THROW(expand_core_list({range(0, 0, 255, 255), range(0, 256, 0, 256)}, orientation::row_major),
               std::length_error);
}

TEST(Cores, list_reads_like_a_vector) {
  // Three ranges, each orientation: iteration, [i] and at(i) give the expansion's cores.
  const std::vector<core_range> ranges = {range(2, 3, 3, 4), range(7, 9, 7, 9), range(0, 0, 2, 1)};
  const long long row[11][2] = {{2, 3}, {3, 3}, {2, 4}, {3, 4}, {7, 9}, {0, 0}, {1, 0}, {2, 0}, {0, 1}, {1, 1}, {2, 1}};
  const long long col[11][2] = {{2, 3}, {2, 4}, {3, 3}, {3, 4}, {7, 9}, {0, 0}, {0, 1}, {1, 0}, {1, 1}, {2, 0}, {2, 1}};
  for (const orientation o : {orientation::row_major, orientation::col_major}) {
    const long long(&want)[11][2] = o == orientation::row_major ? row : col;
    const core_list list = expand_core_list(ranges, o);
    ASSERT_EQ(list.size(), 11u);
    std::size_t i = 0;
    for (const core_xy& c : list) {
      EXPECT_EQ(c.x, want[i][0]) << i;
      EXPECT_EQ(c.y, want[i][1]) << i;
      EXPECT_EQ(list[i].x, c.x) << i;
      EXPECT_EQ(list.at(i).y, c.y) << i;
      ++i;
    }
    EXPECT_EQ(i, 11u);
    EXPECT_THROW(list.at(11), std::out_of_range);
  }
  core_list built;
  EXPECT_TRUE(built.empty());
  EXPECT_EQ(built.begin(), built.end());
  built.push_back(core_xy{65535, 0});
  built.add_range(range(4, 5, 4, 6));
  ASSERT_EQ(built.size(), 3u);
  EXPECT_EQ(built[0].x, 65535);
  EXPECT_EQ(built[2].y, 6);
  EXPECT_THROW(built.push_back(core_xy{65536, 0}), std::out_of_range);
  EXPECT_THROW(built.push_back(core_xy{0, -1}), std::out_of_range);
  EXPECT_THROW(built.add_range(range(3, 0, 2, 0)), std::out_of_range);
  EXPECT_THROW(built.add_range(range(0, 0, 255, 255)), std::length_error);  // 3 + 65536 cores
  EXPECT_EQ(built.size(), 3u);
}

TEST(Legacy, formulas) {
  EXPECT_EQ(interleaved(5, 4).bank, 1);
  EXPECT_EQ(interleaved(5, 4).offset, 1);
  const legacy_place h = legacy_height(3, 2, 6, 4, 2);  // core 3/2, offset (3%2)*4 + 2
  EXPECT_EQ(h.core_index, 1);
  EXPECT_EQ(h.offset, 6);
  const legacy_place w = legacy_width(3, 5, 4, 8, 3);  // core 5/3, offset 3*3 + 5%3
  EXPECT_EQ(w.core_index, 1);
  EXPECT_EQ(w.offset, 11);
  core_xy core;
  // [4,8] pages, shard [2,3]: grid 2 x 3; page (3,7) is in shard (1,2), offset 1*3 + 1.
  const legacy_place b = legacy_block(3, 7, 4, 8, 2, 3, orientation::row_major, range(1, 1, 4, 4), &core);
  EXPECT_EQ(b.core_index, 5);
  EXPECT_EQ(b.offset, 4);
  EXPECT_EQ(core.x, 3);
  EXPECT_EQ(core.y, 2);
  legacy_block(3, 7, 4, 8, 2, 3, orientation::col_major, range(1, 1, 4, 4), &core);
  EXPECT_EQ(core.x, 2);
  EXPECT_EQ(core.y, 3);
  EXPECT_THROW(legacy_block(0, 0, 4, 8, 2, 3, orientation::row_major, range(0, 0, 1, 1), nullptr), std::out_of_range);
  EXPECT_THROW(interleaved(1, 0), std::out_of_range);
  EXPECT_THROW(legacy_height(6, 0, 6, 4, 2), std::out_of_range);
}

TEST(Legacy, nd_sharding_has_them_as_special_cases) {
  // Interleaved = every shard dim 1, cores = banks.
  const model il = accept(pages_spec({2, 5}, {1, 1}, {range(0, 0, 3, 0)}));
  for (big p = 0; p < 10; ++p) {
    EXPECT_EQ(locate(il, p).core_index, interleaved(p, 4).bank);
    EXPECT_EQ(locate(il, p).device_offset, interleaved(p, 4).offset);
  }
  // HEIGHT [sh, W] and WIDTH [H, sw] on [2,3,4] pages seen as [6,4].
  const model hs = accept(pages_spec({2, 3, 4}, {2, 4}, {range(0, 0, 2, 0)}));
  const model ws = accept(pages_spec({2, 3, 4}, {6, 3}, {range(0, 0, 1, 0)}));
  spec bs = pages_spec({2, 3, 8}, {2, 3}, {range(1, 1, 4, 4)});
  bs.strat = strategy::grid_2d;
  const model bm = accept(bs);
  for (big r = 0; r < 6; ++r)
    for (big c = 0; c < 4; ++c) {
      const location lh = locate(hs, r * 4 + c), lw = locate(ws, r * 4 + c);
      EXPECT_EQ(lh.core_index, legacy_height(r, c, 6, 4, 2).core_index);
      EXPECT_EQ(lh.device_offset, legacy_height(r, c, 6, 4, 2).offset);
      EXPECT_EQ(lw.core_index, legacy_width(r, c, 6, 4, 3).core_index);
      EXPECT_EQ(lw.device_offset, legacy_width(r, c, 6, 4, 3).offset);
    }
  for (big r = 0; r < 6; ++r)
    for (big c = 0; c < 8; ++c) {
      core_xy core;
      const legacy_place b = legacy_block(r, c, 6, 8, 2, 3, orientation::row_major, range(1, 1, 4, 4), &core);
      const location lb = locate(bm, r * 8 + c);
      EXPECT_EQ(lb.core_index, b.core_index);
      EXPECT_EQ(lb.device_offset, b.offset);
      EXPECT_EQ(lb.core.x, core.x);
      EXPECT_EQ(lb.core.y, core.y);
    }
}

TEST(Huge, direct_computation_near_2_to_32) {
  const model one = accept(pages_spec({4294967295LL}, {1}, {range(0, 0, 0, 0)}));
  EXPECT_EQ(one.reserved_pages_per_core, 4294967295LL);
  EXPECT_EQ(locate(one, big(4294967294LL)).device_offset, 4294967294LL);
  EXPECT_EQ(page_at(one, 0, big(4294967294LL)), std::optional<big>(big(4294967294LL)));
  EXPECT_EQ(pages_on_core(one, 0), 4294967295LL);

  const model m = accept(pages_spec({65535, 65537}, {1000, 1000}, {range(0, 0, 7, 7)}));
  EXPECT_EQ(m.num_pages, big(4294967295LL));  // 65536^2 - 1
  EXPECT_EQ(m.num_shards, 66 * 66);
  const big last = m.num_pages - 1;  // page (65534, 65536): shard (65, 65) = 4355, in-shard (534, 536)
  const location loc = locate(m, last);
  EXPECT_EQ(loc.shard_id, 4355);
  EXPECT_EQ(loc.in_shard_offset, 534 * 1000 + 536);
  EXPECT_EQ(loc.core_index, 4355 % 64);
  EXPECT_EQ(loc.slot, 4355 / 64);
  EXPECT_EQ(page_at(m, loc.core_index, loc.device_offset), std::optional<big>(last));
  EXPECT_THROW(locate(m, m.num_pages), std::out_of_range);
  EXPECT_THROW(page_at(m, 0, m.reserved_pages_per_core), std::out_of_range);
  EXPECT_THROW(page_at(m, 64, 0), std::out_of_range);
}

// ---- Validation rules (docs/rules.md "Errors"), one test per rule id -------------------------

spec base() { return pages_spec({4, 4}, {2, 2}, {range(0, 0, 1, 1)}); }

TEST(Rules, accepts_the_base_spec) { accept(base()); }

TEST(Rules, rank) {
  spec s = base();
  s.tensor = {};
  expect_rule(s, "rank", "0");
  s = pages_spec({1, 1, 1, 1, 1, 1, 1, 1, 1}, {1}, {range(0, 0, 0, 0)});
  expect_rule(s, "rank", "9");
  accept(pages_spec({1, 1, 1, 1, 1, 1, 1, 1}, {1}, {range(0, 0, 0, 0)}));
}

TEST(Rules, shard_rank) {
  spec s = base();
  s.shard = {};
  expect_rule(s, "shard_rank", "0");
  s.shard = shape({1, 1, 1});
  expect_rule(s, "shard_rank", "3");
}

TEST(Rules, zero_shard_dim) {
  spec s = base();
  s.shard = shape({2, 0});
  expect_rule(s, "zero_shard_dim", "is 0");
}

TEST(Rules, tile) {
  spec s = pages_spec({64, 64}, {64}, {range(0, 0, 0, 0)});
  s.page = page_kind::tile;
  expect_rule(s, "tile", "rank 1");
  s.shard = shape({32, 32});
  s.tile_h = 0;
  expect_rule(s, "tile", "0x32");
  s.page = page_kind::pages;  // tile dims do not matter outside tile layout
  accept(s);
}

TEST(Rules, element_size) {
  spec s = base();
  s.element_size = 0;
  expect_rule(s, "element_size", "element_size 0");
}

TEST(Rules, alignment) {
  spec s = base();
  s.alignment = 0;
  expect_rule(s, "alignment", "alignment 0");
  s.alignment = 24;
  expect_rule(s, "alignment", "alignment 24 is not a power of two");
  s.alignment = 64;
  s.element_size = 100;
  EXPECT_EQ(accept(s).aligned_page_size, 128);
}

TEST(Rules, no_cores) {
  spec s = base();
  s.cores = {};
  expect_rule(s, "no_cores", "empty");
}

TEST(Rules, bad_range) {
  spec s = base();
  s.cores = {range(3, 0, 1, 0)};
  expect_rule(s, "bad_range", "(3,0)-(1,0)");
  s.cores = {range(0, 0, 0, 0), range(0, 2, 0, 1)};
  expect_rule(s, "bad_range", "(0,2)-(0,1)");
}

TEST(Rules, core_coord) {
  spec s = base();
  s.cores = {range(0, 0, 0, 65536)};
  expect_rule(s, "core_coord", "65536");
  s.cores = {range(65535, 65535, 65535, 65535)};
  accept(s);
}

TEST(Rules, too_many_cores) {
  spec s = base();
  s.cores = {range(0, 0, 255, 255), range(0, 256, 0, 256)};
  expect_rule(s, "too_many_cores", "65537");
  s.cores = {range(0, 0, 65535, 65535)};  // counted, never expanded
  expect_rule(s, "too_many_cores", "4294967296");
  s.cores = {range(0, 0, 255, 255), range(0, 0, 255, 255)};  // checked before duplicates
  expect_rule(s, "too_many_cores", "131072");
  s.cores = {range(0, 0, 255, 255)};
  EXPECT_EQ(accept(s).cores.size(), 65536u);
}

TEST(Rules, duplicate_core) {
  spec s = base();
  s.cores = {range(0, 0, 1, 1), range(1, 1, 2, 2)};
  expect_rule(s, "duplicate_core", "(1,1)");
  // The first core listed twice, in list order: the third range meets the first at (4,0) and
  // the second at (0,1); row_major lists (4,0) first (y by y), col_major (0,1) (x by x).
  s.cores = {range(4, 0, 6, 2), range(0, 1, 1, 1), range(0, 0, 6, 2)};
  expect_rule(s, "duplicate_core", "core (4,0) appears");
  s.orient = orientation::col_major;
  expect_rule(s, "duplicate_core", "core (0,1) appears");
  s.orient = orientation::row_major;
  s.cores = {range(0, 0, 1, 1), range(2, 0, 3, 1), range(0, 2, 3, 2)};  // touching, not sharing
  accept(s);
  // More than 64 ranges are checked core by core: the same rule, the same first repeat.
  s.cores.clear();
  for (int x = 0; x < 64; ++x) s.cores.push_back(range(x, 0, x, 0));
  s.cores.push_back(range(70, 0, 70, 3));
  accept(s);
  s.cores.push_back(range(5, 0, 5, 0));
  s.cores.push_back(range(70, 2, 70, 2));
  expect_rule(s, "duplicate_core", "core (5,0) appears");
}

TEST(Rules, grid_2d_ranges) {
  spec s = base();
  s.strat = strategy::grid_2d;
  s.cores = {range(0, 0, 1, 1), range(2, 0, 3, 1)};
  expect_rule(s, "grid_2d_ranges", "2");
}

TEST(Rules, grid_2d_fit) {
  spec s = pages_spec({4, 4}, {1, 1}, {range(0, 0, 2, 3)});  // Gh = Gw = 4 on 3 wide, 4 high
  s.strat = strategy::grid_2d;
  expect_rule(s, "grid_2d_fit", "4 x 4");
  s.cores = {range(0, 0, 3, 3)};
  accept(s);
  s = pages_spec({2, 4}, {1, 1}, {range(0, 0, 3, 1)});  // col_major needs Gw = 4 <= height 2
  s.strat = strategy::grid_2d;
  s.orient = orientation::col_major;
  expect_rule(s, "grid_2d_fit", "2 x 4");
  s.cores = {range(0, 0, 1, 3)};
  accept(s);
}

TEST(Rules, tensor_pages_32bit) {
  expect_rule(pages_spec({4294967296LL}, {1}, {range(0, 0, 0, 0)}), "tensor_pages_32bit", "4294967296");
  expect_rule(pages_spec({65536, 65536}, {1, 1}, {range(0, 0, 0, 0)}), "tensor_pages_32bit", "4294967296");
  expect_rule(pages_spec({0, 2147483648LL, 2}, {1, 1, 1}, {range(0, 0, 0, 0)}), "tensor_pages_32bit",
              "4294967296");  // zero dims count as 1
  accept(pages_spec({4294967295LL}, {2147483648LL}, {range(0, 0, 0, 0)}));
}

TEST(Rules, shard_pages_32bit) {
  expect_rule(pages_spec({1}, {4294967296LL}, {range(0, 0, 0, 0)}), "shard_pages_32bit", "4294967296");
  expect_rule(pages_spec({1, 1}, {65536, 65536}, {range(0, 0, 0, 0)}), "shard_pages_32bit", "4294967296");
  accept(pages_spec({1}, {4294967295LL}, {range(0, 0, 0, 0)}));
}

TEST(Rules, page_size_32bit) {
  spec s = pages_spec({1}, {1}, {range(0, 0, 0, 0)});
  s.element_size = two_to_32;
  expect_rule(s, "page_size_32bit", "4294967296");
  s.element_size = two_to_32 - 1;
  s.alignment = 2;  // rounds up to 2^32
  expect_rule(s, "page_size_32bit", "4294967296");
  s.alignment = 1;
  accept(s);
  s = pages_spec({32, 32}, {32, 32}, {range(0, 0, 0, 0)});
  s.page = page_kind::tile;
  s.element_size = big(1) << 22;  // 32*32*2^22 = 2^32
  expect_rule(s, "page_size_32bit", "4294967296");
}

TEST(Rules, address_32bit) {
  spec s = pages_spec({2}, {1}, {range(0, 0, 0, 0)});
  s.element_size = two_to_31;  // 2 reserved pages * 2^31 bytes end exactly at 2^32
  accept(s);
  s.bank_base = 1;
  expect_rule(s, "address_32bit", "4294967297");
  s = pages_spec({0}, {1}, {range(0, 0, 0, 0)});  // nothing reserved, but the base itself
  s.bank_base = two_to_32;
  expect_rule(s, "address_32bit", "bank_base 4294967296");
  s.bank_base = two_to_32 - 1;
  accept(s);
}

TEST(Rules, first_failing_rule_in_table_order) {
  spec s = base();
  s.alignment = 24;
  s.cores = {};
  expect_rule(s, "alignment", "24");
  s = base();
  s.strat = strategy::grid_2d;
  s.cores = {range(1, 0, 0, 0), range(2, 2, 2, 2)};
  expect_rule(s, "bad_range", "(1,0)-(0,0)");
  s = base();
  s.element_size = 0;
  s.shard = shape({1, 1, 1});
  expect_rule(s, "shard_rank", "3");
}

TEST(Rules, negative_values_are_outside_the_domain) {
  spec s = base();
  s.tensor = shape({4, -1});
  EXPECT_THROW(evaluate(s), std::invalid_argument);
}

}  // namespace
