"""A bot worker process: ``python -m torite.server.botworker``, started by ``torite.server.bots``.

It keeps its bots by key and answers one request at a time on its standard input and output:
each request is a length-prefixed pickle ``(drops, key, bot, obs, legal)``: bots to forget, the
bot to ask, the bot itself on its first decision (pickled), the seat's observation and its legal
actions; the answer is ``("ok", action)``, ``("failed", why)`` or ``("lost", None)`` (no such
bot here).  Its first frame, once the games are loaded, is ``READY``.  Standard output carries
nothing else: whatever a bot prints goes to standard error.
"""

from __future__ import annotations

import contextlib
import os
import pickle
import signal
import struct
import sys
from typing import Any, BinaryIO

HEADER = struct.Struct("!I")
READY = b"ready"


def read_frame(stream: BinaryIO) -> bytes | None:
    head = stream.read(HEADER.size)
    if len(head) < HEADER.size:
        return None
    (size,) = HEADER.unpack(head)
    data = stream.read(size)
    return data if len(data) == size else None


def answer(bots: dict[int, Any], data: bytes) -> bytes:
    """One request to the bots kept in ``bots``: its answer, pickled."""
    drops, key, blob, obs, legal = pickle.loads(data)
    for k in drops:
        bots.pop(k, None)
    if blob is not None:
        try:
            bots[key] = pickle.loads(blob)
        except Exception as e:  # a bot that cannot be carried here fails its decision, not the worker
            return pickle.dumps(("failed", f"cannot load the bot: {type(e).__name__}: {e}"),
                                protocol=pickle.HIGHEST_PROTOCOL)
    bot = bots.get(key)
    reply: tuple[str, Any]
    if bot is None:
        reply = ("lost", None)
    else:
        try:
            reply = ("ok", bot.act(obs, legal))
        except Exception as e:
            reply = ("failed", f"{type(e).__name__}: {e}")
    return pickle.dumps(reply, protocol=pickle.HIGHEST_PROTOCOL)


def serve(inp: BinaryIO, out: BinaryIO) -> None:
    bots: dict[int, Any] = {}
    while True:
        data = read_frame(inp)
        if data is None:
            return  # the server is gone
        body = answer(bots, data)
        out.write(HEADER.pack(len(body)) + body)
        out.flush()


class BotHost:
    """The same keeper of bots as a Ray actor (``torite serve --ray ADDRESS``): one decision at a
    time, its bots kept between them."""

    def __init__(self) -> None:
        self.bots: dict[int, Any] = {}
        load_games()

    def ready(self) -> bool:
        return True

    def decide(self, data: bytes) -> bytes:
        return answer(self.bots, data)


def load_games() -> None:
    import torite.bots  # noqa: F401  (registers the search levels)
    from torite.engine.registry import game_class, game_ids

    for gid in game_ids():
        with contextlib.suppress(Exception):  # a game that cannot load fails where it is used
            game_class(gid)


def main() -> None:
    # Ctrl-C (or a stop) sent to the whole process group is the server's to handle: it stops us by
    # closing our input, and if it dies, we read the end of our input and end
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_IGN)
    out = os.fdopen(os.dup(sys.stdout.fileno()), "wb")
    os.dup2(sys.stderr.fileno(), sys.stdout.fileno())  # a bot's print must not break the frames
    sys.stdout = sys.stderr
    load_games()
    out.write(HEADER.pack(len(READY)) + READY)  # loaded: the time a decision may take starts now
    out.flush()
    serve(sys.stdin.buffer, out)


if __name__ == "__main__":
    main()
