"""Shared helpers for the card and rulebook-example tests: build positions, read them as ids."""

from __future__ import annotations

import pytest

from kashgar.cards import load_cards
from kashgar.game import Game, IllegalAction
from kashgar.scenario import load_scenario, run_actions

THREE_PATRIARCHS = [["patriarch"], ["patriarch"], ["patriarch"]]
CARDS = load_cards()
SPICES = ("ginger", "cloves", "pepper", "anise", "cinnamon")
BASE = {r: 3 for r in (*SPICES, "gold", "mules")}
# An opponent whose turn is a plain pass ("1X" on the Charlatan).
OPP = [["charlatan"], ["patriarch"], ["patriarch"]]
# Default face-up contracts: none can be paid with the starting resources (all 3).
DISPLAY = ["large-3", "large-4", "large-7", "large-8"]

# ------------------------------------------------------------------------------ helpers


def scenario(*players, **top) -> Game:
    """Build a position. Each player is a list of caravans or a full player dict.

    Cut and Thrust cards named anywhere are put in play automatically (options.expansion).
    """
    pl = [p if isinstance(p, dict) else {"caravans": p} for p in players]
    data = {"players": pl, **top}
    opts = dict(data.pop("options", {}))
    opts.setdefault("players", len(pl))
    used: dict[str, int] = {}
    for cid in _all_ids(data):
        if cid in CARDS.person_index and CARDS.person(cid).deck == "expansion":
            used[cid] = used.get(cid, 0) + 1
    if used:
        exp = dict(opts.get("expansion", {}))
        for cid, n in used.items():
            exp[cid] = max(exp.get(cid, 0), n)
        opts["expansion"] = exp
    data["options"] = opts
    data.setdefault("display", list(DISPLAY))
    return load_scenario(data)


def _all_ids(x):
    if isinstance(x, str):
        yield x
    elif isinstance(x, dict):
        for v in x.values():
            yield from _all_ids(v)
    elif isinstance(x, list):
        for v in x:
            yield from _all_ids(v)


def me(caravans, contracts=(), **resources) -> dict:
    return {"caravans": caravans, "resources": resources, "contracts": list(contracts)}


def res(**changes) -> dict:
    return {**BASE, **changes}


def act(g: Game, actions: str) -> None:
    run_actions(g, actions)
    check_census(g)


def check_census(g: Game) -> None:
    census = g.card_census()  # all 165 cards: unused Cut and Thrust ones are in the box
    for p in CARDS.persons:
        if p.id == "matriarch":
            continue
        want = p.copies
        assert census.get(p.id, 0) == want, f"census of {p.id}: {census.get(p.id, 0)} != {want}"
    for c in CARDS.contracts:
        assert census.get(c.id, 0) == c.copies, f"census of contract {c.id}"


def cv(g: Game, p: int = 0) -> list[list[str]]:
    return [[CARDS.persons[k].id for k in cards] for cards in g.caravans(p)]


def discard(g: Game) -> list[str]:
    return [CARDS.persons[k].id for k in g.discard]


def box(g: Game) -> list[str]:
    return sorted(CARDS.persons[k].id for k in g.box)


def display(g: Game) -> list[str]:
    return [CARDS.contracts[k].id for k in g.display]


def fulfilled(g: Game, p: int = 0) -> list[str]:
    return [CARDS.contracts[k].id for k in g.fulfilled[p]]


def under(g: Game, deck: str, p: int = 0) -> list:
    return g.observation(p)["decks"][deck]["under"]


def deck_size(g: Game, deck: str) -> int:
    return g.observation(0)["decks"][deck]["size"]


def drawn(g: Game) -> list[str]:
    return g.observation(g.to_move)["pending"]["drawn"]


def turn_over(g: Game, player: int = 1) -> None:
    """The action is finished and it is the next player's turn."""
    assert g.decision == "turn" and g.to_move == player and g.turn_player == player


def assert_illegal(g: Game, action: str) -> None:
    """``action`` is not offered, applying it raises, and the position does not change."""
    assert action not in g.legal_texts()
    before = g.fingerprint()
    with pytest.raises(IllegalAction):
        g.apply(action)
    assert g.fingerprint() == before


# ------------------------------------------------------------------------------ simple resource actions

# (card, actions, start resources, expected resources (changes from start), first sub-decision choices)
