"""The bot interface: a bot sees only what its seat may see.

A bot is asked for one action through :meth:`Bot.choose`, given a :class:`Seat`: the seat's
observation, the legal actions, and :meth:`Seat.determinize`, which returns a full game in which
everything the seat cannot see has been re-sampled (:meth:`kashgar.game.Game.redeal`). The real
game is never handed to a bot, so a bot cannot read hidden information: tree search runs on
re-dealt copies only.
"""

from __future__ import annotations

import random
from abc import ABC, abstractmethod
from typing import Any

from ..cards import CardSet
from ..game import Game, Options


class BotError(ValueError):
    """An unknown bot, level or budget; the message names the problem."""


class Seat:
    """What one player may use to decide: their view, the legal actions, re-deals."""

    __slots__ = ("_game", "player")

    def __init__(self, game: Game, player: int) -> None:
        if game.to_move != player:
            raise ValueError(f"it is not player {player}'s decision (player {game.to_move} is to choose)")
        self._game = game
        self.player = player

    @property
    def cards(self) -> CardSet:
        return self._game.cards

    @property
    def options(self) -> Options:
        return self._game.options

    @property
    def decision(self) -> str:
        """The kind of decision: turn, keep, resource, contract, ..."""
        return self._game.decision

    def legal_actions(self) -> list[int]:
        return self._game.legal_actions()

    def observation(self) -> dict[str, Any]:
        return self._game.observation(self.player)

    def determinize(self, rng: random.Random) -> Game:
        """A full game consistent with everything this seat knows (hidden cards re-sampled)."""
        return self._game.redeal(self.player, rng)


class Bot(ABC):
    """A player. Subclasses implement :meth:`choose`; ``name`` is the spec it was made from."""

    name = "bot"

    def __init__(self, seed: int = 0) -> None:
        self.rng = random.Random(seed)

    @abstractmethod
    def choose(self, seat: Seat) -> int:
        """Return one of ``seat.legal_actions()``."""

    def act(self, game: Game) -> int:
        """Choose for the player to move in ``game`` (through a :class:`Seat`, never peeking)."""
        return self.choose(Seat(game, game.to_move))


class RandomBot(Bot):
    """Uniform over the legal actions."""

    name = "random"

    def choose(self, seat: Seat) -> int:
        legal = seat.legal_actions()
        return legal[self.rng.randrange(len(legal))]
