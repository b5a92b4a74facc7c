"""Seeds derived from a run's seed and a unit's coordinates.

Shared by the simulator, the arena and the terminal so that each derives its games' and bots'
seeds the same way, and none has to import another just for this.
"""

from __future__ import annotations

import random


def derive_seed(*parts: int | str) -> int:
    """A 63-bit seed from a tuple, stable across processes and Python runs."""
    return random.Random(":".join(map(str, parts))).getrandbits(63)
