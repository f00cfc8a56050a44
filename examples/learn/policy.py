"""The learned policy: features of a tw16-obs-1 observation, a small two-layer network (numpy),
and the masked choice among the legal actions. Shared by train.py and learn_bot.py."""
import numpy as np

from tw16env import obs as O

HAND = O.FIELDS["hand"][0]


def features(obs):
    """(n, 615) uint8 observations → (n, F) float32: the observation scaled to about 0–1, plus, per
    tile kind, the own hand's neighbourhood (counts of t−2 … t+2 in the same suit), which lets a
    small network see runs and pairs."""
    x = obs.astype(np.float32)
    hand = x[:, HAND:HAND + 34]
    near = []
    for d in (-2, -1, 1, 2):
        shifted = np.zeros_like(hand)
        for suit in range(3):
            lo, hi = 9 * suit, 9 * suit + 9
            src = np.arange(lo, hi) + d
            ok = (src >= lo) & (src < hi)
            shifted[:, lo:hi][:, ok] = hand[:, src[ok]]
        near.append(shifted)
    scale = np.maximum(O.OBS_HIGH.astype(np.float32), 1.0)
    return np.concatenate([x / scale] + [n / 4.0 for n in near] + [(hand == 1) * 1.0, (hand >= 2) * 1.0], axis=1).astype(np.float32)


class Policy:
    """logits = relu(x W1 + b1) W2 + b2 over the 306 action ids; illegal ones masked out."""

    def __init__(self, params):
        self.p = {k: np.asarray(v, dtype=np.float32) for k, v in params.items()}

    @staticmethod
    def new(n_in, hidden, seed=0):
        rng = np.random.default_rng(seed)
        return Policy({
            "W1": rng.normal(0, np.sqrt(2.0 / n_in), (n_in, hidden)),
            "b1": np.zeros(hidden),
            "W2": rng.normal(0, np.sqrt(1.0 / hidden), (hidden, O.ACTION_IDS)),
            "b2": np.zeros(O.ACTION_IDS),
        })

    @staticmethod
    def load(path):
        with np.load(path) as z:
            return Policy({k: z[k] for k in z.files})

    def save(self, path):
        np.savez(path, **self.p)

    def logits(self, x):
        h = np.maximum(x @ self.p["W1"] + self.p["b1"], 0)
        return h @ self.p["W2"] + self.p["b2"], h

    def choose(self, obs, mask):
        """The best legal action id of each row."""
        z, _ = self.logits(features(obs))
        z = np.where(mask > 0, z, -np.inf)
        return z.argmax(axis=1)
