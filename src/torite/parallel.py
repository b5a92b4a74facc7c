"""An ordered map over worker processes or a Ray cluster, shared by the simulator and the arena.

Results come back in the order of the inputs whatever the number of workers, so anything
folded from them (sums of floats included) is the same for every ``jobs``.  ``fork`` is used
where the platform has it (no re-import of the game modules per worker), ``spawn`` elsewhere;
with ``spawn`` ``fn`` and the items must be picklable, i.e. ``fn`` a module-level function.

The ``ray`` backend sends the items to a Ray cluster (a local one started on first use, or the
cluster at ``address``) in batches, many items per task, so a task's overhead (milliseconds)
is paid once per batch and not per game; results are still yielded in input order, so every
number folded from them is the same as with the local backend.  Ray is optional: without it
the backend raises :class:`BackendError` saying how to install it.  :func:`start_backend` starts
Ray (or joins the cluster) before a run's clock starts, so a run's rate counts its games and
not Ray's start-up, which it reports apart (:class:`BackendInfo`), with the cluster's CPUs as
the run's ``jobs``.  Games from outside the package (``--game-module``, see
:mod:`torite.engine.registry`) travel with every task: a worker registers them before it plays.
"""

from __future__ import annotations

import math
import multiprocessing
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, TypeVar

T = TypeVar("T")
R = TypeVar("R")

BACKENDS = ("local", "ray")


class BackendError(ValueError):
    """A backend that cannot run here (Ray not installed, a bad address)."""


def auto_chunksize(items: int, jobs: int) -> int:
    """About eight chunks per worker (few round trips, still balanced), at most 64 items each."""
    return max(1, min(64, items // (jobs * 8)))


def ordered_map(fn: Callable[[T], R], items: Sequence[T], jobs: int, *,
                chunksize: int | None = None, backend: str = "local",
                address: str | None = None) -> Iterator[R]:
    """``map(fn, items)`` over ``jobs`` worker processes, yielding in input order as results
    arrive.  ``jobs == 1`` runs in this process (no pool, easy to debug and profile).
    ``chunksize`` items are sent to a worker at a time; ``None`` picks :func:`auto_chunksize`,
    1 suits long items whose progress should show one by one."""
    if jobs < 1:
        raise ValueError("jobs must be at least 1")
    if chunksize is not None and chunksize < 1:
        raise ValueError("chunksize must be at least 1")
    check_backend(backend, address)
    if backend == "ray":
        yield from ray_map(fn, items, address=address, batch=chunksize)
        return
    if jobs == 1:
        yield from map(fn, items)
        return
    chunk = auto_chunksize(len(items), jobs) if chunksize is None else chunksize
    ctx = multiprocessing.get_context("fork" if "fork" in multiprocessing.get_all_start_methods()
                                      else "spawn")
    with ctx.Pool(jobs) as pool:
        yield from pool.imap(fn, items, chunksize=chunk)


def check_backend(backend: str, address: str | None = None) -> None:
    """Refuse an unknown backend, or an address without Ray, before any work starts."""
    if backend not in BACKENDS:
        raise BackendError(f"unknown backend {backend!r} (backends: {', '.join(BACKENDS)})")
    if address is not None and backend != "ray":
        raise BackendError("an address names a Ray cluster: use it with the ray backend")
    if backend == "ray":
        _import_ray()


def _import_ray() -> Any:
    try:
        import ray
    except ImportError:
        raise BackendError("the ray backend needs Ray, which is not installed here: "
                           "pip install 'torite[ray]'") from None
    return ray


@dataclass(frozen=True)
class BackendInfo:
    """Where a run plays: ``jobs`` is how many games it plays at once (``--jobs`` locally, the
    cluster's CPUs on Ray); ``startup_seconds`` the wall time Ray took to start or to be
    joined (0 locally, or when this process had joined it already), which a run's rates leave
    out; ``nodes`` the cluster's live machines."""

    backend: str
    jobs: int
    startup_seconds: float = 0.0
    nodes: int = 1
    address: str | None = None

    def to_json(self) -> dict[str, Any]:
        """The ``ray`` object of a run's JSON (local runs have none)."""
        return {"address": self.address, "nodes": self.nodes, "cpus": self.jobs,
                "startup_seconds": self.startup_seconds}


def start_backend(backend: str, address: str | None, jobs: int) -> BackendInfo:
    """Check the backend and, for Ray, start it or join the cluster now (before the run's clock
    starts): what the run will play on."""
    check_backend(backend, address)
    if backend != "ray":
        return BackendInfo(backend, jobs)
    from torite.engine.registry import outside_games

    ray = _import_ray()
    t0 = time.perf_counter()
    _init_ray(ray, address)
    cpus = max(1, int(ray.cluster_resources().get("CPU", 1)))
    # a task a CPU: each worker imports torite (and the run's games) now, not in the first batch
    warm = ray.remote(_warm)
    games = outside_games() or None
    ray.get([warm.remote(games) for _ in range(cpus)])
    seconds = time.perf_counter() - t0
    nodes = sum(1 for node in ray.nodes() if node.get("Alive"))
    return BackendInfo(backend, cpus, seconds, max(1, nodes), address)


def _warm(games: Mapping[str, tuple[str, str | None]] | None) -> None:
    """A worker's start-up: torite's simulator, arena and comparison imported, the run's games
    from outside registered."""
    import torite.arena
    import torite.compare.experiment
    import torite.sim  # noqa: F401
    from torite.engine.registry import register_outside

    if games:
        register_outside(games)
    time.sleep(0.01)  # long enough that the tasks spread over the workers


def _init_ray(ray: Any, address: str | None) -> None:
    if ray.is_initialized():
        return
    try:
        ray.init(address=address, include_dashboard=False, log_to_driver=False)
    except (ConnectionError, ValueError, RuntimeError) as e:
        raise BackendError(f"cannot reach the Ray cluster at {address}: {e}") from None


def _run_batch(fn: Callable[[T], R], batch: Sequence[T],
               games: Mapping[str, tuple[str, str | None]] | None = None) -> list[R]:
    if games:  # games from outside the package, registered on the worker as in the driver
        from torite.engine.registry import register_outside

        register_outside(games)
    return [fn(x) for x in batch]


def ray_batch_size(items: int, cpus: int) -> int:
    """About four batches per CPU of the cluster, at most 256 items each."""
    return max(1, min(256, math.ceil(items / (4 * max(1, cpus)))))


def ray_map(fn: Callable[[T], R], items: Sequence[T], *, address: str | None = None,
            batch: int | None = None) -> Iterator[R]:
    """``map(fn, items)`` on Ray, ``batch`` items per task (``None``: :func:`ray_batch_size`),
    yielding in input order.  Starts a local Ray (or joins ``address``) unless Ray is already
    initialised in this process, e.g. by the caller with its own resources."""
    from torite.engine.registry import outside_games

    ray = _import_ray()
    _init_ray(ray, address)
    size = batch or ray_batch_size(len(items), int(ray.cluster_resources().get("CPU", 1)))
    task = ray.remote(_run_batch)
    games = outside_games() or None
    refs = [task.remote(fn, list(items[i:i + size]), games) for i in range(0, len(items), size)]
    for ref in refs:
        yield from ray.get(ref)


def add_backend_arguments(parser: Any) -> None:
    """``--backend`` and ``--address`` on an argparse (sub)parser: the simulator's and the
    arena's commands share them."""
    parser.add_argument("--backend", default="local", choices=BACKENDS,
                        help="local: this machine's processes (--jobs); ray: a Ray cluster, many games per task")
    parser.add_argument("--address", default=None, metavar="ADDR",
                        help="the Ray cluster to join (default: start a local one)")
