"""Imitation: train the policy (policy.py) to pick the action greedy picked, from decisions.arrow.

    python3 examples/learn/train.py results/learn-collect/decisions.arrow examples/learn/policy.npz [--epochs N] [--hidden H]

Cross-entropy over the legal actions only (a softmax masked to them), plain minibatch gradient
descent with momentum, numpy only. Prints the share of held-out decisions where the policy picks
greedy's action."""
import argparse
import os
import sys
import time

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path[:0] = [HERE, os.path.join(HERE, "..", "..", "python")]
import tw16env  # noqa: E402
from policy import Policy, features  # noqa: E402


def masks(legal, n):
    m = np.zeros((n, tw16env.ACTION_IDS), dtype=np.float32)
    rows = np.repeat(np.arange(n), legal.lengths())
    m[rows, legal.values] = 1
    return m


def main():
    p = argparse.ArgumentParser()
    p.add_argument("decisions")
    p.add_argument("out")
    p.add_argument("--bot", default="greedy", help="whose decisions to imitate")
    p.add_argument("--epochs", type=int, default=6)
    p.add_argument("--hidden", type=int, default=256)
    p.add_argument("--batch", type=int, default=256)
    p.add_argument("--lr", type=float, default=0.05)
    p.add_argument("--seed", type=int, default=0)
    a = p.parse_args()

    t0 = time.time()
    t = tw16env.read_arrow(a.decisions)
    keep = np.flatnonzero(t["bot"] == a.bot)
    x = features(t["obs"][keep])
    m = masks(t["legal"], t.num_rows)[keep]
    y = t["action"][keep].astype(np.int64)
    n = len(y)
    rng = np.random.default_rng(a.seed)
    order = rng.permutation(n)
    test, train = order[: n // 10], order[n // 10:]
    print("%d decisions of %s (%d to train, %d held out), %d features; read in %.1f s" % (n, a.bot, len(train), len(test), x.shape[1], time.time() - t0))

    pol = Policy.new(x.shape[1], a.hidden, a.seed)
    vel = {k: np.zeros_like(v) for k, v in pol.p.items()}
    for epoch in range(a.epochs):
        rng.shuffle(train)
        loss = 0.0
        lr = a.lr * (0.5 ** (epoch / max(1, a.epochs / 3)))
        for i in range(0, len(train), a.batch):
            b = train[i:i + a.batch]
            xb, mb, yb = x[b], m[b], y[b]
            z, h = pol.logits(xb)
            z = np.where(mb > 0, z, -1e9)
            z = z - z.max(axis=1, keepdims=True)
            e = np.exp(z) * mb
            prob = e / e.sum(axis=1, keepdims=True)
            loss -= np.log(prob[np.arange(len(b)), yb] + 1e-12).sum()
            g = prob
            g[np.arange(len(b)), yb] -= 1
            g /= len(b)
            grads = {"W2": h.T @ g, "b2": g.sum(axis=0)}
            gh = (g @ pol.p["W2"].T) * (h > 0)
            grads["W1"] = xb.T @ gh
            grads["b1"] = gh.sum(axis=0)
            for k in pol.p:
                vel[k] = 0.9 * vel[k] - lr * grads[k]
                pol.p[k] += vel[k]
        acc = accuracy(pol, x[test], m[test], y[test])
        print("epoch %d: loss %.3f, held-out agreement with %s %.1f%% (%.0f s)" % (epoch + 1, loss / len(train), a.bot, 100 * acc, time.time() - t0))
    pol.save(a.out)
    print("saved %s" % a.out)


def accuracy(pol, x, m, y):
    z, _ = pol.logits(x)
    return (np.where(m > 0, z, -np.inf).argmax(axis=1) == y).mean()


if __name__ == "__main__":
    main()
