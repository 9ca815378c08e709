"""kladder's API contract probe (rung 7, sglang-33142): what a downstream package imports from a
library, checked against one installed release, and which path each of its callers really ran.

usage: python3 api_probe.py LIBRARY RELEASE_DIR CALLER_DIR CALL...
LIBRARY is the library's top-level package name; RELEASE_DIR holds that package (one release);
CALLER_DIR holds the downstream package; each CALL is MODULE:FUNCTION, called with no arguments.

Prints one JSON line per imported name:
  {"kind": "name", "module": M, "name": N, "where": "FILE:LINE, ...", "ok": BOOL, "moved_to": M2}
(every `from LIBRARY... import N` and `import LIBRARY...` in CALLER_DIR, guarded or not, at any
depth; moved_to: a module of this release that does define N, or null), then one per call:
  {"kind": "call", "call": C, "outcome": "fast"|"fallback"|"raised", "library_calls": K,
   "error": TEXT}
fast: the call returned and ran code of the library (a profile hook counts the library's
functions called: the evidence); fallback: it returned without running any; raised: it raised.
"""
import ast
import importlib
import json
import os
import pkgutil
import sys
import traceback


def imported_names(caller_dir, library):
    for dirpath, _dirs, files in os.walk(caller_dir):
        for f in sorted(files):
            if not f.endswith(".py"):
                continue
            path = os.path.join(dirpath, f)
            rel = os.path.relpath(path, caller_dir)
            with open(path, encoding="utf-8") as fh:
                tree = ast.parse(fh.read(), path)
            for node in ast.walk(tree):
                if isinstance(node, ast.ImportFrom) and node.level == 0 and node.module and \
                        (node.module == library or node.module.startswith(library + ".")):
                    for a in node.names:
                        yield node.module, a.name, "%s:%d" % (rel, node.lineno)
                elif isinstance(node, ast.Import):
                    for a in node.names:
                        if a.name == library or a.name.startswith(library + "."):
                            mod, _, name = a.name.rpartition(".")
                            yield (mod or a.name), (name if mod else None), "%s:%d" % (rel, node.lineno)


def resolves(module, name):
    try:
        m = importlib.import_module(module)
    except Exception:
        return False
    if name is None or hasattr(m, name):
        return True
    try:
        importlib.import_module(module + "." + name)
        return True
    except Exception:
        return False


def moved_to(library, name, release_dir):
    if name is None:
        return None
    try:
        pkg = importlib.import_module(library)
    except Exception:
        return None
    mods = [library] + [m.name for m in pkgutil.walk_packages(pkg.__path__, library + ".")]
    for mod in mods:
        if resolves(mod, name):
            return mod
    return None


def main():
    if len(sys.argv) < 4:
        sys.stderr.write("usage: api_probe.py LIBRARY RELEASE_DIR CALLER_DIR CALL...\n")
        return 2
    library, release, caller = sys.argv[1], os.path.realpath(sys.argv[2]), os.path.realpath(sys.argv[3])
    sys.path[:0] = [caller, release]
    sites = {}
    for module, name, where in imported_names(caller, library):
        sites.setdefault((module, name), []).append(where)
    for (module, name), where in sites.items():
        ok = resolves(module, name)
        print(json.dumps({"kind": "name", "module": module, "name": name, "where": ", ".join(where),
                          "ok": ok, "moved_to": None if ok else moved_to(library, name, release)}))
    for call in sys.argv[4:]:
        mod, _, fn = call.partition(":")
        count = [0]

        def prof(frame, event, arg):
            if event == "call" and os.path.realpath(frame.f_code.co_filename).startswith(release + os.sep):
                count[0] += 1
        rec = {"kind": "call", "call": call, "error": None}
        try:
            sys.setprofile(prof)
            getattr(importlib.import_module(mod), fn)()
            sys.setprofile(None)
            rec["outcome"] = "fast" if count[0] else "fallback"
        except BaseException as e:  # noqa: the probe reports whatever the call raised
            sys.setprofile(None)
            rec["outcome"] = "raised"
            # the release's folder is a temporary one: messages name files inside it
            rec["error"] = traceback.format_exception_only(type(e), e)[-1].strip().replace(
                os.path.dirname(release) + os.sep, "")
        rec["library_calls"] = count[0]
        print(json.dumps(rec))
    return 0


if __name__ == "__main__":
    sys.exit(main())
