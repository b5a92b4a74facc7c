"""Summary statistics shared by the simulator and the arena.

One definition of "the 95% interval of a mean", so the two reports cannot drift apart.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import NamedTuple

Z95 = 1.96  # two-sided 95% quantile of the normal distribution


class MeanCI(NamedTuple):
    """A sample mean and the half-width of its 95% normal interval."""

    mean: float
    half: float

    @property
    def low(self) -> float:
        return self.mean - self.half

    @property
    def high(self) -> float:
        return self.mean + self.half


def mean_ci(values: Sequence[float]) -> MeanCI:
    """The mean of ``values`` and the half-width of its 95% normal interval (sample variance,
    ``n - 1``).  An empty sample gives ``(0, 0)``; a single value has no spread to estimate, so
    its half-width is 0 rather than undefined: reports stay numeric JSON."""
    n = len(values)
    if n == 0:
        return MeanCI(0.0, 0.0)
    mean = math.fsum(values) / n
    if n < 2:
        return MeanCI(mean, 0.0)
    var = math.fsum((v - mean) ** 2 for v in values) / (n - 1)
    return MeanCI(mean, Z95 * math.sqrt(var / n))
