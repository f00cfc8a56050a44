"""The tw16 process behind an environment: started with ``tw16 env``, spoken to in lines, read
in frames (src/cli/env.ts). It never outlives its environment: ``close()``, the garbage
collector, the end of the interpreter (``weakref.finalize``), and, should Python die without
any of those, the end of its stdin (the engine exits when it reads EOF)."""
import json
import os
import shutil
import struct
import subprocess
import weakref
from pathlib import Path

import numpy as np


class TW16Error(RuntimeError):
    """tw16 refused a request, or a bot failed: the message is tw16's."""


def _installed_from():
    """The checkout a pip-installed copy was built from (python/tw16_build.py writes it), or None."""
    try:
        from ._checkout import CHECKOUT
    except ImportError:
        return None
    return Path(CHECKOUT)


def tw16_command():
    """How to start tw16: $TW16 (a command line), the checkout this package is in or was installed
    from (its bin/tw16.js), or ``tw16`` on the PATH."""
    if os.environ.get("TW16"):
        return os.environ["TW16"].split()
    for checkout in (Path(__file__).resolve().parents[2], _installed_from()):
        here = checkout / "bin" / "tw16.js" if checkout else None
        if here and here.exists():
            return [os.environ.get("TW16_NODE") or shutil.which("node") or "node", str(here)]
    found = shutil.which("tw16")
    if found:
        return [found]
    raise TW16Error("tw16 not found: set TW16 to its command (e.g. 'node /path/to/tw16/bin/tw16.js'), or put tw16 on the PATH (npm link)")


def _stop(proc):
    """End the engine: close its stdin (it exits), then kill it if it has not."""
    try:
        proc.stdin.close()
    except OSError:
        pass
    try:
        proc.wait(timeout=2)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait()
    proc.stdout.close()


class Engine:
    """One ``tw16 env`` process with its tables."""

    def __init__(self, options, command=None):
        cmd = list(command or tw16_command()) + ["env"]
        # A session of its own: Ctrl-C at the terminal interrupts Python, not the engine, which
        # then ends with the environment (close, finalize, or its stdin's end).
        self.proc = subprocess.Popen(cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE, bufsize=0, start_new_session=True)
        self._finalizer = weakref.finalize(self, _stop, self.proc)
        self.pid = self.proc.pid
        self._in = self.proc.stdin
        self._out = self.proc.stdout
        self.hello = self._ask(json.dumps(dict(options, op="open")))
        rec = self.hello["record"]
        self.record_dtype = np.dtype({
            "names": [f[0] for f in rec["fields"]],
            "formats": [(f[2], (f[3],)) if f[3] > 1 else f[2] for f in rec["fields"]],
            "offsets": [f[1] for f in rec["fields"]],
            "itemsize": rec["size"],
        })
        self.tables = self.hello["tables"]

    def close(self):
        self._finalizer()

    @property
    def closed(self):
        return not self._finalizer.alive

    def _read(self, n):
        buf = bytearray(n)
        view = memoryview(buf)
        got = 0
        while got < n:
            k = self._out.readinto(view[got:])
            if not k:
                raise TW16Error("tw16 env ended unexpectedly (exit code %s)" % self.proc.poll())
            got += k
        return buf

    def _ask(self, line):
        if self.closed:
            raise TW16Error("the environment is closed")
        try:
            self._in.write(line.encode() + b"\n")
        except (BrokenPipeError, ValueError):
            raise TW16Error("tw16 env is gone (exit code %s)" % self.proc.poll()) from None
        head = self._read(5)
        n = struct.unpack_from("<I", head)[0]
        kind = chr(head[4])
        payload = self._read(n)
        if kind == "R":
            return np.frombuffer(payload, dtype=self.record_dtype)
        msg = json.loads(payload.decode())
        if kind == "E":
            raise TW16Error(msg["error"])
        return msg

    def reset(self, seed, first):
        return self._ask(json.dumps({"op": "reset", "seed": str(seed), "first": int(first)}))

    def step(self, actions):
        return self._ask("s " + " ".join(str(int(a)) for a in actions))
