"""A learned position value: each player's chance to win, from what the table shows.

The tree search scores the positions at the ends of its simulations with this model. For every
player :func:`features` computes a short vector of plain numbers (points, resources, the face-up
contracts within reach, how soon a card that fulfils contracts reaches a caravan's front, caravan
lengths, whose turn it is, ...; :data:`FEATURES` names them). A :class:`ValueModel` holds one
weight per feature and turns the vectors into win probabilities with a softmax over the players
(a conditional logit: ``P(p wins) = exp(w·f_p) / Σ_q exp(w·f_q)``). With two players this is a
logistic function of the difference between the two vectors.

The weights are data, fitted for each player count by :mod:`kashgar.bots.train_value` on games
of the heuristic bot against itself, and stored in ``kashgar/data/value.json`` together with how
they were made and how well they predict held-out games; :mod:`kashgar.bots.tune_value` then
tunes them so that they also rank sibling moves well (a model fitted only to predict who wins
ranked the moves of one turn worse than the hand-tuned evaluation). :class:`ValueBot` is the
1-ply bot that chooses by the model. Everything here reads only what every
player may see, so it is safe on the bot's own view and on re-dealt copies.
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass
from importlib import resources
from pathlib import Path

from ..cards import CardSet
from ..game import Game
from .base import Bot, Seat
from .heuristic import DEFAULT, Weights, card_utility, contract_deficit, finish_turn

#: The feature names, in vector order.
FEATURES: tuple[str, ...] = (
    "points",  # points now (cards in caravans and contracts)
    "points_late",  # points x progress (progress: the leader's points / 25, at most 1)
    "spices",  # the five spices together
    "gold",
    "mules",  # up to 5
    "affordable_best",  # points of the best face-up contract payable now
    "affordable_count",  # how many face-up contracts are payable now
    "near_best",  # max over face-up contracts of points / (1 + what is missing)
    "fulfil_ready",  # best payable contract's points / (1 + turns until a fulfil card is at a front)
    "fulfil_ready_late",  # the same x progress
    "fulfil_cards",  # cards whose caravan action fulfils a contract
    "fulfil_front",  # such cards at a caravan's front
    "contract_draw_cards",  # cards that draw from the contract deck (Farmer, Farrier, Guild Lord)
    "front_utility",  # summed utility of the front cards
    "mean_utility",  # summed mean utility of the caravans
    "caravans",
    "cards",  # cards in all caravans
    "excess_late",  # cards beyond two per caravan, x progress
    "to_move",  # 1 for the player whose turn is next
    "contracts",  # contracts fulfilled
)
N_FEATURES = len(FEATURES)

_KINDS: dict[int, tuple[list[bool], list[bool]]] = {}


def _kinds(cards: CardSet) -> tuple[list[bool], list[bool]]:
    """Per person kind: does its caravan action fulfil; does it draw contracts."""
    key = id(cards)
    k = _KINDS.get(key)
    if k is None:
        ful = [any(e.op == "fulfil" for a in p.caravan for e in a.effects) for p in cards.persons]
        drc = [any(e.op == "draw_contracts" for a in p.caravan for e in a.effects) for p in cards.persons]
        k = _KINDS[key] = (ful, drc)
    return k


def features(g: Game, p: int) -> list[float]:
    """Player ``p``'s feature vector (see :data:`FEATURES`)."""
    res = g.res
    b = p * 7
    mules = res[b + 6]
    lead = max(g.points)
    progress = lead / 25.0 if lead < 25 else 1.0
    # Face-up contracts.
    best_aff = 0
    n_aff = 0
    near = 0.0
    contracts = g.cards.contracts
    for k in g.display:
        c = contracts[k]
        deficit = contract_deficit(res, b, c)
        if deficit == 0:
            n_aff += 1
            if c.points > best_aff:
                best_aff = c.points
        else:
            v = c.points / (1 + deficit)
            if v > near:
                near = v
    # Caravans.
    ful, drc = _kinds(g.cards)
    util = card_utility(g.cards)
    car = g.car
    dist = 99
    n_ful = n_front = n_drc = n_cards = 0
    front_u = mean_u = excess = 0.0
    ncar = g.ncar[p]
    for c in range(p * 4, p * 4 + ncar):
        cards = car[c]
        n = len(cards)
        if not n:
            continue
        n_cards += n
        if n > 2:
            excess += n - 2
        front_u += util[cards[0]]
        mean_u += sum(map(util.__getitem__, cards)) / n
        for i, k in enumerate(cards):
            if ful[k]:
                n_ful += 1
                if i == 0:
                    n_front += 1
                if i < dist:
                    dist = i
            if drc[k]:
                n_drc += 1
    ready = best_aff / (1 + dist) if dist < 99 else 0.0
    spices = res[b] + res[b + 1] + res[b + 2] + res[b + 3] + res[b + 4]
    pts = g.points[p]
    return [
        pts,
        pts * progress,
        spices,
        res[b + 5],
        mules if mules < 5 else 5,
        best_aff,
        n_aff,
        near,
        ready,
        ready * progress,
        n_ful,
        n_front,
        n_drc,
        front_u,
        mean_u,
        ncar,
        n_cards,
        excess * progress,
        1.0 if (g.pend_player == p and not g.over) else 0.0,
        len(g.fulfilled[p]),
    ]


@dataclass(frozen=True)
class ValueModel:
    """Weights of the conditional logit, one tuple per player count."""

    weights: dict[int, tuple[float, ...]]
    info: dict

    def utilities(self, g: Game) -> list[float]:
        """``w·f_p`` for every player ``p``."""
        w = self.weights.get(g.n) or self.weights[max(self.weights)]
        return [sum(a * x for a, x in zip(w, features(g, q))) for q in range(g.n)]

    def win_probabilities(self, g: Game) -> list[float]:
        """Each player's chance to win from here; a finished game gives 1 to the winner."""
        if g.over:
            win = g.winner()
            return [1.0 if q == win else 0.0 for q in range(g.n)]
        u = self.utilities(g)
        top = max(u)
        e = [math.exp(x - top) for x in u]
        s = sum(e)
        return [x / s for x in e]

    def to_dict(self) -> dict:
        return {
            "features": list(FEATURES),
            "weights": {str(n): list(w) for n, w in sorted(self.weights.items())},
            "info": self.info,
        }

    def save(self, path: str | Path) -> None:
        """Write the model as JSON (checked first, so a bad model never reaches the disk)."""
        d = self.to_dict()
        ValueModel.from_dict(d)
        Path(path).write_text(json.dumps(d, indent=1) + "\n", encoding="utf-8")

    @staticmethod
    def from_dict(d: dict) -> ValueModel:
        """Read and check a model; a ValueError names what is wrong."""
        if not isinstance(d, dict) or "weights" not in d:
            raise ValueError("a value model needs a 'weights' table")
        names = d.get("features")
        if names != list(FEATURES):
            raise ValueError(f"value model features {names} do not match this version's {list(FEATURES)}")
        weights: dict[int, tuple[float, ...]] = {}
        for key, w in d["weights"].items():
            if key not in ("2", "3", "4"):
                raise ValueError(f"value model: player count {key!r} is not 2, 3 or 4")
            if not isinstance(w, list) or len(w) != N_FEATURES or not all(isinstance(x, int | float) for x in w):
                raise ValueError(f"value model: weights for {key} players must be {N_FEATURES} numbers")
            weights[int(key)] = tuple(float(x) for x in w)
        if not weights:
            raise ValueError("value model has no weights")
        return ValueModel(weights, dict(d.get("info", {})))

    @staticmethod
    def load(path: str | Path | None = None) -> ValueModel:
        """The model in ``path``, or the one shipped with the package."""
        if path is None:
            text = resources.files("kashgar").joinpath("data/value.json").read_text(encoding="utf-8")
        else:
            text = Path(path).read_text(encoding="utf-8")
        try:
            d = json.loads(text)
        except json.JSONDecodeError as exc:
            raise ValueError(f"value model {path or 'value.json'} is not JSON: {exc}") from None
        return ValueModel.from_dict(d)


_DEFAULT: ValueModel | None = None


def default_model() -> ValueModel:
    """The shipped model (loaded once)."""
    global _DEFAULT
    if _DEFAULT is None:
        _DEFAULT = ValueModel.load()
    return _DEFAULT


def value_after(model: ValueModel, g: Game, a: int, p: int, w: Weights = DEFAULT) -> float:
    """``p``'s chance to win once action ``a`` is applied to a copy of ``g`` and the rest of the
    turn is played greedily: the 1-ply score of the ``value`` bot and of the search's priors."""
    h = g.copy()
    h.apply_unchecked(a)
    finish_turn(h, w)
    return model.win_probabilities(h)[p]


class ValueBot(Bot):
    """1-ply by the value model: each legal action is tried on one re-dealt copy, the rest of the
    turn is completed greedily, and the action that leaves the bot the best chance to win is kept.

    As fast as the heuristic bot; with the shipped model it is the stronger of the two at 2 players.
    """

    name = "value"

    def __init__(self, seed: int = 0, model: ValueModel | None = None) -> None:
        super().__init__(seed)
        self.model = model if model is not None else default_model()

    def choose(self, seat: Seat) -> int:
        legal = seat.legal_actions()
        if len(legal) == 1:
            return legal[0]
        g = seat.determinize(self.rng)
        p = seat.player
        best_a, best_v = legal[0], -1.0
        for a in legal:
            v = value_after(self.model, g, a, p)
            if v > best_v:
                best_a, best_v = a, v
        return best_a
