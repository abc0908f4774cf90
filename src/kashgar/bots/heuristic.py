"""The heuristic bot, and the position evaluation the tree search also uses.

Every weight lives in :class:`Weights`. The evaluation :func:`evaluate` scores a position for one
player from what the game shows (the bots call it only on re-dealt copies):

* points, at ``points`` each;
* the face-up contracts in reach: each contract's points times ``affordable`` when the player
  can fulfil it now, or times ``near / (1 + deficit)`` where the deficit counts missing mules and
  spices; the best two count, the second at half weight;
* resources: spices, gold and mules (mules only up to ``mule_cap``), small weights;
* caravans: each card kind has a utility computed from its actions (:data:`EFFECT_VALUE`: a card
  that fulfils contracts is worth far more than one that adds a spice). A caravan is worth the mean
  utility of its cards (a long caravan brings each card round more slowly) plus its front card's
  utility again (it is playable now, ``front``);
* late in the game (someone has ``late_points``), each card beyond two in a caravan costs
  ``late_length``: short caravans reach their scoring cards sooner.

The bot plays 1-ply: for each legal action it applies the action to a re-dealt copy, completes the
rest of the turn greedily (each sub-decision by the same evaluation), and keeps the action whose
result scores best for it minus ``opponents`` times the best opponent's score.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..cards import CardSet, Contract, Effect
from ..game import Game
from .base import Bot, Seat

# Utility of an effect op (per action), the basis of each card's utility.
EFFECT_VALUE: dict[str, float] = {
    "fulfil": 6.0,
    "draw_contracts": 6.0,
    "draw": 2.5,
    "take_discard": 2.0,
    "set": 1.6,
    "spend_gold": 2.0,
    "raise_to_opponent_max": 1.6,
    "swap": 1.4,
    "remove": 0.6,
    "turn": 0.2,
    "flip_patriarchs": 0.8,
    "patriarchs_to_front": 0.4,
    "cycle_front": 0.5,
    "herd": 0.4,
    "shuffle": 0.0,
    "new_caravan": 1.5,
    "decrease": 0.8,
    "increase": 0.0,  # valued by amount below
}
INCREASE_PER_UNIT = 0.45
PARTING_FACTOR = 0.5  # a parting action is used once


@dataclass(frozen=True)
class Weights:
    """All the heuristic's weights, in one place."""

    points: float = 10.0
    affordable: float = 4.0
    near: float = 2.2
    spice: float = 0.35
    gold: float = 0.3
    mule: float = 0.9
    mule_cap: int = 5
    caravan: float = 1.2
    front: float = 0.8
    late_points: int = 17
    late_length: float = 1.5
    opponents: float = 0.6


DEFAULT = Weights()


def _action_value(effects: tuple[Effect, ...]) -> float:
    v = 0.0
    for e in effects:
        if e.op == "increase":
            n = e.n if isinstance(e.n, int) else 3
            v += INCREASE_PER_UNIT * n * e.count * (1.2 if len(e.choices) > 1 else 1.0)
        else:
            v += EFFECT_VALUE.get(e.op, 0.5)
    return v


_UTILITY: dict[int, list[float]] = {}


def card_utility(cards: CardSet) -> list[float]:
    """Utility of each person kind (index), from its best caravan action and its parting action."""
    key = id(cards)
    u = _UTILITY.get(key)
    if u is None:
        u = []
        for p in cards.persons:
            best = max((_action_value(a.effects) for a in p.caravan), default=0.0)
            part = max((_action_value(a.effects) for a in p.parting), default=0.0) * PARTING_FACTOR
            u.append(max(best, part) + 0.25 * min(best, part))
        _UTILITY[key] = u
    return u


def contract_deficit(res: list[int], b: int, c: Contract) -> int:
    """Mules and cost items a player (resources from ``res[b]``) lacks for contract ``c``."""
    mules = res[b + 6]
    deficit = c.mules - mules if c.mules > mules else 0
    for r, n in c.cost:
        have = res[b + r]
        if have < n:
            deficit += n - have
    return deficit


def evaluate(g: Game, p: int, w: Weights = DEFAULT) -> float:
    """How good the position is for player ``p`` (higher is better)."""
    res = g.res
    b = p * 7
    mules = res[b + 6]
    value = w.points * g.points[p]
    value += w.spice * (res[b] + res[b + 1] + res[b + 2] + res[b + 3] + res[b + 4])
    value += w.gold * res[b + 5] + w.mule * (mules if mules < w.mule_cap else w.mule_cap)
    # Contracts in reach.
    best1 = best2 = 0.0
    contracts = g.cards.contracts
    for k in g.display:
        c = contracts[k]
        deficit = contract_deficit(res, b, c)
        v = c.points * (w.affordable if deficit == 0 else w.near / (1 + deficit))
        if v > best1:
            best1, best2 = v, best1
        elif v > best2:
            best2 = v
    value += best1 + 0.5 * best2
    # Caravans.
    util = card_utility(g.cards)
    late = max(g.points) >= w.late_points
    car = g.car
    for c in range(p * 4, p * 4 + g.ncar[p]):
        cards = car[c]
        n = len(cards)
        if n:
            value += w.caravan * sum(map(util.__getitem__, cards)) / n + w.front * util[cards[0]]
            if late and n > 2:
                value -= w.late_length * (n - 2)
    return value


def relative(g: Game, p: int, w: Weights = DEFAULT) -> float:
    """``p``'s score minus ``w.opponents`` times the best opponent's score."""
    if g.over:
        return 1000.0 if g.winner() == p else -1000.0 + g.points[p]
    mine = evaluate(g, p, w)
    if g.n == 1:
        return mine
    return mine - w.opponents * max(evaluate(g, q, w) for q in range(g.n) if q != p)


def greedy_choice(g: Game, w: Weights = DEFAULT, finish: bool = False) -> int:
    """The action that scores best 1-ply for the player to move (sub-decisions too); with
    ``finish``, each action is first followed by the rest of the turn played greedily."""
    legal = g.legal()
    if len(legal) == 1:
        return legal[0]
    p = g.to_move
    best_a, best_v = legal[0], float("-inf")
    for a in legal:
        h = g.copy()
        h.apply_unchecked(a)
        if finish:
            finish_turn(h, w)
        v = relative(h, p, w)
        if v > best_v:
            best_a, best_v = a, v
    return best_a


def finish_turn(g: Game, w: Weights = DEFAULT) -> None:
    """Play the rest of the current turn greedily (the sub-decisions after a turn action)."""
    while not g.over and g.pend_kind != "turn":
        g.apply_unchecked(greedy_choice(g, w))


class HeuristicBot(Bot):
    """Fast hand-written play: 1-ply over the legal actions with greedy sub-decisions."""

    name = "heuristic"

    def __init__(self, seed: int = 0, weights: Weights = DEFAULT) -> None:
        super().__init__(seed)
        self.weights = weights

    def choose(self, seat: Seat) -> int:
        legal = seat.legal_actions()
        if len(legal) == 1:
            return legal[0]
        return greedy_choice(seat.determinize(self.rng), self.weights, finish=True)
