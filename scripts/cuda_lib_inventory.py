#!/usr/bin/env python3
"""The CUDA math libraries' host API for the cpu backend, from the CUDA toolkit's own headers.

    scripts/cuda_lib_inventory.py [--include DIR] [--check] [--table]

DIR is the toolkit's include folder (default /usr/local/cuda/include). For each library below
the script reads its headers and writes the generated block of its kladder header
(kernels/kl_cublas.h, kl_cufft.h, kl_cusparse.h, kl_cusolver.h, kl_curand.h), and the
library data types (library_types.h) into their block of kernels/kl_host.h:

  - every enumeration with its enumerators' values, and the integer constants and name aliases
    the headers #define (CUFFT_FORWARD, `#define cublasSgemm cublasSgemm_v2`, ...);
  - the handle typedefs as pointers to opaque structures, the scalar and array typedefs, the
    callbacks' function pointer types, and each structure whose members are of known types;
  - every function: one returning the library's status answers its "not supported" status
    (CUBLAS_STATUS_NOT_SUPPORTED, CUFFT_NOT_SUPPORTED, ...), one that names a status
    (cublasGetStatusName, cusparseGetErrorString, ...) answers the enumerator's name, any other
    answers a zero value; each takes any arguments (KL_HOST_FN of kernels/kl_host.h).

A function, enumeration or structure the header's hand-written part declares is left out of the
block (an enumeration or structure declared by hand as well is refused). Only names and values
are taken, never the headers' text. --check exits 1 when a block is not what the headers give
(nothing written); --table prints how many functions, enumerations and types each library has.
"""
import argparse
import os
import re
import sys

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
HOST = os.path.join(ROOT, "kernels", "kl_host.h")

# file, headers read (in order), status type and its "not supported" value, name prefixes of
# the #defines taken
LIBS = [
    ("kl_cublas.h", ["cublas_api.h", "cublas_v2.h", "cublas.h"],
     ("cublasStatus_t", "CUBLAS_STATUS_NOT_SUPPORTED"), ("CUBLAS", "cublas")),
    ("kl_cufft.h", ["cufft.h", "cudalibxt.h", "cufftXt.h"], ("cufftResult", "CUFFT_NOT_SUPPORTED"),
     ("CUFFT", "MAX_CUFFT", "MAX_CUDA_", "CUDA_XT", "LIB_")),
    ("kl_cusparse.h", ["cusparse.h"], ("cusparseStatus_t", "CUSPARSE_STATUS_NOT_SUPPORTED"),
     ("CUSPARSE",)),
    ("kl_cusolver.h", ["cusolver_common.h", "cusolverDn.h", "cusolverSp.h"],
     ("cusolverStatus_t", "CUSOLVER_STATUS_NOT_SUPPORTED"), ("CUSOLVER",)),
    # cuRAND has no "not supported" status: a generator kladder cannot make is of the wrong type
    ("kl_curand.h", ["curand.h"], ("curandStatus_t", "CURAND_STATUS_TYPE_ERROR"), ("CURAND",)),
    # the math constants device and host code use (CUDART_PI_F, CUDART_INF_F, ...): no function
    ("kl_math_constants.h", ["math_constants.h"], None, ("CUDART_",)),
]
# what a constant's value may call (kernels/kl_vendor.h has them)
INTRINSICS = {"__int_as_float", "__longlong_as_double", "__hiloint2double"}
LIBTYPES = ("library_types.h",)

BUILTIN = {"void", "char", "short", "int", "long", "float", "double", "unsigned", "signed",
           "bool", "size_t", "int8_t", "int16_t", "int32_t", "int64_t", "uint8_t", "uint16_t",
           "uint32_t", "uint64_t", "const", "struct", "enum"}
# what kl_host.h and kl_vendor.h declare ahead of the libraries
AHEAD = {"cudaStream_t", "cudaEvent_t", "cuComplex", "cuFloatComplex", "cuDoubleComplex",
         "__half", "__half2", "__nv_bfloat16", "__nv_bfloat162", "cudaError_t", "uint2", "uint4",
         "int2", "int4", "float2", "float4", "double2", "double4"}
# the device API's qualifiers, taken out of its declarations
DEVICE_WORDS = {"QUALIFIERS", "QUALIFIERS_MTGP32", "QUALIFIERS_STATIC", "__device__", "__host__",
                "__forceinline__", "__global__", "__NV_SILENCE_DEPRECATION_BEGIN",
                "__NV_SILENCE_DEPRECATION_END"}
# cuRAND's device API (curand_kernel.h and the headers it includes): its state types, and each
# function declared unsupported on the cpu backend (a kernel using one is refused, naming it)
DEVICE = ("kl_curand.h", ["curand_kernel.h", "curand_discrete.h", "curand_mrg32k3a.h",
                          "curand_mtgp32.h", "curand_mtgp32_kernel.h", "curand_philox4x32_x.h",
                          "curand_uniform.h", "curand_normal.h", "curand_lognormal.h",
                          "curand_poisson.h", "curand_discrete2.h"],
          r"(curand|skipahead)\w*", ("CURAND", "MTGP32", "TBL_SIZE"))
NO_GUARD = {"cublas.h"}
API_MACROS = {"CUBLASWINAPI", "CUBLASAPI", "CUFFTAPI", "CUSPARSEAPI", "CUSOLVERAPI",
              "CURANDAPI", "CUDARTAPI", "CUSOLVER_CPP_VERSION"}


def strip_comments(text):
    text = re.sub(r"/\*.*?\*/", " ", text, flags=re.S)
    return re.sub(r"//[^\n]*", " ", text)


def defines(text):
    out = []
    for m in re.finditer(r"^[ \t]*#[ \t]*define[ \t]+(\w+)[ \t]+([^\n\\]+?)[ \t]*$", text, re.M):
        out.append((m.group(1), m.group(2)))
    return out


def first_branches(text):
    """The text with each conditional's #else and #elif branches left out (a declaration the
    header writes twice, one spelling per compiler, is read once)."""
    out, skip = [], []
    for line in text.split("\n"):
        d = re.match(r"\s*#\s*(if|ifdef|ifndef|elif|else|endif)\b", line)
        if d and d.group(1).startswith("if"):
            skip.append(False)
        elif d and d.group(1) in ("elif", "else") and skip:
            skip[-1] = True
        elif d and d.group(1) == "endif" and skip:
            skip.pop()
        elif not any(skip):
            out.append(line)
    return "\n".join(out)


def declarations(text):
    """The header's top-level statements, preprocessor lines, extern "C" and the deprecation
    and calling-convention macros taken out; a function body ends its statement."""
    text = first_branches(text)
    text = re.sub(r"^[ \t]*#(?:[^\n]*\\\n)*[^\n]*", " ", text, flags=re.M)
    text = re.sub(r'extern\s+"C"\s*\{', " ", text)
    text = re.sub(r"\b\w*DEPRECATED\w*\b(\s*\([^()]*\))?", " ", text)
    text = re.sub(r"\b(%s)\b" % "|".join(API_MACROS | DEVICE_WORDS), " ", text)
    text = re.sub(r"__attribute__\s*\(\(.*?\)\)", " ", text)
    out, cur, depth = [], "", 0
    for ch in text:
        if ch == "{":
            depth += 1
        elif ch == "}":
            if depth == 0:
                continue  # the end of an extern "C" block
            depth -= 1
            if depth == 0 and re.search(r"\)\s*(const\s*)?\{", cur + ch) and \
                    not re.match(r"\s*(typedef|enum|struct|union)\b", cur):
                out.append(" ".join(cur[:cur.index("{")].split()))  # an inline function's head
                cur = ""
                continue
        if ch == ";" and depth == 0:
            out.append(" ".join(cur.split()))
            cur = ""
            continue
        cur += ch
    return [s for s in out if s]


class Gen:
    def __init__(self):
        self.known = set(BUILTIN) | set(AHEAD)
        self.values = set()  # enumerators and constants declared so far
        self.enums = {}      # type name -> [(enumerator, value)]
        self.taken = set()   # every name written

    def type_known(self, text):
        words = re.findall(r"[A-Za-z_]\w*", text)
        return all(w in self.known for w in words)

    def field_ok(self, decl):
        """A member declaration of known types: `T name`, `T *name[N]`, `T a, b[N]`."""
        first, *more = decl.split(",")
        m = re.fullmatch(r"([\w\s\*]+?)\s*\b(\w+)((?:\s*\[\s*\w+\s*\])*)", first.strip())
        dims = re.findall(r"\[\s*(\w+)\s*\]", decl)
        return bool(m) and self.type_known(m.group(1)) and \
            all(re.fullmatch(r"\s*\**\s*\w+(\s*\[\s*\w+\s*\])*\s*", d) for d in more) and \
            all(d.isdigit() or d in self.values for d in dims)

    def value_ok(self, v):
        return all(w in self.values or re.fullmatch(r"0[xX][0-9a-fA-F]+[uUlL]*|\d+[uUlL]*", w)
                   for w in re.findall(r"\w+", v)) and re.fullmatch(r"[\w\s()+\-*/<>|&~^]+", v)

    def enum(self, tag, name, body, where):
        items = []
        for item in body.split(","):
            item = " ".join(item.split())
            if not item:
                continue
            m = re.fullmatch(r"(\w+)(?:\s*=\s*(.+))?", item)
            if not m or (m.group(2) and not self.value_ok(m.group(2))):
                sys.exit("cuda_lib_inventory: %s: enum %s: cannot read %r" % (where, name or tag, item))
            items.append((m.group(1), m.group(2)))
            self.values.add(m.group(1))
        lines = ["%senum %s{" % ("typedef " if name else "", tag + " " if tag else "")]
        for i, (n, v) in enumerate(items):
            lines.append("    %s%s%s" % (n, " = " + v if v else "", "," if i + 1 < len(items) else ""))
            self.values.add(n)
        lines.append("}%s;" % (" " + name if name else ""))
        for t in (tag, name):
            if t:
                self.known.add(t)
                self.enums[t] = items
        return lines


def render_lib(gen, include, headers, status, prefixes, hand, where, device=None):
    """The generated block's lines for one library, and its counts; with device (a pattern of
    the device functions' names) its device API instead."""
    stype, fail = status or (None, None)
    lines, fns, counts = [], [], {"functions": 0, "enumerations": 0, "types": 0}
    hand_fns = set(re.findall(r"\b(\w+)\s*\(", hand))
    texts = []
    for h in headers:
        path = os.path.join(include, h)
        if not os.path.exists(path):
            sys.exit("cuda_lib_inventory: %s: no such header" % path)
        texts.append((h, strip_comments(open(path, encoding="utf-8").read())))
    for h, text in texts:
        # the header's include guard and calling-convention macros, as it defines them (a
        # helper header tests them to take its path for the library: `#ifdef _CUFFT_H_`);
        # cublas.h's guard is left out, the toolkit refusing it beside cublas_v2.h's
        m = re.search(r"^\s*#\s*(?:ifndef\s+(\w+)|if\s+!\s*defined\s*\(?\s*(\w+)\s*\)?)\s*\n"
                      r"\s*#\s*define\s+(\w+)\s*$", text, re.M)
        if m and (m.group(1) or m.group(2)) == m.group(3) and h not in NO_GUARD:
            lines.append("#define %s" % m.group(3))
        for api in sorted(set(re.findall(r"\b(%s)\b" % "|".join(API_MACROS), text)) - {"CUDARTAPI"}
                          - gen.taken - {"CUSOLVER_CPP_VERSION"}):
            lines += ["#ifndef %s" % api, "#define %s" % api, "#endif"]
            gen.taken.add(api)
        # its literal constants ahead of its declarations (an array's size)
        for name, value in defines(text):
            if name.startswith(prefixes) and name not in gen.taken and name not in gen.values \
                    and re.fullmatch(r"-?(0[xX][0-9a-fA-F]+|\d+)[uUlL]*", value.strip()):
                lines.append("#define %s %s" % (name, value.strip()))
                gen.values.add(name)
                gen.taken.add(name)
        for st in declarations(text):
            m = re.fullmatch(r"typedef enum\s*(\w+)?\s*\{(.*)\}\s*(\w+)", st) or \
                re.fullmatch(r"enum\s+(\w+)\s*\{(.*)\}()", st)
            if m:
                tag, body, name = m.group(1), m.group(2), m.group(3) or None
                if name in gen.taken or (not name and tag in gen.taken):
                    continue
                if re.search(r"\benum\s+%s\s*\{|\}\s*%s\s*;" % (tag or name, name or tag), hand):
                    sys.exit("cuda_lib_inventory: %s declares enum %s by hand; remove it (the "
                             "toolkit's is generated)" % (where, name or tag))
                lines += gen.enum(tag, name, body, h)
                gen.taken.add(name or tag)
                counts["enumerations"] += 1
                continue
            m = re.fullmatch(r"typedef enum (\w+) (\w+)", st)
            if m and m.group(1) in gen.known:
                if m.group(2) not in gen.taken:
                    lines.append("typedef enum %s %s;" % m.groups())
                    gen.known.add(m.group(2))
                    gen.enums[m.group(2)] = gen.enums.get(m.group(1), [])
                    gen.taken.add(m.group(2))
                continue
            m = re.fullmatch(r"typedef (const )?struct (\w+) ?(const )?\* ?(\w+)", st)
            if m:
                if m.group(4) not in gen.taken:
                    lines.append("typedef %sstruct %s %s*%s;" % (m.group(1) or "", m.group(2),
                                                                 m.group(3) or "", m.group(4)))
                    gen.known.add(m.group(4))
                    gen.taken.add(m.group(4))
                    counts["types"] += 1
                continue
            m = re.fullmatch(r"(typedef )?struct (\w+)? ?\{(.*)\} ?(\w+)?", st)
            if m:
                tag, body, name = m.group(2), m.group(3), m.group(4)
                full = name or tag
                if full in gen.taken:
                    continue
                fields = [" ".join(f.split()) for f in body.split(";") if f.strip()]
                plain = bool(fields) and all(gen.field_ok(f) for f in fields)
                if re.search(r"\bstruct\s+%s\s*\{" % full, hand):
                    sys.exit("cuda_lib_inventory: %s declares struct %s by hand; remove it "
                             "(the toolkit's is generated)" % (where, full))
                if plain:
                    lines.append("%sstruct %s{" % ("typedef " if m.group(1) else "", tag + " " if tag else ""))
                    lines += ["    %s;" % f for f in fields]
                    lines.append("}%s;" % (" " + name if name else ""))
                    gen.known.add(full)
                    if tag:
                        gen.known.add(tag)
                    gen.taken.add(full)
                    counts["types"] += 1
                continue
            m = re.fullmatch(r"struct (\w+)", st)
            if m:
                continue  # a forward declaration: the handle's typedef declares it
            m = re.fullmatch(r"typedef struct (\w+) (\w+)", st)
            if m:
                if m.group(2) not in gen.taken:
                    lines.append("typedef struct %s %s;" % m.groups())
                    gen.known.add(m.group(2))
                    gen.taken.add(m.group(2))
                    counts["types"] += 1
                continue
            m = re.fullmatch(r"typedef ([\w\s\*]+?) ?\( ?\* ?(\w+) ?\) ?\((.*)\)", st)
            if m:
                ret, name, params = m.groups()
                ptypes = [re.sub(r"\s*\b\w+\s*$", "", p) if len(p.replace("*", " ").split()) > 1 else p
                          for p in params.split(",")]
                if name not in gen.taken and gen.type_known(ret) and all(gen.type_known(p) for p in ptypes):
                    lines.append("typedef %s (*%s)(%s);" % (ret, name, params))
                    gen.known.add(name)
                    gen.taken.add(name)
                    counts["types"] += 1
                continue
            m = re.fullmatch(r"typedef ([\w\s\*]+?) ?\b(\w+)((?: ?\[ ?\w+ ?\])*)", st)
            if m:
                base, name, dims = m.groups()
                if name not in gen.taken and gen.type_known(base) and name not in gen.known:
                    lines.append("typedef %s %s%s;" % (" ".join(base.split()), name, dims.replace(" ", "")))
                    gen.known.add(name)
                    gen.taken.add(name)
                    counts["types"] += 1
                continue
            m = re.fullmatch(r"(?:extern )?([\w\s\*]+?) ?\b(\w+) ?\((.*)\)", st)
            if m:
                ret, name, params = m.groups()
                ret = " ".join(re.sub(r"\b(extern|static|inline)\b", " ", ret).split())
                if name in gen.taken or name in hand_fns or not ret:
                    continue
                gen.taken.add(name)
                fns.append((name, ret, params))
                continue
        # its #defines after its declarations, which they may name (cublas_v2.h's names of
        # cublas_api.h's functions come before cublas.h's legacy functions of those names)
        for name, value in defines(text):
            value = value.strip()
            if not name.startswith(prefixes) or name in API_MACROS or name.endswith(("_H", "_H_")) \
                    or name in gen.taken or name in gen.values:
                continue
            words = re.findall(r"[A-Za-z_]\w*", re.sub(r"\b\d[\w.]*(?:[eE][+-]\d+[fFlL]?)?", " ", value))
            if not re.fullmatch(r"[\w\s()+\-*/<>|&~^.]+", value) or \
                    not all(w in gen.values or w in gen.taken or w in INTRINSICS for w in words):
                continue
            lines.append("#define %s %s" % (name, value))
            gen.values.add(name)
            gen.taken.add(name)
    if not status and not device:  # constants only
        return lines, counts
    if device:
        # the value a call is taken to have is the function's own type (a comparison or an
        # assignment around the call compiles; the one error is the call's)
        rets = {}
        for n, ret, _ in fns:
            if re.fullmatch(device, n):
                rets.setdefault(n, set()).add(" ".join(re.sub(r"template\s*<[^>]*>", " ", ret).split()))
        counts["functions"] = len(rets)
        return lines + ["KL_CPU_UNSUPPORTED_RET(%s, %s)" % (n, list(r)[0]) if len(r) == 1
                        else "KL_CPU_UNSUPPORTED(%s)" % n for n, r in sorted(rets.items())], counts
    # the functions
    statuses = {stype} | {t for t, items in gen.enums.items() if items == gen.enums.get(stype)}
    aliases = set(re.findall(r"typedef (\w+) (\w+);", "\n".join(lines)))
    aliases |= set((b, a) for a, b in re.findall(r"#define (\w+) (\w+)$", "\n".join(lines), re.M))
    for a, b in aliases:
        if a in statuses:
            statuses.add(b)
    macro = "KL_HOST_%s" % where.replace("kl_", "").replace(".h", "").upper()
    names_fn = "kl_%s_status_name" % where.replace("kl_", "").replace(".h", "")
    rows, row, special = [], "", []
    for name, ret, params in sorted(fns):
        counts["functions"] += 1
        p = [x.strip() for x in params.split(",")]
        if ret in statuses:
            item = "%s(%s)" % (macro, name)
        elif re.fullmatch(r"const char ?\*", ret) and len(p) == 1 and p[0].split()[0] in statuses:
            special.append("static inline const char *%s(%s s) { return %s(s); }" % (name, stype, names_fn))
            continue
        elif ret == "void":
            special.append("KL_HOST_FN(void, %s, )" % name)
            continue
        else:
            special.append("KL_HOST_FN(%s, %s, {})" % (ret, name))
            continue
        if row and len(row) + 1 + len(item) > 100:
            rows.append(row)
            row = ""
        row = (row + " " + item).strip()
    if row:
        rows.append(row)
    out = lines
    # the status's name, an enumerator a value (the first of those sharing one)
    out.append("static inline const char *%s(%s s)" % (names_fn, stype))
    out.append("{")
    out.append("    switch ((int)s) {")
    values = set()
    for n, v in gen.enums[stype]:
        if v is None or not re.fullmatch(r"-?(0[xX][0-9a-fA-F]+|\d+)", v.strip()) or \
                int(v.strip(), 0) in values:
            continue
        values.add(int(v.strip(), 0))
        out.append("    case %s: return \"%s\";" % (n, n))
    out.append("    }")
    out.append("    return \"unknown status\";")
    out.append("}")
    out.append("#define %s(name) KL_HOST_FN(%s, name, %s)" % (macro, stype, fail))
    out += rows + special
    out.append("#undef %s" % macro)
    return out, counts


def begin_end(where):
    return ("/* ---- %s: generated by scripts/cuda_lib_inventory.py ---- */" % where,
            "/* ---- %s: end of the generated block ---- */" % where)


def replace(text, begin, end, block, path):
    if begin not in text or end not in text:
        sys.exit("cuda_lib_inventory: %s has no generated block (%s)" % (path, begin))
    a, b = text.index(begin), text.index(end) + len(end)
    return text[:a] + block + text[b:]


def outside(text, begin, end):
    a, b = text.index(begin), text.index(end)
    return text[:a] + text[b + len(end):]


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--include", default="/usr/local/cuda/include")
    ap.add_argument("--check", action="store_true")
    ap.add_argument("--table", action="store_true")
    a = ap.parse_args()
    gen = Gen()
    writes, table = [], []
    # the library data types, in kl_host.h
    host = open(HOST, encoding="utf-8").read()
    begin, end = begin_end("cuda library types")
    lines = []
    for h in LIBTYPES:
        text = strip_comments(open(os.path.join(a.include, h), encoding="utf-8").read())
        for st in declarations(text):
            m = re.fullmatch(r"typedef enum\s*(\w+)?\s*\{(.*)\}\s*(\w+)", st)
            if m and m.group(3) not in gen.taken:
                lines += gen.enum(m.group(1), m.group(3), m.group(2), h)
                gen.taken.add(m.group(3))
                continue
            m = re.fullmatch(r"typedef enum (\w+) (\w+)", st)
            if m and m.group(2) not in gen.taken and m.group(2) != m.group(1):
                lines.append("typedef enum %s %s;" % m.groups())
                gen.known.add(m.group(2))
    writes.append((HOST, host, replace(host, begin, end, "\n".join([begin] + lines + [end]), HOST)))
    for where, headers, status, prefixes in LIBS:
        path = os.path.join(ROOT, "kernels", where)
        text = open(path, encoding="utf-8").read()
        begin, end = begin_end(where.replace(".h", "").replace("kl_", "") + " toolkit API")
        if begin not in text:
            sys.exit("cuda_lib_inventory: %s has no generated block" % path)
        block, counts = render_lib(gen, a.include, headers, status, prefixes,
                                   outside(text, begin, end), where)
        writes.append((path, text, replace(text, begin, end, "\n".join([begin] + block + [end]), path)))
        table.append((where, headers, counts, "`%s`" % status[1] if status else "(constants only)"))
    where, headers, pattern, prefixes = DEVICE
    path = os.path.join(ROOT, "kernels", where)
    text = [new for p, old, new in writes if p == path][0]
    begin, end = begin_end(where.replace(".h", "").replace("kl_", "") + " device API")
    if begin not in text:
        sys.exit("cuda_lib_inventory: %s has no generated block (%s)" % (path, begin))
    block, counts = render_lib(gen, a.include, headers, None, prefixes, outside(text, begin, end),
                               where, device=pattern)
    writes = [(p, old, replace(new, begin, end, "\n".join([begin] + block + [end]), path)
               if p == path else new) for p, old, new in writes]
    table.append((where, headers[:1], counts, "refused where a kernel calls it (XORWOW's own, by hand, are not counted)"))
    if a.table:  # docs/kernels.md shows it
        print("| kladder's header | the toolkit's headers | functions | enumerations | types | a call answers |")
        print("|---|---|---:|---:|---:|---|")
        for where, headers, c, answer in table:
            print("| `%s` | %s | %d | %d | %d | %s |" % (
                where, ", ".join("`%s`" % h for h in headers), c["functions"], c["enumerations"],
                c["types"], answer))
    stale = [p for p, old, new in writes if old != new]
    if a.check:
        for p in stale:
            print("cuda_lib_inventory: %s is not what the toolkit's headers give" % os.path.relpath(p, ROOT),
                  file=sys.stderr)
        sys.exit(1 if stale else 0)
    for p, old, new in writes:
        if old != new:
            with open(p + ".tmp", "w", encoding="utf-8") as f:
                f.write(new)
            os.replace(p + ".tmp", p)


if __name__ == "__main__":
    main()
