"""Bots: ``random``, ``heuristic``, ``value`` and ``ismcts``, made by name with :func:`make_bot`.

Bot specs: ``random``; ``heuristic``; ``value`` (1-ply by the learned value model); ``ismcts`` (level normal), ``ismcts:easy``,
``ismcts:normal``, ``ismcts:hard``, ``ismcts:iterations=N`` or ``ismcts:seconds=S``.
"""

from __future__ import annotations

from .base import Bot, BotError, RandomBot, Seat

__all__ = ["BOT_NAMES", "Bot", "BotError", "RandomBot", "Seat", "make_bot", "parse_spec"]

BOT_NAMES = ("random", "heuristic", "value", "ismcts")


def parse_spec(spec: str) -> tuple[str, str]:
    """Split and check a bot spec; returns (name, argument)."""
    if not isinstance(spec, str) or not spec.strip():
        raise BotError(f"empty bot name (known bots: {', '.join(BOT_NAMES)})")
    name, _, arg = spec.strip().partition(":")
    name = name.lower()
    if name not in BOT_NAMES:
        raise BotError(f"unknown bot {name!r} (known bots: {', '.join(BOT_NAMES)})")
    if name in ("random", "heuristic", "value") and arg:
        raise BotError(f"bot {name!r} takes no level or budget, got {arg!r}")
    return name, arg


def make_bot(spec: str, seed: int = 0) -> Bot:
    """Make a bot from its spec (see the module docstring); BotError names a bad spec."""
    name, arg = parse_spec(spec)
    if name == "random":
        bot: Bot = RandomBot(seed)
    elif name == "heuristic":
        from .heuristic import HeuristicBot

        bot = HeuristicBot(seed)
    elif name == "value":
        from .value import ValueBot

        bot = ValueBot(seed)
    else:
        from .ismcts import ISMCTSBot, budget_from_arg

        bot = ISMCTSBot(seed, **budget_from_arg(arg))
    bot.name = spec.strip().lower()
    return bot
