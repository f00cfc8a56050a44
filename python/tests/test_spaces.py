"""Spaces: the stand-ins when gymnasium is not importable, gymnasium's own when it is (simulated
here by a fake gymnasium package on sys.path, in a child Python)."""
import json
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
"""A stand-in for gymnasium.spaces that records every space built (BUILT), to see what tw16env asks for."""
import numpy as np
BUILT = []
class Space:
    pass
class Box(Space):
    def __init__(self, low, high, shape, dtype):
        self.low = np.broadcast_to(np.asarray(low, dtype=dtype), shape); self.high = np.broadcast_to(np.asarray(high, dtype=dtype), shape)
        self.shape = tuple(shape); self.dtype = np.dtype(dtype)
        BUILT.append(("Box", self.shape, str(self.dtype), int(self.low.min()), int(self.low.max()), self.high.tolist()))
    def contains(self, x):
        return isinstance(x, np.ndarray) and x.shape == self.shape and bool(np.all(x >= self.low) and np.all(x <= self.high))
class Discrete(Space):
    def __init__(self, n):
        self.n = n
        BUILT.append(("Discrete", n))
    def contains(self, x):
        return 0 <= int(x) < self.n
class Dict(Space):
    def __init__(self, spaces):
        self.spaces = dict(spaces)
        BUILT.append(("Dict", sorted(self.spaces)))
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
        """A gymnasium stub on PYTHONPATH records every space tw16env builds: exactly the declared ones."""
        with tempfile.TemporaryDirectory() as d:
            os.makedirs(os.path.join(d, "gymnasium"))
            open(os.path.join(d, "gymnasium", "__init__.py"), "w").close()
            with open(os.path.join(d, "gymnasium", "spaces.py"), "w") as f:
                f.write(FAKE_GYMNASIUM)
            code = textwrap.dedent("""
                import json, gymnasium.spaces as g, tw16env, numpy as np
                from tw16env import spaces
                assert spaces.GYMNASIUM
                env = tw16env.env()
                env.reset(seed=0)
                a = env.agents[0]
                assert isinstance(env.observation_space(a), g.Dict), type(env.observation_space(a))
                assert isinstance(env.observation_space(a)["observation"], g.Box)
                assert isinstance(env.action_space(a), g.Discrete)
                assert env.observation_space(a).contains(env.observe(a))
                env.close()
                built_env = list(g.BUILT)
                venv = tw16env.vector_env(2)
                assert isinstance(venv.single_observation_space, g.Dict) and isinstance(venv.single_action_space, g.Discrete)
                venv.close()
                print(json.dumps([built_env, g.BUILT[len(built_env):]]))
            """)
            env = dict(os.environ, PYTHONPATH=os.pathsep.join([d, PKG]))
            r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env)
            self.assertEqual(r.returncode, 0, r.stderr)
            built_env, built_vector = json.loads(r.stdout)
            want = [
                ["Box", [O.OBS_SIZE], "uint8", 0, 0, O.OBS_HIGH.tolist()],
                ["Box", [O.ACTION_IDS], "int8", 0, 0, [1] * O.ACTION_IDS],
                ["Dict", ["action_mask", "observation"]],
                ["Discrete", O.ACTION_IDS],
            ]
            self.assertEqual(built_env, want)  # one set of spaces, shared by the agents
            self.assertEqual(built_vector, want)

    def test_without_gymnasium_the_stand_ins(self):
        """Without gymnasium: on a machine that has none the import really fails; where it is
        installed the child hides it (sys.modules), which this says."""
        code = textwrap.dedent("""
            import importlib.util, sys
            real = importlib.util.find_spec("gymnasium") is None
            if not real:
                sys.modules["gymnasium"] = None
            import numpy as np, tw16env
            from tw16env import spaces
            assert not spaces.GYMNASIUM
            env = tw16env.env()
            env.reset(seed=0)
            a = env.agents[0]
            for sp in (env.action_space(a), env.observation_space(a), env.observation_space(a)["observation"]):
                assert type(sp).__module__ == "tw16env.spaces", type(sp)
            assert env.action_space(a).n == 306 and env.observation_space(a)["observation"].dtype == np.uint8
            assert env.observation_space(a).contains(env.observe(a))
            env.close()
            print("ok", "absent" if real else "hidden")
        """)
        env = dict(os.environ, PYTHONPATH=PKG)
        r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env)
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertIn(r.stdout.strip(), ("ok absent", "ok hidden"))


if __name__ == "__main__":
    unittest.main()
