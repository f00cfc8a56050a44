"""The tw16 process never outlives its environment: close(), an uncaught exception, Ctrl-C
(KeyboardInterrupt), the garbage collector, and Python killed outright (SIGKILL)."""
import os
import signal
import subprocess
import sys
import textwrap
import time
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
PKG = os.path.join(HERE, "..")
sys.path.insert(0, PKG)
import tw16env  # noqa: E402


def alive(pid):
    try:
        with open("/proc/%d/stat" % pid) as f:
            return f.read().split(") ")[1][0] != "Z"
    except OSError:
        return False


def gone_within(pid, seconds=15.0):
    """Wait (up to a deadline, not a fixed time) for the process to end."""
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        if not alive(pid):
            return True
        time.sleep(0.05)
    return False


def child(body):
    """A Python child that makes an environment, prints the engine's pid, then does `body`."""
    code = "import sys, os, signal, time\nsys.path.insert(0, %r)\nimport tw16env\n" % PKG + textwrap.dedent(body)
    return subprocess.Popen([sys.executable, "-c", code], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


class Lifetime(unittest.TestCase):
    def test_close_and_the_garbage_collector_end_it(self):
        env = tw16env.env()
        pid = env.engine_pid
        self.assertTrue(alive(pid))
        env.close()
        self.assertFalse(alive(pid))
        env.close()  # twice is fine
        venv = tw16env.vector_env(2)
        pid = venv.engine_pid
        del venv
        self.assertTrue(gone_within(pid))

    def test_an_uncaught_exception_ends_it(self):
        p = child("""
            env = tw16env.env()
            print(env.engine_pid, flush=True)
            raise RuntimeError("boom")
        """)
        pid = int(p.stdout.readline())
        p.wait()
        self.assertNotEqual(p.returncode, 0)
        self.assertTrue(gone_within(pid))

    def test_ctrl_c_ends_it(self):
        p = child("""
            env = tw16env.env()
            env.reset(seed=1)
            print(env.engine_pid, flush=True)
            while True:
                for agent in env.agent_iter():
                    obs, r, term, trunc, info = env.last()
                    env.step(None if term else int(obs["action_mask"].argmax()))
                env.reset()
        """)
        pid = int(p.stdout.readline())
        self.assertTrue(alive(pid))
        p.send_signal(signal.SIGINT)
        p.wait(timeout=30)
        self.assertIn("KeyboardInterrupt", p.stderr.read())
        self.assertTrue(gone_within(pid))

    def test_python_killed_outright_ends_it(self):
        p = child("""
            env = tw16env.vector_env(4)
            print(env.engine_pid, flush=True)
            time.sleep(60)
        """)
        pid = int(p.stdout.readline())
        self.assertTrue(alive(pid))
        p.kill()  # SIGKILL: no finalizer runs; the engine sees its stdin end
        p.wait()
        self.assertTrue(gone_within(pid))


if __name__ == "__main__":
    unittest.main()
