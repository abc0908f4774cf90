"""Bots think here, in a worker process (or a thread), never in the server's event loop.

The worker gets the full state (server side only: it never leaves the server) and hands the bot
only a :class:`kashgar.bots.Seat` through :meth:`Bot.act`, so the bot sees what its seat may see.
"""

from __future__ import annotations

import os
import signal

from ..bots import make_bot
from ..game import Game


def init_worker() -> None:
    """Worker start-up: load the cards once; let the server own Ctrl-C."""
    try:
        signal.signal(signal.SIGINT, signal.SIG_IGN)
    except ValueError:  # pragma: no cover - not the main thread
        pass
    from ..cards import load_cards

    load_cards()


def choose(state: dict, spec: str, seed: int) -> int:
    """The action id the bot ``spec`` chooses for the player to move in ``state``."""
    game = Game.from_dict(state)
    return make_bot(spec, seed).act(game)


def worker_pid() -> int:
    return os.getpid()
