"""The Kashgar rules engine.

One :class:`Game` object is one position. Every face of the project (terminal, server, bots,
research adapters) drives it through the same small interface:

* :attr:`Game.to_move` - whose decision it is (``-1`` once the game is over);
* :meth:`Game.legal_actions` - the legal action ids (see :mod:`kashgar.actions`);
* :meth:`Game.apply` - apply one action (an id or its notation);
* :meth:`Game.observation` - what one player may see, as JSON-ready data;
* :attr:`Game.over` and :meth:`Game.ranking` - the end and the result.

The engine is pure: no I/O, no clock, and all randomness comes from the game's own seeded
generator (:mod:`kashgar.rng`). Decks are modelled as known top cards (scenarios only), an
unordered pool, and the cards placed under the deck in order; a draw samples the pool. That makes
:meth:`Game.redeal` (re-sampling everything one player cannot see) cheap and exact.

Every choice is an explicit action: the turn action (caravan and option) and each sub-decision
(which drawn card to keep, which spice, which contract, ...) is a decision of its own, possibly of
another player (the Herder). Card effects are data (:mod:`kashgar.cards`) interpreted by the op
functions at the bottom of this module.
"""

from __future__ import annotations

import random
from collections.abc import Iterable
from dataclasses import dataclass, field, fields
from typing import Any

from . import actions as A
from .cards import CAPS, GOLD, MULES, RESOURCES, SPICES, CardSet, Contract, Effect, Person, load_cards
from .rng import below, seed_state, shuffled

STANDARD, SPECIAL, CONTRACTS = 0, 1, 2
DECK_NAMES = ("standard", "special", "contracts")
TARGET = 25
MAX_HAND = 30  # not a rule: a guard for absurd scenario files


class IllegalAction(ValueError):
    """An action that is not legal in this position. The game is left unchanged."""


class ScenarioError(ValueError):
    """A position description that is not a legal Kashgar position."""


@dataclass(frozen=True)
class Options:
    """Everything that changes the rules of one game.

    ``expansion`` maps Cut and Thrust card ids to the number of copies shuffled into the
    Standard deck (0-2 each); :meth:`with_full_expansion` gives all twelve.
    """

    players: int = 2
    expansion: tuple[tuple[str, int], ...] = ()
    min_caravan_two: bool = False
    farrier_two_mules: bool = False
    spice_merchants_in_discard: bool = False
    reshuffle_discard: bool = True
    turn_limit: int = 1000

    def __post_init__(self) -> None:
        if not isinstance(self.players, int) or not 2 <= self.players <= 4:
            raise ValueError(f"players must be 2, 3 or 4, got {self.players!r}")
        if not isinstance(self.turn_limit, int) or self.turn_limit < 1:
            raise ValueError(f"turn_limit must be a positive integer, got {self.turn_limit!r}")
        exp = self.expansion
        if isinstance(exp, dict):
            exp = tuple(exp.items())
        norm = []
        for item in exp:
            if not (isinstance(item, (tuple, list)) and len(item) == 2):
                raise ValueError(f"expansion entries are (card id, copies) pairs, got {item!r}")
            cid, n = item
            if not isinstance(cid, str) or not isinstance(n, int) or n < 0:
                raise ValueError(f"expansion entry {item!r}: expected a card id and a copy count")
            if n:
                norm.append((cid, n))
        object.__setattr__(self, "expansion", tuple(sorted(norm)))

    @staticmethod
    def with_full_expansion(cards: CardSet | None = None, **kw: Any) -> Options:
        cards = cards or load_cards()
        return Options(expansion=tuple((p.id, p.copies) for p in cards.persons if p.deck == "expansion"), **kw)

    def to_dict(self) -> dict:
        d = {f.name: getattr(self, f.name) for f in fields(self)}
        d["expansion"] = dict(self.expansion)
        return d

    @staticmethod
    def from_dict(d: dict) -> Options:
        if not isinstance(d, dict):
            raise ValueError(f"options must be an object, got {d!r}")
        known = {f.name for f in fields(Options)}
        unknown = set(d) - known
        if unknown:
            raise ValueError(f"unknown option(s): {', '.join(sorted(unknown))}")
        kw = dict(d)
        if "expansion" in kw:
            exp = kw["expansion"]
            kw["expansion"] = tuple(exp.items()) if isinstance(exp, dict) else tuple(tuple(x) for x in exp)
        return Options(**kw)


# --------------------------------------------------------------------------------------------
# Per-(card set, options) tables, shared by every game with that card set and those options.


@dataclass
class _Tables:
    cards: CardSet
    options: Options
    free: list[tuple[int, ...]] = field(default_factory=list)
    costly: list[tuple[tuple[int, tuple, int], ...]] = field(default_factory=list)
    must: list[bool] = field(default_factory=list)
    act: list[tuple] = field(default_factory=list)
    pts: list[int] = field(default_factory=list)
    farmer: list[int] = field(default_factory=list)
    pat_side: list[bool] = field(default_factory=list)
    pat_card: list[bool] = field(default_factory=list)
    flip: list[int] = field(default_factory=list)
    c_pts: list[int] = field(default_factory=list)
    c_wheat: list[int] = field(default_factory=list)
    static: list[tuple[tuple[int, ...], ...] | None] = field(default_factory=list)
    scoring: list[bool] = field(default_factory=list)
    steps: list[tuple] = field(default_factory=list)
    turn_limit: int = 0


_TABLES: dict[tuple[str, int, Options], _Tables] = {}


def _tables(cards: CardSet, options: Options) -> _Tables:
    key = (cards.digest, id(cards), options)
    t = _TABLES.get(key)
    if t is not None:
        return t
    t = _Tables(cards, options, turn_limit=options.turn_limit)
    from .cards import Action

    for p in cards.persons:
        acts: list[Any] = [None, None, None]
        for i, a in enumerate(p.caravan):
            acts[i] = a
        if p.parting:
            acts[2] = p.parting[0]
        if options.farrier_two_mules and p.id == "farrier":
            acts = [
                None if a is None else Action(tuple((r, 2 if r == MULES else n) for r, n in a.cost), a.cost_spice, a.effects, a.src, a.raw)
                for a in acts
            ]
        free = tuple(o for o, a in enumerate(acts) if a is not None and not a.cost and not a.cost_spice)
        costly = tuple((o, a.cost, a.cost_spice) for o, a in enumerate(acts) if a is not None and (a.cost or a.cost_spice))
        t.free.append(free)
        t.costly.append(costly)
        t.must.append(p.must)
        t.act.append(tuple(acts))
        t.pts.append(p.points)
        t.farmer.append(1 if p.per_wheat else 0)
        t.pat_side.append(p.id == "patriarch")
        t.pat_card.append(p.deck == "patriarch")
        t.flip.append(p.flip)
        t.scoring.append(p.points != 0 or p.per_wheat)
        t.steps.append(tuple(() if a is None else tuple((_OPS[e.op], e) for e in a.effects) for a in acts))
        # Legal turn ids of a front card with no costly option, per caravan (the fast path).
        if costly or options.min_caravan_two:
            t.static.append(None)
        else:
            opts = free + ((3,) if not p.must or not free else ())
            t.static.append(tuple(tuple(c * 4 + o for o in opts) for c in range(4)))
    for c in cards.contracts:
        t.c_pts.append(c.points)
        t.c_wheat.append(1 if c.kind == "wheat" else 0)
    _TABLES[key] = t
    return t


# --------------------------------------------------------------------------------------------


class Game:
    """One position of a game of Kashgar. See the module docstring for the interface."""

    __slots__ = (
        "cards", "options", "t", "n", "res", "car", "ncar", "fulfilled", "points", "last_gain",
        "decks", "discard", "display", "box", "spare", "start_player", "turn_player", "turn_no",
        "step", "end_triggered", "over", "rng", "pend_player", "pend_kind", "pend_legal",
        "pend_data", "cont", "hist", "seed", "forced", "draw_log",
    )

    # ---------------------------------------------------------------- construction

    @classmethod
    def new(cls, options: Options | None = None, seed: int = 0, cards: CardSet | None = None) -> Game:
        """Set up a new game: shuffle, deal start cards, lay out 4 contracts, pick the start player."""
        options = options or Options()
        cards = cards or load_cards()
        g = cls._blank(cards, options, seed)
        n = g.n
        rng = seed_state(seed)
        start = cards.deck_kinds("start")
        rng = shuffled(rng, start)
        pat = cards.patriarch
        box: list[int] = []
        for p in range(n):
            for c in range(3):
                g.car[p * 4 + c] = (pat, start[p * 3 + c])
        dealt = start[: 3 * n]
        box.extend(start[3 * n:])
        aristocrat = cards.person_index.get("aristocrat")
        g.spare = 1 if aristocrat is not None and aristocrat in dealt else 0
        box.extend([pat] * (cards.persons[pat].copies - 3 * n - g.spare))
        std: list[int] = []
        for p in cards.persons:
            if p.deck == "standard":
                std.extend([p.index] * p.copies)
        exp = dict(options.expansion)
        for cid, copies in exp.items():
            if cid not in cards.person_index or cards.person(cid).deck != "expansion":
                raise ValueError(f"expansion card {cid!r} is not a Cut and Thrust card of this card set")
            if copies > cards.person(cid).copies:
                raise ValueError(f"expansion card {cid!r}: {copies} copies asked, the game has {cards.person(cid).copies}")
            std.extend([cards.person_index[cid]] * copies)
        for p in cards.persons:
            if p.deck == "expansion":
                box.extend([p.index] * (p.copies - exp.get(p.id, 0)))
        discard: list[int] = []
        if options.spice_merchants_in_discard and "spice-merchant" in cards.person_index:
            sm = cards.person_index["spice-merchant"]
            for _ in range(n):
                if sm in std:
                    std.remove(sm)
                    discard.append(sm)
        special = [p.index for p in cards.persons if p.deck == "special" for _ in range(p.copies)]
        contracts = [c.index for c in cards.contracts for _ in range(c.copies)]
        g.decks = [((), tuple(std), ()), ((), tuple(special), ()), ((), tuple(contracts), ())]
        g.discard = tuple(discard)
        g.box = tuple(box)
        g.rng = rng
        display = []
        for _ in range(4):
            k = g._draw(CONTRACTS)
            if k is not None:
                display.append(k)
        g.display = tuple(display)
        ranks = {start[i]: cards.persons[start[i]].rank for i in range(3 * n)}
        best = min(ranks, key=ranks.__getitem__)
        g.start_player = dealt.index(best) // 3
        g.turn_player = g.start_player
        for p in range(n):
            g._rescore(p)
        g.last_gain = [-1] * n
        g._begin_turn()
        return g

    @classmethod
    def _blank(cls, cards: CardSet, options: Options, seed: int = 0) -> Game:
        g = cls.__new__(cls)
        n = options.players
        g.cards = cards
        g.options = options
        g.t = _tables(cards, options)
        g.n = n
        g.seed = seed
        g.res = [3] * (7 * n)
        g.car = [()] * (4 * n)
        g.ncar = (3,) * n
        g.fulfilled = ((),) * n
        g.points = [0] * n
        g.last_gain = [-1] * n
        g.decks = [((), (), ()), ((), (), ()), ((), (), ())]
        g.discard = ()
        g.display = ()
        g.box = ()
        g.spare = 0
        g.start_player = 0
        g.turn_player = 0
        g.turn_no = 0
        g.step = 0
        g.end_triggered = False
        g.over = False
        g.rng = seed_state(seed)
        g.pend_player = 0
        g.pend_kind = "turn"
        g.pend_legal = None
        g.pend_data = ()
        g.cont = None
        g.hist = None
        g.forced = ()
        g.draw_log = None
        return g

    def copy(self) -> Game:
        """An independent copy of this position (cheap: immutable parts are shared)."""
        g = Game.__new__(Game)
        g.cards = self.cards
        g.options = self.options
        g.t = self.t
        g.n = self.n
        g.res = self.res[:]
        g.car = self.car[:]
        g.ncar = self.ncar
        g.fulfilled = self.fulfilled
        g.points = self.points[:]
        g.last_gain = self.last_gain[:]
        g.decks = self.decks[:]
        g.discard = self.discard
        g.display = self.display
        g.box = self.box
        g.spare = self.spare
        g.start_player = self.start_player
        g.turn_player = self.turn_player
        g.turn_no = self.turn_no
        g.step = self.step
        g.end_triggered = self.end_triggered
        g.over = self.over
        g.rng = self.rng
        g.pend_player = self.pend_player
        g.pend_kind = self.pend_kind
        g.pend_legal = self.pend_legal
        g.pend_data = self.pend_data
        g.cont = self.cont
        g.hist = self.hist
        g.seed = self.seed
        g.forced = self.forced
        g.draw_log = None
        return g

    __copy__ = copy

    # ---------------------------------------------------------------- the interface

    @property
    def to_move(self) -> int:
        """The player whose decision it is, or -1 when the game is over."""
        return -1 if self.over else self.pend_player

    @property
    def decision(self) -> str:
        """The kind of the pending decision: turn, keep, take, resource, contract, card, ..."""
        return "over" if self.over else self.pend_kind

    def legal_actions(self) -> list[int]:
        """The legal action ids, in increasing order."""
        legal = self.pend_legal
        if legal is None:
            legal = self.pend_legal = self._turn_legal()
        return list(legal)

    def legal(self) -> tuple[int, ...]:
        """The legal action ids as a tuple (no copy; do not modify)."""
        legal = self.pend_legal
        if legal is None:
            legal = self.pend_legal = self._turn_legal()
        return legal

    def apply(self, action: int | str) -> None:
        """Apply one action, given as an id or in notation.

        Raises :class:`IllegalAction` (a ``ValueError``) and leaves the game unchanged if the
        action is not legal here, or :class:`kashgar.actions.NotationError` if the text is not
        an action at all.
        """
        if isinstance(action, str):
            action = A.parse(action, self.cards)
        legal = self.pend_legal
        if legal is None:
            legal = self.pend_legal = self._turn_legal()
        if action not in legal:
            raise IllegalAction(self._illegal_message(action))
        self.step += 1
        self.hist = (action, self.hist)
        self.pend_legal = None
        if _HANDLERS[self.pend_kind](self, action):
            self._resume()

    def apply_unchecked(self, action: int) -> None:
        """Apply an action id known to be legal (bots and simulations: skips the check)."""
        self.step += 1
        self.hist = (action, self.hist)
        self.pend_legal = None
        if _HANDLERS[self.pend_kind](self, action):
            if self.cont is None:
                self._end_turn()
            else:
                self._resume()

    def history(self) -> list[int]:
        """Every action applied since the start (or since the scenario was loaded)."""
        out = []
        h = self.hist
        while h is not None:
            out.append(h[0])
            h = h[1]
        out.reverse()
        return out

    def action_text(self, action: int) -> str:
        """The notation of an action id."""
        return A.to_text(action, self.cards)

    def legal_texts(self) -> list[str]:
        return [A.to_text(a, self.cards) for a in self.legal()]

    def ranking(self) -> list[int]:
        """Players best first: most points; among tied players, who last gained points wins."""
        return sorted(range(self.n), key=lambda p: (-self.points[p], -self.last_gain[p], p))

    def winner(self) -> int:
        """The winning player (meaningful once the game is over)."""
        return self.ranking()[0]

    def caravans(self, player: int) -> list[tuple[int, ...]]:
        """The caravans of ``player``, each front to back, as card kind indices."""
        return [self.car[player * 4 + c] for c in range(self.ncar[player])]

    def resources(self, player: int) -> dict[str, int]:
        return dict(zip(RESOURCES, self.res[player * 7: player * 7 + 7]))

    # ---------------------------------------------------------------- turn structure

    def _begin_turn(self) -> None:
        self.pend_player = self.turn_player
        self.pend_kind = "turn"
        self.pend_legal = None
        self.pend_data = ()
        self.cont = None

    def _end_turn(self) -> None:
        n = self.n
        nxt = (self.turn_player + 1) % n
        self.turn_no += 1
        if (self.end_triggered and nxt == self.start_player) or self.turn_no >= self.t.turn_limit:
            self._finish()
            return
        if not any(self.car):  # nobody has a card left: nobody can ever act again
            self._finish()
            return
        self.turn_player = nxt
        self.pend_player = nxt
        self.pend_kind = "turn"
        self.pend_legal = None
        self.pend_data = ()
        self.cont = None

    def _finish(self) -> None:
        self.over = True
        self.pend_player = -1
        self.pend_kind = "over"
        self.pend_legal = ()
        self.pend_data = ()
        self.cont = None

    def _turn_legal(self) -> tuple[int, ...]:
        p = self.turn_player
        t = self.t
        static = t.static
        car = self.car
        out: list[int] = []
        for c in range(self.ncar[p]):
            cards = car[p * 4 + c]
            if not cards:
                continue
            ids = static[cards[0]]
            if ids is not None:
                out += ids[c]
            else:
                self._card_legal(out, c, cards)
        if not out:
            return (A.PASS,)
        return tuple(out)

    def _card_legal(self, out: list[int], c: int, cards: tuple[int, ...]) -> None:
        """Append the legal turn ids for the front card of caravan ``c`` (the general path)."""
        t = self.t
        k = cards[0]
        res = self.res
        b = self.turn_player * 7
        min2 = self.options.min_caravan_two
        base = c * 4
        found = []
        for o in t.free[k]:
            if not (o == 2 and min2 and len(cards) <= 2):
                found.append(base + o)
        for o, cost, spice in t.costly[k]:
            if o == 2 and min2 and len(cards) <= 2:
                continue
            for r, amount in cost:
                if res[b + r] < amount:
                    break
            else:
                if spice and max(res[b: b + 5]) < spice:
                    continue
                found.append(base + o)
        if not found or not t.must[k]:
            found.append(base + 3)
        found.sort()
        out += found

    def _resume(self) -> None:
        """Continue the effects of the action in progress, or end the turn."""
        cont = self.cont
        if cont is None:
            self._end_turn()
            return
        kind, slot, i, ctx = cont
        steps = self.t.steps[kind][slot]
        n = len(steps)
        while i < n:
            op, eff = steps[i]
            i += 1
            if not op(self, eff, ctx):
                self.cont = (kind, slot, i, self.cont[3])
                return
            ctx = self.cont[3]
        self.cont = None
        self._end_turn()

    def _pend(self, player: int, kind: str, legal: Iterable[int], data: tuple = ()) -> bool:
        """Make ``player`` decide; always returns False (the op is not finished)."""
        self.pend_player = player
        self.pend_kind = kind
        self.pend_legal = tuple(sorted(set(legal)))
        self.pend_data = data
        return False

    def _illegal_message(self, action: Any) -> str:
        if self.over:
            return "the game is over: no action is legal"
        try:
            text = A.to_text(action, self.cards)
        except A.NotationError as exc:
            return str(exc)
        legal = ", ".join(A.to_text(a, self.cards) for a in self.legal())
        who = f"player {self.pend_player + 1}"
        return f"{text!r} is not legal now ({who} to choose: {self.pend_kind}); legal: {legal}"

    # ---------------------------------------------------------------- bookkeeping helpers

    def _rescore(self, p: int) -> None:
        t = self.t
        car = self.car
        pts = t.pts.__getitem__
        total = 0
        wheat = 0
        for k in self.fulfilled[p]:
            total += t.c_pts[k]
            wheat += t.c_wheat[k]
        for c in range(p * 4, p * 4 + self.ncar[p]):
            total += sum(map(pts, car[c]))
        if wheat:
            farmer = t.farmer.__getitem__
            for c in range(p * 4, p * 4 + self.ncar[p]):
                total += wheat * sum(map(farmer, car[c]))
        if total > self.points[p]:
            self.last_gain[p] = self.step
        self.points[p] = total
        if total >= TARGET:
            self.end_triggered = True

    def _draw(self, d: int) -> int | None:
        """Draw the top card of deck ``d`` (None if it is empty).

        A draw from the pool is the only chance event of the game. ``forced`` (a tuple of card
        kinds) overrides the next pool draws, and ``draw_log`` (when a list) records each draw
        as ``(deck, pool before the draw or None if the card was not random)``: the OpenSpiel
        adapter uses both to expose draws as explicit chance nodes.
        """
        top, pool, under = self.decks[d]
        if top:
            self.decks[d] = (top[1:], pool, under)
            if self.draw_log is not None:
                self.draw_log.append((d, None))
            return top[0]
        if not pool and not under and d == STANDARD and self.options.reshuffle_discard and self.discard:
            pool = self.discard
            self.discard = ()
        if pool:
            if self.draw_log is not None:
                self.draw_log.append((d, pool))
            if self.forced:
                k = self.forced[0]
                self.forced = self.forced[1:]
                i = pool.index(k)
            else:
                self.rng, i = below(self.rng, len(pool))
            self.decks[d] = (top, pool[:i] + pool[i + 1:], under)
            return pool[i]
        if under:
            self.decks[d] = (top, pool, under[1:])
            if self.draw_log is not None:
                self.draw_log.append((d, None))
            return under[0][0]
        return None

    def _put_under(self, d: int, cards: Iterable[int], knower: int) -> None:
        top, pool, under = self.decks[d]
        self.decks[d] = (top, pool, under + tuple((k, 1 << knower) for k in cards))

    def deck_size(self, d: int) -> int:
        top, pool, under = self.decks[d]
        return len(top) + len(pool) + len(under)

    def _gain(self, p: int, r: int, n: int) -> None:
        i = p * 7 + r
        v = self.res[i] + n
        cap = CAPS[r]
        self.res[i] = cap if v > cap else v

    def _refill_display(self) -> None:
        display = self.display
        while len(display) < 4:
            k = self._draw(CONTRACTS)
            if k is None:
                break
            display = display + (k,)
        self.display = display

    def _contract_ok(self, p: int, c: Contract, mode: str) -> bool:
        res = self.res
        b = p * 7
        if mode == "free_small":
            return c.kind == "small"
        if mode == "free":
            return True
        if res[b + MULES] < c.mules:
            return False
        if mode == "normal":
            for r, n in c.cost:
                if res[b + r] < n:
                    return False
            return True
        missing = 0
        sub = GOLD if mode == "gold_for_spice" else 4
        need_sub = 0
        for r, n in c.cost:
            if r < 5 and r != sub:
                if res[b + r] < n:
                    missing += n - res[b + r]
            elif r == sub:
                need_sub += n
            elif res[b + r] < n:
                return False
        return res[b + sub] >= need_sub + missing

    def _pay_contract(self, p: int, c: Contract, mode: str) -> None:
        if mode in ("free_small", "free"):
            return
        res = self.res
        b = p * 7
        if mode == "normal":
            for r, n in c.cost:
                res[b + r] -= n
            return
        sub = GOLD if mode == "gold_for_spice" else 4
        missing = 0
        for r, n in c.cost:
            if r < 5 and r != sub:
                paid = min(res[b + r], n)
                res[b + r] -= paid
                missing += n - paid
        for r, n in c.cost:
            if r == sub or r >= 5:
                res[b + r] -= n
        res[b + sub] -= missing

    def _take_contract(self, p: int, k: int, payout: bool) -> None:
        self.fulfilled = self.fulfilled[:p] + (self.fulfilled[p] + (k,),) + self.fulfilled[p + 1:]
        if payout:
            for r, n in self.cards.contracts[k].payout:
                self._gain(p, r, n)
        self._rescore(p)

    def _set_car(self, p: int, c: int, cards: tuple[int, ...]) -> None:
        self.car[p * 4 + c] = cards

    def _own_positions(self, p: int, caravans: Iterable[int]) -> list[int]:
        out = []
        min2 = self.options.min_caravan_two
        for c in caravans:
            cards = self.car[p * 4 + c]
            if min2 and len(cards) <= 2:
                continue
            out.extend(A.card_at(c, i) for i in range(min(len(cards), A.MAX_POSITION)))
        return out

    # ---------------------------------------------------------------- views

    def observation(self, player: int) -> dict:
        """What ``player`` may see, as JSON-serialisable data.

        Never carries deck order, another player's cards drawn for a pending choice, or another
        player's knowledge of cards under a deck.
        """
        if not isinstance(player, int) or not 0 <= player < self.n:
            raise ValueError(f"player must be 0..{self.n - 1}, got {player!r}")
        P = self.cards.persons
        C = self.cards.contracts
        seats = []
        for p in range(self.n):
            seats.append(
                {
                    "caravans": [[P[k].id for k in cards] for cards in self.caravans(p)],
                    "resources": self.resources(p),
                    "contracts": [C[k].id for k in self.fulfilled[p]],
                    "points": self.points[p],
                    "last_gain": self.last_gain[p],
                }
            )
        decks = {}
        for d, name in enumerate(DECK_NAMES):
            top, pool, under = self.decks[d]
            ids = P if d != CONTRACTS else C
            decks[name] = {
                "size": len(top) + len(pool) + len(under),
                "under": [ids[k].id if mask >> player & 1 else None for k, mask in under],
            }
        pending: dict[str, Any] = {"player": self.to_move, "kind": self.decision}
        drawn = self._pending_drawn()
        if drawn is not None:
            d, cards_drawn = drawn
            ids = P if d != CONTRACTS else C
            pending["drawn_count"] = len(cards_drawn)
            pending["deck"] = DECK_NAMES[d]
            if player == self.pend_player:
                pending["drawn"] = [ids[k].id for k in cards_drawn]
        pending.update(self._pending_public())
        return {
            "player": player,
            "players": self.n,
            "options": self.options.to_dict(),
            "turn": self.turn_no,
            "step": self.step,
            "turn_player": self.turn_player,
            "start_player": self.start_player,
            "end_triggered": self.end_triggered,
            "over": self.over,
            "ranking": self.ranking() if self.over else None,
            "seats": seats,
            "display": [C[k].id for k in self.display],
            "discard": [P[k].id for k in self.discard],
            "box": sorted(P[k].id for k in self.box),
            "spare_patriarch": bool(self.spare),
            "decks": decks,
            "pending": pending,
            "legal": self.legal_texts() if player == self.to_move else [],
        }

    def _pending_drawn(self) -> tuple[int, tuple[int, ...]] | None:
        """(deck, cards) drawn and waiting for the pending decision, if any."""
        if self.pend_kind == "keep":
            return self.pend_data[0], self.pend_data[1]
        if self.pend_kind == "contract" and self.pend_data and self.pend_data[0] == "drawn":
            return CONTRACTS, self.pend_data[2]
        return None

    def _pending_public(self) -> dict:
        """Public details of the pending decision (for prompts)."""
        kind = self.pend_kind
        d = self.pend_data
        out: dict[str, Any] = {}
        if self.cont is not None:
            k, slot, _, ctx = self.cont
            out["card"] = self.cards.persons[k].id
            out["action"] = ("caravan", "caravan2", "parting")[slot]
            out["caravan"] = ctx[1] + 1
        if kind == "resource" and d:
            out["mode"] = d[0]
            if d[0] in ("inc", "set"):
                out["amount"] = d[1]
        if kind == "contract" and d:
            out["mode"] = d[1]
        return out

    # ---------------------------------------------------------------- hidden information

    def redeal(self, player: int, rng: random.Random | int | None = None) -> Game:
        """A copy where everything ``player`` cannot see is re-sampled consistently.

        Re-sampled: the identity of cards under a deck that ``player`` did not see go there, the
        cards another player drew for a pending choice, and the game's random generator (which
        decides every future draw from the unordered pools). Known top cards of a scenario become
        ordinary unknown deck cards. The result depends only on what ``player`` knows and on
        ``rng``: two games that differ only in hidden information give the same re-deal.
        """
        if not isinstance(player, int) or not 0 <= player < self.n:
            raise ValueError(f"player must be 0..{self.n - 1}, got {player!r}")
        if rng is None:
            rng = random.Random()
        elif isinstance(rng, int):
            rng = random.Random(rng)
        g = self.copy()
        g.forced = ()
        drawn = self._pending_drawn() if self.pend_player != player else None
        for d in range(3):
            top, pool, under = g.decks[d]
            hidden = [i for i, (_, mask) in enumerate(under) if not mask >> player & 1]
            extra: tuple[int, ...] = drawn[1] if drawn is not None and drawn[0] == d else ()
            if not hidden and not extra:
                g.decks[d] = ((), tuple(sorted(top + pool)), under)
                continue
            unknown = sorted(top + pool + tuple(under[i][0] for i in hidden) + extra)
            new_under = list(under)
            for i in hidden:
                new_under[i] = (unknown.pop(rng.randrange(len(unknown))), under[i][1])
            new_extra = tuple(unknown.pop(rng.randrange(len(unknown))) for _ in extra)
            g.decks[d] = ((), tuple(unknown), tuple(new_under))
            if extra:
                g._replace_pending_drawn(new_extra)
        g.rng = seed_state(rng.getrandbits(64))
        return g

    def _replace_pending_drawn(self, cards: tuple[int, ...]) -> None:
        if self.pend_kind == "keep":
            d = self.pend_data
            self.pend_data = (d[0], cards) + d[2:]
            self.pend_legal = tuple(sorted({A.KEEP + k for k in cards}))
        else:
            d = self.pend_data
            mode = d[1]
            self.pend_data = (d[0], mode, cards)
            self.pend_legal = tuple(sorted(_drawn_contract_legal(self, self.pend_player, mode, cards)))

    # ---------------------------------------------------------------- serialisation

    def to_dict(self) -> dict:
        """The full state (hidden information included) as JSON-serialisable data."""
        return {
            "format": "kashgar-state",
            "version": 1,
            "cards": self.cards.digest,
            "options": self.options.to_dict(),
            "seed": self.seed,
            "res": list(self.res),
            "car": [list(c) for c in self.car],
            "ncar": list(self.ncar),
            "fulfilled": [list(f) for f in self.fulfilled],
            "points": list(self.points),
            "last_gain": list(self.last_gain),
            "decks": [[list(top), list(pool), [list(u) for u in under]] for top, pool, under in self.decks],
            "discard": list(self.discard),
            "display": list(self.display),
            "box": list(self.box),
            "spare": self.spare,
            "start_player": self.start_player,
            "turn_player": self.turn_player,
            "turn_no": self.turn_no,
            "step": self.step,
            "end_triggered": self.end_triggered,
            "over": self.over,
            "rng": self.rng,
            "pend_player": self.pend_player,
            "pend_kind": self.pend_kind,
            "pend_legal": None if self.pend_legal is None else list(self.pend_legal),
            "pend_data": _jsonable(self.pend_data),
            "cont": _jsonable(self.cont),
            "forced": list(self.forced),
            "history": self.history(),
        }

    @classmethod
    def from_dict(cls, d: dict, cards: CardSet | None = None) -> Game:
        """Rebuild a game from :meth:`to_dict` output."""
        cards = cards or load_cards()
        try:
            if d.get("format") != "kashgar-state":
                raise ScenarioError("not a kashgar-state document")
            if d.get("cards") not in (cards.digest, None):
                raise ScenarioError("the state was saved with a different card file")
            g = cls._blank(cards, Options.from_dict(d["options"]), d.get("seed", 0))
            g.res = [int(x) for x in d["res"]]
            g.car = [tuple(c) for c in d["car"]]
            g.ncar = tuple(d["ncar"])
            g.fulfilled = tuple(tuple(f) for f in d["fulfilled"])
            g.points = list(d["points"])
            g.last_gain = list(d["last_gain"])
            g.decks = [(tuple(t), tuple(p), tuple((u[0], u[1]) for u in un)) for t, p, un in d["decks"]]
            g.discard = tuple(d["discard"])
            g.display = tuple(d["display"])
            g.box = tuple(d["box"])
            g.spare = int(d["spare"])
            for name in ("start_player", "turn_player", "turn_no", "step", "rng", "pend_player"):
                setattr(g, name, int(d[name]))
            g.end_triggered = bool(d["end_triggered"])
            g.over = bool(d["over"])
            g.pend_kind = d["pend_kind"]
            if g.pend_kind not in _HANDLERS and g.pend_kind != "over":
                raise ScenarioError(f"unknown pending decision {g.pend_kind!r}")
            g.pend_legal = None if d["pend_legal"] is None else tuple(d["pend_legal"])
            g.pend_data = _tupled(d["pend_data"])
            g.cont = _tupled(d["cont"])
            g.forced = tuple(d.get("forced", ()))
            for a in d.get("history", []):
                g.hist = (a, g.hist)
        except ScenarioError:
            raise
        except (KeyError, TypeError, ValueError, IndexError) as exc:
            raise ScenarioError(f"malformed state: {type(exc).__name__}: {exc}") from None
        return g

    def fingerprint(self) -> tuple:
        """A hashable summary of the full state (for tests: equal games, equal fingerprints)."""
        return (
            tuple(self.res), tuple(self.car), self.ncar, self.fulfilled, tuple(self.points),
            tuple(self.last_gain), tuple(self.decks), self.discard, self.display, tuple(sorted(self.box)),
            self.spare, self.start_player, self.turn_player, self.turn_no, self.step, self.end_triggered,
            self.over, self.rng, self.pend_player, self.pend_kind, self.pend_data, self.cont,
        )

    def card_census(self) -> dict[str, int]:
        """How many copies of each card are where they can be: caravans, decks, discard, box,
        display, fulfilled contracts, pending draws, the spare patriarch. Patriarch and Matriarch
        count as one card."""
        counts: dict[int, int] = {}
        ccounts: dict[int, int] = {}

        def add(k: int, into: dict[int, int]) -> None:
            into[k] = into.get(k, 0) + 1

        for cards in self.car:
            for k in cards:
                add(k, counts)
        for k in self.discard + self.box:
            add(k, counts)
        for d in range(3):
            top, pool, under = self.decks[d]
            into = ccounts if d == CONTRACTS else counts
            for k in top + pool:
                add(k, into)
            for k, _ in under:
                add(k, into)
        for k in self.display:
            add(k, ccounts)
        for f in self.fulfilled:
            for k in f:
                add(k, ccounts)
        drawn = self._pending_drawn()
        if drawn is not None:
            for k in drawn[1]:
                add(k, ccounts if drawn[0] == CONTRACTS else counts)
        pat = self.cards.patriarch
        mat = self.cards.matriarch
        counts[pat] = counts.get(pat, 0) + counts.pop(mat, 0) + self.spare
        out = {self.cards.persons[k].id: v for k, v in counts.items()}
        out.update({self.cards.contracts[k].id: v for k, v in ccounts.items()})
        return out


def _jsonable(x: Any) -> Any:
    if isinstance(x, tuple):
        return [_jsonable(v) for v in x]
    return x


def _tupled(x: Any) -> Any:
    if isinstance(x, list):
        return tuple(_tupled(v) for v in x)
    return x


# ============================================================================================
# Decision handlers: (game, action) -> True when the op in progress is finished.

_PASS = A.PASS


def _h_turn(g: Game, action: int) -> bool:
    if action == _PASS:
        g.cont = None
        return True
    p = g.turn_player
    c = action >> 2
    o = action & 3
    i = p * 4 + c
    cards = g.car[i]
    k = cards[0]
    if o == 3:
        g.car[i] = cards[1:] + (k,)
        g.cont = None
        return True
    if o < 2:
        g.car[i] = cards[1:] + (k,)
        slot = o
    else:
        g.car[i] = cards[1:]
        g.box = g.box + (k,)
        slot = 2
        if g.t.scoring[k]:
            g._rescore(p)
    act = g.t.act[k][slot]
    b = p * 7
    res = g.res
    for r, n in act.cost:
        res[b + r] -= n
    g.cont = (k, slot, 0, (p, c, k, -1))
    if act.cost_spice:
        n = act.cost_spice
        return g._pend(p, "resource", [A.RES + s for s in range(5) if res[b + s] >= n], ("pay", n))
    return True


def _h_resource(g: Game, action: int) -> bool:
    r = action - A.RES
    p = g.pend_player
    d = g.pend_data
    mode = d[0]
    b = p * 7
    if mode == "inc" or mode == "set":
        _, amount, left, choices = d
        if mode == "inc":
            g._gain(p, r, amount)
        else:
            g.res[b + r] = min(amount, CAPS[r])
        left -= 1
        if left:
            rest = tuple(x for x in choices if x != r)
            return g._pend(p, "resource", [A.RES + x for x in rest], (mode, amount, left, rest))
        return True
    if mode == "pay":
        g.res[b + r] -= d[1]
        kind, slot, i, ctx = g.cont
        g.cont = (kind, slot, i, (ctx[0], ctx[1], ctx[2], r))
        return True
    if mode == "raise":
        best = max(g.res[q * 7 + r] for q in range(g.n) if q != p)
        if best > g.res[b + r]:
            g.res[b + r] = best
        return True
    if mode == "swap":
        q = d[1]
        g.res[b + r], g.res[q * 7 + r] = g.res[q * 7 + r], g.res[b + r]
        return True
    if mode == "gain":
        _, left, gains = d
        for choices, n in gains:
            if r in choices:
                g._gain(p, r, n)
                break
        left -= 1
        if left:
            return g._pend(p, "resource", _gain_legal(gains), ("gain", left, gains))
        return True
    raise AssertionError(mode)


def _gain_legal(gains: tuple) -> list[int]:
    return [A.RES + r for choices, _ in gains for r in choices]



def _h_keep(g: Game, action: int) -> bool:
    k = action - A.KEEP
    d, drawn, to = g.pend_data
    p, c = g.cont[3][0], g.cont[3][1]
    rest = list(drawn)
    rest.remove(k)
    cards = g.car[p * 4 + c]
    g.car[p * 4 + c] = (k,) + cards if to == "front" else cards + (k,)
    if d == STANDARD:
        g.discard = g.discard + tuple(rest)
    else:
        g._put_under(d, rest, p)
    if g.t.scoring[k]:
        g._rescore(p)
    return True


def _h_take(g: Game, action: int) -> bool:
    k = action - A.TAKE
    p, c = g.cont[3][0], g.cont[3][1]
    disc = g.discard
    i = len(disc) - 1 - disc[::-1].index(k)
    g.discard = disc[:i] + disc[i + 1:]
    g.car[p * 4 + c] = g.car[p * 4 + c] + (k,)
    g._rescore(p)
    return True


def _drawn_contract_legal(g: Game, p: int, mode: str, drawn: tuple[int, ...]) -> list[int]:
    C = g.cards.contracts
    if mode == "wheat":
        return [A.CONTRACT + k for k in drawn if C[k].kind == "wheat"] + [A.DONE]
    return [A.CONTRACT + k for k in drawn if g._contract_ok(p, C[k], "normal")] + [A.DONE]


def _h_contract(g: Game, action: int) -> bool:
    p = g.pend_player
    d = g.pend_data
    C = g.cards.contracts
    if d[0] == "display":
        k = action - A.CONTRACT
        mode = d[1]
        c = C[k]
        g._pay_contract(p, c, mode)
        i = g.display.index(k)
        g.display = g.display[:i] + g.display[i + 1:]
        g._refill_display()
        g._take_contract(p, k, True)
        return True
    _, mode, drawn = d
    if action == A.DONE:
        g._put_under(CONTRACTS, drawn, p)
        return True
    k = action - A.CONTRACT
    rest = list(drawn)
    rest.remove(k)
    rest_t = tuple(rest)
    if mode == "wheat":
        g._take_contract(p, k, True)
        g._put_under(CONTRACTS, rest_t, p)
        return True
    g._pay_contract(p, C[k], "normal")
    g._take_contract(p, k, True)
    legal = _drawn_contract_legal(g, p, mode, rest_t)
    if len(legal) > 1:
        return g._pend(p, "contract", legal, ("drawn", mode, rest_t))
    g._put_under(CONTRACTS, rest_t, p)
    return True


def _h_card(g: Game, action: int) -> bool:
    p = g.pend_player
    source, left = g.pend_data
    if action == A.DONE:
        return True
    c, pos = divmod(action - A.CARD, A.MAX_POSITION)
    cards = g.car[p * 4 + c]
    g.car[p * 4 + c] = cards[:pos] + cards[pos + 1:]
    g.box = g.box + (cards[pos],)
    g._rescore(p)
    left -= 1
    if left <= 0 or source == "patriarch":
        return True
    ctx = g.cont[3]
    caravans = [ctx[1]] if source == "this" else range(g.ncar[p])
    legal = g._own_positions(p, caravans)
    if not legal:
        return True
    return g._pend(p, "card", legal + [A.DONE], (source, left))


def _h_caravan(g: Game, action: int) -> bool:
    p = g.pend_player
    c = action - A.CARAVAN
    cards = g.car[p * 4 + c]
    g.car[p * 4 + c] = cards[1:] + cards[:1]
    return True


def _h_herd(g: Game, action: int) -> bool:
    p = g.pend_player
    players, sources = g.pend_data
    s, dst = divmod(action - A.HERD, 4)
    src = g.car[p * 4 + s]
    k = src[0]
    g.car[p * 4 + s] = src[1:]
    g.car[p * 4 + dst] = g.car[p * 4 + dst] + (k,)
    sources = tuple(x for x in sources if x != s)
    if sources:
        return g._pend(p, "herd", _herd_legal(g, p, sources), (players, sources))
    return _herd_next(g, players)


def _herd_legal(g: Game, p: int, sources: tuple[int, ...]) -> list[int]:
    return [A.HERD + s * 4 + d for s in sources for d in range(g.ncar[p]) if d != s]


def _herd_next(g: Game, players: tuple[int, ...]) -> bool:
    while players:
        p = players[0]
        players = players[1:]
        sources = tuple(c for c in range(g.ncar[p]) if g.car[p * 4 + c])
        if sources:
            return g._pend(p, "herd", _herd_legal(g, p, sources), (players, sources))
    return True


def _h_player(g: Game, action: int) -> bool:
    q = action - A.PLAYER
    p = g.pend_player
    return g._pend(p, "resource", [A.RES + s for s in range(5)], ("swap", q))


def _h_amount(g: Game, action: int) -> bool:
    p = g.pend_player
    amount = action - A.AMOUNT
    gains = g.pend_data[0]
    g.res[p * 7 + GOLD] -= amount
    if amount == 0:
        return True
    return g._pend(p, "resource", _gain_legal(gains), ("gain", amount, gains))


_HANDLERS = {
    "turn": _h_turn,
    "resource": _h_resource,
    "keep": _h_keep,
    "take": _h_take,
    "contract": _h_contract,
    "card": _h_card,
    "caravan": _h_caravan,
    "herd": _h_herd,
    "player": _h_player,
    "amount": _h_amount,
}


# ============================================================================================
# Effect ops: (game, effect, ctx) -> True when finished, False when a decision is pending.
# ctx = (player, caravan index, card kind, spice paid as cost or -1).


def _count(g: Game, n: int | str, ctx: tuple) -> int:
    if isinstance(n, int):
        return n
    p = ctx[0]
    if n == "caravan_size":
        return len(g.car[p * 4 + ctx[1]])
    if n == "patriarchs":
        side = g.t.pat_side
        return sum(1 for c in range(g.ncar[p]) for k in g.car[p * 4 + c] if side[k])
    if n == "contracts":
        return len(g.fulfilled[p])
    raise AssertionError(n)


def _targets(g: Game, who: str, p: int) -> list[int]:
    if who == "self":
        return [p]
    if who == "opponents":
        return [(p + i) % g.n for i in range(1, g.n)]
    return [(p + i) % g.n for i in range(g.n)]


def _op_increase(g: Game, e: Effect, ctx: tuple) -> bool:
    p = ctx[0]
    amount = _count(g, e.n, ctx)
    if len(e.choices) == 1:
        g._gain(p, e.choices[0], amount)
        return True
    return g._pend(p, "resource", [A.RES + r for r in e.choices], ("inc", amount, e.count, e.choices))


def _op_set(g: Game, e: Effect, ctx: tuple) -> bool:
    p = ctx[0]
    if e.condition == "any_zero_gold" and not any(g.res[q * 7 + GOLD] == 0 for q in range(g.n)):
        return True
    amount = e.n
    if e.who == "opponents":
        r = e.choices[0]
        for q in _targets(g, "opponents", p):
            g.res[q * 7 + r] = min(amount, CAPS[r])
        return True
    choices = e.choices
    if e.except_paid:
        choices = tuple(r for r in choices if r != ctx[3])
    if len(choices) == 1 and e.count == 1:
        g.res[p * 7 + choices[0]] = min(amount, CAPS[choices[0]])
        return True
    return g._pend(p, "resource", [A.RES + r for r in choices], ("set", amount, e.count, choices))


def _op_decrease(g: Game, e: Effect, ctx: tuple) -> bool:
    r = e.choices[0]
    for q in _targets(g, e.who, ctx[0]):
        i = q * 7 + r
        if g.res[i] >= e.min_before:
            g.res[i] = max(0, g.res[i] - e.n)
    return True


def _op_draw(g: Game, e: Effect, ctx: tuple) -> bool:
    d = STANDARD if e.deck == "standard" else SPECIAL
    n = _count(g, e.n, ctx)
    drawn = []
    for _ in range(n):
        k = g._draw(d)
        if k is None:
            break
        drawn.append(k)
    if not drawn:
        return True
    return g._pend(ctx[0], "keep", [A.KEEP + k for k in drawn], (d, tuple(drawn), e.to))


def _op_take_discard(g: Game, e: Effect, ctx: tuple) -> bool:
    if not g.discard:
        return True
    return g._pend(ctx[0], "take", [A.TAKE + k for k in g.discard], ())


def _op_fulfil(g: Game, e: Effect, ctx: tuple) -> bool:
    p = ctx[0]
    C = g.cards.contracts
    legal = [A.CONTRACT + k for k in g.display if g._contract_ok(p, C[k], e.mode)]
    if not legal:
        return True
    return g._pend(p, "contract", legal, ("display", e.mode))


def _op_draw_contracts(g: Game, e: Effect, ctx: tuple) -> bool:
    p = ctx[0]
    drawn = []
    for _ in range(e.n):
        k = g._draw(CONTRACTS)
        if k is None:
            break
        drawn.append(k)
    C = g.cards.contracts
    if e.mode == "small_special_free":
        rest = []
        for k in drawn:
            if C[k].kind == "small" or C[k].special:
                g._take_contract(p, k, False)
            else:
                rest.append(k)
        g._put_under(CONTRACTS, rest, p)
        return True
    mode = "wheat" if e.mode == "wheat_free_one" else "pay"
    legal = _drawn_contract_legal(g, p, mode, tuple(drawn))
    if len(legal) == 1:
        g._put_under(CONTRACTS, drawn, p)
        return True
    return g._pend(p, "contract", legal, ("drawn", mode, tuple(drawn)))


def _op_remove(g: Game, e: Effect, ctx: tuple) -> bool:
    p, c = ctx[0], ctx[1]
    if e.what == "patriarch":
        cards = g.car[p * 4 + c]
        if g.options.min_caravan_two and len(cards) <= 2:
            return True
        pat = g.t.pat_card
        positions = [A.card_at(c, i) for i, k in enumerate(cards) if pat[k] and i < A.MAX_POSITION]
        if not positions:
            return True
        if len(positions) == 1:
            i = positions[0] - A.CARD - c * A.MAX_POSITION
            g.car[p * 4 + c] = cards[:i] + cards[i + 1:]
            g.box = g.box + (cards[i],)
            g._rescore(p)
            return True
        return g._pend(p, "card", positions, ("patriarch", 1))
    source = "this" if e.source == "this_caravan" else "own"
    caravans = [c] if source == "this" else range(g.ncar[p])
    legal = g._own_positions(p, caravans)
    if not legal:
        return True
    return g._pend(p, "card", legal + [A.DONE], (source, e.n))


def _op_turn(g: Game, e: Effect, ctx: tuple) -> bool:
    p, c, k = ctx[0], ctx[1], ctx[2]
    cards = g.car[p * 4 + c]
    if k not in cards:
        return True
    i = len(cards) - 1 - cards[::-1].index(k)
    flipped = g.t.flip[k]
    if e.place_back:
        g.car[p * 4 + c] = cards[:i] + cards[i + 1:] + (flipped,)
    else:
        g.car[p * 4 + c] = cards[:i] + (flipped,) + cards[i + 1:]
    g.cont = g.cont[:3] + ((p, c, flipped, ctx[3]),)
    if g.t.scoring[k] or g.t.scoring[flipped]:
        g._rescore(p)
    return True


def _op_flip_patriarchs(g: Game, e: Effect, ctx: tuple) -> bool:
    pat, flip = g.t.pat_card, g.t.flip
    for q in _targets(g, e.who, ctx[0]):
        for c in range(g.ncar[q]):
            cards = g.car[q * 4 + c]
            g.car[q * 4 + c] = tuple(flip[k] if pat[k] else k for k in cards)
        g._rescore(q)
    return True


def _op_patriarchs_to_front(g: Game, e: Effect, ctx: tuple) -> bool:
    side = g.t.pat_side
    for q in _targets(g, e.who, ctx[0]):
        for c in range(g.ncar[q]):
            cards = g.car[q * 4 + c]
            g.car[q * 4 + c] = tuple(k for k in cards if side[k]) + tuple(k for k in cards if not side[k])
    return True


def _op_cycle_front(g: Game, e: Effect, ctx: tuple) -> bool:
    p, c = ctx[0], ctx[1]
    legal = [A.CARAVAN + x for x in range(g.ncar[p]) if x != c and g.car[p * 4 + x]]
    if not legal:
        return True
    return g._pend(p, "caravan", legal, ())


def _op_herd(g: Game, e: Effect, ctx: tuple) -> bool:
    return _herd_next(g, tuple(_targets(g, "all", ctx[0])))


def _op_raise(g: Game, e: Effect, ctx: tuple) -> bool:
    return g._pend(ctx[0], "resource", [A.RES + s for s in range(5)], ("raise",))


def _op_swap(g: Game, e: Effect, ctx: tuple) -> bool:
    p = ctx[0]
    return g._pend(p, "player", [A.PLAYER + q for q in _targets(g, "opponents", p)], ("swap",))


def _op_shuffle(g: Game, e: Effect, ctx: tuple) -> bool:
    d = SPECIAL if e.deck == "special" else STANDARD
    top, pool, under = g.decks[d]
    g.decks[d] = ((), pool + top + tuple(k for k, _ in under), ())
    return True


def _op_new_caravan(g: Game, e: Effect, ctx: tuple) -> bool:
    p = ctx[0]
    if g.spare and g.ncar[p] < A.MAX_CARAVANS:
        nc = g.ncar[p]
        g.car[p * 4 + nc] = (g.cards.patriarch,)
        g.ncar = g.ncar[:p] + (nc + 1,) + g.ncar[p + 1:]
        g.spare = 0
        g._rescore(p)
    return True


def _op_spend_gold(g: Game, e: Effect, ctx: tuple) -> bool:
    p = ctx[0]
    gold = g.res[p * 7 + GOLD]
    return g._pend(p, "amount", [A.AMOUNT + x for x in range(gold + 1)], (e.per_gold,))


_OPS = {
    "increase": _op_increase,
    "set": _op_set,
    "decrease": _op_decrease,
    "draw": _op_draw,
    "take_discard": _op_take_discard,
    "fulfil": _op_fulfil,
    "draw_contracts": _op_draw_contracts,
    "remove": _op_remove,
    "turn": _op_turn,
    "flip_patriarchs": _op_flip_patriarchs,
    "patriarchs_to_front": _op_patriarchs_to_front,
    "cycle_front": _op_cycle_front,
    "herd": _op_herd,
    "raise_to_opponent_max": _op_raise,
    "swap": _op_swap,
    "shuffle": _op_shuffle,
    "new_caravan": _op_new_caravan,
    "spend_gold": _op_spend_gold,
}

__all__ = ["SPICES", "Game", "IllegalAction", "Options", "Person", "ScenarioError"]
