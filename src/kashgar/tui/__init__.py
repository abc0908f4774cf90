"""Play Kashgar in the terminal: hotseat and against the bots (``kashgar play``).

:func:`run` is the entry point of the ``play`` subcommand. The pieces:

* :mod:`kashgar.tui.session` - the game without any screen code: seats, moves, the log, undo and
  records (tested on its own);
* :mod:`kashgar.tui.render` - rich renderables for the board, drawn from a player's observation;
* :mod:`kashgar.tui.app` - the Textual application (board, choices, input line, help, discard pile,
  log, save, quit, hotseat curtain, end of game).

See ``docs/terminal.md`` for how to play.
"""

from __future__ import annotations

import argparse
import os

from ..cards import CardSet
from ..records import RecordError, load_record
from .session import Session, SetupError, default_save_path, make_seats, random_seed

DEFAULT_BOT_DELAY = 0.7


def bot_delay() -> float:
    """Seconds between two bot moves: ``KASHGAR_BOT_DELAY`` if set (e.g. 0 or 2.5), else 0.7."""
    raw = os.environ.get("KASHGAR_BOT_DELAY", "")
    try:
        return max(0.0, float(raw)) if raw.strip() else DEFAULT_BOT_DELAY
    except ValueError:
        return DEFAULT_BOT_DELAY


def make_session(args: argparse.Namespace, cards: CardSet) -> Session:
    """The session the command line asks for: a new game, or a saved one resumed (``--load``).

    With ``--load``, the seats stored in the record are used unless ``--bots`` or ``--level`` is
    given with a value other than its default. Raises ``kashgar.cli.UsageError`` naming a problem.
    """
    from ..cli import UsageError, build_options, parser

    try:
        if args.load:
            defaults = parser().parse_args(["play"])
            rec = load_record(args.load)
            seats = None
            if args.bots != defaults.bots or args.level != defaults.level:
                opts = rec.get("options") if isinstance(rec, dict) else None
                players = opts.get("players", 2) if isinstance(opts, dict) else 2
                seats = make_seats(players if isinstance(players, int) else 2, args.bots, args.level)
            return Session.from_record(rec, cards, args.lang, seats)
        options = build_options(args, cards)
        seed = args.seed if args.seed is not None else random_seed()
        return Session(cards, options, seed, make_seats(options.players, args.bots, args.level), args.lang)
    except (RecordError, SetupError) as exc:
        raise UsageError(str(exc)) from None


def run(args: argparse.Namespace, cards: CardSet) -> int:
    """Run ``kashgar play``; returns the exit code."""
    from .app import make_app, saved_message

    session = make_session(args, cards)
    save_path = args.save or args.load or default_save_path()
    app = make_app(session, save_path, autosave=bool(args.save), bot_delay=bot_delay())
    code = app.run()
    message = saved_message(app)
    if message:
        print(message)
    return code if isinstance(code, int) else 0


__all__ = ["bot_delay", "make_session", "run"]
