"""Bots: ``random``, ``heuristic``, ``value`` and ``ismcts``, made by name with :func:`make_bot`.

Bot specs: ``random``; ``heuristic``; ``value`` (1-ply by the learned value model); ``ismcts`` (level normal), ``ismcts:easy``,
``ismcts:normal``, ``ismcts:hard``, ``ismcts:iterations=N`` or ``ismcts:seconds=S``, optionally followed by
search options, e.g. ``ismcts:seconds=1,prior=5,c=0.3`` (see :func:`kashgar.bots.ismcts.options_from_arg`).

A list of specs is comma-separated (:func:`split_specs`): ``ismcts:seconds=1,prior=5,heuristic`` is two bots,
since a ``key=value`` item after an ``ismcts:`` spec belongs to that spec.
"""

from __future__ import annotations

from .base import Bot, BotError, RandomBot, Seat

__all__ = ["BOT_NAMES", "Bot", "BotError", "RandomBot", "Seat", "make_bot", "parse_spec", "split_specs"]

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


def split_specs(text: str) -> list[str]:
    """Split a comma-separated list of bot specs (``+`` works as a comma too).

    An item of the form ``key=value`` whose key is not a bot name continues the spec before it when
    that spec has options (``ismcts:seconds=1,prior=5``); anything else starts a new spec.
    """
    specs: list[str] = []
    for item in (x.strip() for x in text.replace("+", ",").split(",")):
        if not item:
            continue
        head = item.partition("=")[0].strip().lower()
        if specs and "=" in item and ":" not in item and head not in BOT_NAMES and ":" in specs[-1]:
            specs[-1] += "," + item
        else:
            specs.append(item)
    return specs


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
        from .ismcts import ISMCTSBot, options_from_arg

        bot = ISMCTSBot(seed, **options_from_arg(arg))
    bot.name = spec.strip().lower()
    return bot
