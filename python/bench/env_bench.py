"""Agent steps per second of tw16env: one table (the AEC API, as api_test drives it) and a
vector of tables, each seat's action the first legal one (the environment is measured, not a
policy). Run from the repository: python3 python/bench/env_bench.py [--seconds S] [--tables N]

A benchmark, not a test: others' work on a shared machine moves the numbers."""
import argparse
import os
import sys
import time

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
import tw16env  # noqa: E402


def aec(seconds, seats):
    env = tw16env.env(seats=seats)
    env.reset(seed=1)
    steps, t0 = 0, time.perf_counter()
    while time.perf_counter() - t0 < seconds:
        for agent in env.agent_iter():
            obs, _, term, trunc, _ = env.last()
            if term or trunc:
                env.step(None)
                continue
            env.step(int(np.flatnonzero(obs["action_mask"])[0]))
            steps += 1
        env.reset()
    dt = time.perf_counter() - t0
    env.close()
    return steps / dt


def vector(seconds, n, seats):
    venv = tw16env.vector_env(n, seats=seats)
    obs, mask, seat = venv.reset(seed=1)
    steps, hands, t0 = 0, 0, time.perf_counter()
    while time.perf_counter() - t0 < seconds:
        actions = mask.argmax(axis=1)  # the first legal id of each table
        obs, mask, seat, rewards, dones, info = venv.step(actions)
        steps += n
        hands += int(info["hands_ended"].sum())
    dt = time.perf_counter() - t0
    venv.close()
    return steps / dt, hands / dt


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--seconds", type=float, default=10)
    p.add_argument("--tables", type=int, default=64)
    a = p.parse_args()
    for seats in (["python", "greedy", "greedy", "greedy"], ["python"] * 4):
        print("seats %-30s one table (AEC): %8.0f agent steps/s" % (",".join(seats), aec(a.seconds, seats)))
        s, h = vector(a.seconds, a.tables, seats)
        print("seats %-30s %d tables (vector): %8.0f agent steps/s, %6.0f hands/s" % (",".join(seats), a.tables, s, h))


if __name__ == "__main__":
    main()
