"""kashgar: the complete digital version of *Kashgar: Merchants of the Silk Road*.

The rules engine is :class:`kashgar.game.Game`; card data is in :mod:`kashgar.cards`; the action
space and notation in :mod:`kashgar.actions`.
"""

from .actions import NotationError
from .cards import CardDataError, CardSet, load_cards
from .game import Game, IllegalAction, Options, ScenarioError

__all__ = [
    "CardDataError",
    "CardSet",
    "Game",
    "IllegalAction",
    "NotationError",
    "Options",
    "ScenarioError",
    "load_cards",
]
__version__ = "0.1.0"
