"""``torite serve``: run the web table with uvicorn.

Wired into the main CLI by appending :func:`add_serve_command` to
``torite.cli.main._EXTRA_COMMANDS``, so the CLI does not import the server's dependencies
unless they are installed.
"""

from __future__ import annotations

import argparse
from typing import Any

# Same default as torite.server.store; not imported from there so that building the CLI parser
# never needs SQLAlchemy, uvicorn or Starlette installed.
DEFAULT_DB = "sqlite:///torite.db"


def cmd_serve(args: argparse.Namespace) -> int:
    import uvicorn

    from torite.server.app import create_app

    app = create_app(args.db, bot_threads=args.bot_threads)
    shown = "127.0.0.1" if args.host in ("0.0.0.0", "") else args.host
    if ":" in shown:
        shown = f"[{shown}]"
    print(f"torite serve: open http://{shown}:{args.port}/  (database {args.db}; Ctrl-C stops)", flush=True)
    uvicorn.run(app, host=args.host, port=args.port, log_level=args.log_level,
                ws_max_size=64 * 1024, ws_ping_interval=20.0, ws_ping_timeout=20.0)
    return 0


def add_serve_command(sub: Any) -> None:
    """Add ``serve`` to the ``torite`` subcommands (``sub`` is argparse's subparsers object)."""
    s = sub.add_parser("serve", help="host games in the browser (web table and lobby)")
    s.add_argument("--host", default="127.0.0.1", help="address to listen on (default 127.0.0.1)")
    s.add_argument("--port", type=int, default=8000)
    s.add_argument("--db", default=DEFAULT_DB,
                   help="SQLAlchemy database URL (default sqlite:///torite.db in the current directory; "
                        "postgresql://… works too)")
    s.add_argument("--bot-threads", type=int, default=4, help="threads that run bot decisions")
    s.add_argument("--log-level", default="info", choices=["critical", "error", "warning", "info", "debug"])
    s.set_defaults(func=cmd_serve)
