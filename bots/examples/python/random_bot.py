#!/usr/bin/env python3
"""A random tw16 bot: always takes a win, otherwise a uniformly random legal action.

Each (table, seat) has its own random.Random seeded from hand_start's seed, so the bot plays
the same whatever order tw16 interleaves tables in: runs are reproducible.

    npx tw16 run experiments/default.json --bots 'cmd:python3 bots/examples/python/random_bot.py',greedy,random,random
"""
import random
import sys

import tw16bot


class RandomBot(tw16bot.Bot):
    view = False  # it needs only the legal actions: decisions come without the view (much less to read)

    def __init__(self):
        self.rng = {}

    def hand_start(self, msg):
        self.rng[(msg["table"], msg["seat"])] = random.Random(msg["seed"])

    def decide(self, d):
        legal = d["legal"]
        for a in legal:
            if tw16bot.kind(a) == tw16bot.WIN:
                return a
        return self.rng[(d["table"], d["seat"])].choice(legal)


if __name__ == "__main__":
    bot = RandomBot()
    for arg in sys.argv[1:]:
        if arg.startswith("--batch="):
            bot.batch = int(arg.split("=", 1)[1])
        elif arg == "--all-decisions":
            bot.all_decisions = True
        elif arg == "--view":
            bot.view = True
    tw16bot.run(bot)
