"""tw16env's environment: the rules PettingZoo's api_test checks (and ours), checked at every step
of many hands played with random legal actions; a seeded hand is the hand `tw16 replay` plays; the
vector form; bad actions; options. Run: python3 -m unittest discover -s python/tests"""
import json
import os
import random
import subprocess
import sys
import tempfile
import unittest

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, ".."))
import tw16env  # noqa: E402
from tw16env import obs as O  # noqa: E402

ROOT = os.path.abspath(os.path.join(HERE, "..", ".."))
HANDS = int(os.environ.get("TW16ENV_TEST_HANDS", "2000"))


def phase_of(o):
    return ("turn", "claim", "rob")[int(np.argmax(O.block(o, "phase")))]


class ApiRules(unittest.TestCase):
    """What api_test checks, and ours: every step of HANDS hands, four seats from Python."""

    def test_every_rule_at_every_step(self):
        env = tw16env.env(seats=["python"] * 4, rules="full")
        self.addCleanup(env.close)
        # reset takes seed and options; after it nothing is done
        env.reset(seed=0, options={"options": 1})
        self.assertEqual(env.possible_agents, ["player_0", "player_1", "player_2", "player_3"])
        self.assertFalse(any(env.terminations.values()))
        self.assertFalse(any(env.truncations.values()))
        self.assertIsInstance(env.num_agents, int)
        self.assertGreater(env.num_agents, 0)
        self.assertIsNone(env.last(observe=False)[0])
        for a in env.agents:  # the same space object every time (seeding works), of the declared kind
            self.assertIs(env.observation_space(a), env.observation_space(a))
            self.assertIs(env.action_space(a), env.action_space(a))
            self.assertEqual(env.action_space(a).n, O.ACTION_IDS)
        rng = random.Random(7)
        hands = steps = 0
        env.reset(seed=11)
        while hands < HANDS:
            accumulated = {a: 0.0 for a in env.agents}
            hand_points = {a: 0.0 for a in env.agents}
            finished, window = set(), None
            for agent in env.agent_iter():
                self.assertNotIn(agent, finished, "agents cannot come back")
                self.assertIn(agent, env.agents, "the agent to act is a live one")
                self.assertIsInstance(env.infos[agent], dict)
                obs, reward, terminated, truncated, info = env.last()
                self.assertEqual(reward, accumulated[agent], "last() returns the rewards accumulated since the agent last acted")
                self.assertIs(type(terminated), bool)
                self.assertIs(type(truncated), bool)
                self.assertEqual(terminated, env.terminations[agent])
                self.assertEqual(info, env.infos[agent])
                space = env.observation_space(agent)
                self.assertTrue(space.contains(obs), "observation in its space")
                self.assertEqual(obs["observation"].dtype, space["observation"].dtype)
                self.assertEqual(obs["action_mask"].dtype, np.int8)
                self.assertEqual(obs["action_mask"].shape, (env.action_space(agent).n,), "a mask entry per action id")
                self.assertIs(type(reward), float)
                accumulated[agent] = 0.0
                if terminated or truncated:
                    action = None
                    finished.add(agent)
                else:
                    o, mask = obs["observation"], obs["action_mask"]
                    legal = np.flatnonzero(mask)
                    self.assertGreaterEqual(len(legal), 2, "only real decisions are asked")
                    seat = int(agent.split("_")[1])
                    # Agent order: in a turn the seat holding 3k + 2 tiles acts; in a window the
                    # seats answer in turn order from the discarder, never the discarder itself.
                    ph = phase_of(o)
                    if ph == "turn":
                        self.assertEqual(int(O.block(o, "hand_size")[0]) % 3, 2)
                        window = None
                    else:
                        by = int(np.argmax(O.block(o, "offered_by")))
                        self.assertNotEqual(by, 0)
                        discarder = (seat + by) % 4
                        key = (discarder, int(O.block(o, "turns")[0]), int(np.argmax(O.block(o, "offered"))))
                        distance = (seat - discarder) % 4
                        if window and window[0] == key:
                            self.assertGreater(distance, window[1])
                        window = (key, distance)
                    action = int(rng.choice(legal))
                    self.assertTrue(env.action_space(agent).contains(action))
                    steps += 1
                self.assertIsNone(env.step(action), "step() returns nothing")
                for a, r in env.rewards.items():
                    accumulated[a] += r
                    hand_points[a] += r
                self.assertEqual(env.num_agents, len(env.agents))
                for d in (env.rewards, env.terminations, env.truncations, env.infos):
                    self.assertEqual(set(d), set(env.agents))
                self.assertTrue(set(env.agents) <= set(env.possible_agents))
            self.assertEqual(finished, set(env.possible_agents), "every agent finished")
            self.assertEqual(sum(hand_points.values()), 0, "the hand's points sum to zero")
            hands += 1
            env.reset()
        self.assertGreater(steps, HANDS * 20)

    def test_actions_of_numpy_types_and_bad_actions(self):
        env = tw16env.env()
        self.addCleanup(env.close)
        env.reset(seed=0)
        obs, *_ = env.last()
        legal = np.flatnonzero(obs["action_mask"])
        illegal = int(np.flatnonzero(obs["action_mask"] == 0)[-1])
        with self.assertRaises(tw16env.IllegalActionError) as e:
            env.step(illegal)
        msg = str(e.exception)
        self.assertIn("action %d (%s) is not legal" % (illegal, O.action_name(illegal)), msg)
        for i in legal:
            self.assertIn("%d %s" % (i, O.action_name(i)), msg)
        for bad in (None, -1, O.ACTION_IDS, 3.0, "discard 1m", True):
            with self.assertRaises(tw16env.IllegalActionError):
                env.step(bad)
        env.step(np.int32(legal[0]))  # numpy integers are actions (api_test's action flexibility)
        env.reset(seed=0)
        env.step(np.int64(legal[0]))

    def test_bad_options_are_tw16s_one_line_errors(self):
        with self.assertRaisesRegex(tw16env.TW16Error, r'unknown bot "greedyy"'):
            tw16env.env(seats=["python", "greedyy", "greedy", "greedy"])
        with self.assertRaisesRegex(tw16env.TW16Error, r'option "seats": no seat is "python"'):
            tw16env.env(seats=["greedy"] * 4)
        with self.assertRaisesRegex(tw16env.TW16Error, r'option "rules"'):
            tw16env.env(rules="p9")
        with self.assertRaisesRegex(tw16env.TW16Error, r'option "mode"'):
            tw16env.env(mode="hand")


class Replay(unittest.TestCase):
    def test_a_seeded_hand_is_the_hand_tw16_replay_plays(self):
        """Seat 0 from Python (random legal actions, single-legal ones asked too), the others greedy:
        the actions written as a decisions file, `tw16 replay` plays the same hand to the same end."""
        for seed, hand in (("replay-1", 0), ("replay-1", 5), (42, 13)):
            env = tw16env.env(seats=["python", "greedy", "greedy", "greedy"], forced=True)
            self.addCleanup(env.close)
            env.reset(seed=seed, options={"hand": hand})
            rng = random.Random(hand)
            lines, n, end = [], 0, None
            for agent in env.agent_iter():
                obs, reward, term, trunc, info = env.last()
                if term:
                    end = info
                    env.step(None)
                    continue
                a = int(rng.choice(np.flatnonzero(obs["action_mask"])))
                lines.append({"hand": hand, "seat": 0, "decision": n, "action": O.action_name(a)})
                n += 1
                env.step(a)
            self.assertEqual(end["hand_key"], hand)
            # The other seats' points are not an agent's: take them from the replay, then check the whole line.
            with tempfile.TemporaryDirectory() as d:
                path = os.path.join(d, "dec.jsonl")
                with open(path, "w") as f:
                    f.write(json.dumps({"format": "tw16-decisions-1", "seed": str(seed), "rules": "p0", "bots": ["human", "greedy", "greedy", "greedy"]}) + "\n")
                    for line in lines:
                        f.write(json.dumps(line) + "\n")
                r = subprocess.run(tw16env.tw16_command() + ["replay", "--seed", str(seed), "--hand", str(hand), "--bots", "human,greedy,greedy,greedy",
                                                            "--dealer", str(hand % 4), "--round", "ESWN"[(hand // 4) % 4], "--decisions", path],
                                   capture_output=True, text=True)
                self.assertEqual(r.returncode, 0, r.stderr)
                # Every decision was used (one more or one fewer is refused, exit 2), and seat 0 is paid the same.
                payments = [l for l in r.stdout.splitlines() if l.startswith("payments:")][-1]
                points = int(end["points"])
                self.assertIn("seat 0 (%s) %s," % ("ESWN"[(0 - hand % 4) % 4], "%+d" % points if points else "0"), payments)


class Vector(unittest.TestCase):
    def test_tables_step_together_and_restart_themselves(self):
        n = 16
        venv = tw16env.vector_env(n, seats=["python"] * 4, luck=True)
        self.addCleanup(venv.close)
        obs, mask, seat = venv.reset(seed=3)
        self.assertEqual(obs.shape, (n, O.OBS_SIZE))
        self.assertEqual(mask.shape, (n, O.ACTION_IDS))
        rng = np.random.default_rng(0)
        hands = np.zeros(n, dtype=np.int64)
        points = np.zeros((n, 4))
        keys = [set() for _ in range(n)]
        luck = np.zeros(4)
        while hands.sum() < 1000:
            self.assertTrue((mask.sum(axis=1) >= 2).all())
            actions = np.array([rng.choice(np.flatnonzero(m)) for m in mask])
            obs, mask, seat, rewards, dones, info = venv.step(actions)
            points += rewards
            luck += info["luck"].sum(axis=0)
            for t in np.flatnonzero(dones):
                self.assertEqual(points[t].sum(), 0)  # each hand's points sum to zero
                points[t] = 0
                hands[t] += 1
            for t in range(n):
                keys[t].add(int(info["hand_key"][t]))
        for t in range(n):  # table t plays hands t, t + n, t + 2n, …
            self.assertTrue(all(k % n == t for k in keys[t]))
        self.assertAlmostEqual(float(luck.sum()), 0.0, places=2)  # the four seats' luck sums to zero
        with self.assertRaisesRegex(tw16env.IllegalActionError, r"table 0: action 1 is not legal"):
            venv.step(np.ones(n, dtype=np.int64))

    def test_the_same_seed_the_same_play(self):
        def play(seed):
            venv = tw16env.vector_env(4, seats=["python", "random", "python", "greedy"])
            obs, mask, seat = venv.reset(seed=seed)
            out = [obs.copy()]
            for _ in range(60):
                obs, mask, seat, rewards, dones, info = venv.step(mask.argmax(axis=1))
                out.append(obs.copy())
            venv.close()
            return np.stack(out)
        a, b, c = play(5), play(5), play(6)
        self.assertTrue(np.array_equal(a, b))
        self.assertFalse(np.array_equal(a, c))


class Matches(unittest.TestCase):
    def test_a_match_is_one_episode_with_a_reward_per_hand(self):
        env = tw16env.env(seats=["python", "random", "random", "random"], mode="match", rules="table")
        self.addCleanup(env.close)
        env.reset(seed=1)
        keys, ends, steps = set(), 0, 0
        for agent in env.agent_iter():
            obs, reward, term, trunc, info = env.last()
            keys.add(info.get("hand_key", 0))
            if "outcome" in info and not term:
                ends += 1  # a hand ended inside the episode, paid as it ended
            steps += 1
            env.step(None if term else int(np.flatnonzero(obs["action_mask"])[0]))
        self.assertGreater(len(keys), 4)  # several hands of match 0: keys 0 * 65536 + hand number
        self.assertTrue(all(k < 65536 for k in keys))
        self.assertGreater(ends, 2)


if __name__ == "__main__":
    unittest.main()
