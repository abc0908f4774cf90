"""A plain-text picture of a position for the adapters' ``render`` (everything public, nothing hidden)."""

from __future__ import annotations

from ..cards import RESOURCES
from ..game import DECK_NAMES, Game


def render_text(game: Game, player: int | None = None) -> str:
    """The public position as text; with ``player``, also what that player alone may see."""
    view = game.observation(0 if player is None else player)
    lines = [f"turn {view['turn']}, step {view['step']}; player {view['turn_player'] + 1}'s turn"]
    for p, seat in enumerate(view["seats"]):
        res = " ".join(f"{r[:3]} {seat['resources'][r]}" for r in RESOURCES)
        lines.append(f"player {p + 1}: {seat['points']} points | {res}")
        for c, caravan in enumerate(seat["caravans"]):
            lines.append(f"  caravan {c + 1}: {' '.join(caravan) or '-'}")
        if seat["contracts"]:
            lines.append(f"  contracts: {' '.join(seat['contracts'])}")
    lines.append(f"display: {' '.join(view['display'])}")
    lines.append("decks: " + ", ".join(f"{n} {view['decks'][n]['size']}" for n in DECK_NAMES)
                 + f"; discard: {' '.join(view['discard']) or '-'}")
    pending = view["pending"]
    if game.over:
        lines.append(f"game over; ranking: {', '.join(f'player {p + 1}' for p in game.ranking())}")
    else:
        lines.append(f"player {pending['player'] + 1} to choose ({pending['kind']})")
        if player is not None and player == game.to_move:
            if "drawn" in pending:
                lines.append(f"drawn: {' '.join(pending['drawn'])}")
            lines.append(f"legal: {', '.join(view['legal'])}")
    return "\n".join(lines)
