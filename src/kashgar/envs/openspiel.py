"""Kashgar as an OpenSpiel Python game, ``python_kashgar`` (registered on import).

>>> import pyspiel
>>> import kashgar.envs.openspiel  # registers python_kashgar
>>> game = pyspiel.load_game("python_kashgar(players=3,expansion=all)")
>>> state = game.new_initial_state()   # a chance node: the deal

Chance is explicit. The deal is ``3 * players + 4`` chance nodes: each player's three start
cards (caravan by caravan, player by player; outcome = person kind index), then the four face-up
contracts (outcome = contract kind index); the position is then built with
:func:`kashgar.scenario.load_scenario`, the start player following from the start cards' ranks.
During play every random draw is a chance node: when a player action draws cards, the state
dry-runs the action on a copy of the engine with ``draw_log`` to learn its random draws, exposes
them one by one (outcomes = the distinct kinds in the pool at that draw, probability =
copies / pool size, earlier outcomes taken out), then applies the action with ``forced`` set to
the chosen kinds. Draws that are not random (a card known to lie under a deck) are no chance
node. Shuffles need no chance node: pools are unordered, so the Standard deck reshuffling its
discard pile and the Envoy's shuffle change only what later draws can give.

Strings and tensors: the observation string is the JSON of
:meth:`kashgar.game.Game.observation`; the information-state string adds the history as the
player saw it (every player action is public; chance outcomes are shown to the player who made
the draw, the deal to everyone, ``?`` otherwise; changes to the discard pile are public).
Both tensors are the shared vector of :mod:`kashgar.envs.encoding` (the observation is a
sufficient statistic of what a seat knows about the hidden cards, see ``Game.redeal``).
``resample_from_infostate`` maps to :meth:`kashgar.game.Game.redeal`.

Parameters: ``players`` (2-4), ``expansion`` ("" / "all" / card ids such as "beggar+herder"),
``house`` (house rules such as "min-caravan+farrier"; also spice-merchants), ``reshuffle_discard``,
``turn_limit``, ``reward`` (win or rank). Game strings separate parameters with commas, so lists
use ``+``; a parameter dict (``pyspiel.load_game("python_kashgar", {...})``) accepts commas too.
"""

from __future__ import annotations

import json
import random
from collections import Counter
from dataclasses import dataclass
from typing import Any

try:
    import numpy as np
    import pyspiel
except ImportError as exc:  # pragma: no cover - depends on the installed extras
    raise ImportError("kashgar.envs.openspiel needs open-spiel and numpy: pip install kashgar[rl]") from exc

from .. import actions as A
from ..cards import CardSet, load_cards
from ..game import CONTRACTS, Game, Options
from ..scenario import load_scenario
from .common import check_reward, final_rewards, make_options
from .encoding import ObservationEncoder, encoder_for
from .render import render_text

SHORT_NAME = "python_kashgar"
DEFAULT_PARAMS: dict[str, Any] = {
    "players": 2,
    "expansion": "",
    "house": "",
    "reshuffle_discard": True,
    "turn_limit": 1000,
    "reward": "win",
}
MAX_STEPS_PER_TURN = 40
"""A generous bound on the actions and chance nodes of one turn (for ``max_game_length``)."""

_CARDS = load_cards()

_GAME_TYPE = pyspiel.GameType(
    short_name=SHORT_NAME,
    long_name="Python Kashgar: Merchants of the Silk Road",
    dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
    chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
    information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
    utility=pyspiel.GameType.Utility.ZERO_SUM,
    reward_model=pyspiel.GameType.RewardModel.TERMINAL,
    max_num_players=4,
    min_num_players=2,
    provides_information_state_string=True,
    provides_information_state_tensor=True,
    provides_observation_string=True,
    provides_observation_tensor=True,
    parameter_specification=DEFAULT_PARAMS,
)


def sample_outcome(outcomes: list[tuple[int, float]], rng: random.Random) -> int:
    """One action of a chance node's ``(action, probability)`` list, drawn with ``rng``."""
    r = rng.random()
    for a, p in outcomes:
        r -= p
        if r < 0:
            return a
    return outcomes[-1][0]


@dataclass(frozen=True)
class Config:
    """Everything a python_kashgar state needs, built once per parameter set."""

    params: tuple[tuple[str, Any], ...]
    cards: CardSet
    options: Options
    reward: str
    encoder: ObservationEncoder
    start_kinds: tuple[int, ...]
    contract_deck: tuple[int, ...]


_CONFIGS: dict[tuple, Config] = {}


def config(params: dict | None) -> Config:
    """The (cached) configuration of a parameter dict; bad parameters raise ValueError."""
    merged = dict(DEFAULT_PARAMS)
    merged.update(params or {})
    key = tuple(sorted((k, str(v)) for k, v in merged.items()))
    cfg = _CONFIGS.get(key)
    if cfg is not None:
        return cfg
    unknown = set(merged) - set(DEFAULT_PARAMS)
    if unknown:
        raise ValueError(f"unknown python_kashgar parameter(s): {', '.join(sorted(unknown))}")
    cards = _CARDS
    options = make_options(
        merged["players"], merged["expansion"], merged["house"], bool(merged["reshuffle_discard"]),
        merged["turn_limit"], cards,
    )
    cfg = Config(
        params=tuple(sorted(merged.items())),
        cards=cards,
        options=options,
        reward=check_reward(merged["reward"]),
        encoder=encoder_for(cards, options.players, options.turn_limit),
        start_kinds=tuple(cards.deck_kinds("start")),
        contract_deck=tuple(c.index for c in cards.contracts for _ in range(c.copies)),
    )
    _CONFIGS[key] = cfg
    return cfg


class KashgarGame(pyspiel.Game):
    """The OpenSpiel game object: parameters and sizes (the rest is in :func:`config`)."""

    def __init__(self, params: dict | None = None) -> None:
        cfg = config(params)
        n = cfg.options.players
        info = pyspiel.GameInfo(
            num_distinct_actions=A.SIZE,
            max_chance_outcomes=max(len(cfg.cards.persons), len(cfg.cards.contracts)),
            num_players=n,
            min_utility=-1.0,
            max_utility=1.0,
            utility_sum=0.0,
            max_game_length=3 * n + 4 + cfg.options.turn_limit * MAX_STEPS_PER_TURN,
        )
        merged = dict(DEFAULT_PARAMS)
        merged.update(params or {})
        super().__init__(_GAME_TYPE, info, merged)

    def new_initial_state(self) -> KashgarState:
        """The state before the deal (a chance node)."""
        return KashgarState(self)

    def make_py_observer(self, iig_obs_type: Any = None, params: Any = None) -> KashgarObserver:
        """Observer for observation (default) or information-state (perfect recall) strings and tensors."""
        return KashgarObserver(
            config(self.get_parameters()), iig_obs_type or pyspiel.IIGObservationType(perfect_recall=False), params
        )


class _Core:
    """All the data of a state. pyspiel clones a Python state by deep-copying each of its
    attributes, so the state keeps a single one, this, whose deep copy is cheap: engine games
    held here are never changed in place (every change makes a new one), so copies share them."""

    __slots__ = ("cfg", "deal", "g", "pending", "actor", "chosen", "n_draws", "next", "tokens")

    def __init__(self, cfg: Config) -> None:
        self.cfg = cfg
        self.deal: list[int] = []  # deal outcomes so far (start card kinds, then contract kinds)
        self.g: Game | None = None  # the engine, once dealt
        self.pending: int | None = None  # a player action whose random draws chance is choosing
        self.actor = -1  # who chose it
        self.chosen: list[int] = []  # the outcomes chosen so far
        self.n_draws = 0  # how many random draws it makes
        self.next: tuple[int, tuple[int, ...]] | None = None  # (deck, pool) of the next draw
        # The history as players saw it: (text, seen_by), -1 public, p private to p, -2 nobody.
        self.tokens: list[tuple[str, int]] = []

    def __deepcopy__(self, memo: dict) -> _Core:
        new = _Core.__new__(_Core)
        new.cfg = self.cfg
        new.deal = self.deal[:]
        new.g = self.g
        new.pending = self.pending
        new.actor = self.actor
        new.chosen = self.chosen[:]
        new.n_draws = self.n_draws
        new.next = self.next
        new.tokens = self.tokens[:]
        return new

    def __reduce__(self) -> tuple:
        # Pickled through the engine's own state format (flat, JSON-ready).
        return (_restore_core, (dict(self.cfg.params), self.deal, None if self.g is None else self.g.to_dict(),
                                self.pending, self.actor, self.chosen, self.n_draws, self.next, self.tokens))


def _restore_core(params: dict, deal: list, g: dict | None, pending: int | None, actor: int, chosen: list,
                  n_draws: int, nxt: Any, tokens: list) -> _Core:
    core = _Core(config(params))
    core.deal = list(deal)
    core.g = None if g is None else Game.from_dict(g, core.cfg.cards)
    core.pending = pending
    core.actor = actor
    core.chosen = list(chosen)
    core.n_draws = n_draws
    core.next = nxt
    core.tokens = list(tokens)
    return core


def _field(name: str) -> property:
    return property(lambda self: getattr(self._s, name), lambda self, v: setattr(self._s, name, v))


class KashgarState(pyspiel.State):
    """One position of python_kashgar: the deal in progress, or a kashgar Game plus pending draws."""

    cfg = _field("cfg")
    deal = _field("deal")
    g = _field("g")
    pending = _field("pending")
    actor = _field("actor")
    chosen = _field("chosen")
    n_draws = _field("n_draws")
    _next = _field("next")
    tokens = _field("tokens")

    def __init__(self, game: KashgarGame) -> None:
        super().__init__(game)
        self._s = _Core(config(game.get_parameters()))

    # ---------------------------------------------------------------- OpenSpiel API

    def current_player(self) -> int:
        """The player to decide, ``CHANCE`` during the deal and draws, ``TERMINAL`` at the end."""
        if self.g is None or self.pending is not None:
            return pyspiel.PlayerId.CHANCE
        if self.g.over:
            return pyspiel.PlayerId.TERMINAL
        return self.g.to_move

    def _legal_actions(self, player: int) -> list[int]:
        if self.g is None or self.pending is not None or self.g.over or player != self.g.to_move:
            return []
        return list(self.g.legal())

    def chance_outcomes(self) -> list[tuple[int, float]]:
        """(kind index, probability) for the card of the current chance node."""
        pool = self._chance_pool()
        counts = Counter(pool)
        total = len(pool)
        return [(k, counts[k] / total) for k in sorted(counts)]

    def _chance_pool(self) -> tuple[int, ...]:
        if self.g is None:
            n = self.cfg.options.players
            i = len(self.deal)
            if i < 3 * n:
                return tuple(k for k in self.cfg.start_kinds if k not in self.deal)
            pool = list(self.cfg.contract_deck)
            for k in self.deal[3 * n:]:
                pool.remove(k)
            return tuple(pool)
        assert self._next is not None
        return self._next[1]

    def _chance_deck(self) -> int:
        if self.g is None:
            return CONTRACTS if len(self.deal) >= 3 * self.cfg.options.players else 0
        assert self._next is not None
        return self._next[0]

    def _apply_action(self, action: int) -> None:
        action = int(action)
        if self.g is None:
            self._apply_deal(action)
        elif self.pending is not None:
            self._apply_draw(action)
        else:
            self._apply_player(action)

    def _action_to_string(self, player: int, action: int) -> str:
        cards = self.cfg.cards
        if player == pyspiel.PlayerId.CHANCE:
            if self._chance_deck() == CONTRACTS:
                return f"contract {cards.contracts[action].id}"
            return f"card {cards.persons[action].id}"
        return A.to_text(int(action), cards)

    def is_terminal(self) -> bool:
        return self.g is not None and self.pending is None and self.g.over

    def returns(self) -> list[float]:
        """Final rewards (scheme ``reward``), zeros before the end."""
        if not self.is_terminal():
            return [0.0] * self.cfg.options.players
        return final_rewards(self.g, self.cfg.reward)

    def rewards(self) -> list[float]:
        return self.returns()

    def resample_from_infostate(self, player_id: int, probability_sampler: Any) -> KashgarState:
        """A state the player cannot tell from this one, everything hidden from them re-sampled.

        Uses :meth:`kashgar.game.Game.redeal`; chance outcomes the player did not see are
        redrawn, and in the copy other players' private history is no longer shown to them.
        """
        rng = random.Random(int(float(probability_sampler()) * (1 << 53)))
        new = self.clone()
        if self.g is None:
            return new  # the deal is public
        new.tokens = [(t, s if s in (-1, player_id) else -2) for t, s in self.tokens]
        for _ in range(100):
            new.g = self.g.redeal(player_id, rng)
            if self.pending is None:
                return new
            if self.actor == player_id:
                # The player saw the outcomes drawn so far: keep them if the re-deal allows them.
                try:
                    new._refresh_next()
                except ValueError:
                    continue
                return new
            # Redraw the outcomes the player did not see.
            k = len(self.chosen)
            new.chosen = []
            new.tokens = new.tokens[: len(new.tokens) - k]
            new._refresh_next()
            for _ in range(k):
                new._apply_draw(sample_outcome(new.chance_outcomes(), rng))
            return new
        raise pyspiel.SpielError("could not re-deal consistently with the drawn cards")

    def __str__(self) -> str:
        if self.g is None:
            return "dealing: " + " ".join(t for t, _ in self.tokens)
        text = render_text(self.g)
        if self.pending is not None:
            text += f"\ndrawing for {A.to_text(self.pending, self.cfg.cards)}: {len(self.chosen)}/{self.n_draws}"
        return text

    # ---------------------------------------------------------------- strings for observers

    def info_string(self, player: int) -> str:
        """Information-state string: the history as ``player`` saw it, then the observation."""
        hist = " ".join(t if s == -1 or s == player else "?" for t, s in self.tokens)
        return f"player {player}\n{hist}\n{self.obs_string(player)}"

    def obs_string(self, player: int) -> str:
        """Observation string: the JSON view of the player (the deal so far while dealing)."""
        if self.g is None:
            return "dealing: " + " ".join(t for t, _ in self.tokens)
        return json.dumps(self.g.observation(player), sort_keys=True, separators=(",", ":"))

    # ---------------------------------------------------------------- internals

    def _apply_deal(self, k: int) -> None:
        if k not in self._chance_pool():
            raise pyspiel.SpielError(f"chance outcome {k} is not possible at deal step {len(self.deal)}")
        cards = self.cfg.cards
        n = self.cfg.options.players
        name = cards.contracts[k].id if len(self.deal) >= 3 * n else cards.persons[k].id
        self.deal.append(k)
        self.tokens.append((f"deal:{name}", -1))
        if len(self.deal) == 3 * n + 4:
            self.g = self._build()

    def _build(self) -> Game:
        kg = self.cfg
        cards = kg.cards
        opts = kg.options
        n = opts.players
        start = self.deal[: 3 * n]
        players = [
            {"caravans": [["patriarch", cards.persons[start[p * 3 + c]].id] for c in range(3)]} for p in range(n)
        ]
        first = min(range(3 * n), key=lambda i: cards.persons[start[i]].rank) // 3
        data: dict[str, Any] = {
            "options": opts.to_dict(),
            "players": players,
            "display": [cards.contracts[k].id for k in self.deal[3 * n:]],
            "turn_player": first,
            "start_player": first,
        }
        if opts.spice_merchants_in_discard and "spice-merchant" in cards.person_index:
            data["discard"] = ["spice-merchant"] * n
        return load_scenario(data, cards)

    def _apply_player(self, action: int) -> None:
        g = self.g
        if action not in g.legal():
            raise pyspiel.SpielError(f"action {action} is not legal; legal: {', '.join(g.legal_texts())}")
        self.actor = g.to_move
        self.tokens.append((f"p{self.actor}:{A.to_text(action, self.cfg.cards)}", -1))
        trial = g.copy()
        trial.draw_log = []
        trial.apply_unchecked(action)
        n_random = sum(1 for _, pool in trial.draw_log if pool is not None)
        if n_random == 0:
            trial.draw_log = None
            self._commit(trial)
            return
        self.pending = action
        self.chosen = []
        self.n_draws = n_random
        self._refresh_next()

    def _refresh_next(self) -> None:
        """Dry-run the pending action with the outcomes chosen so far; find the next draw's pool."""
        trial = self.g.copy()
        trial.forced = tuple(self.chosen)
        trial.draw_log = []
        trial.apply_unchecked(self.pending)  # ValueError if a forced kind is not in its pool
        draws = [(d, pool) for d, pool in trial.draw_log if pool is not None]
        if len(self.chosen) < len(draws):
            self._next = draws[len(self.chosen)]
        else:
            self._next = None

    def _apply_draw(self, k: int) -> None:
        deck, pool = self._next
        if k not in pool:
            raise pyspiel.SpielError(f"chance outcome {k} is not in the pool of this draw")
        name = self.cfg.cards.contracts[k].id if deck == CONTRACTS else self.cfg.cards.persons[k].id
        self.chosen.append(k)
        self.tokens.append((f"draw:{name}", self.actor))
        if len(self.chosen) < self.n_draws:
            self._refresh_next()
            return
        new = self.g.copy()
        new.forced = tuple(self.chosen)
        new.apply_unchecked(self.pending)
        if new.forced:
            raise pyspiel.SpielError("the action drew fewer cards than its dry run")
        self.pending = None
        self.chosen = []
        self.n_draws = 0
        self._next = None
        self._commit(new)

    def _commit(self, new: Game) -> None:
        """Make ``new`` the current game; note any change of the (public) discard pile."""
        old = self.g.discard
        now = new.discard
        if now != old:
            P = self.cfg.cards.persons
            if now[: len(old)] == old:
                self.tokens.append(("discard+" + ",".join(P[k].id for k in now[len(old):]), -1))
            else:
                self.tokens.append(("discard=" + ",".join(P[k].id for k in now), -1))
        self.g = new


class KashgarObserver:
    """PyObserver: ``tensor`` (the shared vector, with a view per section in ``dict``) and strings."""

    def __init__(self, cfg: Config, iig_obs_type: Any, params: Any) -> None:
        if params:
            raise ValueError(f"python_kashgar observers take no parameters, got {params!r}")
        if not iig_obs_type.public_info or iig_obs_type.private_info != pyspiel.PrivateInfoType.SINGLE_PLAYER:
            raise ValueError("python_kashgar observes for a single player with public information only")
        self.perfect_recall = iig_obs_type.perfect_recall
        self.encoder = cfg.encoder
        self.tensor = np.zeros(self.encoder.size, np.float32)
        self.dict = {s.name: self.tensor[s.offset: s.offset + s.size] for s in self.encoder.sections()}

    def set_from(self, state: KashgarState, player: int) -> None:
        """Fill ``tensor`` with the position as ``player`` sees it (zeros during the deal)."""
        if state.g is None:
            self.tensor.fill(0)
        else:
            self.tensor[:] = self.encoder.encode(state.g, player)

    def string_from(self, state: KashgarState, player: int) -> str:
        """Information-state string (perfect recall observer) or observation string."""
        return state.info_string(player) if self.perfect_recall else state.obs_string(player)


pyspiel.register_game(_GAME_TYPE, KashgarGame)
