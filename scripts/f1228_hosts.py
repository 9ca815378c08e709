#!/usr/bin/env python3
"""Makes flydsl-1228's two pairs of recorded hosts from one real recorded run.

    scripts/f1228_hosts.py kernels/hosts/recorded-cpu.json kernels/hosts

The input is what `kladder export` wrote after one `kladder run --rung 7 --suite timing-micro`
(kernels/hosts/README.md says how it was recorded). Out of it come four export documents:

  f1228-host-a.json        the recording as it is, its host called host-a
  f1228-fixed-host-b.json  the same run as another machine, host-b: every time 2% longer
                           (a second machine of the same kind, within the noise)
  f1228-buggy-host-b.json  host-b again, but its fence checks (timing:fence_*) 10 times
                           slower: flydsl-1228's 0.03 us against 0.3 us, with the same software

Nothing random: ids are derived from the input's, so the same input gives the same bytes.
"""
import copy
import hashlib
import json
import sys
import uuid

NS = uuid.UUID("6f1f1228-0000-4000-8000-000000000000")
SAME_KIND = 1.02  # a second machine of the same kind: inside compare's 5% noise band
FENCE_SLOWER = 10.0  # flydsl-1228: 0.3 us against 0.03 us


def as_host(doc, host, scale_of):
    """doc as if recorded on `host`; scale_of(check) multiplies each check's times."""
    d = copy.deepcopy(doc)
    d["exported_by"]["host"] = host
    ids = {}
    for m in d["machines"]:
        new = hashlib.md5((host + ":" + m["id"]).encode()).hexdigest()
        ids[m["id"]] = new
        m["id"], m["host"] = new, host
    runs = {}
    for r in d["runs"]:
        new = str(uuid.uuid5(NS, host + ":" + r["run_id"]))
        runs[r["run_id"]] = new
        r["run_id"], r["host"], r["machine_id"] = new, host, ids[r["machine_id"]]
    for c in d["checks"]:
        c["run_id"] = runs[c["run_id"]]
        t = c.get("time_us")
        if t:
            k = scale_of(c)
            for f in ("median", "min", "max"):
                if t[f] is not None:
                    t[f] = round(t[f] * k, 3)
    return d


def write(path, doc):
    with open(path, "w", encoding="utf-8") as f:
        json.dump(doc, f, indent=1, ensure_ascii=False)
        f.write("\n")


def main():
    if len(sys.argv) != 3:
        sys.exit("usage: f1228_hosts.py RECORDED.json OUTDIR")
    with open(sys.argv[1], encoding="utf-8") as f:
        doc = json.load(f)
    if doc.get("format") != "kladder-results":
        sys.exit(f"{sys.argv[1]}: format: expected \"kladder-results\"")
    if not any(c["check"].startswith("timing:fence_") for c in doc["checks"]):
        sys.exit(f"{sys.argv[1]}: checks: expected timing:fence_* checks (rung 7, timing-micro)")
    out = sys.argv[2]
    write(f"{out}/f1228-host-a.json", as_host(doc, "host-a", lambda c: 1.0))
    write(f"{out}/f1228-fixed-host-b.json", as_host(doc, "host-b", lambda c: SAME_KIND))
    fence = lambda c: FENCE_SLOWER if c["check"].startswith("timing:fence_") else SAME_KIND
    write(f"{out}/f1228-buggy-host-b.json", as_host(doc, "host-b", fence))


if __name__ == "__main__":
    main()
