"""``torite serve``: run the web table with uvicorn.

Wired into the main CLI by appending :func:`add_serve_command` to
``torite.cli.main._EXTRA_COMMANDS``, so the CLI does not import the server's dependencies
unless they are installed.
"""

from __future__ import annotations

import argparse
import sys
import time
from typing import Any

# Same default as torite.server.store; not imported from there so that building the CLI parser
# never needs SQLAlchemy, uvicorn or Starlette installed.
DEFAULT_DB = "sqlite:///torite.db"


def cmd_serve(args: argparse.Namespace) -> int:
    import uvicorn

    from torite.server.app import create_app
    from torite.server.limits import ServerLimits

    try:
        limits = ServerLimits(tables_per_minute=args.tables_per_minute, messages_per_second=args.messages_per_second,
                              retention_days=args.retention_days)
    except ValueError as e:
        print(f"torite serve: {e}", file=sys.stderr)
        return 2
    app = create_app(args.db, bot_threads=args.bot_threads, limits=limits)
    shown = "127.0.0.1" if args.host in ("0.0.0.0", "") else args.host
    if ":" in shown:
        shown = f"[{shown}]"
    url = f"http://{shown}:{args.port}/"
    print(f"torite serve: open {url}  (database {args.db}; Ctrl-C stops)", flush=True)
    if args.open:
        _open_when_up(url)
    uvicorn.run(app, host=args.host, port=args.port, log_level=args.log_level,
                ws_max_size=64 * 1024, ws_ping_interval=20.0, ws_ping_timeout=20.0)
    return 0


def _open_when_up(url: str) -> None:
    """Open the lobby in the user's browser once the server answers (quietly does nothing on a
    machine without one)."""
    import os
    import sys
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
    s.add_argument("--bot-threads", type=int, default=4, help="threads that run bot decisions")
    s.add_argument("--retention-days", type=float, default=30.0,
                   help="finished tables and their records are kept this many days, then deleted (default 30)")
    s.add_argument("--tables-per-minute", type=float, default=10.0,
                   help="new tables each client address may open per minute (default 10)")
    s.add_argument("--messages-per-second", type=float, default=50.0,
                   help="WebSocket messages each connection may send per second; more are delayed (default 50)")
    s.add_argument("--open", action="store_true", help="open the lobby in a browser once it is up")
    s.add_argument("--log-level", default="info", choices=["critical", "error", "warning", "info", "debug"])
    s.set_defaults(func=cmd_serve)
