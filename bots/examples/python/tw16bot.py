"""A small helper for tw16 bots written in Python 3 (standard library only).

It speaks the tw16-bot/1 protocol (docs/protocol.md in the tw16 repository) on stdin and
stdout: subclass Bot, override decide() (or decide_batch() to decide many tables' decisions
at once, e.g. in one call to a neural network), and call run(MyBot()).

Log to stderr (tw16 passes it through, prefixed with the bot's name); stdout carries protocol
lines only.
"""
import json
import sys

PROTOCOL = "tw16-bot/1"

# Action ids are kind * 64 + tile (src/engine/actions.ts).
PASS, WIN, DISCARD, READY, CONCEALED_KONG, ADDED_KONG, KONG, PUNG, CHOW = range(9)


def kind(action):
    """The kind of an action id (PASS, WIN, DISCARD, ...)."""
    return action >> 6


def tile(action):
    """The tile an action is about (0-8 m, 9-17 p, 18-26 s, 27-33 honours)."""
    return action & 63


class Bot:
    """Override decide(decision) -> an action id from decision["legal"] (or a string from
    decision["legalText"]). Set batch (most decisions per request), all_decisions (also
    be asked when only one action is legal) or view = False (decisions without the view:
    for a bot that needs only the legal actions) if you need them."""

    name = None
    batch = None
    all_decisions = False
    view = True

    def hello(self, msg):
        """The harness's hello: protocol, tw16 version, name, rule profiles, time limit."""

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
    stdin = stdin or sys.stdin
    stdout = stdout or sys.stdout
    dumps = json.JSONEncoder(separators=(",", ":")).encode
    for line in stdin:
        msg = json.loads(line)
        t = msg["type"]
        if t == "request":
            actions = bot.decide_batch(msg["decisions"])
            stdout.write(dumps({"type": "reply", "id": msg["id"], "actions": actions}) + "\n")
            stdout.flush()
        elif t == "hand_start":
            bot.hand_start(msg)
        elif t == "hand_end":
            bot.hand_end(msg)
        elif t == "hello":
            bot.hello(msg)
            reply = {"type": "hello", "protocol": PROTOCOL}
            if bot.name:
                reply["name"] = bot.name
            if bot.batch:
                reply["batch"] = bot.batch
            if bot.all_decisions:
                reply["allDecisions"] = True
            if not bot.view:
                reply["view"] = False
            stdout.write(dumps(reply) + "\n")
            stdout.flush()
        elif t == "rules":
            bot.rules(msg["profile"])
        elif t == "error":
            sys.stderr.write("tw16: %s\n" % msg["message"])
        elif t == "bye":
            break
