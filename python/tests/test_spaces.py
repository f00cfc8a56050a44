"""Spaces: the stand-ins when gymnasium is not importable, gymnasium's own when it is (simulated
here by a fake gymnasium package on sys.path, in a child Python)."""
import os
import subprocess
import sys
import tempfile
import textwrap
import unittest

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
PKG = os.path.join(HERE, "..")
sys.path.insert(0, PKG)
from tw16env import obs as O  # noqa: E402
from tw16env import spaces as S  # noqa: E402

FAKE_GYMNASIUM = '''
import numpy as np
class Space:
    pass
class Box(Space):
    def __init__(self, low, high, shape, dtype):
        self.low = np.broadcast_to(np.asarray(low, dtype=dtype), shape); self.high = np.broadcast_to(np.asarray(high, dtype=dtype), shape)
        self.shape = tuple(shape); self.dtype = np.dtype(dtype)
    def contains(self, x):
        return isinstance(x, np.ndarray) and x.shape == self.shape and bool(np.all(x >= self.low) and np.all(x <= self.high))
class Discrete(Space):
    def __init__(self, n):
        self.n = n
    def contains(self, x):
        return 0 <= int(x) < self.n
class Dict(Space):
    def __init__(self, spaces):
        self.spaces = dict(spaces)
    def __getitem__(self, k):
        return self.spaces[k]
    def contains(self, x):
        return all(s.contains(x[k]) for k, s in self.spaces.items())
'''


class StandIns(unittest.TestCase):
    def test_box_discrete_dict(self):
        b = S.Box(0, O.OBS_HIGH, (O.OBS_SIZE,), np.uint8)
        self.assertEqual(b.shape, (O.OBS_SIZE,))
        self.assertEqual(b.dtype, np.uint8)
        x = b.sample()
        self.assertTrue(b.contains(x))
        self.assertFalse(b.contains(x.astype(np.float64)))  # float does not cast to uint8
        self.assertFalse(b.contains(np.full(O.OBS_SIZE, 5, dtype=np.uint8)))  # above a block's high (hand ≤ 4)
        self.assertFalse(b.contains(x[:-1]))
        d = S.Discrete(O.ACTION_IDS)
        self.assertEqual(d.n, 306)
        self.assertTrue(d.contains(np.int32(5)))
        self.assertFalse(d.contains(306))
        self.assertFalse(d.contains(True))
        mask = np.zeros(306, dtype=np.int8)
        mask[[7, 80]] = 1
        d.seed(3)
        draws = {d.sample(mask) for _ in range(50)}
        self.assertEqual(draws, {7, 80})
        d.seed(3)
        again = [d.sample(mask) for _ in range(10)]
        d.seed(3)
        self.assertEqual(again, [d.sample(mask) for _ in range(10)])  # sample(seed) reproduces
        space = S.Dict({"observation": b, "action_mask": S.Box(0, 1, (306,), np.int8)})
        self.assertTrue(space.contains({"observation": x, "action_mask": mask}))
        self.assertFalse(space.contains({"observation": x}))


class WithGymnasium(unittest.TestCase):
    def test_spaces_are_gymnasiums_when_it_is_importable(self):
        with tempfile.TemporaryDirectory() as d:
            os.makedirs(os.path.join(d, "gymnasium"))
            open(os.path.join(d, "gymnasium", "__init__.py"), "w").close()
            with open(os.path.join(d, "gymnasium", "spaces.py"), "w") as f:
                f.write(FAKE_GYMNASIUM)
            code = textwrap.dedent("""
                import sys; sys.path[:0] = [%r, %r]
                import gymnasium.spaces as g, tw16env, numpy as np
                from tw16env import spaces
                assert spaces.GYMNASIUM
                env = tw16env.env()
                env.reset(seed=0)
                a = env.agents[0]
                assert isinstance(env.observation_space(a), g.Dict), type(env.observation_space(a))
                assert isinstance(env.observation_space(a)["observation"], g.Box)
                assert env.observation_space(a)["observation"].dtype == np.uint8
                assert isinstance(env.action_space(a), g.Discrete) and env.action_space(a).n == 306
                assert env.observation_space(a).contains(env.observe(a))
                env.close()
                print("ok")
            """ % (d, PKG))
            r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
            self.assertEqual(r.returncode, 0, r.stderr)
            self.assertEqual(r.stdout.strip(), "ok")

    def test_without_gymnasium_the_stand_ins(self):
        code = "import sys; sys.path.insert(0, %r); sys.modules['gymnasium'] = None\nimport tw16env\nfrom tw16env import spaces\nassert not spaces.GYMNASIUM\nenv = tw16env.env()\nassert type(env.action_space('player_0')).__name__ == 'Discrete' and type(env.action_space('player_0')).__module__ == 'tw16env.spaces'\nenv.close()\nprint('ok')" % PKG
        r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertEqual(r.stdout.strip(), "ok")


if __name__ == "__main__":
    unittest.main()
