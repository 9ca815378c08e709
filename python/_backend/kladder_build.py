"""The package's own PEP 517 build backend (pyproject.toml: backend-path), standard library only.

`pip install --no-build-isolation --no-index ./python` must work in a plain venv with no
registry: setuptools there may predate its own wheel builder and ask for the `wheel` package
(`invalid command 'bdist_wheel'`), and it builds in the source tree (python/build,
kladder.egg-info in the checkout). The package is pure Python, so a wheel is a zip of
kladder/*.py and a .dist-info folder (PEP 427); this writes it, and an editable one (PEP 660),
straight into the folder pip gives, never into the source tree.

The metadata comes from pyproject.toml's [project]. Each wheel also carries
kladder/_built_from.py: the checkout's build/libkladder.so, where the installed package looks
for the library when KLADDER_LIB is not set (kladder/_lib.py).
"""
import base64
import hashlib
import os
import re
import zipfile

_SRC = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))  # python/
_TAG = "py3-none-any"


def _toml(path):
    """pyproject.toml as a dict: tomllib (Python 3.11+), else the flat subset this file uses
    (tables, "key = string", "key = [strings]")."""
    try:
        import tomllib
        with open(path, "rb") as f:
            return tomllib.load(f)
    except ImportError:
        pass
    doc, table = {}, {}
    with open(path, encoding="utf-8") as f:
        for line in f:
            line = line.strip()
            if not line or line.startswith("#"):
                continue
            m = re.match(r"^\[([^\]]+)\]$", line)
            if m:
                table = doc
                for part in m.group(1).split("."):
                    table = table.setdefault(part.strip().strip('"'), {})
                continue
            m = re.match(r'^"?([^"=]+?)"?\s*=\s*(.+)$', line)
            if m:
                key, val = m.group(1).strip(), m.group(2).strip()
                table[key] = re.findall(r'"([^"]*)"', val) if val.startswith("[") else val.strip('"')
    return doc


def _project():
    return _toml(os.path.join(_SRC, "pyproject.toml"))["project"]


def _dist_info(p):
    return "%s-%s.dist-info" % (p["name"], p["version"])


def _metadata_files(p):
    """{name: text} of the .dist-info folder, RECORD aside."""
    meta = ["Metadata-Version: 2.1", "Name: " + p["name"], "Version: " + p["version"]]
    if p.get("description"):
        meta.append("Summary: " + p["description"])
    if p.get("requires-python"):
        meta.append("Requires-Python: " + p["requires-python"])
    meta += ["Requires-Dist: " + d for d in p.get("dependencies", [])]
    files = {
        "METADATA": "\n".join(meta) + "\n",
        "WHEEL": "Wheel-Version: 1.0\nGenerator: kladder_build\nRoot-Is-Purelib: true\nTag: %s\n" % _TAG,
    }
    groups = p.get("entry-points", {})
    if groups:
        files["entry_points.txt"] = "".join(
            "[%s]\n%s\n" % (g, "".join("%s = %s\n" % kv for kv in sorted(eps.items())))
            for g, eps in sorted(groups.items()))
    return files


def _built_from():
    lib = os.path.join(os.path.dirname(_SRC), "build", "libkladder.so")
    return ('"""Written by the build: where the package was installed from."""\n'
            "LIB = %r\n" % lib)


def _write_wheel(wheel_directory, members):
    """members: [(archive name, bytes)]; the .dist-info files are added with RECORD last."""
    p = _project()
    info = _dist_info(p)
    members = list(members) + [("%s/%s" % (info, k), v.encode())
                               for k, v in sorted(_metadata_files(p).items())]
    name = "%s-%s-%s.whl" % (p["name"], p["version"], _TAG)
    record = []
    with zipfile.ZipFile(os.path.join(wheel_directory, name), "w", zipfile.ZIP_DEFLATED) as z:
        for arc, data in members:
            z.writestr(arc, data)
            digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=")
            record.append("%s,sha256=%s,%d" % (arc, digest.decode(), len(data)))
        record.append("%s/RECORD,," % info)
        z.writestr("%s/RECORD" % info, "\n".join(record) + "\n")
    return name


def _package_files():
    pkg = os.path.join(_SRC, "kladder")
    for f in sorted(os.listdir(pkg)):
        if f.endswith(".py") and f != "_built_from.py":
            with open(os.path.join(pkg, f), "rb") as fh:
                yield "kladder/" + f, fh.read()


# ---- PEP 517 and PEP 660 hooks -------------------------------------------------------------

def get_requires_for_build_wheel(config_settings=None):
    return []


def get_requires_for_build_editable(config_settings=None):
    return []


def prepare_metadata_for_build_wheel(metadata_directory, config_settings=None):
    p = _project()
    info = os.path.join(metadata_directory, _dist_info(p))
    os.makedirs(info, exist_ok=True)
    for k, v in _metadata_files(p).items():
        with open(os.path.join(info, k), "w", encoding="utf-8") as f:
            f.write(v)
    return _dist_info(p)


prepare_metadata_for_build_editable = prepare_metadata_for_build_wheel


def build_wheel(wheel_directory, config_settings=None, metadata_directory=None):
    return _write_wheel(wheel_directory, list(_package_files()) +
                        [("kladder/_built_from.py", _built_from().encode())])


def build_editable(wheel_directory, config_settings=None, metadata_directory=None):
    """The source folder on sys.path through a .pth file: edits to python/kladder take effect
    without reinstalling; the checkout's build is found beside it as in a plain checkout."""
    return _write_wheel(wheel_directory, [("kladder_src.pth", (_SRC + "\n").encode())])
