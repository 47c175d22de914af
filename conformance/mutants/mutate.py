#!/usr/bin/env python3
"""Mutation study of `ndshard conform`: how many first-order mutants of an independent
implementation do the laws kill? (conformance/mutants/README.md)

  mutate.py list  [--source SRC]                    every mutant: id, line, diff
  mutate.py study --ndshard BIN [--source SRC] [--out DIR] [--sample N] [--only ID,...]
                  [--cases N] [--seed S] [--timeout-ms MS] [--mutant-seconds S] [--jobs J]
      compiles each mutant as a conformance module (one C++ file -> lib<id>.so), runs
      `ndshard conform --json` on it and classifies it: killed (by which laws), survived,
      compile error (discarded), runner timeout (no report within --mutant-seconds) or
      refused (exit 2: the runner would not load it). Writes DIR/results.json and
      DIR/report.md (the table, and every survivor with its diff line and, when
      equivalent.txt explains it, why it is equivalent). Exit 1 when a survivor is not
      explained in equivalent.txt (a gap of the laws, or an equivalent mutant to document).
  mutate.py check --ndshard BIN [--source SRC] [--out DIR] [--count N]
      the cheap self-check of ctest `conformance.mutants`: the unmutated source built by
      this script must pass every law, a mutant the compiler rejects must be reported as a
      compile error, and N mutants drawn with a fixed seed from those equivalent.txt does
      not list must each be killed.

The source is mutated as text, one change per mutant, only on lines the control build
compiles (#if branches are evaluated with the --define macros, NDSC_DEFECT_* undefined).
Operators: ror (relational < <= > >= == != swapped), aor (+ - * / % swapped), asg
(compound assignments), bit (& | ^ << >>, && ||), inc (++ --), not (a ! removed),
const (an integer literal +1 / -1), swap (curated identifier pairs: x/y, x0/x1, tile_h/
tile_w, T/S/G, strategies, orientations, page kinds, min/max, ...), opnd (the operands of
a - / % << >> with simple operands exchanged), cond (an if/while condition made true,
false or negated, or one of its && / || operands dropped), del (a one-line statement
replaced by `;`).
"""
import argparse
import concurrent.futures
import hashlib
import json
import os
import random
import re
import shutil
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
DEFAULT_SOURCE = os.path.join(ROOT, "conformance", "adapters", "defects", "plain_adapter.cpp")
DEFAULT_EQUIVALENT = os.path.join(HERE, "equivalent.txt")
DEFAULT_INCLUDES = [os.path.join(ROOT, "lib", "include"), os.path.join(ROOT, "conformance", "adapters", "common")]
# The flags of conformance/CMakeLists.txt's modules in the default preset (-O1,
# _GLIBCXX_ASSERTIONS, hidden visibility), without -g (not needed) and -Werror (a mutant
# that only warns is still a program a user could ship).
DEFAULT_CXXFLAGS = "-std=c++20 -O1 -D_GLIBCXX_ASSERTIONS -fPIC -fvisibility=hidden -fvisibility-inlines-hidden"
SKIP = 77

# ---------------------------------------------------------------------------- tokens

TOKEN_RE = re.compile(r"""
   (?P<ws>[ \t\r\f\v]+)
  |(?P<nl>\n)
  |(?P<lcomment>//[^\n]*)
  |(?P<bcomment>/\*.*?\*/)
  |(?P<string>"(?:\\.|[^"\\\n])*")
  |(?P<char>'(?:\\.|[^'\\\n])*')
  |(?P<number>(?:0[xX][0-9a-fA-F']+|\d[\d']*)(?:\.\d+)?[uUlLfF]*)
  |(?P<ident>[A-Za-z_]\w*)
  |(?P<punct>>>=|<<=|\.\.\.|<=>|::|->|\+\+|--|<<|>>|<=|>=|==|!=|&&|\|\||\+=|-=|\*=|/=|%=|&=|\|=|\^=
             |[{}\[\]();:,.?~!%^&*+\-=<>|/\#\\])
""", re.S | re.X)


class Token:
    __slots__ = ("kind", "text", "start", "end", "line")

    def __init__(self, kind, text, start, end, line):
        self.kind, self.text, self.start, self.end, self.line = kind, text, start, end, line

    def __repr__(self):
        return f"Token({self.kind}, {self.text!r}, line {self.line})"


def tokenize(src):
    """Code tokens (no whitespace or comments) with their offsets and 1-based lines."""
    tokens, pos, line = [], 0, 1
    while pos < len(src):
        m = TOKEN_RE.match(src, pos)
        if not m:
            raise ValueError(f"line {line}: cannot tokenize {src[pos:pos + 20]!r}")
        kind, text = m.lastgroup, m.group()
        if kind not in ("ws", "nl", "lcomment", "bcomment"):
            tokens.append(Token(kind, text, m.start(), m.end(), line))
        line += text.count("\n")
        pos = m.end()
    return tokens


def preprocessor_eval(expr, defines):
    """Value of an #if expression when exactly `defines` are defined (others are 0)."""
    expr = re.sub(r"defined\s*\(\s*(\w+)\s*\)|defined\s+(\w+)",
                  lambda m: "1" if (m.group(1) or m.group(2)) in defines else "0", expr)
    expr = expr.replace("&&", " and ").replace("||", " or ")
    expr = re.sub(r"!(?!=)", " not ", expr)
    expr = re.sub(r"\b[A-Za-z_]\w*\b", lambda m: m.group() if m.group() in ("and", "or", "not") else "0", expr)
    expr = re.sub(r"\b(\d+)[uUlL]+\b", r"\1", expr)
    try:
        return bool(eval(expr, {"__builtins__": {}}, {}))  # only digits, operators and and/or/not remain
    except Exception as e:  # noqa: BLE001 - any malformed expression
        raise ValueError(f"cannot evaluate #if {expr!r}: {e}") from None


def compiled_lines(src, defines):
    """Line numbers (1-based) of code the control build compiles, and of directive lines."""
    active, directives = set(), set()
    stack = []  # (parent active, a branch already taken, this branch active)
    on = True
    lines = src.split("\n")
    number = 0
    while number < len(lines):
        text = lines[number]
        first = number + 1
        while text.endswith("\\") and number + 1 < len(lines):
            number += 1
            text = text[:-1] + lines[number]
        number += 1
        stripped = text.strip()
        if stripped.startswith("#"):
            for n in range(first, number + 1):
                directives.add(n)
            m = re.match(r"#\s*(\w+)\s*(.*)", stripped)
            word, rest = (m.group(1), re.sub(r"//.*|/\*.*?\*/", "", m.group(2)).strip()) if m else ("", "")
            if word in ("if", "ifdef", "ifndef"):
                value = (preprocessor_eval(rest, defines) if word == "if" else
                         (rest in defines) if word == "ifdef" else (rest not in defines))
                stack.append((on, value, on and value))
                on = on and value
            elif word == "elif":
                parent, taken, _ = stack.pop()
                value = not taken and preprocessor_eval(rest, defines)
                stack.append((parent, taken or value, parent and value))
                on = parent and value
            elif word == "else":
                parent, taken, _ = stack.pop()
                stack.append((parent, True, parent and not taken))
                on = parent and not taken
            elif word == "endif":
                on = stack.pop()[0]
            continue
        if on:
            for n in range(first, number + 1):
                active.add(n)
    return active, directives


# ---------------------------------------------------------------------------- mutants

RELATIONAL = ["<", "<=", ">", ">=", "==", "!="]
ARITHMETIC = ["+", "-", "*", "/", "%"]
COMPOUND = ["+=", "-=", "*=", "/=", "%="]
# Identifiers a slip of the pen exchanges: each member of a class for each other member.
SWAP_CLASSES = [
    ["x", "y"], ["x0", "y0"], ["x1", "y1"], ["x0", "x1"], ["y0", "y1"], ["core_x", "core_y"],
    ["tile_h", "tile_w"], ["width", "height"], ["gw", "gh"], ["rt", "rs"], ["T", "S", "G"], ["i", "j"],
    ["core", "slot"], ["tensor", "shard"], ["tensor_rank", "rank"], ["num_pages", "num_shards", "shard_volume"],
    ["per_block", "max_shards_per_core"], ["page_size", "aligned_page_size"], ["listed", "cores"],
    ["NDSC_ROW_MAJOR", "NDSC_COL_MAJOR"], ["NDSC_ROUND_ROBIN_1D", "NDSC_CONTIGUOUS_1D", "NDSC_GRID_2D"],
    ["NDSC_PAGES", "NDSC_TILE", "NDSC_ROW_MAJOR_PAGES"], ["min", "max"], ["true", "false"], ["first", "second"],
    ["begin", "end"],
]
SWAPS = {}
for _class in SWAP_CLASSES:
    for _name in _class:
        SWAPS.setdefault(_name, []).extend(other for other in _class if other != _name)
TEMPLATE_NAMES = {"vector", "unique_ptr", "make_unique", "static_cast", "reinterpret_cast", "const_cast", "pair",
                  "array", "optional", "span", "numeric_limits", "function", "set", "map", "tuple", "shared_ptr",
                  "string_view", "initializer_list", "basic_string", "max", "min"}
TYPE_WORDS = {"void", "char", "int", "unsigned", "long", "short", "bool", "auto", "const", "u64", "xy", "place",
              "size_t", "uint8_t", "uint16_t", "uint32_t", "uint64_t", "int32_t", "int64_t", "ptrdiff_t"}
TEMPLATE_INSIDE = {"::", ",", "*", "&", "const", "<", ">"}


def is_type_word(text):
    return text in TYPE_WORDS or text.startswith("ndsc_") or text.endswith("_t")


class Mutant:
    __slots__ = ("id", "op", "line", "before", "after", "source")

    def as_dict(self):
        return {"id": self.id, "op": self.op, "line": self.line, "before": self.before, "after": self.after}


def template_brackets(tokens):
    """Indices of < and > tokens that open or close template argument lists (not operators)."""
    brackets = set()
    for i, t in enumerate(tokens):
        if t.text != "<" or i == 0 or tokens[i - 1].kind != "ident":
            continue
        depth, j = 1, i + 1
        while j < len(tokens) and tokens[j].line == t.line:
            u = tokens[j]
            if u.text == "<":
                depth += 1
            elif u.text == ">":
                depth -= 1
                if depth == 0:
                    break
            elif u.text == ">>" and depth == 2:
                depth = 0
                break
            elif not (u.kind in ("ident", "number") or u.text in TEMPLATE_INSIDE):
                break
            j += 1
        if depth == 0 or tokens[i - 1].text in TEMPLATE_NAMES:
            brackets.add(i)
            if j < len(tokens) and tokens[j].text in (">", ">>"):
                brackets.add(j)
    return brackets


def binary_position(tokens, i):
    """Whether the operator at i has a left operand (not unary, not a declarator)."""
    if i == 0:
        return False
    prev = tokens[i - 1]
    if prev.kind in ("number", "string", "char"):
        return True
    if prev.kind == "ident":
        return not is_type_word(prev.text) and prev.text not in ("return", "case", "sizeof", "throw", "else", "new",
                                                                 "delete", "operator")
    return prev.text in (")", "]")


def simple_operand_end(tokens, i):
    """End (exclusive) of a simple operand starting at i: a literal, or name(.name|->name|::name|[...])*."""
    if i >= len(tokens) or tokens[i].kind not in ("ident", "number"):
        return None
    j = i + 1
    while j < len(tokens):
        if tokens[j].text in (".", "->", "::") and j + 1 < len(tokens) and tokens[j + 1].kind == "ident":
            j += 2
        elif tokens[j].text == "[":
            depth, k = 1, j + 1
            while k < len(tokens) and depth:
                depth += {"[": 1, "]": -1}.get(tokens[k].text, 0)
                k += 1
            j = k
        else:
            break
    if j < len(tokens) and tokens[j].text in ("(", "{"):
        return None  # a call or a braced initialiser: not simple
    return j


def simple_operand_start(tokens, end):
    """Start of a simple operand ending (exclusive) at `end`, or None."""
    j = end - 1
    if j < 0:
        return None
    while j >= 0:
        t = tokens[j]
        if t.text == "]":
            depth, k = 1, j - 1
            while k >= 0 and depth:
                depth += {"]": 1, "[": -1}.get(tokens[k].text, 0)
                k -= 1
            j = k
            continue
        if t.kind in ("ident", "number"):
            if j >= 1 and tokens[j - 1].text in (".", "->", "::") and t.kind == "ident":
                j -= 2
                continue
            break
        return None
    if j < 0:
        return None
    return j if simple_operand_end(tokens, j) == end else None


def matching(tokens, i, open_text, close_text):
    depth = 0
    for j in range(i, len(tokens)):
        if tokens[j].text == open_text:
            depth += 1
        elif tokens[j].text == close_text:
            depth -= 1
            if depth == 0:
                return j
    return None


def statement_lines(src, tokens, active, directives):
    """Lines holding exactly one complete statement that ends there (for deletion)."""
    by_line = {}
    for i, t in enumerate(tokens):
        by_line.setdefault(t.line, []).append(i)
    out = []
    previous_end = "{"
    for line in sorted(by_line):
        idx = by_line[line]
        if line in directives:
            continue
        first, last = tokens[idx[0]], tokens[idx[-1]]
        starts_statement = previous_end in (";", "{", "}", ")", "else", ":")
        previous_end = last.text
        if line not in active or not starts_statement or last.text != ";":
            continue
        if first.text in ("}", "{", "case", "default", "return", "public", "private", "using", "namespace", "struct",
                          "class", "template", "typedef", "static", "constexpr", "extern", "for") or \
                is_type_word(first.text) or first.text == "std":
            continue
        depth = 0
        for i in idx:
            depth += {"(": 1, "[": 1, "{": 1, ")": -1, "]": -1, "}": -1}.get(tokens[i].text, 0)
            if depth < 0:
                break
        if depth != 0:
            continue
        out.append((line, tokens[idx[0]].start, tokens[idx[-1]].end))
    return out


def counting_loop_bound(tokens, i, replacement):
    """Whether replacing the comparison at i by `replacement` is equivalent by construction:
    `!=` for `<` in `for (...; k < n; ++k)` (k starts below n and steps by one), and `!=`
    for `>` in `k-- > 0`. Such mutants are not generated."""
    if replacement != "!=":
        return False
    t = tokens[i]
    if t.text == ">" and i >= 2 and tokens[i - 1].text == "--" and i + 1 < len(tokens) and tokens[i + 1].text == "0":
        return True
    if t.text != "<" or i < 1 or tokens[i - 1].kind != "ident":
        return False
    k = tokens[i - 1].text
    # The comparison must be the condition clause of a for header whose step is ++k or k++.
    j, depth = i - 1, 0
    while j >= 0 and tokens[j].text != ";":
        depth += {")": 1, "(": -1}.get(tokens[j].text, 0)
        if depth < 0:
            return False
        j -= 1
    semicolon_before = j
    j = i + 1
    while j < len(tokens) and tokens[j].text != ";":
        j += 1
    step = [u.text for u in tokens[j + 1:j + 4]]
    if step[:2] != ["++", k] and step[:2] != [k, "++"]:
        return False
    # ...and that header starts with `for (`.
    depth = 0
    for n in range(semicolon_before, -1, -1):
        depth += {")": 1, "(": -1}.get(tokens[n].text, 0)
        if depth < 0:
            return n >= 1 and tokens[n - 1].text == "for"
    return False


def dead_function_lines(tokens, active):
    """Lines of functions the control build compiles but never calls: their name occurs on no
    compiled line outside their own body (has_padding, used only by a defect's #if branch).
    Mutating them can only give equivalent mutants. Exported ndsc_* functions are live."""
    lines = set()
    kinds = []  # per open brace: "scope" (namespace, extern "C", class) or "code"
    i = 0
    definitions = []  # (name, first line, body start index, body end index)
    while i < len(tokens):
        t = tokens[i]
        if t.text == "{":
            head = [u.text for u in tokens[max(0, i - 3):i]]
            in_code = "code" in kinds
            is_scope = not in_code and (any(w in ("namespace", "struct", "class") for w in head) or
                                        (len(head) >= 2 and head[-2] == "extern"))
            kinds.append("scope" if is_scope else "code")
            if not is_scope and not in_code:
                # A function body: name ( ... ) [qualifiers] {
                j = i - 1
                while j >= 0 and tokens[j].text in ("const", "noexcept", "override", "final"):
                    j -= 1
                if j >= 0 and tokens[j].text == ")":
                    depth, k = 0, j
                    while k >= 0:
                        depth += {")": 1, "(": -1}.get(tokens[k].text, 0)
                        if depth == 0:
                            break
                        k -= 1
                    if k >= 1 and tokens[k - 1].kind == "ident":
                        end = matching(tokens, i, "{", "}")
                        if end is not None:
                            definitions.append((tokens[k - 1].text, tokens[k - 1].line, i, end))
        elif t.text == "}" and kinds:
            kinds.pop()
        i += 1
    for name, first, start, end in definitions:
        if name.startswith("ndsc_") or name == "main":
            continue
        used = any(u.text == name and u.line in active and not (start <= n <= end) and u.line != first
                   for n, u in enumerate(tokens))
        if not used:
            lines.update(range(first, tokens[end].line + 1))
    return lines


def member_lines(tokens):
    """Lines of data member declarations (directly inside a struct or class body): their default
    initialisers are overwritten when a handle is built, so mutating them is noise."""
    lines, stack = set(), []  # stack of "class" / "other" per open brace
    for i, t in enumerate(tokens):
        if t.text == "{":
            head = [u.text for u in tokens[max(0, i - 3):i]]
            is_class = any(w in ("struct", "class") for w in head) and "(" not in head and "=" not in head
            stack.append("class" if is_class else "other")
        elif t.text == "}":
            if stack:
                stack.pop()
        elif stack and stack[-1] == "class":
            lines.add(t.line)
    return lines


def generate(src, defines=()):
    """Every first-order mutant of src, in source order."""
    defines = set(defines)
    tokens = tokenize(src)
    active, directives = compiled_lines(src, defines)
    line_text = src.split("\n")
    templates = template_brackets(tokens)
    edits = []  # (op, line, start, end, replacement)

    def add(op, start, end, replacement):
        line = src.count("\n", 0, start) + 1
        edits.append((op, line, start, end, replacement))

    skipped = member_lines(tokens) | dead_function_lines(tokens, active)
    for i, t in enumerate(tokens):
        if t.line not in active or t.line in directives or t.line in skipped:
            continue
        s = t.text
        if t.kind == "punct":
            if s in RELATIONAL and i not in templates:
                for r in RELATIONAL:
                    if r != s and not counting_loop_bound(tokens, i, r):
                        add("ror", t.start, t.end, r)
            elif s in ARITHMETIC and binary_position(tokens, i):
                if s == "*" and i + 1 < len(tokens) and tokens[i + 1].text in (")", ",", ">", "&"):
                    continue
                for r in ARITHMETIC:
                    if r != s:
                        add("aor", t.start, t.end, r)
            elif s in COMPOUND:
                for r in COMPOUND:
                    if r != s:
                        add("asg", t.start, t.end, r)
            elif s in ("&&", "||"):
                add("bit", t.start, t.end, "||" if s == "&&" else "&&")
            elif s in ("&", "|", "^") and binary_position(tokens, i):
                for r in ("&", "|", "^"):
                    if r != s:
                        add("bit", t.start, t.end, r)
            elif s in ("<<", ">>") and i not in templates and binary_position(tokens, i):
                add("bit", t.start, t.end, ">>" if s == "<<" else "<<")
            elif s in ("++", "--"):
                add("inc", t.start, t.end, "--" if s == "++" else "++")
            elif s == "!":
                add("not", t.start, t.end, "")
            if s in ("-", "/", "%", "<<", ">>") and binary_position(tokens, i) and i not in templates:
                # Exchange simple operands: a - b -> b - a (only when no operator binds tighter).
                left = simple_operand_start(tokens, i)
                right_end = simple_operand_end(tokens, i + 1)
                if left is not None and right_end is not None:
                    before = tokens[left - 1].text if left > 0 else ""
                    after = tokens[right_end].text if right_end < len(tokens) else ""
                    tight = ("*", "/", "%", "!", "~", "-", "+") if s in ("-",) else ("*", "/", "%", "!", "~", "-", "+",
                                                                                     "<<", ">>")
                    if before not in tight and after not in ("*", "/", "%") and \
                            tokens[left].line == tokens[right_end - 1].line:
                        a = src[tokens[left].start:tokens[i - 1].end]
                        b = src[tokens[i + 1].start:tokens[right_end - 1].end]
                        if a != b:
                            add("opnd", tokens[left].start, tokens[right_end - 1].end, f"{b} {s} {a}")
        elif t.kind == "number" and re.fullmatch(r"(0[xX][0-9a-fA-F]+|\d+)[uUlL]*", s):
            digits = re.match(r"0[xX][0-9a-fA-F]+|\d+", s).group()
            suffix = s[len(digits):]
            value = int(digits, 0) if not digits.startswith("0") or digits == "0" or digits[1:2] in "xX" else int(
                digits, 8)
            hexa = digits[:2].lower() == "0x"
            for v in (value + 1, value - 1):
                if v >= 0:
                    add("const", t.start, t.end, (hex(v).upper().replace("0X", "0x") if hexa else str(v)) + suffix)
        elif t.kind == "ident":
            for r in SWAPS.get(s, []):
                add("swap", t.start, t.end, r)
            if s in ("if", "while") and i + 1 < len(tokens) and tokens[i + 1].text == "(":
                close = matching(tokens, i + 1, "(", ")")
                if close is None or tokens[close].line != t.line:
                    continue
                a, b = tokens[i + 2].start, tokens[close - 1].end
                cond = src[a:b]
                for r in ("true", "false", f"!({cond})"):
                    add("cond", a, b, r)
                # Drop one operand of a top-level && / || chain.
                parts, depth, start = [], 0, i + 2
                for j in range(i + 2, close):
                    u = tokens[j].text
                    depth += {"(": 1, "[": 1, ")": -1, "]": -1}.get(u, 0)
                    if depth == 0 and u in ("&&", "||"):
                        parts.append((start, j - 1, u))
                        start = j + 1
                if parts:
                    parts.append((start, close - 1, ""))
                    for k in range(len(parts)):
                        kept = [src[tokens[p[0]].start:tokens[p[1]].end] for n, p in enumerate(parts) if n != k]
                        ops = [p[2] for n, p in enumerate(parts) if n != k][:-1]
                        text = kept[0]
                        for op, part in zip(ops, kept[1:]):
                            text += f" {op} {part}"
                        add("cond", a, b, text)
    for line, start, end in statement_lines(src, tokens, active - skipped, directives):
        add("del", start, end, ";")

    mutants, seen_ids, seen_sources = [], {}, set()
    for op, line, start, end, replacement in edits:
        mutated = src[:start] + replacement + src[end:]
        if mutated == src or mutated in seen_sources:
            continue
        seen_sources.add(mutated)
        m = Mutant()
        m.op, m.line = op, line
        m.before = line_text[line - 1].strip()
        m.after = mutated.split("\n")[line - 1].strip()
        # Stable across edits elsewhere in the file: the line's text, the change, and which
        # occurrence of that (line, change) pair this is.
        key = f"{op}|{m.before}|{m.after}"
        n = seen_ids.get(key, 0)
        seen_ids[key] = n + 1
        m.id = op + "-" + hashlib.sha1(f"{key}|{n}".encode()).hexdigest()[:10]
        m.source = mutated
        mutants.append(m)
    return mutants


# ---------------------------------------------------------------------------- equivalents

def read_equivalents(path):
    """id -> reason, from lines `<id> | <reason> | <informational diff>`; '#' starts a comment line."""
    table = {}
    if not path or not os.path.exists(path):
        return table
    with open(path, encoding="utf-8") as f:
        for number, raw in enumerate(f, 1):
            line = raw.strip()
            if not line or line.startswith("#"):
                continue
            fields = [x.strip() for x in line.split("|")]
            if len(fields) < 2 or not re.fullmatch(r"[a-z]+-[0-9a-f]{10}", fields[0]) or not fields[1]:
                raise SystemExit(f"{path}:{number}: expected '<op>-<10 hex digits> | <why it is equivalent> | ...', "
                                 f"got {line!r}")
            table[fields[0]] = fields[1]
    return table


# ---------------------------------------------------------------------------- build and run

class Toolchain:
    def __init__(self, args, source):
        self.cxx = args.cxx
        self.flags = args.cxxflags.split()
        self.includes = [os.path.abspath(p) for p in (args.include or DEFAULT_INCLUDES)]
        self.defines = args.define or []
        self.source = source
        self.out = os.path.abspath(args.out)
        self.pch = None

    def prepare(self):
        """A precompiled header of the source's <system> includes: a mutant then compiles in ~0.5 s."""
        os.makedirs(self.out, exist_ok=True)
        with open(self.source, encoding="utf-8") as f:
            system = [line.strip() for line in f if re.match(r"\s*#\s*include\s*<", line)]
        if not system:
            return
        version = subprocess.run([self.cxx, "--version"], capture_output=True, text=True).stdout
        clang = "clang" in version
        header = os.path.join(self.out, "mutant_pch.hpp")
        compiled = header + (".pch" if clang else ".gch")
        text = "\n".join(system) + "\n" + "// " + " ".join([self.cxx] + self.flags) + "\n"
        old = open(header, encoding="utf-8").read() if os.path.exists(header) else None
        if old != text or not os.path.exists(compiled):
            with open(header, "w", encoding="utf-8") as f:
                f.write(text)
            command = [self.cxx] + self.flags + ["-x", "c++-header", header, "-o", compiled]
            done = subprocess.run(command, capture_output=True, text=True)
            if done.returncode != 0:
                print(f"note: no precompiled header ({done.stderr.strip()[:300]})")
                return
        # g++ picks header.gch up through -include header; clang needs the .pch named.
        self.pch = ["-include-pch", compiled] if clang else ["-include", header]

    def paths(self, name):
        """work/<name>.cpp and work/lib<name>.so under --out."""
        directory = os.path.join(self.out, "work")
        return os.path.join(directory, name + ".cpp"), os.path.join(directory, "lib" + name + ".so")

    def compile(self, name, source_text):
        """Builds lib<name>.so; returns (path, None) or (None, first error line)."""
        cpp, so = self.paths(name)
        os.makedirs(os.path.dirname(cpp), exist_ok=True)
        with open(cpp, "w", encoding="utf-8") as f:
            f.write(source_text)
        command = [self.cxx] + self.flags + ["-shared"]
        if self.pch:
            command += self.pch
        command += ["-I" + p for p in self.includes] + ["-D" + d for d in self.defines] + [cpp, "-o", so]
        done = subprocess.run(command, capture_output=True, text=True)
        if done.returncode != 0:
            errors = [line for line in done.stderr.splitlines() if "error" in line]
            return None, (errors[0] if errors else done.stderr.strip()[:200])
        return so, None


# --first-kill runs the laws one by one in this order and stops at the first that fails (a
# failing law spends its time shrinking; which law kills first is all the study needs).
# Cheap, broad laws first; address_limit_32bit, whose counterexamples shrink slowest, last.
LAW_ORDER = ["acceptance", "page_placement", "out_of_range", "coord_page_agreement", "shard_addressing",
             "iteration_order", "contiguous_runs", "thread_split_iteration", "bijectivity", "balance",
             "determinism", "interleaved_equivalence", "legacy_equivalence", "address_limit_32bit"]


def run_conform(args, so):
    """(status, failed laws, detail): killed / survived / refused / timeout / error."""
    if not args.first_kill:
        return run_conform_once(args, so, None, args.mutant_seconds)
    deadline = time.monotonic() + args.mutant_seconds
    for law in args.laws:
        left = deadline - time.monotonic()
        if left <= 0:
            return "timeout", [], f"no verdict within {args.mutant_seconds} s"
        status, laws, detail = run_conform_once(args, so, law, left)
        if status != "survived":
            return status, laws, detail
    return "survived", [], ""


def run_conform_once(args, so, law, seconds):
    command = [args.ndshard, "conform", "--impl", so, "--cases", str(args.cases), "--seed", str(args.seed), "--json",
               "--timeout-ms", str(args.timeout_ms)]
    if law:
        command += ["--law", f"^{law}$"]
    try:
        done = subprocess.run(command, capture_output=True, text=True, timeout=seconds)
    except subprocess.TimeoutExpired:
        return "timeout", [], f"no report within {args.mutant_seconds} s"
    if done.returncode == 2:
        return "refused", [], (done.stderr.strip().splitlines() or ["exit 2"])[-1][:300]
    start = done.stdout.find("{")
    try:
        report = json.loads(done.stdout[start:]) if start >= 0 else None
    except json.JSONDecodeError:
        report = None
    if not isinstance(report, dict) or not isinstance(report.get("laws"), list):
        return "error", [], f"exit {done.returncode}, no JSON report: {(done.stdout + done.stderr)[:300]!r}"
    failed = [law["name"] for law in report["laws"] if law.get("status") == "failed"]
    if done.returncode == 1 and failed:
        first = next(law for law in report["laws"] if law.get("status") == "failed")
        return "killed", failed, first.get("reason", "")[:300]
    if done.returncode == 0 and not failed:
        return "survived", [], ""
    return "error", failed, f"exit {done.returncode} with failed laws {failed}"


def cache_key(args, text):
    stat = os.stat(args.ndshard)
    h = hashlib.sha1()
    for part in (text, args.cxx, args.cxxflags, str(args.cases), str(args.seed), str(args.timeout_ms),
                 str(args.first_kill), ",".join(args.laws),
                 str(stat.st_size), str(stat.st_mtime_ns)):
        h.update(part.encode())
        h.update(b"\0")
    return h.hexdigest()


def evaluate(args, tools, m, cache):
    key = cache_key(args, m.source)
    if key in cache:
        return dict(cache[key], cached=True)
    started = time.monotonic()
    so, error = tools.compile(m.id, m.source)
    if so is None:
        result = {"status": "compile_error", "laws": [], "detail": error}
    else:
        status, laws, detail = run_conform(args, so)
        result = {"status": status, "laws": laws, "detail": detail}
    if result["status"] != "survived":  # a survivor's source and module stay for inspection
        for path in tools.paths(m.id):
            if os.path.exists(path):
                os.remove(path)
    result["seconds"] = round(time.monotonic() - started, 2)
    result["key"] = key
    return result


def load_cache(out):
    path = os.path.join(out, "cache.jsonl")
    cache = {}
    if os.path.exists(path):
        with open(path, encoding="utf-8") as f:
            for line in f:
                try:
                    entry = json.loads(line)
                    cache[entry["key"]] = entry
                except (json.JSONDecodeError, KeyError):
                    pass
    return cache


def check_ndshard(args):
    """Whether the CLI has `conform`; sets args.laws to its laws in LAW_ORDER's order."""
    path = args.ndshard
    if not path:
        raise SystemExit("--ndshard: required (the `ndshard` CLI of a build, e.g. build/default/bin/ndshard)")
    if not os.path.isfile(path) or not os.access(path, os.X_OK):
        raise SystemExit(f"--ndshard \"{path}\": not an executable file (build the target ndshard_tool first)")
    try:
        probe = subprocess.run([path, "conform", "--help"], capture_output=True, text=True, timeout=60)
    except (OSError, subprocess.TimeoutExpired) as e:
        raise SystemExit(f"--ndshard \"{path}\": cannot run it ({e})") from None
    text = probe.stdout + probe.stderr
    m = re.search(r"Laws:(.*?)\.\s*\n\s*\n", text, re.S)
    known = [w for w in re.split(r"[\s,]+", m.group(1)) if w] if m else []
    args.laws = [law for law in LAW_ORDER if law in known] + [law for law in known if law not in LAW_ORDER]
    if probe.returncode == 0 and "--impl" in text and args.first_kill and not args.laws:
        raise SystemExit(f"--ndshard \"{path}\": `conform --help` lists no laws (expected 'Laws: a, b, ...'); "
                         f"use --all-laws")
    return probe.returncode == 0 and "--impl" in text


def source_and_mutants(args):
    """The text of --source and its mutants (with --define's macros)."""
    with open(args.source, encoding="utf-8") as f:
        src = f.read()
    return src, generate(src, args.define or [])


def select(args, mutants):
    chosen = mutants
    if args.ops:
        ops = set(args.ops.split(","))
        unknown = ops - {"ror", "aor", "asg", "bit", "inc", "not", "const", "swap", "opnd", "cond", "del"}
        if unknown:
            raise SystemExit(f"--ops: unknown operator(s) {', '.join(sorted(unknown))} (see mutate.py --help)")
        chosen = [m for m in chosen if m.op in ops]
    if args.only:
        wanted = set(args.only.split(","))
        missing = wanted - {m.id for m in mutants}
        if missing:
            raise SystemExit(f"--only: no mutant with id {', '.join(sorted(missing))} in {args.source}")
        chosen = [m for m in chosen if m.id in wanted]
    if args.sample:
        chosen = random.Random(args.sample_seed).sample(chosen, min(args.sample, len(chosen)))
        chosen.sort(key=lambda m: (m.line, m.id))
    return chosen


def study(args):
    if not check_ndshard(args):
        print(f"SKIP: `ndshard conform` is not available in {args.ndshard}")
        return SKIP
    _, mutants = source_and_mutants(args)
    chosen = select(args, mutants)
    equivalent = read_equivalents(args.equivalents)
    tools = Toolchain(args, args.source)
    tools.prepare()
    cache = {} if args.fresh else load_cache(tools.out)
    print(f"{len(mutants)} mutants of {os.path.relpath(args.source, ROOT)}; running {len(chosen)} "
          f"(--cases {args.cases} --seed {args.seed} --timeout-ms {args.timeout_ms}, {args.jobs} at a time)",
          flush=True)
    results = {}
    with open(os.path.join(tools.out, "cache.jsonl"), "a", encoding="utf-8") as cache_file, \
            concurrent.futures.ThreadPoolExecutor(max_workers=args.jobs) as pool:
        futures = {pool.submit(evaluate, args, tools, m, cache): m for m in chosen}
        for n, future in enumerate(concurrent.futures.as_completed(futures), 1):
            m = futures[future]
            r = future.result()
            results[m.id] = r
            if not r.get("cached"):
                cache_file.write(json.dumps({k: v for k, v in r.items() if k != "cached"}) + "\n")
                cache_file.flush()
            if args.verbose or r["status"] in ("survived", "timeout", "error"):
                print(f"[{n}/{len(chosen)}] {m.id} L{m.line} {r['status']} {','.join(r['laws'])} "
                      f"({r['seconds']} s): {m.after}", flush=True)
            elif n % 50 == 0:
                print(f"[{n}/{len(chosen)}] ...", flush=True)
    return report(args, tools, mutants, chosen, results, equivalent)


def report(args, tools, mutants, chosen, results, equivalent):
    by = {}
    for m in chosen:
        by.setdefault(results[m.id]["status"], []).append(m)
    count = {s: len(by.get(s, [])) for s in ("killed", "refused", "survived", "timeout", "error", "compile_error")}
    compiled = len(chosen) - count["compile_error"]
    killed = count["killed"] + count["refused"]
    survivors = by.get("survived", []) + by.get("timeout", []) + by.get("error", [])
    explained = [m for m in survivors if m.id in equivalent]
    gaps = [m for m in survivors if m.id not in equivalent]
    laws = {}
    for m in by.get("killed", []):
        for law in results[m.id]["laws"]:
            laws[law] = laws.get(law, 0) + 1
    first = {}
    for m in by.get("killed", []):
        law = results[m.id]["laws"][0]
        first[law] = first.get(law, 0) + 1
    ops = {}
    for m in chosen:
        row = ops.setdefault(m.op, {"mutants": 0, "compiled": 0, "killed": 0, "survived": 0})
        row["mutants"] += 1
        status = results[m.id]["status"]
        row["compiled"] += status != "compile_error"
        row["killed"] += status in ("killed", "refused")
        row["survived"] += status in ("survived", "timeout", "error")
    rate = 100.0 * killed / compiled if compiled else 0.0
    nonequivalent = compiled - len(explained)
    rate_ne = 100.0 * killed / nonequivalent if nonequivalent else 0.0
    lines = [
        f"# Mutation study of {os.path.relpath(args.source, ROOT)}",
        "",
        f"`ndshard conform --cases {args.cases} --seed {args.seed} --timeout-ms {args.timeout_ms}`, "
        f"compiled with `{args.cxx} {args.cxxflags}`.",
        "",
        "| mutants | run | compile errors | compiled | killed | survived | equivalent | kill rate | "
        "kill rate (non-equivalent) |",
        "|---|---|---|---|---|---|---|---|---|",
        f"| {len(mutants)} | {len(chosen)} | {count['compile_error']} | {compiled} | {killed} | {len(survivors)} | "
        f"{len(explained)} | {rate:.1f}% | {rate_ne:.1f}% |",
        "",
        f"Killed by a law failure: {count['killed']}; refused by the runner (exit 2): {count['refused']}; "
        f"survivors: {count['survived']} passed every law, {count['timeout']} runner timeouts, "
        f"{count['error']} unreadable reports.",
        "",
        "| operator | mutants | compiled | killed | survived |",
        "|---|---|---|---|---|",
    ]
    for op in sorted(ops):
        r = ops[op]
        lines.append(f"| {op} | {r['mutants']} | {r['compiled']} | {r['killed']} | {r['survived']} |")
    if args.first_kill:
        lines += ["", "| law (run one by one, the first that fails kills) | kills |", "|---|---|"]
        for law in sorted(first, key=lambda k: -first[k]):
            lines.append(f"| {law} | {first[law]} |")
    else:
        lines += ["", "| law | kills (any) | kills (first failing law) |", "|---|---|---|"]
        for law in sorted(laws, key=lambda k: -laws[k]):
            lines.append(f"| {law} | {laws[law]} | {first.get(law, 0)} |")
    lines += ["", f"## Survivors not explained in equivalent.txt ({len(gaps)})", ""]
    for m in gaps:
        r = results[m.id]
        lines.append(f"- `{m.id}` L{m.line} {r['status']}: `{m.before}` -> `{m.after}`" +
                     (f" ({r['detail']})" if r.get("detail") else ""))
    lines += ["", f"## Equivalent survivors ({len(explained)})", ""]
    for m in explained:
        lines.append(f"- `{m.id}` L{m.line}: `{m.before}` -> `{m.after}`: {equivalent[m.id]}")
    text = "\n".join(lines) + "\n"
    with open(os.path.join(tools.out, "report.md"), "w", encoding="utf-8") as f:
        f.write(text)
    with open(os.path.join(tools.out, "results.json"), "w", encoding="utf-8") as f:
        json.dump([dict(m.as_dict(), **{k: v for k, v in results[m.id].items() if k != "key"}) for m in chosen], f,
                  indent=1)
    print(text)
    stale = sorted(set(equivalent) - {m.id for m in mutants})
    if stale:
        print(f"note: {len(stale)} id(s) of {args.equivalents} match no mutant of this source any more: "
              f"{', '.join(stale)}")
    print(f"report: {os.path.join(tools.out, 'report.md')}")
    return 1 if gaps else 0


def check(args):
    """ctest conformance.mutants: the harness itself works, and a fixed sample of mutants is killed."""
    if not check_ndshard(args):
        print(f"SKIP: `ndshard conform` is not available in {args.ndshard}")
        return SKIP
    src, mutants = source_and_mutants(args)
    errors = []
    equivalent = read_equivalents(args.equivalents)
    ids = [m.id for m in mutants]
    if len(set(ids)) != len(ids):
        errors.append("two mutants share an id")
    for m in mutants:
        changed = [n for n, (a, b) in enumerate(zip(src.split("\n"), m.source.split("\n"))) if a != b]
        if len(changed) != 1 or src.count("\n") != m.source.count("\n"):
            errors.append(f"mutant {m.id} changes {len(changed)} lines (must change exactly one)")
            break
    stale = sorted(set(equivalent) - set(ids))
    if stale:
        errors.append(f"{args.equivalents}: {len(stale)} id(s) match no mutant of {args.source} "
                      f"(the source changed; rerun the study): {', '.join(stale[:5])}")
    tools = Toolchain(args, args.source)
    tools.prepare()
    # 1. The unmutated control must compile and pass: otherwise every "kill" is meaningless.
    so, error = tools.compile("control", src)
    if so is None:
        print(f"FAIL: the unmutated source does not compile: {error}")
        return 1
    status, laws, detail = run_conform(args, so)
    print(f"control (unmutated): {status} {','.join(laws)} {detail}")
    if status != "survived":
        errors.append(f"the unmutated source must pass every law, got {status} ({', '.join(laws)}: {detail})")
    # 2. A mutant the compiler rejects is a compile error, never a kill or a survivor.
    so, error = tools.compile("broken", src + "\nint mutate_check_broken = an_undeclared_name;\n")
    print(f"compile-error probe: {'compile error' if so is None else 'compiled'}")
    if so is not None:
        errors.append("a source with an undeclared name compiled: the harness cannot tell compile errors")
    # 3. A fixed sample of the mutants not documented as equivalent: each must be killed.
    pool = [m for m in mutants if m.id not in equivalent]
    random.Random(args.sample_seed).shuffle(pool)
    killed = 0
    for m in pool:
        if killed >= args.count:
            break
        so, error = tools.compile(m.id, m.source)
        if so is None:
            continue
        status, laws, detail = run_conform(args, so)
        print(f"{m.id} L{m.line} `{m.after}`: {status} {','.join(laws)}")
        if status in ("killed", "refused"):
            killed += 1
        else:
            errors.append(f"mutant {m.id} (line {m.line}: `{m.before}` -> `{m.after}`) {status}: not killed and not "
                          f"listed in {os.path.relpath(args.equivalents, ROOT)}")
            break
    if killed < args.count and not errors:
        errors.append(f"only {killed} mutants could be built and run (wanted {args.count})")
    for e in errors:
        print("FAIL: " + e)
    if not errors:
        print(f"mutants: {len(mutants)} generated; the control passes; {killed} sampled mutants all killed")
    return 1 if errors else 0


def list_mutants(args):
    mutants = select(args, source_and_mutants(args)[1])
    for m in mutants:
        print(f"{m.id}  L{m.line:<4} {m.op:<5} - {m.before}\n{'':24}+ {m.after}")
    ops = {}
    for m in mutants:
        ops[m.op] = ops.get(m.op, 0) + 1
    print(f"{len(mutants)} mutants: " + ", ".join(f"{op} {n}" for op, n in sorted(ops.items())))
    return 0


def positive(text):
    value = int(text)
    if value < 1:
        raise argparse.ArgumentTypeError(f"{text}: must be >= 1")
    return value


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("mode", choices=["list", "study", "check"])
    parser.add_argument("--source", default=DEFAULT_SOURCE, help="the C++ file to mutate (default: plain_adapter.cpp)")
    parser.add_argument("--ndshard", help="the ndshard CLI to run (study, check)")
    parser.add_argument("--out", default=os.path.join(ROOT, "build", "mutants"), help="work folder and reports")
    parser.add_argument("--equivalents", default=DEFAULT_EQUIVALENT, help="documented equivalent mutants")
    parser.add_argument("--cxx", default=os.environ.get("CXX", "g++"))
    parser.add_argument("--cxxflags", default=DEFAULT_CXXFLAGS)
    parser.add_argument("--include", action="append", help="include folder (repeatable; default lib/include and "
                                                           "conformance/adapters/common)")
    parser.add_argument("--define", action="append", help="a macro defined in the control build (repeatable)")
    parser.add_argument("--cases", type=positive, default=1000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--timeout-ms", type=positive, default=1000)
    parser.add_argument("--mutant-seconds", type=positive, default=300, help="wall budget of one conform run")
    parser.add_argument("--jobs", type=positive, default=1)
    parser.add_argument("--sample", type=positive, help="run only this many mutants, drawn with --sample-seed")
    parser.add_argument("--sample-seed", type=int, default=2026)
    parser.add_argument("--count", type=positive, default=4, help="check: sampled mutants that must be killed")
    parser.add_argument("--only", help="comma-separated mutant ids")
    parser.add_argument("--ops", help="comma-separated operators (ror,aor,asg,bit,inc,not,const,swap,opnd,cond,del)")
    parser.add_argument("--all-laws", dest="first_kill", action="store_false",
                        help="run every law on each mutant (default: law by law, stopping at the first that fails)")
    parser.add_argument("--fresh", action="store_true", help="ignore results cached in --out")
    parser.add_argument("--verbose", action="store_true", help="print every mutant's result")
    args = parser.parse_args()
    if not os.path.isfile(args.source):
        parser.error(f"--source \"{args.source}\": no such file")
    if args.equivalents != os.devnull and not os.path.isfile(args.equivalents):
        parser.error(f"--equivalents \"{args.equivalents}\": no such file (give {os.devnull} for none)")
    if shutil.which(args.cxx) is None:
        parser.error(f"--cxx \"{args.cxx}\": not found on PATH")
    if args.mode == "list":
        return list_mutants(args)
    return study(args) if args.mode == "study" else check(args)


if __name__ == "__main__":
    sys.exit(main())
