"""The build backend of the `tw16` Python package (PEP 517), standard library only.

`pip install ./python` from a checkout needs nothing but pip: no setuptools, no wheel package, no
network (Debian's python3-venv gives a venv pip and setuptools but not `wheel`, which setuptools
before 70.1 needs to build one). The wheel holds:

- `tw16env/` (this directory's package: the environment);
- `tw16bot.py`, the bot-program helper, copied from ../bots/examples/python/tw16bot.py (its one
  source: tw16 itself puts that directory on a bot program's PYTHONPATH);
- `tw16env/_checkout.py`: the checkout it was built from, so `tw16env.tw16_command()` finds that
  checkout's bin/tw16.js from an installed copy (before `tw16` on the PATH).

The version is package.json's. An editable install (`pip install -e ./python`) puts this directory
and the helper's on sys.path instead (a .pth file): edits show at once.
"""
import base64
import hashlib
import json
import os
import zipfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
CHECKOUT = HERE.parent
HELPER = CHECKOUT / "bots" / "examples" / "python" / "tw16bot.py"
NAME = "tw16"
TAG = "py3-none-any"


def _version():
    return json.loads((CHECKOUT / "package.json").read_text(encoding="utf-8"))["version"]


def _metadata():
    version = _version()
    return (
        "Metadata-Version: 2.1\n"
        f"Name: {NAME}\n"
        f"Version: {version}\n"
        "Summary: tw16 from Python: tw16env (a learning environment over tw16's engine) and tw16bot (write a bot program)\n"
        "Requires-Python: >=3.9\n"
        "Requires-Dist: numpy\n"
    )


def _files(editable):
    """The wheel's files other than its .dist-info: (name in the wheel, bytes)."""
    if editable:
        # One directory a line: tw16env from here, tw16bot from its own directory.
        return [(f"__editable__.{NAME}.pth", f"{HERE}\n{HELPER.parent}\n".encode())]
    out = [(f"tw16env/{p.name}", p.read_bytes()) for p in sorted((HERE / "tw16env").glob("*.py")) if p.name != "_checkout.py"]
    out.append(("tw16env/_checkout.py", f'"""Written by python/tw16_build.py: the checkout this copy was installed from."""\nCHECKOUT = {str(CHECKOUT)!r}\n'.encode()))
    out.append(("tw16bot.py", HELPER.read_bytes()))
    return out


def _record_line(name, data):
    digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
    return f"{name},sha256={digest},{len(data)}\n"


def _build(wheel_directory, editable):
    version = _version()
    dist_info = f"{NAME}-{version}.dist-info"
    files = _files(editable) + [
        (f"{dist_info}/METADATA", _metadata().encode()),
        (f"{dist_info}/WHEEL", f"Wheel-Version: 1.0\nGenerator: tw16_build\nRoot-Is-Purelib: true\nTag: {TAG}\n".encode()),
    ]
    wheel_name = f"{NAME}-{version}-{TAG}.whl"
    path = os.path.join(wheel_directory, wheel_name)
    tmp = path + ".tmp"
    with zipfile.ZipFile(tmp, "w", zipfile.ZIP_DEFLATED) as z:
        record = ""
        for name, data in files:
            z.writestr(zipfile.ZipInfo(name, date_time=(1980, 1, 1, 0, 0, 0)), data, zipfile.ZIP_DEFLATED)
            record += _record_line(name, data)
        record += f"{dist_info}/RECORD,,\n"
        z.writestr(zipfile.ZipInfo(f"{dist_info}/RECORD", date_time=(1980, 1, 1, 0, 0, 0)), record, zipfile.ZIP_DEFLATED)
    os.replace(tmp, path)
    return wheel_name


# PEP 517 / PEP 660 hooks.

def get_requires_for_build_wheel(config_settings=None):
    return []


def get_requires_for_build_editable(config_settings=None):
    return []


def build_wheel(wheel_directory, config_settings=None, metadata_directory=None):
    return _build(wheel_directory, editable=False)


def build_editable(wheel_directory, config_settings=None, metadata_directory=None):
    return _build(wheel_directory, editable=True)


def build_sdist(sdist_directory, config_settings=None):
    raise RuntimeError("tw16's Python package is built from a tw16 checkout (it needs ../bots and ../package.json): "
                       "pip install ./python there; there is no source distribution")
