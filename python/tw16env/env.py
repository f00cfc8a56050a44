"""tw16 as a PettingZoo-style AEC environment, and a vector of tables for training."""
import numpy as np

from . import obs as _obs
from . import spaces as _spaces
from ._engine import Engine, TW16Error

try:  # subclass PettingZoo's base class when it is there, so isinstance checks pass
    from pettingzoo import AECEnv as _Base
except ImportError:  # pragma: no cover - which branch runs depends on the machine
    _Base = object

OUTCOMES = (None, "win", "self_draw", "draw", "instant", "false_win")


class IllegalActionError(ValueError):
    """An action that is not legal for the agent to act; the message names the legal ones."""


def _options(rules, seats, mode, luck, stakes, tables, autoreset, forced=False):
    seats = list(seats)
    if len(seats) != 4:
        raise ValueError("seats: expected 4 (each 'python' or a bot), got %r" % (seats,))
    return {"tables": tables, "rules": rules, "seats": seats, "mode": mode, "luck": bool(luck),
            "autoreset": autoreset, "forced": bool(forced), "base": int(stakes[0]), "perTai": int(stakes[1])}


def _legal_text(mask):
    return ", ".join("%d %s" % (i, _obs.action_name(i)) for i in np.flatnonzero(mask))


def _spaces_for():
    observation = _spaces.dict_space({
        "observation": _spaces.box(_obs.OBS_HIGH, np.uint8),
        "action_mask": _spaces.box(np.ones(_obs.ACTION_IDS, dtype=np.int8), np.int8),
    })
    return observation, _spaces.discrete(_obs.ACTION_IDS)


class Env(_Base):
    """One table, PettingZoo's AEC API. Agents are the seats driven from Python, ``player_S``
    for seat S; the other seats are tw16 bots. An episode is a hand (``mode="hands"``: each
    ``reset()`` deals the next hand key, ``reset(seed=S)`` starts again at hand 0 of seed S,
    ``options={"hand": K}`` picks hand K) or a whole match (``mode="match"``). Rewards are the
    points of each hand as it ends; ``infos[agent]`` holds ``luck`` (the seat's luck accrued in
    the last step, with ``luck=True``), ``points``, ``hand_key`` and, once a hand ended, its
    ``outcome``. A decision with a single legal action is played without asking unless
    ``forced=True``."""

    metadata = {"name": "tw16_v0", "render_modes": ["ansi", "human"], "is_parallelizable": False}

    def __init__(self, rules="p0", seats=("python", "greedy", "greedy", "greedy"), mode="hands", luck=False,
                 stakes=(1, 1), forced=False, render_mode=None, tw16=None):
        super().__init__()
        self._engine = Engine(_options(rules, seats, mode, luck, stakes, 1, False, forced), tw16)
        self.seats = list(seats)
        self.possible_agents = ["player_%d" % s for s, who in enumerate(self.seats) if who == "python"]
        self._seat_of = {a: int(a.split("_")[1]) for a in self.possible_agents}
        observation, action = _spaces_for()
        self.observation_spaces = {a: observation for a in self.possible_agents}
        self.action_spaces = {a: action for a in self.possible_agents}
        self.render_mode = render_mode
        self._seed = "0"
        self._next_hand = 0
        self.agents = []
        self.rewards, self._cumulative_rewards, self.terminations, self.truncations, self.infos = {}, {}, {}, {}, {}
        self.agent_selection = None
        self._record = None
        self._last_obs = {}

    # ── the API ──
    def observation_space(self, agent):
        return self.observation_spaces[agent]

    def action_space(self, agent):
        return self.action_spaces[agent]

    @property
    def num_agents(self):
        return len(self.agents)

    @property
    def max_num_agents(self):
        return len(self.possible_agents)

    @property
    def unwrapped(self):
        return self

    @property
    def engine_pid(self):
        """The process id of the tw16 engine behind this environment."""
        return self._engine.pid

    def reset(self, seed=None, options=None):
        if seed is not None:
            self._seed = str(seed)
            self._next_hand = 0
        if options and "hand" in options:
            self._next_hand = int(options["hand"])
        rec = self._engine.reset(self._seed, self._next_hand)[0]
        self._next_hand += 1
        self.agents = self.possible_agents[:]
        self.rewards = {a: 0.0 for a in self.agents}
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos = {a: {} for a in self.agents}
        zeros = (np.zeros(_obs.OBS_SIZE, dtype=np.uint8), np.zeros(_obs.ACTION_IDS, dtype=np.int8))
        self._last_obs = {a: zeros for a in self.agents}
        self._skip = None
        self._apply(rec)

    def step(self, action):
        agent = self.agent_selection
        if self.terminations.get(agent) or self.truncations.get(agent):
            self._dead_step(action)
            return
        rec = self._record
        mask = rec["mask"]
        if action is None or not isinstance(action, (int, np.integer)) or isinstance(action, bool) or not 0 <= int(action) < _obs.ACTION_IDS or not mask[int(action)]:
            shown = "None" if action is None else "%r%s" % (action, " (%s)" % _obs.action_name(action) if isinstance(action, (int, np.integer)) and 0 <= int(action) < _obs.ACTION_IDS else "")
            raise IllegalActionError("%s (seat %d, hand %d, %s): action %s is not legal; legal: %s"
                                     % (agent, self._seat_of[agent], int(rec["hand_key"]), ("turn", "claim", "rob")[int(np.argmax(_obs.block(rec["obs"], "phase")))], shown, _legal_text(mask)))
        self._cumulative_rewards[agent] = 0.0
        self._apply(self._engine.step([int(action)])[0])

    def observe(self, agent):
        obs, mask = self._last_obs[agent]
        return {"observation": obs, "action_mask": mask}

    def last(self, observe=True):
        agent = self.agent_selection
        return (self.observe(agent) if observe else None, self._cumulative_rewards[agent],
                self.terminations[agent], self.truncations[agent], self.infos[agent])

    def agent_iter(self, max_iter=2 ** 63):
        while self.agents and max_iter > 0:
            max_iter -= 1
            yield self.agent_selection

    def render(self):
        if self.render_mode is None or self._record is None:
            return None
        rec = self._record
        o = rec["obs"]
        hand = _obs.block(o, "hand")
        tiles = " ".join(_obs.tile_name(t) for t in range(34) for _ in range(int(hand[t])))
        text = "hand %d, %s to act: %s | legal: %s" % (int(rec["hand_key"]), self.agent_selection, tiles, _legal_text(rec["mask"])) if rec["seat"] >= 0 else "hand %d over" % int(rec["hand_key"])
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def state(self):
        raise NotImplementedError("tw16's environment shows each seat its own view only (observe)")

    def close(self):
        self._engine.close()

    def __del__(self):
        engine = getattr(self, "_engine", None)
        if engine is not None:
            engine.close()

    def __str__(self):
        return self.metadata["name"]

    # ── inside ──
    def _apply(self, rec):
        self._record = rec
        for a in self.agents:
            self.rewards[a] = 0.0
        points, luck = rec["points"], rec["luck"]
        ended = int(rec["hands_ended"]) > 0
        for a in self.agents:
            s = self._seat_of[a]
            self.rewards[a] = float(points[s])
            info = {"luck": float(luck[s]), "points": float(points[s]), "hand_key": int(rec["hand_key"])}
            if ended:
                info["outcome"] = OUTCOMES[int(rec["outcome"])]
            self.infos[a] = info
            self._cumulative_rewards[a] += self.rewards[a]
        seat = int(rec["seat"])
        if seat >= 0:
            agent = "player_%d" % seat
            self._last_obs[agent] = (rec["obs"].copy(), rec["mask"].astype(np.int8))
            self.agent_selection = agent
        else:  # the episode is over: every agent is done, and steps once more with None
            for a in self.agents:
                self.terminations[a] = True
                self._last_obs[a] = (self._last_obs[a][0], np.zeros(_obs.ACTION_IDS, dtype=np.int8))
            self.agent_selection = self.agents[0]

    def _dead_step(self, action):
        if action is not None:
            raise IllegalActionError("%s is done (its episode is over): the only action is None" % self.agent_selection)
        agent = self.agent_selection
        for d in (self.terminations, self.truncations, self.rewards, self._cumulative_rewards, self.infos, self._last_obs):
            del d[agent]
        self.agents.remove(agent)
        for a in self.rewards:
            self.rewards[a] = 0.0
        if self.agents:
            self.agent_selection = self.agents[0]


class VectorEnv:
    """``n`` tables stepped together, each restarting by itself when its episode ends. Every
    table always has one seat to act: ``reset()`` and ``step(actions)`` return, per table, the
    observation ``obs`` (n, 615) uint8, the action mask ``mask`` (n, 306) int8 and the deciding
    ``seat`` (n,); ``step`` also returns ``rewards`` (n, 4) float32 — points by seat of the
    hands that ended in the step —, ``dones`` (n,) bool — the table's episode ended and ``obs``
    is already the next one's — and ``info`` with ``luck`` (n, 4), ``hand_key``, ``outcome``
    and ``hands_ended``. Table t plays hands (or matches) t, t + n, t + 2n, …"""

    def __init__(self, n, rules="p0", seats=("python", "greedy", "greedy", "greedy"), mode="hands", luck=False,
                 stakes=(1, 1), forced=False, tw16=None):
        self.num_envs = int(n)
        self._engine = Engine(_options(rules, seats, mode, luck, stakes, self.num_envs, True, forced), tw16)
        self.seats = list(seats)
        self.single_observation_space, self.single_action_space = _spaces_for()
        self._seed = "0"
        self._mask = None
        self._rows = np.arange(self.num_envs)

    @property
    def engine_pid(self):
        return self._engine.pid

    def reset(self, seed=None, options=None):
        if seed is not None:
            self._seed = str(seed)
        first = int((options or {}).get("first", 0))
        rec = self._engine.reset(self._seed, first)
        self._mask = rec["mask"]
        return rec["obs"], rec["mask"].view(np.int8), rec["seat"].astype(np.int64)

    def step(self, actions):
        actions = np.asarray(actions)
        if actions.shape != (self.num_envs,) or not np.issubdtype(actions.dtype, np.integer):
            raise IllegalActionError("step: expected %d integer action ids, got %r" % (self.num_envs, actions))
        inside = (actions >= 0) & (actions < _obs.ACTION_IDS)
        ok = inside & (self._mask[self._rows, np.where(inside, actions, 0)] == 1)
        if not ok.all():
            t = int(np.flatnonzero(~ok)[0])
            raise IllegalActionError("table %d: action %d is not legal; legal: %s" % (t, int(actions[t]), _legal_text(self._mask[t])))
        rec = self._engine.step(actions)
        self._mask = rec["mask"]
        info = {"luck": rec["luck"], "hand_key": rec["hand_key"], "outcome": rec["outcome"], "hands_ended": rec["hands_ended"]}
        return (rec["obs"], rec["mask"].view(np.int8), rec["seat"].astype(np.int64), rec["points"].astype(np.float32),
                (rec["flags"] & 1).astype(bool), info)

    def close(self):
        self._engine.close()

    def __del__(self):
        engine = getattr(self, "_engine", None)
        if engine is not None:
            engine.close()
