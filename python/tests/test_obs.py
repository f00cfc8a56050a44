"""tw16env's side of tw16-obs-1: the blocks agree with the engine's, encode_view computes from a
protocol view exactly the vector tw16 records, and read_arrow reads tw16's files."""
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
ROOT = os.path.abspath(os.path.join(PKG, ".."))
sys.path.insert(0, PKG)
import tw16env  # noqa: E402
from tw16env import obs as O  # noqa: E402


class Layout(unittest.TestCase):
    def test_blocks_are_the_engines(self):
        env = tw16env.env()
        self.addCleanup(env.close)
        hello = env._engine.hello
        self.assertEqual(hello["obs"]["format"], O.OBS_FORMAT)
        self.assertEqual(hello["obs"]["size"], O.OBS_SIZE)
        self.assertEqual(hello["actions"], O.ACTION_IDS)
        self.assertEqual({f["name"]: (f["offset"], f["length"], f["high"]) for f in hello["obs"]["fields"]}, O.FIELDS)

    def test_action_ids_both_ways(self):
        for k in range(9):
            for t in range(34):
                self.assertEqual(O.id_of_action(k * 64 + t), k * 34 + t)
                self.assertEqual(O.action_of_id(k * 34 + t), k * 64 + t)
        self.assertEqual(O.action_name(2 * 34 + 4), "discard 5m")
        self.assertEqual(O.action_name(8 * 34 + 11), "chow 345p")
        self.assertEqual(O.action_name(0), "pass")


BOT = '''
import sys, json
sys.path[:0] = [%r, %r]
import tw16bot, tw16env
out = open(sys.argv[1], "w")
class Dump(tw16bot.Bot):
    def decide(self, d):
        out.write(json.dumps(tw16env.encode_view(d["view"]).tolist()) + "\\n"); out.flush()
        legal = d["legal"]
        return legal[(d["view"]["turns"] * 7 + len(legal)) %% len(legal)]
tw16bot.run(Dump())
'''


class EncodeView(unittest.TestCase):
    def test_a_program_computes_the_vector_tw16_records(self):
        with tempfile.TemporaryDirectory() as d:
            bot = os.path.join(d, "dump_bot.py")
            dump = os.path.join(d, "obs.jsonl")
            with open(bot, "w") as f:
                f.write(BOT % (os.path.join(ROOT, "bots", "examples", "python"), PKG))
            exp = os.path.join(d, "exp.json")
            with open(exp, "w") as f:
                json.dump({"name": "obs", "seed": "obs-1", "hands": 12, "rules": ["p0", "full"], "seating": "fixed",
                           "bots": [{"name": "py", "command": ["python3", bot, dump]}, "random", "greedy", "value"]}, f)
            out = os.path.join(d, "out")
            r = subprocess.run(tw16env.tw16_command() + ["run", exp, "--out", out, "--record", "decisions", "--workers", "0", "--tables", "1", "--quiet"],
                               capture_output=True, text=True)
            self.assertEqual(r.returncode, 0, r.stderr)
            t = tw16env.read_arrow(os.path.join(out, "decisions.arrow"))
            mine = t["bot"] == "py"
            with open(dump) as f:
                dumped = np.array([json.loads(line) for line in f], dtype=np.uint8)
            self.assertGreater(len(dumped), 100)
            self.assertEqual(dumped.shape, t["obs"][mine].shape)
            self.assertTrue(np.array_equal(dumped, t["obs"][mine]))
            self.assertTrue(set(t["phase"][mine]) >= {"turn", "claim"})


class ReadArrow(unittest.TestCase):
    def test_reads_what_tw16_writes(self):
        with tempfile.TemporaryDirectory() as d:
            exp = os.path.join(d, "exp.json")
            with open(exp, "w") as f:
                json.dump({"name": "ra", "seed": "ra-1", "hands": 30, "bots": ["greedy", "random"], "seating": "rotate"}, f)
            out = os.path.join(d, "out")
            r = subprocess.run(tw16env.tw16_command() + ["run", exp, "--out", out, "--record", "decisions,luck-features", "--workers", "0", "--quiet"], capture_output=True, text=True)
            self.assertEqual(r.returncode, 0, r.stderr)
            h = tw16env.read_arrow(os.path.join(out, "hands.arrow"))
            with open(os.path.join(out, "summary.json")) as f:
                summary = json.load(f)
            self.assertEqual(h.num_rows, 60)
            self.assertEqual(h.num_rows, summary["hands"])
            deltas = np.stack([h["delta_%d" % s] for s in range(4)], axis=1)
            self.assertTrue((deltas.sum(axis=1) == 0).all())
            # Each seat's luck features (recorded: --record luck-features), one column per seat and feature (float32), e.g. luck_0_drawShanten.
            luck = [c for c in h.columns if c.startswith("luck_")]
            by_seat = [sorted(c.split("_", 2)[2] for c in luck if c.startswith("luck_%d_" % s)) for s in range(4)]
            self.assertEqual(len(by_seat[0]), 41)
            self.assertTrue(all(names == by_seat[0] for names in by_seat))
            self.assertEqual(len(luck), 4 * 41)
            self.assertEqual(h[luck[0]].dtype, np.float32)
            self.assertEqual(h["cut_short"].dtype, bool)
            self.assertEqual(set(h["profile"]), {"p0"})
            self.assertEqual(json.loads(h.metadata["tw16.experiment"])["seed"], "ra-1")
            t = tw16env.read_arrow(os.path.join(out, "decisions.arrow"))
            self.assertEqual(t.metadata["tw16.obs"], "tw16-obs-1")
            self.assertEqual(t["obs"].shape, (t.num_rows, O.OBS_SIZE))
            self.assertEqual(len(t["legal"]), t.num_rows)
            for i in range(t.num_rows):  # every action among its legal ones, at least two of them
                legal = t["legal"][i]
                self.assertGreaterEqual(len(legal), 2)
                self.assertIn(t["action"][i], legal)
            # Points as hands.arrow: the row's seat's delta in its hand.
            row_of = {(int(h["deal"][i]), int(h["seating"][i])): i for i in range(h.num_rows)}
            for i in range(0, t.num_rows, 7):
                hi = row_of[(int(t["deal"][i]), int(t["seating"][i]))]
                self.assertEqual(t["points"][i], h["delta_%d" % t["seat"][i]][hi])
            with open(os.path.join(d, "junk.arrow"), "wb") as f:
                f.write(b"not arrow")
            with self.assertRaisesRegex(ValueError, "not an Arrow IPC file"):
                tw16env.read_arrow(os.path.join(d, "junk.arrow"))


if __name__ == "__main__":
    unittest.main()
