#!/usr/bin/env python3
"""The protocol's yardstick: at every decision it reads its hand and every river from the full
view, then plays the first legal action (a win when it can, otherwise the lowest discard; it
never claims). What it costs is the protocol's cost, not a strategy's: bench/protocol.ts runs it.

    npx tw16 run experiments/default.json --bots 'cmd:python3 bots/examples/python/first_legal_bot.py',greedy,random,random

--view=json asks for tw16's JSON view instead of the compact decisions the helper folds into
the same view (the default): the same play, for comparing the two.
"""
import sys

import tw16bot


class FirstLegalBot(tw16bot.Bot):
    def __init__(self):
        self.checksum = 0  # of every tile looked at: the view is really read

    def decide(self, d):
        view = d["view"]
        n = sum(view["hand"])
        for seat in view["seats"]:
            n += sum(seat["river"])
        self.checksum += n
        return d["legal"][0]


if __name__ == "__main__":
    bot = FirstLegalBot()
    if "--view=json" in sys.argv[1:]:
        bot.view = True
    tw16bot.run(bot)
