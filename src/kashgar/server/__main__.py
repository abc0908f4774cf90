"""``python -m kashgar.server [--host H] [--port P] [--db URL]``: the same as ``kashgar serve``."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence


def add_arguments(p: argparse.ArgumentParser) -> None:
    """The options of ``kashgar serve`` (shared with ``python -m kashgar.server``)."""
    p.add_argument("--host", default="127.0.0.1", help="address to listen on (default 127.0.0.1)")
    p.add_argument("--port", type=int, default=8000, help="port (default 8000)")
    p.add_argument("--db", default=None, metavar="URL",
                   help="database: sqlite:///FILE (default sqlite:///data/kashgar.sqlite3) or postgresql://USER:PW@HOST/DB")
    p.add_argument("--bot-workers", type=int, default=1, help="processes the bots think in (default 1)")
    p.add_argument("--bot-delay", type=float, default=0.4, help="seconds a bot waits before its move (default 0.4)")
    p.add_argument("--public-url", default=None, help="the address people open (for links in webhooks)")
    p.add_argument("--log-level", default="info", choices=["critical", "error", "warning", "info", "debug"])


def run(args: argparse.Namespace) -> int:
    from . import serve

    if not 1 <= args.port <= 65535:
        print(f"kashgar serve: --port must be 1..65535, got {args.port}", file=sys.stderr)
        return 2
    try:
        serve(args.host, args.port, args.db, bot_workers=args.bot_workers, bot_delay=args.bot_delay,
              public_url=args.public_url, log_level=args.log_level)
    except ValueError as exc:
        print(f"kashgar serve: {exc}", file=sys.stderr)
        return 2
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="kashgar serve", description="Kashgar in the browser: the game server")
    add_arguments(p)
    return run(p.parse_args(argv))


if __name__ == "__main__":
    sys.exit(main())
