"""``torite serve``: run the web table with uvicorn.

Wired into the main CLI by appending :func:`add_serve_command` to
``torite.cli.main._EXTRA_COMMANDS``, so the CLI does not import the server's dependencies
unless they are installed.
"""

from __future__ import annotations

import argparse
import socket
import sys
import time
from typing import Any

# Same default as torite.server.store; not imported from there so that building the CLI parser
# never needs SQLAlchemy, uvicorn or Starlette installed.
DEFAULT_DB = "sqlite:///torite.db"
#: seconds the kernel keeps unacknowledged data for a peer that stopped reading before it drops
#: the connection (TCP_USER_TIMEOUT): a socket the server has given up on does not linger
USER_TIMEOUT_SECONDS = 60


def limits_from(args: argparse.Namespace) -> Any:
    """The :class:`~torite.server.limits.ServerLimits` the options name (ValueError if one is bad)."""
    from torite.server.limits import ServerLimits

    origins = tuple(o.strip().rstrip("/") for o in (args.allowed_origin or []) if o.strip())
    return ServerLimits(
        tables_per_minute=args.tables_per_minute, messages_per_second=args.messages_per_second,
        address_messages_per_second=args.address_messages_per_second,
        address_messages_burst=max(1, int(2 * args.address_messages_per_second)),
        sockets_per_address=args.sockets_per_address, sockets_per_table=args.sockets_per_table,
        connects_per_second=args.connects_per_second,
        connects_burst=max(1, int(10 * args.connects_per_second)),
        allowed_origins=origins, unjoined_minutes=args.unjoined_minutes, idle_hours=args.idle_hours,
        retention_days=args.retention_days,
        connections_per_address=args.connections_per_address, connections_total=args.max_connections,
        http_requests_per_second=args.requests_per_second,
        http_requests_burst=max(1, int(5 * args.requests_per_second)))


def uvicorn_config(app: Any, args: argparse.Namespace, limits: Any = None) -> Any:
    """The uvicorn configuration of ``torite serve``.  Forwarded headers (``X-Forwarded-For``,
    ``-Proto``) are believed only from the proxies the operator names: believed by default (as
    uvicorn does from 127.0.0.1), any local program could pose as any address and escape the
    per-address limits.  Its protocols are guarded (``torite.server.connections``): connections
    capped per address and in all, a request's headers and body timed."""
    import uvicorn

    from torite.server.connections import ConnectionLimits, guard_config

    if limits is None:
        limits = limits_from(args)
    proxies = (args.forwarded_allow_ips or "").strip()
    workers = getattr(args, "workers", 1)
    config = uvicorn.Config(app, host=args.host, port=args.port, log_level=args.log_level,
                            ws_max_size=64 * 1024, ws_ping_interval=20.0, ws_ping_timeout=20.0,
                            proxy_headers=bool(proxies), forwarded_allow_ips=proxies or None,
                            workers=workers, factory=isinstance(app, str))
    exempt = tuple(p.strip() for p in proxies.split(",") if p.strip())
    return guard_config(config, ConnectionLimits(
        per_address=limits.connections_per_address, total=limits.connections_total,
        header_timeout=limits.header_timeout, body_timeout=limits.body_timeout, exempt=exempt))


def listening_socket(host: str, port: int) -> socket.socket:
    """The server's socket, bound here so the kernel gives up on a peer that stops reading (and
    every accepted connection inherits it)."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    # IPPROTO_TCP named: asyncio turns Nagle's algorithm off only on sockets that say they are TCP
    # (else a small reply after a state waits for the client's delayed ACK, 40 ms)
    sock = socket.socket(family, socket.SOCK_STREAM, socket.IPPROTO_TCP)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
    if hasattr(socket, "TCP_USER_TIMEOUT"):
        sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_USER_TIMEOUT, USER_TIMEOUT_SECONDS * 1000)
    sock.bind((host, port))
    sock.set_inheritable(True)
    return sock


def cmd_serve(args: argparse.Namespace) -> int:
    import dataclasses
    import json
    import os

    import uvicorn

    from torite.server.app import SERVE_ENV, create_app

    try:
        limits = limits_from(args)
    except ValueError as e:
        print(f"torite serve: {e}", file=sys.stderr)
        return 2
    if args.ray is not None:
        try:
            import ray  # noqa: F401
        except ImportError:
            print("torite serve: --ray needs Ray, which is not installed here: pip install 'torite[ray]'",
                  file=sys.stderr)
            return 2
    if args.workers < 1:
        print("torite serve: --workers must be at least 1", file=sys.stderr)
        return 2
    if args.workers > 1 and not args.db.startswith(("postgresql", "postgres:")):
        print("torite serve: --workers N needs PostgreSQL (--db postgresql://user:pass@host/db): "
              "SQLite is one process's database", file=sys.stderr)
        return 2
    bot_workers = args.bot_workers
    if args.workers > 1:
        # each process is an app of its own, made in it from these settings (uvicorn starts the
        # processes, restarts one that dies, and shares the one listening socket between them)
        if bot_workers is None:
            bot_workers = max(1, (os.cpu_count() or 1) // args.workers)
        os.environ[SERVE_ENV] = json.dumps({"db": args.db, "bot_workers": bot_workers, "ray": args.ray,
                                            "limits": dataclasses.asdict(limits)})
        app: Any = "torite.server.app:app_from_environment"
    else:
        app = create_app(args.db, limits=limits, bot_workers=bot_workers, ray_address=args.ray)
    shown = "127.0.0.1" if args.host in ("0.0.0.0", "") else args.host
    if ":" in shown:
        shown = f"[{shown}]"
    url = f"http://{shown}:{args.port}/"
    print(f"torite serve: open {url}  (database {args.db}; Ctrl-C stops)", flush=True)
    if args.open:
        _open_when_up(url)
    config = uvicorn_config(app, args, limits)
    try:
        sock = listening_socket(args.host, args.port)
    except OSError as e:
        print(f"torite serve: cannot listen on {args.host}:{args.port}: {e}", file=sys.stderr)
        return 1
    if args.workers > 1:
        from uvicorn.supervisors import Multiprocess

        Multiprocess(config, sockets=[sock]).run()
    else:
        from torite.server.connections import serving_sockets

        uvicorn.Server(config).run(sockets=serving_sockets(config, sock))
    return 0


def _open_when_up(url: str) -> None:
    """Open the lobby in the user's browser once the server answers (quietly does nothing on a
    machine without one)."""
    import os
    import threading
    import urllib.request
    import webbrowser

    if sys.platform.startswith("linux") and not (os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY")):
        return  # no screen: a console browser would take over this terminal; the URL is printed

    def wait_and_open() -> None:
        for _ in range(100):
            try:
                urllib.request.urlopen(url + "api/games", timeout=1).close()
            except OSError:
                time.sleep(0.1)
                continue
            webbrowser.open(url)
            return

    threading.Thread(target=wait_and_open, daemon=True).start()


def add_serve_command(sub: Any) -> None:
    """Add ``serve`` to the ``torite`` subcommands (``sub`` is argparse's subparsers object)."""
    s = sub.add_parser("serve", help="host games in the browser (web table and lobby)")
    s.add_argument("--host", default="127.0.0.1", help="address to listen on (default 127.0.0.1)")
    s.add_argument("--port", type=int, default=8000)
    s.add_argument("--db", default=DEFAULT_DB,
                   help="SQLAlchemy database URL (default sqlite:///torite.db in the current directory; "
                        "postgresql://… works too)")
    s.add_argument("--workers", type=int, default=1, metavar="N",
                   help="server processes on this machine, sharing the port (PostgreSQL only; default 1)")
    s.add_argument("--bot-workers", type=int, default=None, metavar="N",
                   help="worker processes the search bots of each server process think in (default: the cores "
                        "shared among the server processes; rule-of-thumb bots have two of their own)")
    s.add_argument("--ray", metavar="ADDRESS", default=None,
                   help="the search bots think on this Ray cluster (ADDRESS as ray.init takes it, e.g. auto or "
                        "ray://host:10001; local: start one here) instead of in local worker processes")
    s.add_argument("--retention-days", type=float, default=30.0,
                   help="finished tables and their records are kept this many days, then deleted (default 30)")
    s.add_argument("--unjoined-minutes", type=float, default=5.0,
                   help="a table no person has joined expires after this many minutes (default 5)")
    s.add_argument("--idle-hours", type=float, default=24.0,
                   help="a table where nothing has happened expires after this many hours (default 24)")
    s.add_argument("--tables-per-minute", type=float, default=10.0,
                   help="new tables each client address may open per minute (default 10)")
    s.add_argument("--messages-per-second", type=float, default=50.0,
                   help="WebSocket messages handled per connection per second; a burst waits its turn, "
                        "past 100 waiting they are refused (default 50)")
    s.add_argument("--address-messages-per-second", type=float, default=200.0,
                   help="WebSocket messages handled per client address per second, all its sockets together "
                        "(default 200)")
    s.add_argument("--sockets-per-address", type=int, default=32,
                   help="WebSocket connections one client address may hold (default 32)")
    s.add_argument("--sockets-per-table", type=int, default=300,
                   help="WebSocket connections one table may hold, players and spectators (default 300)")
    s.add_argument("--connects-per-second", type=float, default=10.0,
                   help="WebSocket connections one client address may open per second, after a burst of ten "
                        "seconds' worth (default 10)")
    s.add_argument("--connections-per-address", type=int, default=64,
                   help="connections (HTTP and WebSocket) one client address may hold open; a reverse proxy named "
                        "by --forwarded-allow-ips is not capped so (default 64)")
    s.add_argument("--max-connections", type=int, default=4000,
                   help="connections the server holds open in all, kept below the descriptor limit (default 4000)")
    s.add_argument("--requests-per-second", type=float, default=50.0,
                   help="HTTP requests one client address may make per second, after a burst of five seconds' "
                        "worth; past it: 429 (default 50)")
    s.add_argument("--allowed-origin", action="append", default=[], metavar="ORIGIN",
                   help="a web origin (https://example.org) besides the server's own whose pages may open tables, "
                        "act and connect: the public address when a proxy rewrites the Host header (repeatable)")
    s.add_argument("--forwarded-allow-ips", default="", metavar="IPS",
                   help="the reverse proxies (comma-separated addresses, or *) whose X-Forwarded-For and "
                        "X-Forwarded-Proto are believed; by default none: the peer's own address counts")
    s.add_argument("--open", action="store_true", help="open the lobby in a browser once it is up")
    s.add_argument("--log-level", default="info", choices=["critical", "error", "warning", "info", "debug"])
    s.set_defaults(func=cmd_serve)
