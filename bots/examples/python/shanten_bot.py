#!/usr/bin/env python3
"""A simple shanten bot for tw16: wins when it can, declares ready when it can, passes on
claims, and discards to the lowest shanten (distance from ready, 16-tile hands: five sets and
a pair), ties broken by how many unseen tiles would lower it further.

    npx tw16 run experiments/default.json --bots 'cmd:python3 bots/examples/python/shanten_bot.py',greedy,random,random
"""
import sys
from functools import lru_cache

import tw16bot


@lru_cache(maxsize=None)
def suit_shapes(counts, honours):
    """Every (sets, partial sets, pair) a suit's counts can be split into, as a frozenset.
    `honours`: only pungs and pairs count (no runs)."""
    out = set()

    def walk(c, i, sets, partials, pair):
        while i < len(c) and c[i] == 0:
            i += 1
        if i == len(c):
            out.add((sets, partials, pair))
            return
        c = list(c)
        if c[i] >= 3:  # pung
            c[i] -= 3
            walk(tuple(c), i, sets + 1, partials, pair)
            c[i] += 3
        if not honours and i + 2 < len(c) and c[i + 1] and c[i + 2]:  # run
            c[i] -= 1; c[i + 1] -= 1; c[i + 2] -= 1
            walk(tuple(c), i, sets + 1, partials, pair)
            c[i] += 1; c[i + 1] += 1; c[i + 2] += 1
        if c[i] >= 2:  # the pair, or a partial pung
            c[i] -= 2
            if not pair:
                walk(tuple(c), i, sets, partials, True)
            walk(tuple(c), i, sets, partials + 1, pair)
            c[i] += 2
        if not honours:
            for j in (i + 1, i + 2):  # partial runs
                if j < len(c) and c[j]:
                    c[i] -= 1; c[j] -= 1
                    walk(tuple(c), i, sets, partials + 1, pair)
                    c[i] += 1; c[j] += 1
        c[i] -= 1  # the tile left alone
        walk(tuple(c), i, sets, partials, pair)

    walk(counts, 0, 0, 0, False)
    # Keep only shapes no other shape beats.
    return frozenset(s for s in out if not any(o != s and o[0] >= s[0] and o[0] + o[1] >= s[0] + s[1] and o[2] >= s[2] for o in out))


def shanten(hand, melds):
    """Shanten of 34 counts with `melds` sets already laid down: 0 = ready, -1 = complete."""
    need = 5 - melds
    best = 2 * need
    combos = {(0, 0, False)}
    for lo, hi, honours in ((0, 9, False), (9, 18, False), (18, 27, False), (27, 34, True)):
        shapes = suit_shapes(tuple(hand[lo:hi]), honours)
        combos = {(s + a, p + b, q or r) for (s, p, q) in combos for (a, b, r) in shapes if not (q and r)}
    for sets, partials, pair in combos:
        sets = min(sets, need)
        partials = min(partials, need - sets)
        best = min(best, 2 * need - 2 * sets - partials - (1 if pair else 0))
    return best


class ShantenBot(tw16bot.Bot):
    def decide(self, d):
        legal = d["legal"]
        view = d["view"]
        for a in legal:
            if tw16bot.kind(a) == tw16bot.WIN:
                return a
        if view["phase"] != "turn":
            return legal[0]  # pass
        hand = list(view["hand"])
        melds = len(view["seats"][view["seat"]]["melds"])
        unseen = [4 - v for v in view["visible"]]
        best, best_key = None, None
        for a in legal:
            if tw16bot.kind(a) not in (tw16bot.DISCARD, tw16bot.READY):
                continue
            t = tw16bot.tile(a)
            hand[t] -= 1
            s = shanten(hand, melds)
            key = (s, 0, -int(tw16bot.kind(a) == tw16bot.READY))
            if best_key is None or key[0] <= best_key[0]:
                # the tiles that would lower the shanten, weighed by unseen copies
                good = 0
                for u in range(34):
                    if unseen[u] > 0 and hand[u] < 4:
                        hand[u] += 1
                        if shanten(hand, melds) < s:
                            good += unseen[u]
                        hand[u] -= 1
                key = (s, -good, key[2])
                if best_key is None or key < best_key:
                    best, best_key = a, key
            hand[t] += 1
        return best if best is not None else legal[-1]


if __name__ == "__main__":
    bot = ShantenBot()
    if "--view=json" in sys.argv[1:]:
        bot.view = True  # tw16's JSON view instead of the compact decisions the helper folds (the same play)
    tw16bot.run(bot)
