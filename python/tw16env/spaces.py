"""Observation and action spaces: gymnasium's when it can be imported, else small stand-ins
with the same ``shape``, ``dtype``, ``n``, ``contains``, ``sample`` and ``seed``."""
import numpy as np

try:  # gymnasium is optional: learning code that has it gets its spaces
    import gymnasium.spaces as _gym
except ImportError:  # pragma: no cover - which branch runs depends on the machine
    _gym = None

GYMNASIUM = _gym is not None


class Space:
    """What the stand-ins share: a seedable random generator."""

    def __init__(self, shape, dtype, seed=None):
        self.shape = shape
        self.dtype = np.dtype(dtype) if dtype is not None else None
        self._rng = np.random.default_rng(seed)

    def seed(self, seed=None):
        self._rng = np.random.default_rng(seed)
        return [seed]

    def __contains__(self, x):
        return self.contains(x)


class Box(Space):
    """Integer boxes: every element between ``low`` and ``high``."""

    def __init__(self, low, high, shape, dtype, seed=None):
        super().__init__(tuple(shape), dtype, seed)
        self.low = np.broadcast_to(np.asarray(low, dtype=self.dtype), self.shape).copy()
        self.high = np.broadcast_to(np.asarray(high, dtype=self.dtype), self.shape).copy()

    def contains(self, x):
        if not isinstance(x, np.ndarray):
            return False
        return x.shape == self.shape and np.can_cast(x.dtype, self.dtype) and bool(np.all(x >= self.low) and np.all(x <= self.high))

    def sample(self, mask=None):
        return self._rng.integers(self.low.astype(np.int64), self.high.astype(np.int64), endpoint=True).astype(self.dtype)

    def __eq__(self, other):
        return isinstance(other, Box) and self.shape == other.shape and self.dtype == other.dtype and np.array_equal(self.low, other.low) and np.array_equal(self.high, other.high)

    def __repr__(self):
        return "Box(%s, %s, %s, %s)" % (self.low.min(), self.high.max(), self.shape, self.dtype)


class Discrete(Space):
    """The integers 0 … n − 1; ``sample(mask)`` draws among those whose mask is 1."""

    def __init__(self, n, seed=None):
        super().__init__((), np.int64, seed)
        self.n = int(n)
        self.start = 0

    def contains(self, x):
        if isinstance(x, (int, np.integer)) and not isinstance(x, bool):
            return 0 <= int(x) < self.n
        if isinstance(x, np.ndarray) and x.shape == () and np.issubdtype(x.dtype, np.integer):
            return 0 <= int(x) < self.n
        return False

    def sample(self, mask=None):
        if mask is None:
            return int(self._rng.integers(self.n))
        choices = np.flatnonzero(np.asarray(mask))
        if len(choices) == 0:
            return 0
        return int(self._rng.choice(choices))

    def __eq__(self, other):
        return isinstance(other, Discrete) and self.n == other.n

    def __repr__(self):
        return "Discrete(%d)" % self.n


class Dict(Space):
    """Named spaces; contains a dict with the same keys, each in its space."""

    def __init__(self, spaces, seed=None):
        super().__init__(None, None, seed)
        self.spaces = dict(spaces)

    def __getitem__(self, key):
        return self.spaces[key]

    def __iter__(self):
        return iter(self.spaces)

    def keys(self):
        return self.spaces.keys()

    def contains(self, x):
        return isinstance(x, dict) and x.keys() == self.spaces.keys() and all(s.contains(x[k]) for k, s in self.spaces.items())

    def sample(self, mask=None):
        return {k: s.sample() for k, s in self.spaces.items()}

    def seed(self, seed=None):
        for i, s in enumerate(self.spaces.values()):
            s.seed(None if seed is None else seed + i)
        return [seed]

    def __eq__(self, other):
        return isinstance(other, Dict) and self.spaces == other.spaces


def box(high, dtype):
    """A box from 0 to ``high`` (an array: its shape is the box's)."""
    high = np.asarray(high)
    if _gym is not None:
        return _gym.Box(low=0, high=high.astype(dtype), shape=high.shape, dtype=dtype)
    return Box(0, high, high.shape, dtype)


def discrete(n):
    return _gym.Discrete(n) if _gym is not None else Discrete(n)


def dict_space(spaces):
    return _gym.Dict(spaces) if _gym is not None else Dict(spaces)
