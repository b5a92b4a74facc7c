"""Summary statistics shared by the simulator, the arena and ``torite compare``.

One definition of "the 95% interval of a mean", so the reports cannot drift apart, written
``[low, high]`` in every JSON; a single value has no spread to measure, so it has no interval
(``None`` in JSON, "one deal: no interval" in text), never a zero-width one.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import NamedTuple

Z95 = 1.96  # two-sided 95% quantile of the normal distribution


class MeanCI(NamedTuple):
    """A sample mean, the half-width of its 95% normal interval and the sample's size."""

    mean: float
    half: float
    n: int = 0

    @property
    def low(self) -> float:
        return self.mean - self.half

    @property
    def high(self) -> float:
        return self.mean + self.half

    @property
    def interval(self) -> list[float] | None:
        """``[low, high]``, or ``None`` below two values (nothing to measure a spread from)."""
        return [self.low, self.high] if self.n >= 2 else None

    @property
    def p_value(self) -> float:
        """Two-sided p-value of "the mean is zero" by the same normal approximation as the
        interval (so p < 0.05 exactly when the interval excludes zero)."""
        if self.n < 2:
            return 1.0
        if self.half == 0:
            return 1.0 if self.mean == 0 else 0.0
        z = abs(self.mean) / (self.half / Z95)
        return math.erfc(z / math.sqrt(2))


def mean_ci(values: Sequence[float]) -> MeanCI:
    """The mean of ``values`` and the half-width of its 95% normal interval (sample variance,
    ``n - 1``).  An empty sample gives ``(0, 0)``; a single value's half-width is 0, and its
    ``interval`` is ``None``."""
    n = len(values)
    if n == 0:
        return MeanCI(0.0, 0.0, 0)
    mean = math.fsum(values) / n
    if n < 2:
        return MeanCI(mean, 0.0, n)
    var = math.fsum((v - mean) ** 2 for v in values) / (n - 1)
    return MeanCI(mean, Z95 * math.sqrt(var / n), n)


def holm(p_values: Sequence[float]) -> list[float]:
    """Holm's step-down adjusted p-values (in the input's order): reject the hypotheses whose
    adjusted p is below the level, and the chance of any false rejection among them all stays
    at that level.  Several seats compared at once need it: with four seats, one in five
    comparisons of unchanged seats would otherwise look significant."""
    m = len(p_values)
    order = sorted(range(m), key=lambda i: p_values[i])
    out = [1.0] * m
    running = 0.0
    for rank, i in enumerate(order):
        running = max(running, min(1.0, (m - rank) * p_values[i]))
        out[i] = running
    return out


def interval_text(interval: Sequence[float] | None, fmt: str = "{:.2f}", units: str = "deal") -> str:
    """``[low, high]`` for reading, or the reason there is none."""
    if interval is None:
        return f"one {units}: no interval"
    lo, hi = interval
    return f"[{fmt.format(lo)}, {fmt.format(hi)}]"
