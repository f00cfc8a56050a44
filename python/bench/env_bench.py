"""Agent steps per second of tw16env: one table (the AEC API, as api_test drives it) and a
vector of tables, for a few line-ups and two policies — random legal actions (numpy, the natural
yardstick: what an untrained agent plays) and the first legal action — so the environment is
measured, not a policy. For the vector it also says where the time went: choosing the actions
in Python, or the step (tw16's engine playing every other seat, and the frame to and fro).

    python3 python/bench/env_bench.py [--seconds S] [--tables N] [--lineups all|random|greedy]

A benchmark, not a test: others' work on a shared machine moves the numbers."""
import argparse
import os
import sys
import time

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
import tw16env  # noqa: E402

LINEUPS = {
    "python x4": ["python"] * 4,
    "python + greedy x3": ["python", "greedy", "greedy", "greedy"],
    "python + random x3": ["python", "random", "random", "random"],
}


def aec(seconds, seats, policy):
    env = tw16env.env(seats=seats)
    rng = np.random.default_rng(0)
    env.reset(seed=1)
    steps, t0 = 0, time.perf_counter()
    while time.perf_counter() - t0 < seconds:
        for agent in env.agent_iter():
            obs, _, term, trunc, _ = env.last()
            if term or trunc:
                env.step(None)
                continue
            legal = np.flatnonzero(obs["action_mask"])
            env.step(int(legal[0] if policy == "first" else rng.choice(legal)))
            steps += 1
        env.reset()
    dt = time.perf_counter() - t0
    env.close()
    return steps / dt


def vector(seconds, n, seats, policy):
    venv = tw16env.vector_env(n, seats=seats)
    rng = np.random.default_rng(0)
    obs, mask, seat = venv.reset(seed=1)
    steps, hands, in_python, t0 = 0, 0, 0.0, time.perf_counter()
    while time.perf_counter() - t0 < seconds:
        a = time.perf_counter()
        if policy == "first":
            actions = mask.argmax(axis=1)  # the first legal id of each table
        else:  # a uniform choice among each row's legal ids
            actions = (rng.random(mask.shape) * mask).argmax(axis=1)
        in_python += time.perf_counter() - a
        obs, mask, seat, rewards, dones, info = venv.step(actions)
        steps += n
        hands += int(info["hands_ended"].sum())
    dt = time.perf_counter() - t0
    venv.close()
    return steps / dt, hands / dt, in_python / dt


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--seconds", type=float, default=5)
    p.add_argument("--tables", type=int, default=64)
    p.add_argument("--lineups", default="all", choices=["all", "random", "greedy"])
    a = p.parse_args()
    names = list(LINEUPS) if a.lineups == "all" else ["python x4"] if a.lineups == "random" else ["python + greedy x3"]
    print("%-20s %-7s %14s %14s %10s %9s" % ("seats", "policy", "1 table (AEC)", "%d tables" % a.tables, "hands/s", "in Python"))
    for name in names:
        for policy in ("random", "first"):
            one = aec(a.seconds, LINEUPS[name], policy)
            steps, hands, share = vector(a.seconds, a.tables, LINEUPS[name], policy)
            print("%-20s %-7s %14s %14s %10s %8.0f%%" % (name, policy, "{:,.0f}".format(one), "{:,.0f}".format(steps), "{:,.0f}".format(hands), 100 * share))
    print("(agent steps/s; 'in Python': the vector's time spent choosing actions, the rest is the step)")


if __name__ == "__main__":
    main()
