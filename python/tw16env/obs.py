"""The observation tw16-obs-1 and the action ids, on the Python side.

The definition lives in tw16 (src/engine/obs.ts, documented in results/README.md); the
environment's observations and decisions.arrow's ``obs`` column come from there. ``encode_view``
computes the same vector from a protocol view (docs/protocol.md), for a bot that plays as a
program (``tw16 run --bots 'cmd:python3 my_bot.py'``); a test checks that it agrees with tw16
decision by decision.
"""
import numpy as np

OBS_FORMAT = "tw16-obs-1"

# name, length, high: offsets follow from the lengths (results/README.md has the meanings).
_BLOCKS = [
    ("hand", 34, 4), ("drawn", 34, 1), ("offered", 34, 1),
    ("melds", 136, 4), ("river", 136, 4), ("discarded", 136, 1),
    ("unseen", 34, 4), ("flowers", 32, 1),
    ("meld_count", 4, 5), ("concealed_kongs", 4, 4), ("ready", 4, 1), ("river_count", 4, 64),
    ("dealer", 4, 1), ("offered_by", 4, 1), ("phase", 3, 1), ("seat_wind", 4, 1), ("round_wind", 4, 1),
    ("streak", 1, 255), ("wall_left", 1, 144), ("turns", 1, 255), ("hand_size", 1, 17),
]


def _fields():
    out, offset = {}, 0
    for name, length, high in _BLOCKS:
        out[name] = (offset, length, high)
        offset += length
    return out, offset


#: name -> (offset, length, high)
FIELDS, OBS_SIZE = _fields()
#: The largest value of each element (the observation space's ``high``).
OBS_HIGH = np.concatenate([np.full(length, high, dtype=np.uint8) for _, length, high in _BLOCKS])

#: Action ids: kind * 34 + tile.
KINDS = ("pass", "win", "discard", "ready", "concealed_kong", "added_kong", "kong", "pung", "chow")
ACTION_IDS = len(KINDS) * 34
PASS, WIN, DISCARD, READY, CONCEALED_KONG, ADDED_KONG, KONG, PUNG, CHOW = range(9)


def block(obs, name):
    """The values of block ``name`` of an observation (or the last axis of a batch of them)."""
    offset, length, _ = FIELDS[name]
    return obs[..., offset:offset + length]


def id_of_action(action):
    """The action id of an engine (and tw16-bot/1 protocol) action number (kind * 64 + tile)."""
    return (action >> 6) * 34 + (action & 63)


def action_of_id(action_id):
    """The engine (and tw16-bot/1 protocol) action number (kind * 64 + tile) of an action id."""
    return (action_id // 34) * 64 + action_id % 34


def tile_name(t):
    """MPSZ name of tile id ``t`` (0-33): 1m ... 9s, 1z ... 7z."""
    return "%d%s" % (t % 9 + 1, "mps"[t // 9]) if t < 27 else "%dz" % (t - 26)


def action_name(action_id):
    """An action id as tw16 writes it: ``discard 5m``, ``chow 345p``, ``pass``."""
    k, t = divmod(int(action_id), 34)
    if k == PASS:
        return "pass"
    if k == CHOW and t < 27:
        r = t % 9 + 1
        return "chow %d%d%d%s" % (r, r + 1, r + 2, "mps"[t // 9])
    return "%s %s" % (KINDS[k], tile_name(t))


def encode_view(view, out=None):
    """tw16-obs-1 of a protocol view (the ``view`` of a decision, docs/protocol.md), as uint8."""
    o = np.zeros(OBS_SIZE, dtype=np.uint8) if out is None else out
    o[:] = 0
    me = view["seat"]
    f = FIELDS
    o[0:34] = view["hand"]
    if view["drawn"] >= 0:
        o[f["drawn"][0] + view["drawn"]] = 1
    if view["offered"] >= 0:
        o[f["offered"][0] + view["offered"]] = 1
    o[f["unseen"][0]:f["unseen"][0] + 34] = 4 - np.asarray(view["visible"], dtype=np.int64)
    for r in range(4):
        s = view["seats"][(me + r) % 4]
        melds = f["melds"][0] + 34 * r
        kongs = 0
        for m in s["melds"]:
            kind, t = m["kind"], m["tile"]
            if kind == "concealed_kong":
                kongs += 1
            if t < 0:
                continue
            if kind == "chow":
                o[melds + t:melds + t + 3] += 1
            else:
                o[melds + t] += 3 if kind == "pung" else 4
        river = f["river"][0] + 34 * r
        for t in s["river"]:
            o[river + t] += 1
        discarded = f["discarded"][0] + 34 * r
        for t in s["discarded"]:
            o[discarded + t] = 1
        flowers = f["flowers"][0] + 8 * r
        for b in range(8):
            if s["flowers"] >> b & 1:
                o[flowers + b] = 1
        o[f["meld_count"][0] + r] = len(s["melds"])
        o[f["concealed_kongs"][0] + r] = kongs
        o[f["ready"][0] + r] = 1 if s["ready"] else 0
        o[f["river_count"][0] + r] = len(s["river"])
    o[f["dealer"][0] + (view["dealer"] - me) % 4] = 1
    if view["offeredBy"] >= 0:
        o[f["offered_by"][0] + (view["offeredBy"] - me) % 4] = 1
    o[f["phase"][0] + ("turn", "claim", "rob").index(view["phase"])] = 1
    o[f["seat_wind"][0] + view["seatWind"]] = 1
    o[f["round_wind"][0] + view["roundWind"]] = 1
    o[f["streak"][0]] = min(255, view["streak"])
    o[f["wall_left"][0]] = view["wallLeft"]
    o[f["turns"][0]] = min(255, view["turns"])
    o[f["hand_size"][0]] = view["handSize"]
    return o
