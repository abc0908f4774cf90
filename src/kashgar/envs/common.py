"""What the three adapters share that needs no third-party library: options and rewards."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from ..bots import BotError, make_bot
from ..cards import CardSet, load_cards
from ..game import Game, Options

REWARD_SCHEMES = ("win", "rank")
"""``win``: the winner gets +1, every other player -1/(n-1). ``rank``: linear in the final rank,
from +1 (first) to -1 (last). Both sum to zero; with 2 players they are the same (+1/-1)."""

HOUSE_RULES = {
    "min-caravan": "min_caravan_two",
    "farrier": "farrier_two_mules",
    "spice-merchants": "spice_merchants_in_discard",
}

ExpansionArg = bool | str | Mapping[str, int] | Iterable[str] | None


def _split(text: str) -> list[str]:
    """Names separated by commas or ``+`` (OpenSpiel game strings cannot hold commas)."""
    return [x.strip() for x in text.replace("+", ",").split(",") if x.strip()]


def _expansion(expansion: ExpansionArg, cards: CardSet) -> tuple[tuple[str, int], ...]:
    known = {p.id: p.copies for p in cards.persons if p.deck == "expansion"}
    if expansion is None or expansion is False or expansion == "" or expansion == "none":
        return ()
    if expansion is True or expansion == "all":
        return tuple(sorted(known.items()))
    if isinstance(expansion, str):
        items: Any = _split(expansion)
    else:
        items = expansion
    if isinstance(items, Mapping):
        pairs = list(items.items())
    else:
        try:
            pairs = [(cid, known.get(cid, 0)) for cid in items]
        except TypeError:
            raise ValueError(
                f"expansion must be True/False, 'all', a comma-separated string of card ids, a list of ids or a "
                f"dict of id: copies, got {expansion!r}"
            ) from None
    out = []
    for cid, copies in pairs:
        if cid not in known:
            raise ValueError(
                f"expansion: {cid!r} is not a Cut and Thrust card (known: {', '.join(sorted(known))})"
            )
        if not isinstance(copies, int) or isinstance(copies, bool) or not 0 <= copies <= known[cid]:
            raise ValueError(f"expansion: {cid!r} takes 0 to {known[cid]} copies, got {copies!r}")
        out.append((cid, copies))
    return tuple(sorted(out))


def make_options(
    players: int = 2,
    expansion: ExpansionArg = None,
    house: str | Iterable[str] = (),
    reshuffle_discard: bool = True,
    turn_limit: int = 1000,
    cards: CardSet | None = None,
) -> Options:
    """Build and check the game options every adapter accepts.

    ``expansion``: ``False``/``None`` (base game), ``True`` or ``"all"`` (all twelve Cut and Thrust
    cards), ``"beggar,herder"`` or ``["beggar", "herder"]`` (both copies of those kinds) or a
    dict of card id to copies. ``house``: house rule names as in the ``kashgar`` command
    (``min-caravan``, ``farrier``, ``spice-merchants``), as a list or a comma-separated string.
    Every bad value is a :class:`ValueError` that names it.
    """
    if not isinstance(players, int) or isinstance(players, bool) or not 2 <= players <= 4:
        raise ValueError(f"players must be 2, 3 or 4, got {players!r}")
    if not isinstance(turn_limit, int) or isinstance(turn_limit, bool) or turn_limit < 1:
        raise ValueError(f"turn_limit must be a positive integer, got {turn_limit!r}")
    cards = cards or load_cards()
    rules = _split(house) if isinstance(house, str) else list(house)
    flags: dict[str, bool] = {}
    for rule in rules:
        name = HOUSE_RULES.get(rule, rule)
        if name not in HOUSE_RULES.values():
            raise ValueError(f"unknown house rule {rule!r} (known: {', '.join(HOUSE_RULES)})")
        flags[name] = True
    return Options(
        players=players,
        expansion=_expansion(expansion, cards),
        reshuffle_discard=bool(reshuffle_discard),
        turn_limit=turn_limit,
        **flags,
    )


def check_reward(reward: str) -> str:
    """Return ``reward`` if it names a scheme of :data:`REWARD_SCHEMES`, else raise ValueError."""
    if reward not in REWARD_SCHEMES:
        raise ValueError(f"reward must be one of {', '.join(REWARD_SCHEMES)}, got {reward!r}")
    return reward


def final_rewards(game: Game, scheme: str = "win") -> list[float]:
    """The reward of each player at the end of ``game`` (zeros while it is not over)."""
    n = game.n
    if not game.over:
        return [0.0] * n
    ranking = game.ranking()
    out = [0.0] * n
    if scheme == "win":
        for p in range(n):
            out[p] = 1.0 if p == ranking[0] else -1.0 / (n - 1)
    elif scheme == "rank":
        for pos, p in enumerate(ranking):
            out[p] = 1.0 - 2.0 * pos / (n - 1)
    else:
        check_reward(scheme)
    return out


def make_bots(specs: str | Iterable[str], count: int, seed: int) -> list:
    """``count`` bots from one spec or a list of ``count`` specs; a bad name is a ValueError."""
    if isinstance(specs, str):
        specs = [specs] * count
    specs = list(specs)
    if len(specs) != count:
        raise ValueError(f"expected {count} opponent bot name(s), got {len(specs)}: {specs!r}")
    bots = []
    for i, spec in enumerate(specs):
        try:
            bots.append(make_bot(spec, seed + i))
        except BotError as exc:
            raise ValueError(f"opponent {i + 1}: {exc}") from None
    return bots
