"""The learned policy as a tw16 bot program (tw16-bot/2): each decision's view becomes its
tw16-obs-1 observation (tw16env.encode_view), the policy picks the best legal action; a request
of many tables' decisions is one call to the network. The protocol's action ids are the ids the
policy was trained on (decisions.arrow's, kind * 34 + tile): they go in and out as they are.

    tw16 run examples/learn/evaluate.json          (the experiment names this file)
    python3 learn_bot.py [POLICY.npz]              (default: $TW16_LEARN_POLICY, else policy.npz beside this file)"""
import os
import sys

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path[:0] = [HERE, os.path.join(HERE, "..", "..", "python"), os.path.join(HERE, "..", "..", "bots", "examples", "python")]
import tw16bot  # noqa: E402
import tw16env  # noqa: E402
from policy import Policy  # noqa: E402


class Learned(tw16bot.Bot):
    name = "learned"

    def __init__(self, path):
        self.policy = Policy.load(path)

    def decide_batch(self, decisions):
        obs = np.stack([tw16env.encode_view(d["view"]) for d in decisions])
        mask = np.zeros((len(decisions), tw16env.ACTION_IDS), dtype=np.int8)
        for i, d in enumerate(decisions):
            mask[i, d["legal"]] = 1
        return [int(a) for a in self.policy.choose(obs, mask)]


if __name__ == "__main__":
    tw16bot.run(Learned(sys.argv[1] if len(sys.argv) > 1 else os.environ.get("TW16_LEARN_POLICY") or os.path.join(HERE, "policy.npz")))
