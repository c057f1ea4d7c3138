"""A PEP 517 build backend for the pure-Python package libwrap.

It needs nothing but the standard library, so `pip install ./python`
works offline: pip's isolated build environment has nothing to download.
It builds a wheel (PEP 427) of libwrap/*.py and an sdist of the folder.
"""

import base64
import hashlib
import os
import re
import tarfile
import zipfile

_HERE = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def _project():
    """name, version, summary, requires-python and dependencies from
    pyproject.toml (read with a few patterns: tomllib is 3.11+)."""
    with open(os.path.join(_HERE, "pyproject.toml"), encoding="utf-8") as f:
        text = f.read()
    project = text.split("[project]", 1)[1].split("\n[", 1)[0]

    def value(key):
        m = re.search(r'^%s\s*=\s*"([^"]*)"' % re.escape(key), project, re.M)
        return m.group(1) if m else None

    m = re.search(r"^dependencies\s*=\s*\[([^\]]*)\]", project, re.M)
    deps = re.findall(r'"([^"]+)"', m.group(1)) if m else []
    return value("name"), value("version"), value("description"), value("requires-python"), deps


def _metadata():
    name, version, summary, python, deps = _project()
    lines = ["Metadata-Version: 2.1", "Name: " + name, "Version: " + version, "Summary: " + summary]
    if python:
        lines.append("Requires-Python: " + python)
    lines += ["Requires-Dist: " + d for d in deps]
    lines.append("Provides-Extra: plot")
    lines.append('Requires-Dist: matplotlib>=3.3; extra == "plot"')
    return name, version, "\n".join(lines) + "\n"


def _sources():
    pkg = os.path.join(_HERE, "libwrap")
    return sorted(os.path.join("libwrap", n) for n in os.listdir(pkg) if n.endswith(".py"))


def get_requires_for_build_wheel(config_settings=None):
    return []


def get_requires_for_build_sdist(config_settings=None):
    return []


def prepare_metadata_for_build_wheel(metadata_directory, config_settings=None):
    name, version, meta = _metadata()
    dist_info = "%s-%s.dist-info" % (name, version)
    os.makedirs(os.path.join(metadata_directory, dist_info), exist_ok=True)
    with open(os.path.join(metadata_directory, dist_info, "METADATA"), "w", encoding="utf-8") as f:
        f.write(meta)
    return dist_info


def _record_line(path, data):
    digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
    return "%s,sha256=%s,%d" % (path, digest, len(data))


def build_wheel(wheel_directory, config_settings=None, metadata_directory=None):
    name, version, meta = _metadata()
    dist_info = "%s-%s.dist-info" % (name, version)
    wheel_name = "%s-%s-py3-none-any.whl" % (name, version)
    files = [(p, open(os.path.join(_HERE, p), "rb").read()) for p in _sources()]
    files.append((dist_info + "/METADATA", meta.encode()))
    files.append((dist_info + "/WHEEL",
                  b"Wheel-Version: 1.0\nGenerator: libwrap_build\nRoot-Is-Purelib: true\nTag: py3-none-any\n"))
    record = [_record_line(p, d) for p, d in files] + [dist_info + "/RECORD,,"]
    files.append((dist_info + "/RECORD", ("\n".join(record) + "\n").encode()))
    with zipfile.ZipFile(os.path.join(wheel_directory, wheel_name), "w", zipfile.ZIP_DEFLATED) as z:
        for p, d in files:
            z.writestr(p, d)
    return wheel_name


def build_sdist(sdist_directory, config_settings=None):
    name, version, meta = _metadata()
    base = "%s-%s" % (name, version)
    path = os.path.join(sdist_directory, base + ".tar.gz")
    with tarfile.open(path, "w:gz") as t:
        for p in _sources() + ["pyproject.toml", "README.md", "backend/libwrap_build.py"]:
            t.add(os.path.join(_HERE, p), arcname=base + "/" + p)
        info = tarfile.TarInfo(base + "/PKG-INFO")
        data = meta.encode()
        info.size = len(data)
        import io
        t.addfile(info, io.BytesIO(data))
    return os.path.basename(path)
