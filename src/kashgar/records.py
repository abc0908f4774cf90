"""Game records: options, seed (or starting position) and every action in notation.

A record rebuilds the identical game: :func:`replay` re-applies the actions to the same start and
checks the final state against the digest stored in the record.
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import Any

from .actions import NotationError
from .cards import CardSet, load_cards
from .game import Game, IllegalAction, Options, ScenarioError

FORMAT = "kashgar-record"


class RecordError(ValueError):
    """A record that cannot be replayed; the message says which field or which action."""


def state_digest(game: Game) -> str:
    """A digest of the full state (history excluded), equal for identical positions."""
    d = game.to_dict()
    d.pop("history", None)
    return hashlib.sha256(json.dumps(d, sort_keys=True).encode()).hexdigest()[:32]


def make_record(game: Game, start: Game | None = None, meta: dict | None = None) -> dict:
    """A record of ``game``. Pass ``start`` when the game did not begin with :meth:`Game.new`
    (a scenario): its full state is stored and the actions replay from it."""
    texts = [game.action_text(a) for a in game.history()]
    if start is not None:
        texts = texts[len(start.history()):]
    rec: dict[str, Any] = {
        "format": FORMAT,
        "version": 1,
        "cards": game.cards.digest,
        "options": game.options.to_dict(),
        "seed": game.seed,
        "actions": texts,
        "result": {
            "over": game.over,
            "points": list(game.points),
            "ranking": game.ranking() if game.over else None,
            "turns": game.turn_no,
        },
        "final": state_digest(game),
    }
    if start is not None:
        rec["start"] = start.to_dict()
    if meta:
        rec["meta"] = meta
    return rec


def replay(record: Any, cards: CardSet | None = None, verify: bool = True) -> Game:
    """Rebuild the game a record describes. Raises :class:`RecordError` naming the problem."""
    cards = cards or load_cards()
    if not isinstance(record, dict) or record.get("format") != FORMAT:
        raise RecordError(f"not a game record (expected an object with \"format\": \"{FORMAT}\")")
    if record.get("cards") not in (None, cards.digest):
        raise RecordError(
            f"the record was played with another card file (digest {record.get('cards')}, this one {cards.digest}); "
            "pass the same file with --cards"
        )
    actions = record.get("actions")
    if not isinstance(actions, list) or not all(isinstance(a, str) for a in actions):
        raise RecordError("actions: expected a list of actions in notation")
    try:
        if "start" in record:
            game = Game.from_dict(record["start"], cards)
        else:
            seed = record.get("seed", 0)
            if not isinstance(seed, int):
                raise RecordError(f"seed: expected an integer, got {seed!r}")
            game = Game.new(Options.from_dict(record.get("options", {})), seed, cards)
    except (ScenarioError, ValueError, TypeError) as exc:
        if isinstance(exc, RecordError):
            raise
        raise RecordError(f"cannot set up the game: {exc}") from None
    for i, text in enumerate(actions):
        try:
            game.apply(text)
        except (IllegalAction, NotationError) as exc:
            raise RecordError(f"action {i + 1} ({text!r}): {exc}") from None
    final = record.get("final")
    if verify and final is not None and final != state_digest(game):
        raise RecordError("the replayed final state differs from the one recorded (different engine or card data?)")
    return game


def save_record(path: str | Path, record: dict) -> None:
    Path(path).write_text(json.dumps(record, indent=1) + "\n", encoding="utf-8")


def load_record(path: str | Path) -> dict:
    p = Path(path)
    try:
        return json.loads(p.read_text(encoding="utf-8"))
    except OSError as exc:
        raise RecordError(f"cannot read record {str(p)!r}: {exc.strerror}") from None
    except (json.JSONDecodeError, UnicodeDecodeError) as exc:
        raise RecordError(f"record {str(p)!r} is not valid JSON: {exc}") from None
