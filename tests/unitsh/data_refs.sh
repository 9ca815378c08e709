#!/usr/bin/env bash
# Checks the data of the case index (data/cases.json, gaps.json, rungs.json) against the reference
# list of the source document (tests/fixtures/source-refs.txt) and against data/schema/*.json.
# The checker is python3 with the standard library only; JSON Schema is validated by a small
# validator of the keywords the three schemas use, which refuses any keyword it does not know so
# that schema and checker cannot drift apart silently.
# Each check must be able to fail: the second half feeds deliberately broken copies of the data
# and expects the check named for that breakage to report it.
set -u
. tests/lib.sh
: "${KL_TMP:=$(mktemp -d)}"

kl_need "python3 not found; data checks need it" python3

checker=$KL_TMP/data_refs.py
cat >"$checker" <<'PY'
import copy, json, os, re, sys

SYMPTOMS = ["garbage-tokens", "nan", "hang", "stale-data", "wrong-values", "wrong-values-tail", "zeros",
            "crash", "compile-error", "silent-slow-path", "silent-no-op", "flaky", "ci-false-pass",
            "perf-variance", "test-oracle-wrong"]
GAP_KEYS = ["shape", "data", "contract", "environment", "timing", "scale", "software"]
RUNG_KEYS = ["boundary", "real-inputs", "seams", "production-mode", "repeat", "multi-gpu", "toolchain",
             "end-to-end"]
REPRODUCERS = {"aiter-6402", "flydsl-1199", "flydsl-1264", "aiter-6344", "atom-2533", "aiter-4494",
               "flydsl-1220", "aiter-4812", "aiter-6446", "flydsl-1024", "sglang-37751", "sglang-41687",
               "flydsl-1153", "flydsl-1277", "flydsl-1088", "flydsl-1228", "aiter-4987",
               "flydsl-1020", "flydsl-1213", "atom-1750", "aiter-5801", "aiter-6127",
               "aiter-5465", "flydsl-1253", "aiter-5418", "aiter-6170", "sglang-41868", "aiter-4841",
               "flydsl-1214"}
# the order of the source document's grouping table, cases 1 to 32
ORDER = ["aiter-6402", "atom-2533", "flydsl-1199", "flydsl-1264", "aiter-4987", "atom-1750", "aiter-5801",
         "flydsl-1213", "flydsl-1020", "aiter-6127", "flydsl-1024", "sglang-37751", "sglang-41687",
         "flydsl-1214", "aiter-5465", "aiter-6360", "flydsl-1253", "aiter-4494", "flydsl-1277", "flydsl-1220",
         "aiter-6344", "aiter-5418", "sglang-41868", "aiter-6170", "aiter-4841", "aiter-4812", "aiter-6446",
         "flydsl-1088", "flydsl-1153", "sglang-33142", "aiter-5133", "flydsl-1228"]
ORG = {"aiter": "ROCm/aiter", "flydsl": "ROCm/FlyDSL", "sglang": "sgl-project/sglang", "atom": "ROCm/ATOM"}
CTRL = re.compile(r"[\x00-\x1f\x7f]")
CTRL_BUT_NL = re.compile(r"[\x00-\x09\x0b-\x1f\x7f]")

# ---- a JSON Schema (2020-12) validator for the keywords data/schema uses ----
ANNOT = {"$schema", "$id", "$defs", "title", "description"}
KNOWN = ANNOT | {"$ref", "type", "enum", "const", "pattern", "minLength", "maxLength", "minimum",
                 "maximum", "exclusiveMinimum", "properties", "required", "additionalProperties", "items",
                 "minItems", "maxItems", "uniqueItems", "anyOf"}

def js_type(v):
    if v is None: return "null"
    if isinstance(v, bool): return "boolean"
    if isinstance(v, int): return "integer"
    if isinstance(v, float): return "number"
    if isinstance(v, str): return "string"
    if isinstance(v, list): return "array"
    return "object"

def js_equal(a, b):
    # JSON Schema equality: 1 and 1.0 are equal, true and 1 are not
    ta, tb = js_type(a), js_type(b)
    if ta in ("integer", "number") and tb in ("integer", "number"):
        return a == b
    return ta == tb and a == b

def validate(schema, root, v, path, errs):
    unknown = set(schema) - KNOWN
    if unknown:
        errs.append("%s: schema keyword(s) this checker does not know: %s" % (path, sorted(unknown)))
    if "$ref" in schema:
        node = root
        for part in schema["$ref"].lstrip("#/").split("/"):
            node = node[part]
        validate(node, root, v, path, errs)
    t = js_type(v)
    if "type" in schema:
        want = schema["type"] if isinstance(schema["type"], list) else [schema["type"]]
        if not (t in want or (t == "integer" and "number" in want)):
            errs.append("%s: type %s, want %s" % (path, t, want)); return
    if "enum" in schema and not any(js_equal(v, e) for e in schema["enum"]):
        errs.append("%s: %r not in %r" % (path, v, schema["enum"]))
    if "const" in schema and not js_equal(v, schema["const"]):
        errs.append("%s: %r is not %r" % (path, v, schema["const"]))
    if "anyOf" in schema:
        if not any(not _errs(s, root, v, path) for s in schema["anyOf"]):
            errs.append("%s: matches no alternative" % path)
    if t == "string":
        if "pattern" in schema and not re.search(schema["pattern"], v):
            errs.append("%s: %r does not match %s" % (path, v[:60], schema["pattern"]))
        if len(v) < schema.get("minLength", 0): errs.append("%s: shorter than minLength" % path)
        if "maxLength" in schema and len(v) > schema["maxLength"]:
            errs.append("%s: %d characters, over maxLength %d" % (path, len(v), schema["maxLength"]))
    if t in ("integer", "number"):
        if "minimum" in schema and v < schema["minimum"]: errs.append("%s: %r below minimum" % (path, v))
        if "maximum" in schema and v > schema["maximum"]: errs.append("%s: %r above maximum" % (path, v))
        if "exclusiveMinimum" in schema and v <= schema["exclusiveMinimum"]:
            errs.append("%s: %r not above exclusiveMinimum" % (path, v))
    if t == "array":
        if len(v) < schema.get("minItems", 0): errs.append("%s: %d items, under minItems" % (path, len(v)))
        if "maxItems" in schema and len(v) > schema["maxItems"]:
            errs.append("%s: %d items, over maxItems" % (path, len(v)))
        if schema.get("uniqueItems"):
            seen = [json.dumps(x, sort_keys=True) for x in v]
            if len(set(seen)) != len(seen): errs.append("%s: items not unique" % path)
        if "items" in schema:
            for i, x in enumerate(v):
                validate(schema["items"], root, x, "%s[%d]" % (path, i), errs)
    if t == "object":
        props = schema.get("properties", {})
        for k in schema.get("required", []):
            if k not in v: errs.append("%s: missing %s" % (path, k))
        for k, x in v.items():
            if k in props:
                validate(props[k], root, x, path + "." + k, errs)
            elif schema.get("additionalProperties") is False:
                errs.append("%s: unexpected field %s" % (path, k))

def _errs(schema, root, v, path):
    e = []
    validate(schema, root, v, path, e)
    return e

# ---- the checks ----
def run(datadir, refsfile, schemadir):
    results = []
    def check(key, ok, detail=""):
        results.append((key, bool(ok), detail))

    docs = {}
    for name in ("cases", "gaps", "rungs"):
        try:
            with open(os.path.join(datadir, name + ".json"), encoding="utf-8") as f:
                docs[name] = json.load(f)
            check("json." + name, True)
        except (OSError, ValueError) as e:
            check("json." + name, False, str(e))
            return results
    cases = docs["cases"].get("cases", [])
    gaps = docs["gaps"].get("gaps", [])
    rungs = docs["rungs"].get("rungs", [])

    for name in ("cases", "gaps", "rungs"):
        try:
            with open(os.path.join(schemadir, name + ".schema.json"), encoding="utf-8") as f:
                schema = json.load(f)
        except (OSError, ValueError) as e:
            check("schema." + name, False, str(e)); continue
        e = []
        if schema.get("$schema") != "https://json-schema.org/draft/2020-12/schema":
            e.append("not a draft 2020-12 schema")
        e += _errs(schema, schema, docs[name], name)
        check("schema." + name, not e, "; ".join(e[:5]))

    # schema and checker agree on the vocabularies
    try:
        with open(os.path.join(schemadir, "cases.schema.json"), encoding="utf-8") as f:
            cs = json.load(f)
        check("schema.symptoms-agree", cs["$defs"]["symptom"]["enum"] == SYMPTOMS)
    except (OSError, ValueError, KeyError) as e:
        check("schema.symptoms-agree", False, str(e))

    check("cases.count", len(cases) == 32, "%d cases" % len(cases))
    ids = [c.get("id") for c in cases]
    check("cases.ids-unique", len(set(ids)) == len(ids),
          "duplicates: %s" % sorted({i for i in ids if ids.count(i) > 1}))
    bad = []
    for c in cases:
        r0 = (c.get("refs") or [{}])[0]
        if c.get("id") != "%s-%s" % (r0.get("repo"), r0.get("number")) or c.get("repo") != r0.get("repo") \
           or not re.fullmatch(r"[a-z]+-[0-9]+", str(c.get("id"))):
            bad.append(c.get("id"))
    check("cases.id-from-first-ref", not bad, "ids: %s" % bad)

    bad = []
    for c in cases:
        for r in c.get("refs", []):
            want = "%s#%s" % (r.get("repo"), r.get("number"))
            url_re = r"https://github\.com/%s/(issues|pull)/%s" % (re.escape(ORG.get(r.get("repo"), "?")),
                                                                   r.get("number"))
            if r.get("ref") != want or not re.fullmatch(url_re, str(r.get("url"))):
                bad.append(r.get("ref"))
            if not r.get("verified") and any(r.get(k) is not None for k in ("kind", "state", "date", "title")):
                bad.append(r.get("ref") + " (unverified, yet has confirmed facts)")
            if not r.get("verified") and not str(r.get("url")).endswith("/issues/%s" % r.get("number")):
                bad.append(r.get("ref") + " (unverified url not in /issues/ form)")
    check("refs.well-formed", not bad, "refs: %s" % bad)

    try:
        with open(refsfile, encoding="utf-8") as f:
            lines = [l.strip() for l in f if l.strip() and not l.startswith("#")]
    except OSError as e:
        lines = []
        check("fixture.readable", False, str(e))
    check("fixture.42-refs-sorted-unique", len(lines) == 42 and lines == sorted(set(lines)),
          "%d lines" % len(lines))
    where = {}
    for c in cases:
        for r in c.get("refs", []):
            where.setdefault(r.get("ref"), []).append(c.get("id"))
    missing = [r for r in lines if r not in where]
    twice = {r: w for r, w in where.items() if len(w) > 1}
    check("refs.each-source-ref-in-exactly-one-case", not missing and not twice,
          "missing: %s; in several cases: %s" % (missing, twice))
    extra = sorted(r for r in where if r not in set(lines))
    check("refs.none-outside-source-list", not extra, "not in the source list: %s" % extra)

    bad = [(c.get("id"), s) for c in cases for s in c.get("symptoms", []) if s not in SYMPTOMS]
    bad += [(c.get("id"), "no symptom") for c in cases if not c.get("symptoms")]
    check("cases.symptoms-allowed", not bad, str(bad))

    def intin(v, lo, hi):
        return isinstance(v, int) and not isinstance(v, bool) and lo <= v <= hi
    bad = [c.get("id") for c in cases if not intin(c.get("gap"), 1, 7) or not intin(c.get("rung"), 1, 8)
           or not all(intin(g, 1, 7) for g in c.get("gaps", []))]
    check("cases.gap-and-rung-ranges", not bad, str(bad))
    bad = [c.get("id") for c in cases if c.get("gap") in c.get("gaps", [])
           or len(set(c.get("gaps", []))) != len(c.get("gaps", []))]
    check("cases.secondary-gaps-exclude-primary", not bad, str(bad))

    idset = set(ids)
    bad = [(c.get("id"), r) for c in cases for r in c.get("related", []) if r not in idset or r == c.get("id")]
    check("cases.related-exist", not bad, str(bad))

    bad = [c.get("id") for c in cases
           if c.get("verified") is not all(r.get("verified") is True for r in c.get("refs", []))]
    check("cases.verified-iff-all-refs-verified", not bad, str(bad))

    bad = [c.get("id") for c in cases if c.get("reproducer") not in (None, c.get("id"))]
    have = {c.get("id") for c in cases if c.get("reproducer")}
    check("cases.reproducers", not bad and have == REPRODUCERS,
          "wrong: %s; missing: %s; unexpected: %s" % (bad, sorted(REPRODUCERS - have), sorted(have - REPRODUCERS)))

    bad = [c.get("id") for c in cases
           if not (0 < len(c.get("title_en", "")) <= 70 and 0 < len(c.get("title_zh", "")) <= 35)]
    check("cases.title-lengths", not bad, str(bad))

    bad = []
    def walk(v, path, allow_nl):
        if isinstance(v, str):
            if (CTRL_BUT_NL if allow_nl else CTRL).search(v): bad.append(path)
        elif isinstance(v, list):
            for i, x in enumerate(v): walk(x, "%s[%d]" % (path, i), allow_nl)
        elif isinstance(v, dict):
            for k, x in v.items(): walk(x, path + "." + k, k.startswith("summary_"))
    for name in docs: walk(docs[name], name, False)
    check("text.no-control-characters", not bad, str(bad[:5]))

    bad = [c.get("id") for c in cases if not re.search(r"[\u4e00-\u9fff]", c.get("summary_zh", "") +
           c.get("title_zh", "") + c.get("catch_zh", ""))]
    check("cases.chinese-text-present", not bad, str(bad))

    check("cases.grouping-order", ids == ORDER,
          "first difference at position %d" % next((i + 1 for i, (a, b) in enumerate(zip(ids, ORDER)) if a != b),
                                                   min(len(ids), len(ORDER)) + 1))
    bad = [c.get("id") for c in cases if not c.get("verified") and "nverified" not in (c.get("notes") or "")]
    check("cases.unverified-say-so-in-notes", not bad, str(bad))

    bad = [(c.get("id"), r) for c in cases for r in c.get("rates", [])
           if not (isinstance(r.get("trials"), (int, float)) and isinstance(r.get("failures"), (int, float))
                   and r["trials"] >= 1 and 0 <= r["failures"] <= r["trials"])]
    check("cases.rates-sane", not bad, str(bad))

    check("gaps.seven-in-order", [g.get("n") for g in gaps] == list(range(1, 8))
          and [g.get("key") for g in gaps] == GAP_KEYS, str([(g.get("n"), g.get("key")) for g in gaps]))
    check("rungs.eight-in-order", [r.get("n") for r in rungs] == list(range(1, 9))
          and [r.get("key") for r in rungs] == RUNG_KEYS, str([(r.get("n"), r.get("key")) for r in rungs]))
    closed = {g for r in rungs for g in r.get("closes", [])}
    check("rungs.every-gap-closed", closed >= set(range(1, 8)), "unclosed: %s" % sorted(set(range(1, 8)) - closed))
    top = [r for r in rungs if r.get("n") == 8]
    check("rungs.end-to-end-closes-all", bool(top) and sorted(top[0].get("closes", [])) == list(range(1, 8)))
    return results

# ---- broken copies, each of which one named check must catch ----
def mutate(kind, docs, fixture):
    cases = docs["cases"]["cases"]
    if kind == "ref-in-two-cases":
        cases[1]["refs"].append(copy.deepcopy(cases[0]["refs"][0]))
    elif kind == "ref-dropped":
        cases[2]["refs"].pop()
    elif kind == "ref-not-in-source":
        r = copy.deepcopy(cases[0]["refs"][0]); r["number"] = 99999; r["ref"] = "aiter#99999"
        r["url"] = "https://github.com/ROCm/aiter/issues/99999"; cases[0]["refs"].append(r)
    elif kind == "unknown-symptom":
        cases[3]["symptoms"].append("segfault")
    elif kind == "primary-in-secondary":
        cases[4]["gaps"].append(cases[4]["gap"])
    elif kind == "rung-out-of-range":
        cases[5]["rung"] = 9
    elif kind == "related-missing":
        cases[6]["related"].append("aiter-1")
    elif kind == "verified-wrong":
        c = next(c for c in cases if not c["verified"]); c["verified"] = True
    elif kind == "id-mismatch":
        cases[7]["id"] = "aiter-1"
    elif kind == "duplicate-id":
        cases[9]["id"] = cases[8]["id"]
    elif kind == "title-too-long":
        cases[10]["title_zh"] = "很" * 36
    elif kind == "case-missing":
        cases.pop()
    elif kind == "gap-unclosed":
        for r in docs["rungs"]["rungs"]:
            r["closes"] = [g for g in r["closes"] if g != 6] or [1]
    elif kind == "extra-field":
        cases[11]["severity"] = "high"
    elif kind == "control-char":
        cases[12]["catch_en"] += "\x1b[31m"
    elif kind == "cases-swapped":
        cases[0], cases[1] = cases[1], cases[0]
    elif kind == "unverified-silent":
        c = next(c for c in cases if not c["verified"]); c["notes"] = None
    elif kind == "fixture-missing-ref":
        fixture = fixture[:-1]
    return docs, fixture

EXPECT = {
    "ref-in-two-cases": "refs.each-source-ref-in-exactly-one-case",
    "ref-dropped": "refs.each-source-ref-in-exactly-one-case",
    "ref-not-in-source": "refs.none-outside-source-list",
    "unknown-symptom": "cases.symptoms-allowed",
    "primary-in-secondary": "cases.secondary-gaps-exclude-primary",
    "rung-out-of-range": "cases.gap-and-rung-ranges",
    "related-missing": "cases.related-exist",
    "verified-wrong": "cases.verified-iff-all-refs-verified",
    "id-mismatch": "cases.id-from-first-ref",
    "duplicate-id": "cases.ids-unique",
    "title-too-long": "cases.title-lengths",
    "case-missing": "cases.count",
    "gap-unclosed": "rungs.every-gap-closed",
    "extra-field": "schema.cases",
    "control-char": "text.no-control-characters",
    "cases-swapped": "cases.grouping-order",
    "unverified-silent": "cases.unverified-say-so-in-notes",
    "fixture-missing-ref": "refs.none-outside-source-list",
}

def main():
    mode, datadir, refsfile, schemadir = sys.argv[1:5]
    if mode == "check":
        for key, ok, detail in run(datadir, refsfile, schemadir):
            print(("PASS %s" % key) if ok else ("FAIL %s: %s" % (key, detail)))
        return
    # mode == "mutants": datadir is the real data; a scratch folder holds each broken copy
    scratch = sys.argv[5]
    with open(refsfile, encoding="utf-8") as f:
        fixture = f.read().splitlines()
    for kind, key in EXPECT.items():
        docs = {}
        for name in ("cases", "gaps", "rungs"):
            with open(os.path.join(datadir, name + ".json"), encoding="utf-8") as f:
                docs[name] = json.load(f)
        docs, fx = mutate(kind, docs, fixture)
        d = os.path.join(scratch, kind)
        os.makedirs(d, exist_ok=True)
        for name, doc in docs.items():
            with open(os.path.join(d, name + ".json"), "w", encoding="utf-8") as f:
                json.dump(doc, f, ensure_ascii=False)
        with open(os.path.join(d, "refs.txt"), "w", encoding="utf-8") as f:
            f.write("\n".join(fx) + "\n")
        failed = {k for k, ok, _ in run(d, os.path.join(d, "refs.txt"), schemadir) if not ok}
        if key in failed:
            print("PASS mutant %s is caught by %s" % (kind, key))
        else:
            print("FAIL mutant %s is not caught by %s (failed checks: %s)" % (kind, key, sorted(failed)))

main()
PY

# report each line of the checker as one TAP line; a crash of the checker is a failure too
report() {
    local line n=0
    while IFS= read -r line; do
        case $line in
            "PASS "*) tap_ok "${line#PASS }"; n=$((n + 1)) ;;
            "FAIL "*) tap_fail "${line#FAIL }"; n=$((n + 1)) ;;
            *) echo "# $line" ;;
        esac
    done
    [ "$n" -gt 0 ] || tap_fail "$1: the checker reported nothing"
}

# process substitution, not a pipe: report must run in this shell so the TAP numbering carries on
report "data" < <(python3 "$checker" check data tests/fixtures/source-refs.txt data/schema 2>&1)
mkdir -p "$KL_TMP/mutants"
report "mutants" < <(python3 "$checker" mutants data tests/fixtures/source-refs.txt data/schema \
    "$KL_TMP/mutants" 2>&1)
