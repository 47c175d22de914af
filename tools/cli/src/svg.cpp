// `svg`: the tensor as blocks of page cells coloured by core, the cores with their
// stacked shards, and a legend (see svg.hpp for the picture and its tags).
#include "ndshard/cli/svg.hpp"

#include <algorithm>
#include <charconv>
#include <concepts>
#include <cmath>
#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "ndshard/cli/palette.hpp"
#include "ndshard/cli/render.hpp"
#include "ndshard/cli/spec_input.hpp"

namespace ndshard::cli {

namespace {

// Oblique projection: one unit of depth moves a point right and up by these fractions
// of a cell; shards are drawn this fraction of a cell apart.
constexpr double depth_dx = 0.55;
constexpr double depth_dy = 0.38;
constexpr double shard_gap = 0.3;
constexpr double margin = 16;
constexpr std::uint64_t panel_cell_limit = 40000;  // beyond: slots are drawn as bars
constexpr std::uint64_t max_slot_cells = 1024;     // a bigger shard is drawn as one bar

// Every coordinate goes through here, printed as printf's "%.1f" prints it, without a
// trailing ".0" and with "-0" as "0". t = 10 v in doubles is within |t| * 2^-53 < 0.002 of
// the exact 10 v while |t| < 10^13, so when t is at most 0.49 from the integer n nearest to
// it, n is also nearest to the exact 10 v and is what "%.1f" prints (as n / 10). Near a
// half-way point (exact ties included), for large values and non-finite ones, to_chars
// decides: it prints what "%.1f" prints (checked on 20 million doubles). 320 bytes hold
// any double in fixed form.
void append_num(std::string& out, double v) {
    const double t = v * 10.0;
    if (std::fabs(t) < 1e13) {
        const double n = std::round(t);
        if (std::fabs(t - n) <= 0.49) {
            const auto tenths = static_cast<std::int64_t>(n);
            if (tenths == 0) {
                out += '0';
                return;
            }
            const std::uint64_t m =
                tenths < 0 ? static_cast<std::uint64_t>(-tenths) : static_cast<std::uint64_t>(tenths);
            char buf[24];
            char* end = buf;
            if (tenths < 0) *end++ = '-';
            end = std::to_chars(end, buf + sizeof buf, m / 10).ptr;
            if (m % 10 != 0) {
                *end++ = '.';
                *end++ = static_cast<char>('0' + m % 10);
            }
            out.append(buf, end);
            return;
        }
    }
    char buf[320];
    std::string s(buf, std::to_chars(buf, buf + sizeof buf, v, std::chars_format::fixed, 1).ptr);
    if (s.size() > 2 && s.compare(s.size() - 2, 2, ".0") == 0) s.resize(s.size() - 2);
    out += s == "-0" ? "0" : s;
}

std::string num(double v) {
    std::string s;
    append_num(s, v);
    return s;
}

// An SVG being written: << appends text, and integers as ostream prints them, straight to
// one string (an ostringstream's sentry and buffer calls for every piece cost more than
// the rest of the picture).
struct text_out {
    std::string text;
    text_out& operator<<(std::string_view piece) {
        text += piece;
        return *this;
    }
    template <std::integral I>
    requires(!std::same_as<I, bool> && !std::same_as<I, char>) text_out& operator<<(I n) {
        char buf[24];
        text.append(buf, std::to_chars(buf, buf + sizeof buf, n).ptr);
        return *this;
    }
};

std::string escape(std::string_view text) {
    std::string out;
    for (char c : text) {
        switch (c) {
            case '&':
                out += "&amp;";
                break;
            case '<':
                out += "&lt;";
                break;
            case '>':
                out += "&gt;";
                break;
            case '"':
                out += "&quot;";
                break;
            default:
                out += c;
        }
    }
    return out;
}

std::string plural(std::uint64_t n, const char* word) { return std::to_string(n) + " " + word + (n == 1 ? "" : "s"); }

struct point {
    double x, y;
};

std::string polygon(std::initializer_list<point> pts) {
    std::string d;
    for (const point& p : pts) {
        d += d.empty() ? "M" : " L";
        append_num(d, p.x);
        d += ' ';
        append_num(d, p.y);
    }
    d += " Z";
    return d;
}

// One position of the (padded) tensor picture.
struct cell {
    std::uint64_t block = 0;  // index over the leading dims (rank >= 4)
    std::uint64_t dep = 0, row = 0, col = 0;
    std::uint64_t gap_dep = 0, gap_row = 0, gap_col = 0;  // shard index along each axis
    bool real = false;                                    // a page, not a padding slot
    std::uint64_t page = 0;
    std::uint64_t core = 0;
};

// Which tensor dims the picture's axes show; -1 when the axis is absent.
struct axes {
    std::size_t lead = 0;  // dims [0, lead) index the blocks
    int dep = -1, row = -1, col = -1;
};

axes axes_of(std::size_t rank) {
    axes a;
    const int r = static_cast<int>(rank);
    a.col = r - 1;
    if (r >= 2) a.row = r - 2;
    if (r >= 3) a.dep = r - 3;
    a.lead = rank >= 3 ? rank - 3 : 0;
    return a;
}

// Extents of the picture: the tensor's page grid, grown to whole shards where a tensor
// dim is a layout dim of its own (padding there is drawn). Leading dims folded into the
// layout's dim 0 keep their size (their padding shows in the core panel only).
shape picture_extents(const distribution& d, bool with_padding) {
    const page_layout& l = d.layout;
    shape e = d.tensor_pages;
    if (!with_padding) return e;
    const std::size_t k = e.rank() - l.rank() + 1;  // tensor dims folded into layout dim 0
    for (std::size_t a = 0; a < e.rank(); ++a) {
        if (a >= k) e[a] = l.grid[a - k + 1] * l.shard[a - k + 1];
        else if (k == 1) e[0] = l.grid[0] * l.shard[0];
    }
    return e;
}

std::vector<cell> collect_cells(const distribution& d, const shape& ext, const axes& ax) {
    const page_layout& l = d.layout;
    const shape& t = d.tensor_pages;
    const std::size_t r = t.rank();
    const std::size_t k = r - l.rank() + 1;
    std::vector<cell> cells;
    const std::uint64_t count = volume_of(ext);
    cells.reserve(count);
    shape coord = ext;
    for (auto& c : coord) c = 0;
    auto gap_along = [&](int axis, const shape& q) -> std::uint64_t {
        if (axis < 0) return 0;
        const auto a = static_cast<std::size_t>(axis);
        if (a >= k) return q[a - k + 1];
        return k == 1 ? q[0] : 0;
    };
    for (std::uint64_t n = 0; n < count; ++n) {
        cell c;
        for (std::size_t a = 0; a < ax.lead; ++a) c.block = c.block * ext[a] + coord[a];
        if (ax.dep >= 0) c.dep = coord[static_cast<std::size_t>(ax.dep)];
        if (ax.row >= 0) c.row = coord[static_cast<std::size_t>(ax.row)];
        c.col = coord[static_cast<std::size_t>(ax.col)];
        c.real = true;
        for (std::size_t a = 0; a < r; ++a) c.real = c.real && coord[a] < t[a];
        // The position in the layout's (folded) rank; the library places it.
        shape folded;
        std::uint64_t lead = 0;
        for (std::size_t a = 0; a < k; ++a) lead = lead * ext[a] + coord[a];
        folded.push_back(lead);
        for (std::size_t a = k; a < r; ++a) folded.push_back(coord[a]);
        const page_place<std::uint64_t> at = l.locate_coord(folded);
        const shape q = l.shard_coord(at.shard_id);
        c.core = at.core;
        if (c.real) c.page = d.page_id_of(coord);
        c.gap_dep = gap_along(ax.dep, q);
        c.gap_row = gap_along(ax.row, q);
        c.gap_col = gap_along(ax.col, q);
        cells.push_back(c);
        for (std::size_t a = r; a-- > 0;) {  // odometer over ext
            if (++coord[a] < ext[a]) break;
            coord[a] = 0;
        }
    }
    return cells;
}

// The SVG body of one picture part, drawn in its own coordinates, with its size.
struct part {
    std::string body;
    double width = 0, height = 0;
};

struct style {
    std::optional<std::uint64_t> highlight;  // core index
    // Attributes of an element drawn for `core`; `outline` is its stroke when nothing is
    // highlighted (the highlighted core gets a heavy black one, the others fade).
    std::string cell_attrs(std::uint64_t core, const std::string& outline = "") const {
        if (highlight && core == *highlight) return " stroke=\"#000\" stroke-width=\"1.6\"";
        return outline + (highlight ? " opacity=\"0.18\"" : "");
    }
};

std::string label(double x, double y, double size, const std::string& text, const char* anchor = "middle",
                  const std::string& extra = "") {
    return "<text x=\"" + num(x) + "\" y=\"" + num(y) + "\" font-size=\"" + num(size) + "\" text-anchor=\"" + anchor +
           "\" stroke=\"none\"" + extra + ">" + escape(text) + "</text>\n";
}

part draw_tensor(const distribution& d, const style& st, std::string& note) {
    const shape& t = d.tensor_pages;
    const axes ax = axes_of(t.rank());
    shape ext = picture_extents(d, true);
    if (volume_of(ext) > svg_cell_limit) {
        if (d.num_pages() > svg_cell_limit)
            throw usage_error(std::to_string(d.num_pages()) + " pages are more than the " +
                              std::to_string(svg_cell_limit) + " cells a picture shows; use --level shard");
        ext = picture_extents(d, false);
        note = "padding is not drawn (too many padding cells)";
    }
    part out;
    if (volume_of(ext) == 0) {
        out.body = label(0, 14, 12, "empty tensor " + to_string(t) + ": no pages", "start");
        out.width = 200;
        out.height = 24;
        return out;
    }
    const std::vector<cell> cells = collect_cells(d, ext, ax);
    const bool solid = ax.dep >= 0;

    std::uint64_t blocks = 1;
    for (std::size_t a = 0; a < ax.lead; ++a) blocks *= ext[a];
    std::uint64_t max_gd = 0, max_gr = 0, max_gc = 0;
    for (const cell& c : cells) {
        max_gd = std::max(max_gd, c.gap_dep);
        max_gr = std::max(max_gr, c.gap_row);
        max_gc = std::max(max_gc, c.gap_col);
    }
    const double cols = static_cast<double>(ext[static_cast<std::size_t>(ax.col)]);
    const double rows = ax.row >= 0 ? static_cast<double>(ext[static_cast<std::size_t>(ax.row)]) : 1.0;
    const double deps = solid ? static_cast<double>(ext[static_cast<std::size_t>(ax.dep)]) + max_gd * shard_gap : 0.0;
    // Sizes in cell units: front face, plus the depth's shift right and up.
    const double unit_w = cols + max_gc * shard_gap + deps * depth_dx;
    const double unit_h = rows + max_gr * shard_gap + deps * depth_dy;
    const std::uint64_t per_row = std::min<std::uint64_t>(blocks, 6);
    const std::uint64_t block_rows = (blocks + per_row - 1) / per_row;
    const double caption = ax.lead > 0 ? 1.6 : 0.0;
    const double s = std::clamp(
        std::min(820.0 / (per_row * (unit_w + 2.2)), 600.0 / (block_rows * (unit_h + 2.2 + caption))), 6.0, 34.0);
    const double block_w = unit_w * s, block_h = unit_h * s;
    const double front_w = (cols + max_gc * shard_gap) * s, front_h = (rows + max_gr * shard_gap) * s;
    const double pitch_x = block_w + 2.2 * s, pitch_y = block_h + (2.2 + caption) * s;
    const double axis_pad = 1.6 * s;  // room for the row-axis label on the left
    const std::size_t digits = std::to_string(t.rank() ? d.num_pages() : 0).size();
    const double font = std::min(s * 0.42, s * 1.5 / static_cast<double>(digits));
    const bool labels = font >= 6.5;

    // Painter's order: back to front, bottom to top, left to right.
    std::vector<std::size_t> order(cells.size());
    for (std::size_t i = 0; i < order.size(); ++i) order[i] = i;
    std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
        const cell &p = cells[a], &q = cells[b];
        if (p.block != q.block) return p.block < q.block;
        if (p.dep != q.dep) return p.dep > q.dep;
        if (p.row != q.row) return p.row > q.row;
        return p.col < q.col;
    });

    // A face hidden by a real neighbour of the same shard (no gap between them) is left
    // out: the picture is the same and the file much smaller. Cells were collected in
    // row-major order over the extents, so a neighbour is a fixed stride away.
    const std::uint64_t n_col = ext[static_cast<std::size_t>(ax.col)];
    const std::uint64_t n_row = ax.row >= 0 ? ext[static_cast<std::size_t>(ax.row)] : 1;
    const std::uint64_t row_stride = n_col, dep_stride = n_col * n_row;
    auto covers = [&](const cell& c, std::size_t at, bool exists, auto same_shard) {
        return exists && cells[at].real && same_shard(cells[at], c);
    };
    text_out body;
    auto block_origin = [&](std::uint64_t b) -> point {
        return {axis_pad + static_cast<double>(b % per_row) * pitch_x,
                static_cast<double>(b / per_row) * pitch_y + deps * depth_dy * s};
    };
    for (std::size_t i : order) {
        const cell& c = cells[i];
        const point o = block_origin(c.block);
        const double x = o.x + (c.col + c.gap_col * shard_gap) * s;
        const double y = o.y + (c.row + c.gap_row * shard_gap) * s;
        const double z = c.dep + c.gap_dep * shard_gap;
        auto at = [&](double px, double py, double pz) -> point {
            return {px + pz * depth_dx * s, py - pz * depth_dy * s};
        };
        const rgb colour = core_colour(c.core);
        const point f0 = at(x, y, z), f1 = at(x + s, y, z), f2 = at(x + s, y + s, z), f3 = at(x, y + s, z);
        const point b0 = at(x, y, z + 1), b1 = at(x + s, y, z + 1), b2 = at(x + s, y + s, z + 1);
        if (!c.real) {
            std::string d_path = polygon({f0, f1, f2, f3});
            if (solid) d_path += " " + polygon({f0, b0, b1, f1}) + " " + polygon({f1, b1, b2, f2});
            body << "<g class=\"pad\" data-core=\"" << c.core << "\"" << st.cell_attrs(c.core) << "><path d=\""
                 << d_path << "\" fill=\"none\" stroke=\"" << hex(colour)
                 << "\" stroke-opacity=\"0.4\" stroke-width=\"0.6\" stroke-dasharray=\"2 2\"/></g>\n";
            continue;
        }
        const bool front = !covers(c, i - dep_stride, solid && c.dep > 0,
                                   [](const cell& n, const cell& m) { return n.gap_dep == m.gap_dep; });
        const bool top = !covers(c, i - row_stride, solid && c.row > 0,
                                 [](const cell& n, const cell& m) { return n.gap_row == m.gap_row; });
        const bool right = !covers(c, i + 1, solid && c.col + 1 < n_col,
                                   [](const cell& n, const cell& m) { return n.gap_col == m.gap_col; });
        body << "<g class=\"page\" data-page=\"" << c.page << "\" data-core=\"" << c.core << "\" fill=\"" << hex(colour)
             << "\"" << st.cell_attrs(c.core) << ">";
        if (front) body << "<path d=\"" << polygon({f0, f1, f2, f3}) << "\"/>";
        if (solid && top)
            body << "<path d=\"" << polygon({f0, b0, b1, f1}) << "\" fill=\"" << hex(shade(colour, 0.35)) << "\"/>";
        if (solid && right)
            body << "<path d=\"" << polygon({f1, b1, b2, f2}) << "\" fill=\"" << hex(shade(colour, -0.25)) << "\"/>";
        if (labels && front)
            body << "<text x=\"" << num(f0.x + s / 2) << "\" y=\"" << num(f0.y + s / 2 + font * 0.36)
                 << "\" font-size=\"" << num(font) << "\" text-anchor=\"middle\" stroke=\"none\" fill=\""
                 << (prefers_dark_text(colour) ? "#111" : "#fff") << "\">" << c.page << "</text>";
        body << "</g>\n";
    }

    // Axis labels on the first block, captions under every block of a rank-4+ tensor.
    auto dim_text = [&](int a) {
        const auto u = static_cast<std::size_t>(a);
        return "dim " + std::to_string(a) + ": " + std::to_string(t[u]);
    };
    const point o = block_origin(0);
    const double small = std::clamp(s * 0.45, 9.0, 12.0);
    body << label(o.x + front_w / 2, o.y + front_h + small + 4, small,
                  dim_text(ax.col) + (t[static_cast<std::size_t>(ax.col)] == 1 ? " page" : " pages"));
    if (ax.row >= 0)
        body << label(o.x - 6, o.y + front_h / 2, small, dim_text(ax.row), "middle",
                      " transform=\"rotate(-90 " + num(o.x - 6) + " " + num(o.y + front_h / 2) + ")\"");
    if (solid) {
        const double angle = -std::atan2(depth_dy, depth_dx) * 180.0 / 3.14159265358979;
        const point mid{o.x + deps * depth_dx * s / 2 - 9, o.y - deps * depth_dy * s / 2 - 9};
        body << label(mid.x, mid.y, small, dim_text(ax.dep), "middle",
                      " transform=\"rotate(" + num(angle) + " " + num(mid.x) + " " + num(mid.y) + ")\"");
    }
    if (ax.lead > 0) {
        for (std::uint64_t b = 0; b < blocks; ++b) {
            std::string name = "[";
            std::uint64_t rest = b;
            std::vector<std::uint64_t> lead(ax.lead);
            for (std::size_t a = ax.lead; a-- > 0;) {
                lead[a] = rest % ext[a];
                rest /= ext[a];
            }
            bool padding = false;
            for (std::size_t a = 0; a < ax.lead; ++a) {
                name += std::to_string(lead[a]) + ",";
                padding = padding || lead[a] >= t[a];
            }
            name += ":,:,:]";
            const point ob = block_origin(b);
            body << label(ob.x + front_w / 2, ob.y + front_h + small * 2 + 10, small + 1,
                          padding ? name + " (padding)" : name);
        }
    }
    // Cells inherit their outline from one group around them.
    out.body = "<g stroke=\"#2b2b2b\" stroke-width=\"0.6\" stroke-linejoin=\"round\">\n" + body.text + "</g>\n";
    out.width = axis_pad + static_cast<double>(per_row) * pitch_x - 1.2 * s;
    out.height = static_cast<double>(block_rows) * pitch_y;
    return out;
}

// The shard grid of the folded layout, one cell per shard coloured by its core: the last
// grid dim across, the one before it down, further dims as a row of blocks. An edge shard
// fills the part of its cell its real extents cover along those two dims (its real pages
// out of vol(S) are in data-pages / data-volume); the rest is a dashed outline.
part draw_shards(const distribution& d, const style& st) {
    const page_layout& l = d.layout;
    const std::size_t r = l.rank();
    if (l.num_shards > svg_cell_limit)
        throw usage_error(std::to_string(l.num_shards) + " shards are more than the " + std::to_string(svg_cell_limit) +
                          " cells a picture shows; use explain or show --level shard");
    part out;
    if (l.num_shards == 0) {
        out.body = label(0, 14, 12, "empty tensor " + to_string(d.tensor_pages) + ": no shards", "start");
        out.width = 200;
        out.height = 24;
        return out;
    }
    const std::uint64_t cols = l.grid[r - 1], rows = r >= 2 ? l.grid[r - 2] : 1;
    const std::uint64_t blocks = l.num_shards / (cols * rows);
    const std::uint64_t per_row = std::min<std::uint64_t>(blocks, 8);
    const std::uint64_t block_rows = (blocks + per_row - 1) / per_row;
    const double caption = r >= 3 ? 1.6 : 0.0;
    const double s =
        std::clamp(std::min(820.0 / (static_cast<double>(per_row) * (static_cast<double>(cols) + 1.5)),
                            600.0 / (static_cast<double>(block_rows) * (static_cast<double>(rows) + 1.5 + caption))),
                   6.0, 40.0);
    const double pitch_x = (static_cast<double>(cols) + 1.5) * s;
    const double pitch_y = (static_cast<double>(rows) + 1.5 + caption) * s;
    // The real extent of a shard along dim a, as a fraction of S[a].
    auto share = [&](const shape& real_shape, std::size_t a) {
        return static_cast<double>(real_shape[a]) / static_cast<double>(l.shard[a]);
    };
    text_out body;
    for (std::uint64_t id = 0; id < l.num_shards; ++id) {
        const shape q = l.shard_coord(id);
        const shape real_shape = l.real_shard_shape(id);
        const std::uint64_t block = id / (cols * rows);
        const double x = static_cast<double>(block % per_row) * pitch_x + static_cast<double>(q[r - 1]) * s;
        const double y =
            static_cast<double>(block / per_row) * pitch_y + static_cast<double>(r >= 2 ? q[r - 2] : 0) * s;
        const std::uint64_t core = l.shard_home(id).core;
        const std::string colour = hex(core_colour(core));
        const double w = s * share(real_shape, r - 1), h = r >= 2 ? s * share(real_shape, r - 2) : s;
        const std::uint64_t real = l.pages_in_shard(id);
        if (real != l.shard_volume)
            body << "<rect class=\"shard-pad\" x=\"" << num(x) << "\" y=\"" << num(y) << "\" width=\"" << num(s)
                 << "\" height=\"" << num(s) << "\" fill=\"none\" stroke=\"" << colour << "\" stroke-dasharray=\"2 2\""
                 << st.cell_attrs(core) << "/>";
        body << "<rect class=\"shard\" data-shard=\"" << id << "\" data-core=\"" << core << "\" data-pages=\"" << real
             << "\" data-volume=\"" << l.shard_volume << "\" x=\"" << num(x) << "\" y=\"" << num(y) << "\" width=\""
             << num(w) << "\" height=\"" << num(h) << "\" fill=\"" << colour << "\"" << st.cell_attrs(core) << "/>\n";
        if (r >= 3 && q[r - 1] == 0 && (r < 2 || q[r - 2] == 0)) {
            std::string name = "shards [";
            for (std::size_t a = 0; a + 2 < r; ++a) name += std::to_string(q[a]) + ",";
            body << label(x + static_cast<double>(cols) * s / 2, y + (static_cast<double>(rows) + 1.2) * s,
                          std::min(11.0, s), name + ":,:]");
        }
    }
    out.body = "<g class=\"shards\" stroke=\"#2b2b2b\" stroke-width=\"0.4\">\n" + body.text + "</g>\n";
    out.width = static_cast<double>(per_row) * pitch_x;
    out.height = static_cast<double>(block_rows) * pitch_y;
    return out;
}

part draw_panel(const distribution& d, const style& st) {
    const page_layout& l = d.layout;
    std::map<std::uint32_t, std::size_t> column, row;  // core coordinate -> panel position
    for (const core_coord& c : d.cores) {
        column[c.x] = 0;
        row[c.y] = 0;
    }
    std::size_t i = 0;
    for (auto& [x, at] : column) at = i++;
    i = 0;
    for (auto& [y, at] : row) at = i++;

    const shape shown = display_shape(l.shard);
    const std::size_t n = shown.rank();
    const std::uint64_t cols = shown[n - 1], rows = n >= 2 ? shown[n - 2] : 1;
    const std::uint64_t planes = l.shard_volume / std::max<std::uint64_t>(rows * cols, 1);
    const bool bars = l.shard_volume > max_slot_cells || l.reserved_pages_per_core() * l.num_cores > panel_cell_limit;
    const double across = static_cast<double>(planes * cols) + static_cast<double>(planes - 1) * 0.6;
    double pc = bars ? 0 : std::clamp(std::min(150.0 / across, 90.0 / static_cast<double>(rows)), 3.0, 16.0);
    const double slot_w = bars ? 120.0 : across * pc;
    const double slot_h = bars ? 10.0 : static_cast<double>(rows) * pc;
    const double left = 30, title = 18;
    const double box_w = std::max(left + slot_w + 10, 136.0);
    const double box_h = title + static_cast<double>(l.max_shards_per_core) * (slot_h + 5) + 8;
    const double pitch_x = box_w + 10, pitch_y = box_h + 10;
    const std::size_t digits = std::to_string(l.num_pages).size();
    const double font = std::min(pc * 0.55, pc * 1.45 / static_cast<double>(digits));
    const bool labels = !bars && font >= 6.0;

    text_out body;
    body << label(0, 12, 12, "cores on the core grid (x right, y down)", "start", " font-weight=\"bold\"");
    const double top = 24;
    for (std::size_t c = 0; c < d.cores.size(); ++c) {
        const rgb colour = core_colour(c);
        const double bx = static_cast<double>(column[d.cores[c].x]) * pitch_x;
        const double by = top + static_cast<double>(row[d.cores[c].y]) * pitch_y;
        body << "<g class=\"core\" data-core=\"" << c << "\" stroke=\"#2b2b2b\" stroke-width=\"0.4\""
             << (st.highlight && c != *st.highlight ? " opacity=\"0.18\"" : "") << ">";
        body << "<rect x=\"" << num(bx) << "\" y=\"" << num(by) << "\" width=\"" << num(box_w) << "\" height=\""
             << num(box_h) << "\" rx=\"4\" fill=\"#f7f7f7\" stroke=\"" << hex(colour) << "\" stroke-width=\""
             << (st.highlight && c == *st.highlight ? "3.5" : "1.5") << "\"/>\n";
        body << label(
            bx + 6, by + 13, 10.5,
            "core " + std::to_string(c) + " " + to_string(d.cores[c]) + ": " + plural(l.shards_on_core(c), "shard"),
            "start");
        for (std::uint64_t slot = 0; slot < l.max_shards_per_core; ++slot) {
            const double sy = by + title + static_cast<double>(slot) * (slot_h + 5);
            const double sx = bx + left;
            const auto shard_id = l.shard_in_slot(c, slot);
            body << label(bx + left - 4, sy + slot_h / 2 + 3.5, 9, shard_id ? "s" + std::to_string(*shard_id) : "-",
                          "end");
            if (bars) {
                const double real =
                    shard_id ? static_cast<double>(l.pages_in_shard(*shard_id)) / static_cast<double>(l.shard_volume)
                             : 0.0;
                body << "<rect class=\"slotbar\" x=\"" << num(sx) << "\" y=\"" << num(sy) << "\" width=\""
                     << num(slot_w) << "\" height=\"" << num(slot_h) << "\" fill=\"none\" stroke=\"" << hex(colour)
                     << "\" stroke-dasharray=\"2 2\"/>";
                if (real > 0)
                    body << "<rect x=\"" << num(sx) << "\" y=\"" << num(sy) << "\" width=\"" << num(slot_w * real)
                         << "\" height=\"" << num(slot_h) << "\" fill=\"" << hex(colour) << "\"/>";
                body << "\n";
                continue;
            }
            for (std::uint64_t p = 0; p < planes; ++p)
                for (std::uint64_t r = 0; r < rows; ++r)
                    for (std::uint64_t col = 0; col < cols; ++col) {
                        const std::uint64_t offset = slot * l.shard_volume + (p * rows + r) * cols + col;
                        const double x = sx + (static_cast<double>(p) * (static_cast<double>(cols) + 0.6) +
                                               static_cast<double>(col)) *
                                                  pc;
                        const double y = sy + static_cast<double>(r) * pc;
                        const auto page = l.page_at(c, offset);
                        body << "<rect class=\"slot\" data-core=\"" << c << "\" data-offset=\"" << offset << "\"";
                        if (page) body << " data-page=\"" << *page << "\" fill=\"" << hex(colour) << "\"";
                        else
                            body << " fill=\"none\" stroke=\"" << hex(colour)
                                 << "\" stroke-opacity=\"0.55\" stroke-width=\"0.6\" stroke-dasharray=\"1.5 1.5\"";
                        body << " x=\"" << num(x) << "\" y=\"" << num(y) << "\" width=\"" << num(pc) << "\" height=\""
                             << num(pc) << "\"/>";
                        if (page && labels)
                            body << "<text x=\"" << num(x + pc / 2) << "\" y=\"" << num(y + pc / 2 + font * 0.36)
                                 << "\" font-size=\"" << num(font)
                                 << "\" text-anchor=\"middle\" stroke=\"none\" fill=\""
                                 << (prefers_dark_text(colour) ? "#111" : "#fff") << "\">" << *page << "</text>";
                        body << "\n";
                    }
        }
        body << "</g>\n";
    }
    part out;
    out.body = body.text;
    out.width = std::max(static_cast<double>(column.size()) * pitch_x - 10, 260.0);
    out.height = top + static_cast<double>(row.size()) * pitch_y - 10;
    return out;
}

part draw_legend(const distribution& d, const style& st, double width) {
    const page_layout& l = d.layout;
    const double entry_w = 220, entry_h = 16;
    const std::size_t per_row = std::max<std::size_t>(1, static_cast<std::size_t>(width / entry_w));
    text_out body;
    const std::size_t entries = d.cores.size() + 1;
    for (std::size_t i = 0; i < entries; ++i) {
        const double x = static_cast<double>(i % per_row) * entry_w;
        const double y = static_cast<double>(i / per_row) * entry_h;
        if (i == d.cores.size()) {
            body << "<g class=\"legend-padding\"><rect x=\"" << num(x) << "\" y=\"" << num(y) << "\" width=\"11\" "
                 << "height=\"11\" fill=\"none\" stroke=\"#777\" stroke-dasharray=\"2 2\"/>"
                 << label(x + 16, y + 9.5, 10.5, "padding slot (outline in its core's colour)", "start") << "</g>\n";
            break;
        }
        const rgb colour = core_colour(i);
        body << "<g class=\"legend\" data-core=\"" << i << "\" data-x=\"" << d.cores[i].x << "\" data-y=\""
             << d.cores[i].y << "\" fill=\"" << hex(colour) << "\"" << st.cell_attrs(i) << "><rect x=\"" << num(x)
             << "\" y=\"" << num(y) << "\" width=\"11\" height=\"11\" stroke=\"#2b2b2b\" stroke-width=\"0.5\"/>"
             << label(x + 16, y + 9.5, 10.5,
                      "core " + std::to_string(i) + " " + to_string(d.cores[i]) + ": " +
                          plural(l.shards_on_core(i), "shard") + ", " + plural(l.pages_on_core(i), "page"),
                      "start", " fill=\"#222\"")
             << "</g>\n";
    }
    part out;
    out.body = body.text;
    out.width = static_cast<double>(std::min(entries, per_row)) * entry_w;
    out.height = static_cast<double>((entries + per_row - 1) / per_row) * entry_h;
    return out;
}

}  // namespace

std::string render_svg(const distribution& d, const svg_options& options) {
    const page_layout& l = d.layout;
    style st;
    if (options.highlight) {
        const auto it = std::find(d.cores.begin(), d.cores.end(), *options.highlight);
        if (it == d.cores.end())
            throw usage_error("--highlight-core " + to_string(*options.highlight) + ": not one of the " +
                              plural(d.cores.size(), "core") + " of this distribution");
        st.highlight = static_cast<std::uint64_t>(it - d.cores.begin());
    }
    std::string note;
    const bool by_shard = options.level == draw_level::shard ||
                          (options.level == draw_level::automatic && d.num_pages() > svg_cell_limit);
    if (by_shard)
        note = "one cell per shard (" + plural(d.num_pages(), "page") +
               (options.level == draw_level::shard ? "" : " are more than " + std::to_string(svg_cell_limit)) +
               "), an edge shard filled as far as it is real";
    const part tensor = by_shard ? draw_shards(d, st) : draw_tensor(d, st, note);
    const part panel = draw_panel(d, st);
    const bool beside = tensor.width <= 900;
    const double header = 58;
    const point tensor_at{margin, header + 8};
    const point panel_at =
        beside ? point{margin + tensor.width + 40, header} : point{margin, header + 8 + tensor.height + 24};
    const double content_w = beside ? tensor.width + 40 + panel.width : std::max(tensor.width, panel.width);
    const double content_bottom = std::max(tensor_at.y + tensor.height, panel_at.y + panel.height);
    const part legend = draw_legend(d, st, std::max(content_w, 440.0));
    const point legend_at{margin, content_bottom + 24};
    double width = std::ceil(std::max(content_w, legend.width) + 2 * margin);
    const double height = std::ceil(legend_at.y + legend.height + margin);

    const std::uint64_t slots = l.reserved_pages_per_core() * l.num_cores;
    std::string units = describe_units(d.spec);
    std::string title = "tensor " + to_string(d.spec.tensor) + ", shard " + to_string(d.spec.shard) + " (" + units +
                        ") on " + plural(l.num_cores, "core") + ", " + to_string(d.spec.strat);
    std::string facts = to_string(d.tensor_pages) + " pages in " + to_string(d.shard_pages) + " shards: shard grid " +
                        to_string(l.grid) + " = " + plural(l.num_shards, "shard") + ", up to " +
                        std::to_string(l.max_shards_per_core) + " per core; " + std::to_string(slots - l.num_pages) +
                        " of " + std::to_string(slots) + " slots are padding";
    if (!note.empty()) facts += "; " + note;
    if (st.highlight)
        facts += "; highlighted: core " + std::to_string(*st.highlight) + " " + to_string(*options.highlight);
    // Room for the two header lines (about 0.6 em per character).
    width = std::ceil(std::max({width, 2 * margin + static_cast<double>(title.size()) * 15 * 0.62,
                                2 * margin + static_cast<double>(facts.size()) * 11.5 * 0.56}));

    text_out svg;
    svg << "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
        << "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" << num(width) << "\" height=\"" << num(height)
        << "\" viewBox=\"0 0 " << num(width) << " " << num(height)
        << "\" font-family=\"DejaVu Sans, Helvetica, Arial, sans-serif\">\n"
        << "<title>" << escape(title) << "</title>\n"
        << "<rect class=\"background\" x=\"0\" y=\"0\" width=\"" << num(width) << "\" height=\"" << num(height)
        << "\" fill=\"#ffffff\"/>\n"
        << label(margin, 24, 15, title, "start", " font-weight=\"bold\" fill=\"#111\"")
        << label(margin, 42, 11.5, facts, "start", " fill=\"#333\"") << "<g class=\"tensor\" transform=\"translate("
        << num(tensor_at.x) << " " << num(tensor_at.y) << ")\">\n"
        << tensor.body << "</g>\n"
        << "<g class=\"panel\" transform=\"translate(" << num(panel_at.x) << " " << num(panel_at.y) << ")\">\n"
        << panel.body << "</g>\n"
        << "<g class=\"legends\" transform=\"translate(" << num(legend_at.x) << " " << num(legend_at.y) << ")\">\n"
        << legend.body << "</g>\n"
        << "</svg>\n";
    return std::move(svg.text);
}

}  // namespace ndshard::cli
