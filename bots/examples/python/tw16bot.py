"""A small helper for tw16 bots written in Python 3 (standard library only).

It speaks the tw16-bot/2 protocol (docs/protocol.md in the tw16 repository; tw16-bot/1 with a
tw16 that offers no other) on stdin and stdout: subclass Bot, override decide() (or decide_batch() to decide many tables' decisions
at once, e.g. in one call to a neural network), and call run(MyBot()).

Each decision's view is a dict with the fields of tw16's JSON view (docs/protocol.md, "A
decision"): view["hand"], view["seats"][s]["river"], ... By default the helper asks tw16 for
compact decisions (hello view: "delta": the decision's facts, and the seat's hand, the rivers,
melds, flowers and ready flags as what changed since its previous decision) and folds them into
a View it keeps per table and seat (Views), which costs a few microseconds a decision where
parsing the JSON view costs tens. Set `view = True` on the bot for tw16's JSON view as plain
dicts instead, `view = False` for no view at all.

A View is updated in place for the seat's next decision: copy what you keep (view.to_dict()).

Action ids are the dense ids kind * 34 + tile, the same numbers as decisions.arrow's `legal` and
`action` columns and tw16env's actions: a policy trained on either reads and writes them as
they are. Read them with kind() and tile() and make them with action(), never with arithmetic
of your own: against a tw16 that speaks only tw16-bot/1 (ids kind * 64 + tile) the helper
answers in that version and these functions follow it.

Log to stderr (tw16 passes it through, prefixed with the bot's name); stdout carries protocol
lines only. Nothing here reads files: the module can be copied next to a bot, put on PYTHONPATH
or installed.
"""
import json
import sys

PROTOCOL = "tw16-bot/2"
PROTOCOL_1 = "tw16-bot/1"

# Action ids are kind * _BASE + tile: 34 in tw16-bot/2 (decisions.arrow's and tw16env's ids), 64 in
# tw16-bot/1. run() sets it from the version the hello agrees on.
_BASE = 34
PASS, WIN, DISCARD, READY, CONCEALED_KONG, ADDED_KONG, KONG, PUNG, CHOW = range(9)
KIND_NAMES = ("pass", "win", "discard", "ready", "concealed_kong", "added_kong", "kong", "pung", "chow")

# Tile ids: 0-8 1m-9m, 9-17 1p-9p, 18-26 1s-9s, 27-33 1z-7z (E S W N White Green Red), 34-41 flowers 1f-8f.
TILE_NAMES = tuple("%d%s" % (r, s) for s in "mps" for r in range(1, 10)) + tuple("%dz" % r for r in range(1, 8)) + tuple("%df" % r for r in range(1, 9))
_SUITS = "mpszf"


def kind(action):
    """The kind of an action id (PASS, WIN, DISCARD, ...)."""
    return action // _BASE


def tile(action):
    """The tile an action is about (0-8 m, 9-17 p, 18-26 s, 27-33 honours)."""
    return action % _BASE


def action(k, t=0):
    """The action id of kind k about tile t (for a chow: its lowest tile)."""
    return k * _BASE + t


def tile_name(t):
    """A tile id in MPSZ ("5m", "7z", "3f"), or None for -1."""
    return TILE_NAMES[t] if t >= 0 else None


def format_tiles(ids):
    """Tile ids in canonical MPSZ: sorted, digits grouped under one suit letter ("123m55p")."""
    out = []
    suit = None
    for t in sorted(ids):
        s = _SUITS[4 if t >= 34 else t // 9]
        if suit is not None and s != suit:
            out.append(suit)
        suit = s
        out.append(TILE_NAMES[t][0])
    if suit is not None:
        out.append(suit)
    return "".join(out)


def action_text(a):
    """An action id written out as in legalText: "pass", "discard 5m", "chow 345p"."""
    k, t = kind(a), tile(a)
    if k == PASS:
        return "pass"
    if k == CHOW:
        r = t % 9 + 1
        return "chow %d%d%d%s" % (r, r + 1, r + 2, "mps"[t // 9])
    return "%s %s" % (KIND_NAMES[k], TILE_NAMES[t])


def meld_tiles(kind_name, t):
    """The tiles of a meld in MPSZ ("345m", "555p", "7777z"); "" when its tile is hidden (-1)."""
    if t < 0:
        return ""
    r, s = TILE_NAMES[t][0], TILE_NAMES[t][1]
    if kind_name == "chow":
        r = int(r)
        return "%d%d%d%s" % (r, r + 1, r + 2, s)
    return r * (3 if kind_name == "pung" else 4) + s


class _LazyDict(dict):
    """A dict whose LAZY keys are worked out by __missing__ when read: get() and `in` know them."""

    __slots__ = ()
    LAZY = ()

    def get(self, key, default=None):
        return self[key] if key in self else default

    def __contains__(self, key):
        return dict.__contains__(self, key) or key in self.LAZY


class Seat(_LazyDict):
    """What one seat shows everyone (view["seats"][s]): a dict of melds, flowers, river, ready;
    flowerTiles, riverTiles and discarded are worked out when read."""

    __slots__ = ("index", "_all")
    LAZY = ("flowerTiles", "riverTiles", "discarded")

    def __init__(self, index, all_seats, river):
        dict.__init__(self, melds=[], flowers=0, river=river, ready=False)
        self.index = index
        self._all = all_seats

    def __missing__(self, key):
        if key == "riverTiles":
            return "".join([TILE_NAMES[t] for t in self["river"]])
        if key == "flowerTiles":
            f = self["flowers"]
            return format_tiles(34 + i for i in range(8) if f >> i & 1)
        if key == "discarded":  # its river, and its discards others claimed
            kinds = set(self["river"])
            for s in self._all:
                for m in s["melds"]:
                    if m["from"] == self.index:
                        kinds.add(m["claimed"])
            return sorted(kinds)
        raise KeyError(key)

    def to_dict(self):
        """A copy as plain data, as in tw16's JSON view."""
        d = {k: self[k] for k in ("melds", "flowers", "flowerTiles", "river", "riverTiles", "discarded", "ready")}
        d["melds"] = [dict(m) for m in d["melds"]]
        d["river"] = list(d["river"])
        return d


class View(_LazyDict):
    """A seat's view kept from compact decisions: a dict with the fields of tw16's JSON view
    (docs/protocol.md). handTiles, handSize, drawnTile, offeredTile and visible are worked out
    when read (not stored: view.get(), `in` and to_dict() know them, iterating the dict does not)."""

    __slots__ = ()
    LAZY = ("handTiles", "handSize", "drawnTile", "offeredTile", "visible")

    def __init__(self, hand_start, rivers=None):
        """The view of hand_start's seat before anything happened at the table; `rivers`: the
        table's four river lists, shared with the program's other seats there (new ones if None)."""
        h = hand_start["hand"]
        seat = hand_start["seat"]
        rivers = rivers or [[], [], [], []]
        seats = []
        seats.extend(Seat(s, seats, rivers[s]) for s in range(4))
        dict.__init__(
            self, seat=seat, dealer=h["dealer"], seatWind=(seat - h["dealer"]) % 4, roundWind="ESWN".index(h["round"]), streak=h["streak"],
            handKey=h["key"], rules=h["rules"], phase="turn", hand=[0] * 34, drawn=-1, offered=-1, offeredBy=-1, wallLeft=0, turns=0,
            scores=hand_start["scores"], seats=seats,
        )

    def __missing__(self, key):
        if key == "handSize":
            return sum(self["hand"])
        if key == "handTiles":
            h = self["hand"]
            return format_tiles(t for t in range(34) for _ in range(h[t]))
        if key == "drawnTile":
            return tile_name(self["drawn"])
        if key == "offeredTile":
            return tile_name(self["offered"])
        if key == "visible":  # own hand and concealed kongs, all exposed melds, all rivers
            vis = list(self["hand"])
            for s in self["seats"]:
                for t in s["river"]:
                    vis[t] += 1
                for m in s["melds"]:
                    t = m["tile"]
                    if t < 0:
                        continue
                    if m["kind"] == "chow":
                        vis[t] += 1
                        vis[t + 1] += 1
                        vis[t + 2] += 1
                    else:
                        vis[t] += 3 if m["kind"] == "pung" else 4
            return vis
        raise KeyError(key)

    def to_dict(self):
        """A copy as plain data, equal to tw16's JSON view of the same decision."""
        keys = ("seat", "dealer", "seatWind", "roundWind", "streak", "handKey", "rules", "phase", "hand", "handTiles", "handSize",
                "drawn", "drawnTile", "offered", "offeredTile", "offeredBy", "wallLeft", "turns", "scores", "seats", "visible")
        d = {k: self[k] for k in keys}
        d["hand"] = list(d["hand"])
        d["scores"] = list(d["scores"])
        d["seats"] = [s.to_dict() for s in d["seats"]]
        return d


class Decision(dict):
    """A decision: table, seat, legal, view; legalText is written out when first read."""

    __slots__ = ()

    def __missing__(self, key):
        if key == "legalText":
            text = [action_text(a) for a in self["legal"]]
            self["legalText"] = text
            return text
        raise KeyError(key)


_PHASES = ("turn", "claim", "rob")
_MELD_KINDS = ("chow", "pung", "kong", "concealed_kong", "kong")  # code 4: a kong added to a pung


def _melds(c):
    out = []
    for i in range(2, len(c), 4):
        code, t = c[i], c[i + 1]
        name = _MELD_KINDS[code]
        out.append({"kind": name, "tile": t, "tiles": meld_tiles(name, t), "from": c[i + 2], "claimed": c[i + 3], "added": code == 4})
    return out


class Views:
    """The views of the (table, seat)s a program holds, kept from compact decisions (docs/protocol.md,
    "Compact decisions"): hand_start(msg) at each hand start, then decision(compact) -> a Decision
    whose "view" is the seat's View, updated. The rivers are kept per table, shared by the
    program's seats there (tw16 sends each river change once per table)."""

    def __init__(self):
        self.views = {}
        self.rivers = {}

    def hand_start(self, msg):
        """A hand starts at msg["table"]: every hand_start of a hand comes before its first decision."""
        rivers = self.rivers.get(msg["table"])
        if rivers is None:
            rivers = self.rivers[msg["table"]] = [[], [], [], []]
        else:
            for r in rivers:
                r.clear()
        v = View(msg, rivers)
        self.views[msg["table"] * 4 + msg["seat"]] = v
        return v

    def decision(self, x):
        table, seat, legal, phase, drawn, offered, offered_by, wall_left, turns, changes = x
        v = self.views[table * 4 + seat]
        v["phase"] = _PHASES[phase]
        v["drawn"] = drawn
        v["offered"] = offered
        v["offeredBy"] = offered_by
        v["wallLeft"] = wall_left
        v["turns"] = turns
        seats = v["seats"]
        for c in changes:
            op = c[0]
            if op == 1:  # a river (the table's, shared): keep c[2] tiles, then these
                r = seats[c[1]]["river"]
                del r[c[2]:]
                r.extend(c[3:])
            elif op == 0:  # the own hand: tile, count, ...
                h = v["hand"]
                for i in range(1, len(c), 2):
                    h[c[i]] = c[i + 1]
            elif op == 2:  # all of a seat's melds
                seats[c[1]]["melds"] = _melds(c)
            elif op == 3:
                seats[c[1]]["flowers"] = c[2]
            else:
                seats[c[1]]["ready"] = c[2] == 1
        return Decision(table=table, seat=seat, legal=legal, view=v)


class Bot:
    """Override decide(decision) -> an action id from decision["legal"] (or a string from
    decision["legalText"]). Set batch (most decisions per request), all_decisions (also
    be asked when only one action is legal), or view: "delta" (the default: the helper keeps
    the view from compact decisions), True (tw16's JSON view as dicts) or False (decisions
    without the view: for a bot that needs only the legal actions)."""

    name = None
    batch = None
    all_decisions = False
    view = "delta"

    def hello(self, msg):
        """The harness's hello: protocol, tw16 version, name, rule profiles, time limit per decision."""

    def rules(self, profile):
        """Another rule profile hands may be played under."""

    def hand_start(self, msg):
        """A hand starts at msg["table"] where this bot holds msg["seat"]; msg["seed"] seeds it."""

    def decide(self, decision):
        raise NotImplementedError

    def decide_batch(self, decisions):
        """Decide every decision of one request (many tables); returns the actions in order."""
        return [self.decide(d) for d in decisions]

    def hand_end(self, msg):
        """The hand at msg["table"] ended; msg["result"] holds outcome, winners and deltas."""


def run(bot, stdin=None, stdout=None):
    """Serve the protocol until tw16 says bye or closes stdin."""
    global _BASE
    stdin = stdin or sys.stdin
    stdout = stdout or sys.stdout
    dumps = json.JSONEncoder(separators=(",", ":")).encode
    loads = json.loads
    views = Views() if bot.view == "delta" else None
    # A bot that does not look at hand ends is spared parsing them (tw16 writes "type" first).
    skip_hand_end = type(bot).hand_end is Bot.hand_end
    for line in stdin:
        if skip_hand_end and line.startswith('{"type":"hand_end"'):
            continue
        msg = loads(line)
        t = msg["type"]
        if t == "request":
            ds = msg["decisions"]
            if views is not None:
                fold = views.decision
                ds = [fold(x) for x in ds]
            actions = bot.decide_batch(ds)
            stdout.write(dumps({"type": "reply", "id": msg["id"], "actions": actions}) + "\n")
            stdout.flush()
        elif t == "hand_start":
            if views is not None:
                views.hand_start(msg)
            bot.hand_start(msg)
        elif t == "hand_end":
            bot.hand_end(msg)
        elif t == "hello":
            version = PROTOCOL if PROTOCOL in msg.get("protocols", ()) else PROTOCOL_1
            _BASE = 64 if version == PROTOCOL_1 else 34
            bot.hello(msg)
            reply = {"type": "hello", "protocol": version}
            if bot.name:
                reply["name"] = bot.name
            if bot.batch:
                reply["batch"] = bot.batch
            if bot.all_decisions:
                reply["allDecisions"] = True
            if bot.view is not True:
                reply["view"] = bot.view
            stdout.write(dumps(reply) + "\n")
            stdout.flush()
        elif t == "rules":
            bot.rules(msg["profile"])
        elif t == "error":
            sys.stderr.write("tw16: %s\n" % msg["message"])
        elif t == "bye":
            break
