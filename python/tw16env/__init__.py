"""tw16env: Taiwanese 16-tile Mahjong (tw16's engine) as a learning environment.

    import tw16env
    env = tw16env.env(seats=["python", "greedy", "greedy", "greedy"])   # PettingZoo AEC API
    env.reset(seed=1)
    for agent in env.agent_iter():
        obs, reward, terminated, truncated, info = env.last()
        env.step(None if terminated else int(np.flatnonzero(obs["action_mask"])[0]))

    venv = tw16env.vector_env(64)                                          # 64 tables per call
    obs, mask, seat = venv.reset(seed=1)

Standard library and numpy only (gymnasium spaces when gymnasium is importable). The engine is a
``tw16 env`` process the environment starts and ends. See python/README.md.
"""
from ._engine import TW16Error, tw16_command
from .arrow import read_arrow
from .env import Env, IllegalActionError, VectorEnv
from .obs import (ACTION_IDS, FIELDS, KINDS, OBS_FORMAT, OBS_HIGH, OBS_SIZE, action_name, action_of_id, block,
                  encode_view, id_of_action, tile_name)

__all__ = ["env", "vector_env", "Env", "VectorEnv", "IllegalActionError", "TW16Error", "read_arrow", "tw16_command",
           "ACTION_IDS", "FIELDS", "KINDS", "OBS_FORMAT", "OBS_HIGH", "OBS_SIZE", "action_name", "action_of_id", "block",
           "encode_view", "id_of_action", "tile_name"]


def env(**options):
    """One table with the PettingZoo AEC API: options ``rules`` (a profile name, rule file or
    inline JSON), ``seats`` (4 entries: ``"python"`` for a seat you drive, else a bot: a built-in
    name, a module path or ``"cmd:…"``), ``mode`` (``"hands"`` or ``"match"``), ``luck``
    (per-step luck in ``infos``), ``stakes`` ((base, perTai)), ``render_mode``, ``tw16`` (the
    command starting tw16)."""
    return Env(**options)


def vector_env(n, **options):
    """``n`` tables stepped in one call each (VectorEnv); the same options as ``env``."""
    return VectorEnv(n, **options)
