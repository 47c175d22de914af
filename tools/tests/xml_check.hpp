// A small, strict XML reader for tests: enough of XML 1.0 to prove that an SVG is
// well formed (one root, matched tags, quoted attributes without '<', no repeated
// attribute, known entities only, nothing but whitespace, comments and processing
// instructions outside the root) and to walk its elements. Not a general parser: no
// DOCTYPE, no CDATA, no namespaces beyond keeping the prefixed names.
#pragma once

#include <cstddef>
#include <map>
#include <memory>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace ndshard::cli::test {

struct xml_element {
    std::string name;
    std::map<std::string, std::string> attrs;
    std::vector<std::unique_ptr<xml_element>> children;
    std::string text;  // character data directly inside, entities decoded

    const std::string* attr(const std::string& key) const {
        const auto it = attrs.find(key);
        return it == attrs.end() ? nullptr : &it->second;
    }
    // Every element below (and including) this one, document order.
    template <class F>
    void walk(F&& f) const {
        f(*this);
        for (const auto& c : children) c->walk(f);
    }
};

class xml_error : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

class xml_reader {
public:
    explicit xml_reader(std::string_view text) : s_(text) {}

    std::unique_ptr<xml_element> document() {
        misc();
        if (!peek("<")) fail("expected the root element");
        auto root = element();
        misc();
        if (at_ != s_.size()) fail("content after the root element");
        return root;
    }

private:
    std::string_view s_;
    std::size_t at_ = 0;

    [[noreturn]] void fail(const std::string& why) const { throw xml_error(why + " at byte " + std::to_string(at_)); }
    bool peek(std::string_view p) const { return s_.substr(at_, p.size()) == p; }
    void expect(std::string_view p) {
        if (!peek(p)) fail("expected '" + std::string(p) + "'");
        at_ += p.size();
    }
    static bool space(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; }
    void spaces() {
        while (at_ < s_.size() && space(s_[at_])) ++at_;
    }
    static bool name_char(char c) {
        return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '-' || c == '_' ||
               c == ':' || c == '.';
    }
    std::string name() {
        const std::size_t start = at_;
        while (at_ < s_.size() && name_char(s_[at_])) ++at_;
        if (start == at_ || (s_[start] >= '0' && s_[start] <= '9') || s_[start] == '-' || s_[start] == '.')
            fail("expected a name");
        return std::string(s_.substr(start, at_ - start));
    }
    // Comments, processing instructions and whitespace between markup.
    void misc() {
        for (;;) {
            spaces();
            if (peek("<!--")) comment();
            else if (peek("<?")) pi();
            else return;
        }
    }
    void comment() {
        const std::size_t end = s_.find("-->", at_ + 4);
        if (end == std::string_view::npos) fail("unterminated comment");
        if (s_.substr(at_ + 4, end - at_ - 4).find("--") != std::string_view::npos) fail("'--' inside a comment");
        at_ = end + 3;
    }
    void pi() {
        const std::size_t end = s_.find("?>", at_ + 2);
        if (end == std::string_view::npos) fail("unterminated processing instruction");
        at_ = end + 2;
    }
    std::string entity() {  // at '&'
        const std::size_t end = s_.find(';', at_);
        if (end == std::string_view::npos || end - at_ > 10) fail("bad entity reference");
        const std::string_view ref = s_.substr(at_ + 1, end - at_ - 1);
        at_ = end + 1;
        if (ref == "amp") return "&";
        if (ref == "lt") return "<";
        if (ref == "gt") return ">";
        if (ref == "quot") return "\"";
        if (ref == "apos") return "'";
        if (ref.size() > 1 && ref[0] == '#') {
            unsigned long code = 0;
            const bool hexa = ref[1] == 'x';
            for (char c : ref.substr(hexa ? 2 : 1)) {
                const int digit = c >= '0' && c <= '9'           ? c - '0'
                                  : hexa && c >= 'a' && c <= 'f' ? c - 'a' + 10
                                  : hexa && c >= 'A' && c <= 'F' ? c - 'A' + 10
                                                                 : -1;
                if (digit < 0) fail("bad character reference");
                code = code * (hexa ? 16 : 10) + static_cast<unsigned long>(digit);
                if (code > 0x10FFFF) fail("character reference out of range");
            }
            return code < 0x80 ? std::string(1, static_cast<char>(code)) : std::string("?");
        }
        fail("unknown entity '&" + std::string(ref) + ";'");
    }
    std::unique_ptr<xml_element> element() {
        expect("<");
        auto e = std::make_unique<xml_element>();
        e->name = name();
        for (;;) {
            const bool had_space = at_ < s_.size() && space(s_[at_]);
            spaces();
            if (peek("/>")) {
                at_ += 2;
                return e;
            }
            if (peek(">")) {
                ++at_;
                break;
            }
            if (!had_space) fail("expected whitespace before an attribute");
            std::string key = name();
            spaces();
            expect("=");
            spaces();
            if (at_ >= s_.size() || (s_[at_] != '"' && s_[at_] != '\'')) fail("attribute value not quoted");
            const char quote = s_[at_++];
            std::string value;
            while (at_ < s_.size() && s_[at_] != quote) {
                if (s_[at_] == '<') fail("'<' in an attribute value");
                if (s_[at_] == '&') value += entity();
                else value += s_[at_++];
            }
            if (at_ >= s_.size()) fail("unterminated attribute value");
            ++at_;
            if (!e->attrs.emplace(key, value).second) fail("attribute '" + key + "' repeated");
        }
        for (;;) {  // content
            if (at_ >= s_.size()) fail("element <" + e->name + "> not closed");
            if (peek("</")) {
                at_ += 2;
                if (name() != e->name) fail("end tag does not match <" + e->name + ">");
                spaces();
                expect(">");
                return e;
            }
            if (peek("<!--")) comment();
            else if (peek("<?")) pi();
            else if (peek("<![") || peek("<!")) fail("DOCTYPE/CDATA are not expected here");
            else if (peek("<")) e->children.push_back(element());
            else if (s_[at_] == '&') e->text += entity();
            else if (peek("]]>")) fail("']]>' in character data");
            else e->text += s_[at_++];
        }
    }
};

inline std::unique_ptr<xml_element> parse_xml(std::string_view text) { return xml_reader(text).document(); }

}  // namespace ndshard::cli::test
