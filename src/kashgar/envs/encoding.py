"""The observation vector shared by the Gymnasium, PettingZoo and OpenSpiel adapters.

One :class:`ObservationEncoder` per (card set, number of players, turn limit) turns a position,
seen by one seat, into a fixed-size ``float32`` vector, and the legal actions into a mask over the
engine's fixed action space (:data:`kashgar.actions.SIZE` ids).

The vector carries only what the seat may see: it is a function of
:meth:`kashgar.game.Game.observation` (``encode_view`` computes it from that JSON view;
``encode`` computes the same numbers straight from the game, faster, and the tests check that
both agree). Deck order, another player's cards drawn for a pending choice and another player's
knowledge of the cards under a deck never reach it.

Seats are relative: section ``seat0`` is the observing seat, ``seat1`` the next player in turn
order, and so on; ``seat`` (one-hot) gives the observer's absolute seat so that ``player N``
actions can be read. Every section, with its offset, size and bounds, is listed by
:meth:`ObservationEncoder.sections` and documented in ``docs/research.md``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

try:
    import numpy as np
except ImportError as exc:  # pragma: no cover - depends on the installed extras
    raise ImportError("kashgar.envs needs numpy: pip install kashgar[rl]") from exc

from .. import actions as A
from ..cards import CAPS, CardSet, load_cards
from ..game import CONTRACTS, DECK_NAMES, Game, Options

DECISIONS = ("turn", "resource", "keep", "take", "contract", "card", "caravan", "herd", "player", "amount", "over")
RESOURCE_MODES = ("inc", "set", "pay", "raise", "swap", "gain")
CONTRACT_MODES = ("normal", "free_small", "gold_for_spice", "cinnamon_for_spice", "wheat", "pay")
ACTION_SLOTS = ("caravan", "caravan2", "parting")
HOUSE_FLAGS = ("min_caravan_two", "farrier_two_mules", "spice_merchants_in_discard", "reshuffle_discard")
DEPTH = 8
"""Caravan positions encoded one by one (front first); every card is also in the caravan's counts."""

_DEC = {name: i for i, name in enumerate(DECISIONS)}
_RMODE = {name: i for i, name in enumerate(RESOURCE_MODES)}
_CMODE = {name: i for i, name in enumerate(CONTRACT_MODES)}
_SLOT = {name: i for i, name in enumerate(ACTION_SLOTS)}


@dataclass(frozen=True)
class Section:
    """One named slice of the vector: ``vector[offset:offset + size]``, values in [low, high]."""

    name: str
    offset: int
    size: int
    low: float
    high: float
    doc: str


class ObservationEncoder:
    """Encodes positions for one card set, player count and turn limit.

    ``size`` is the vector length; ``low``/``high`` are per-entry bounds (for a Box space);
    :meth:`encode` and :meth:`encode_view` give the vector, :meth:`action_mask` the legal mask.
    """

    def __init__(
        self, cards: CardSet | None = None, players: int = 2, turn_limit: int = 1000, depth: int = DEPTH
    ) -> None:
        if not isinstance(players, int) or not 2 <= players <= 4:
            raise ValueError(f"players must be 2, 3 or 4, got {players!r}")
        self.cards = cards = cards or load_cards()
        self.players = n = players
        self.turn_limit = turn_limit
        self.depth = depth
        K = self.K = len(cards.persons)
        C = self.C = len(cards.contracts)
        pc = max(max(p.copies for p in cards.persons), 1)
        cc = max(max(c.copies for c in cards.contracts), 1)
        people = sum(p.copies for p in cards.persons)
        contracts = sum(c.copies for c in cards.contracts)
        self._sections: list[Section] = []
        self._size = 0
        add = self._add
        # ---- the game as a whole
        add("seat", n, 0, 1, "one-hot: the observer's own seat (0-based), to read `player N` actions")
        add("turn", 1, 0, turn_limit, "turns played so far")
        add("end_triggered", 1, 0, 1, "1 once a player reached 25 points (the round is played out)")
        add("over", 1, 0, 1, "1 when the game is over")
        add("house_rules", len(HOUSE_FLAGS), 0, 1, "flags: " + ", ".join(HOUSE_FLAGS))
        add("expansion", K, 0, pc, "copies of each person kind shuffled in from Cut and Thrust (by card index)")
        add("turn_player", n, 0, 1, "one-hot, relative seat (0 = observer) whose turn it is")
        add("start_player", n, 0, 1, "one-hot, relative seat of the start player")
        add("to_move", n, 0, 1, "one-hot, relative seat that must decide now (all 0 when over)")
        # ---- the pending decision
        add("decision", len(DECISIONS), 0, 1, "one-hot kind of the pending decision: " + ", ".join(DECISIONS))
        add("action_card", K, 0, 1, "one-hot person kind whose action is being carried out (0 between turns)")
        add("action_slot", 3, 0, 1, "one-hot: that card's first caravan action, second caravan action, parting action")
        add("action_caravan", 4, 0, 1, "one-hot: the caravan (of the acting player) the card is in")
        add("resource_mode", len(RESOURCE_MODES), 0, 1, "one-hot for resource decisions: " + ", ".join(RESOURCE_MODES))
        add("contract_mode", len(CONTRACT_MODES), 0, 1, "one-hot for contract decisions: " + ", ".join(CONTRACT_MODES))
        add("amount", 1, 0, A.MAX_POSITION, "the amount of a pending increase/set resource choice")
        add("drawn_count", 1, 0, people, "how many cards are drawn and waiting for the pending decision (public)")
        add("drawn_deck", 3, 0, 1, "one-hot deck those cards came from: " + ", ".join(DECK_NAMES))
        add("drawn_persons", K, 0, pc, "the drawn person cards by kind: only when the observer is the one deciding")
        add("drawn_contracts", C, 0, cc, "the drawn contracts by kind: only when the observer is the one deciding")
        # ---- each seat, the observer first
        self._seat_base = []
        for s in range(n):
            self._seat_base.append(self._size)
            p = f"seat{s}."
            add(p + "points", 1, -64, 128, "points (caravans and contracts)")
            add(p + "rank", n, 0, 1, "one-hot position in the current ranking (points, then last gain)")
            add(p + "resources", 7, 0, max(CAPS), "ginger, cloves, pepper, anise, cinnamon, gold, mules")
            add(p + "contracts", C, 0, cc, "fulfilled contracts by kind")
            for c in range(4):
                q = f"{p}caravan{c}."
                add(q + "present", 1, 0, 1, "1 if the player has this caravan")
                add(q + "length", 1, 0, A.MAX_POSITION, "number of cards")
                add(q + "cards", depth * K, 0, 1,
                    f"one-hot kind of the card at each of the first {depth} positions, front first "
                    f"(entry position * {K} + kind)")
                add(q + "counts", K, 0, pc, "every card of the caravan, counted by kind")
        # ---- the board
        add("display", C, 0, cc, "face-up contracts by kind")
        add("discard", K, 0, pc, "the Standard discard pile by kind")
        add("box", K, 0, pc, "cards out of the game by kind (public)")
        add("spare_patriarch", 1, 0, 1, "1 if the spare Patriarch (for the Aristocrat) is still available")
        for d, name in enumerate(DECK_NAMES):
            total = contracts if d == CONTRACTS else people
            add(f"deck.{name}.size", 1, 0, total, f"cards in the {name} deck")
            add(f"deck.{name}.under", 1, 0, total, f"of which placed under the {name} deck")
            add(f"deck.{name}.known", C if d == CONTRACTS else K, 0, cc if d == CONTRACTS else pc,
                "cards under that deck the observer knows, by kind")
        self.low = np.zeros(self._size, np.float32)
        self.high = np.zeros(self._size, np.float32)
        for sec in self._sections:
            self.low[sec.offset: sec.offset + sec.size] = sec.low
            self.high[sec.offset: sec.offset + sec.size] = sec.high
        self._o = {sec.name: sec.offset for sec in self._sections}
        # Offsets inside one seat's block, and the size of one caravan's block.
        self._seat_rank = 1
        self._seat_res = 1 + n
        self._seat_contracts = 1 + n + 7
        self._seat_car = 1 + n + 7 + C
        self._car_size = 2 + depth * K + K
        assert self._o["seat0.caravan0.present"] - self._o["seat0.points"] == self._seat_car
        self._static_cache: dict[Options, list[int]] = {}
        self._car_cache: dict[tuple[int, ...], tuple[int, ...]] = {}

    def _add(self, name: str, size: int, low: float, high: float, doc: str) -> None:
        self._sections.append(Section(name, self._size, size, float(low), float(high), doc))
        self._size += size

    # ------------------------------------------------------------------ layout

    @property
    def size(self) -> int:
        """Length of the observation vector."""
        return self._size

    def sections(self) -> list[Section]:
        """Every section, in order: name, offset, size, bounds and meaning."""
        return list(self._sections)

    def offset(self, name: str) -> int:
        """Offset of the section called ``name`` (e.g. ``"seat0.resources"``)."""
        if name not in self._o:
            raise KeyError(f"no section named {name!r}")
        return self._o[name]

    def section(self, vector: Any, name: str) -> Any:
        """The slice of ``vector`` that holds section ``name``."""
        at = self.offset(name)
        sec = next(s for s in self._sections if s.offset == at and s.name == name)
        return vector[at: at + sec.size]

    def describe(self, compact: bool = True) -> str:
        """The layout as a Markdown table (offset, size, section, range, meaning).

        ``compact``: list the blocks of seat 0 and its caravan 0 in full, and the repeated blocks
        (caravans 1-3, seats 1 and up) by their offsets only.
        """
        lines = ["| offset | size | section | range | meaning |", "|---:|---:|---|---|---|"]
        done_seats = False
        for s in self._sections:
            if compact and s.name.startswith("seat") and "." in s.name:
                seat, _, rest = s.name.partition(".")
                if seat != "seat0":
                    if not done_seats:
                        blocks = ", ".join(f"`seat{i}` at {b}" for i, b in enumerate(self._seat_base) if i)
                        size = self._seat_base[1] - self._seat_base[0]
                        lines.append(f"| {self._seat_base[1]} | {size} each | `seat1` ... | | the same block for "
                                     f"the other seats in turn order: {blocks} |")
                        done_seats = True
                    continue
                if rest.startswith("caravan") and not rest.startswith("caravan0"):
                    if rest.endswith(".present"):
                        c = rest[len("caravan")]
                        lines.append(f"| {s.offset} | {self._car_size} | `seat0.caravan{c}.*` | | the same block for "
                                     f"caravan {c} |")
                    continue
            lines.append(f"| {s.offset} | {s.size} | `{s.name}` | {s.low:g}..{s.high:g} | {s.doc} |")
        return "\n".join(lines)

    # ------------------------------------------------------------------ encoding

    def _check(self, game: Game, player: int) -> None:
        if game.n != self.players:
            raise ValueError(f"this encoder is for {self.players} players, the game has {game.n}")
        if game.cards is not self.cards and game.cards.digest != self.cards.digest:
            raise ValueError("the game uses a different card set than this encoder")
        if not isinstance(player, int) or not 0 <= player < game.n:
            raise ValueError(f"player must be 0..{game.n - 1}, got {player!r}")

    def _static(self, options: Options) -> list[int]:
        idx = self._static_cache.get(options)
        if idx is None:
            o = self._o
            idx = [o["house_rules"] + i for i, f in enumerate(HOUSE_FLAGS) if getattr(options, f)]
            base = o["expansion"]
            for cid, copies in options.expansion:
                idx += [base + self.cards.person_index[cid]] * copies
            self._static_cache[options] = idx
        return idx

    def encode(self, game: Game, player: int) -> np.ndarray:
        """The vector of ``game`` as ``player`` sees it (reads the engine directly; same as encode_view)."""
        self._check(game, player)
        o = self._o
        n = self.players
        # `hits`: entries to add 1 to (one-hots and counts); `sidx`/`sval`: entries set to a value.
        hits = [o["seat"] + player]
        hits += self._static(game.options)
        sidx = [o["turn"]]
        sval = [game.turn_no]
        if game.end_triggered:
            hits.append(o["end_triggered"])
        if game.over:
            hits.append(o["over"])
        hits.append(o["turn_player"] + (game.turn_player - player) % n)
        hits.append(o["start_player"] + (game.start_player - player) % n)
        to_move = game.to_move
        if to_move >= 0:
            hits.append(o["to_move"] + (to_move - player) % n)
        kind = game.decision
        hits.append(o["decision"] + _DEC[kind])
        cont = game.cont
        if cont is not None:
            hits.append(o["action_card"] + cont[0])
            hits.append(o["action_slot"] + cont[1])
            hits.append(o["action_caravan"] + cont[3][1])
        d = game.pend_data
        if kind == "resource" and d:
            hits.append(o["resource_mode"] + _RMODE[d[0]])
            if d[0] in ("inc", "set"):
                sidx.append(o["amount"])
                sval.append(d[1])
        elif kind == "contract" and d:
            hits.append(o["contract_mode"] + _CMODE[d[1]])
        drawn = game._pending_drawn()
        if drawn is not None:
            dk, cards_drawn = drawn
            sidx.append(o["drawn_count"])
            sval.append(len(cards_drawn))
            hits.append(o["drawn_deck"] + dk)
            if player == game.pend_player:
                base = o["drawn_contracts"] if dk == CONTRACTS else o["drawn_persons"]
                hits += [base + k for k in cards_drawn]
        # seats
        cache = self._car_cache
        if len(cache) > 50_000:
            cache.clear()
        ranking = game.ranking()
        car = game.car
        res = game.res
        for s in range(n):
            p = (player + s) % n
            base = self._seat_base[s]
            sidx.append(base)
            sval.append(game.points[p])
            hits.append(base + self._seat_rank + ranking.index(p))
            at = base + self._seat_res
            sidx += range(at, at + 7)
            sval += res[p * 7: p * 7 + 7]
            cb = base + self._seat_contracts
            hits += [cb + k for k in game.fulfilled[p]]
            for c in range(game.ncar[p]):
                b = base + self._seat_car + c * self._car_size
                cards = car[p * 4 + c]
                sidx.append(b + 1)
                sval.append(len(cards))
                rel = cache.get(cards)
                if rel is None:
                    rel = self._caravan_entries(cards)
                hits += map(b.__add__, rel)
        # board
        b = o["display"]
        hits += [b + k for k in game.display]
        b = o["discard"]
        hits += [b + k for k in game.discard]
        b = o["box"]
        hits += [b + k for k in game.box]
        if game.spare:
            hits.append(o["spare_patriarch"])
        for dk, name in enumerate(DECK_NAMES):
            top, pool, under = game.decks[dk]
            b = o[f"deck.{name}.size"]
            sidx.append(b)
            sval.append(len(top) + len(pool) + len(under))
            sidx.append(b + 1)
            sval.append(len(under))
            hits += [b + 2 + k for k, mask in under if mask >> player & 1]
        vec = np.bincount(np.fromiter(hits, np.intp, len(hits)), minlength=self._size).astype(np.float32)
        vec[sidx] = sval
        return vec

    def _caravan_entries(self, cards: tuple[int, ...]) -> tuple[int, ...]:
        """Entries set by one caravan, relative to its block (present, positions, counts); cached."""
        K = self.K
        D = self.depth
        rel = (0, *(2 + i * K + k for i, k in enumerate(cards[:D])), *(2 + D * K + k for k in cards))
        self._car_cache[cards] = rel
        return rel

    def encode_view(self, view: dict) -> np.ndarray:
        """The vector of an observation (:meth:`kashgar.game.Game.observation`); the reference encoding."""
        cards = self.cards
        pi = cards.person_index
        ci = cards.contract_index
        n = view["players"]
        if n != self.players:
            raise ValueError(f"this encoder is for {self.players} players, the view has {n}")
        me = view["player"]
        K = self.K
        D = self.depth
        vec = np.zeros(self._size, np.float32)
        o = self._o

        def inc(at: int) -> None:
            vec[at] += 1

        def rel(q: int) -> int:
            return (q - me) % n

        inc(o["seat"] + me)
        vec[o["turn"]] = view["turn"]
        vec[o["end_triggered"]] = float(view["end_triggered"])
        vec[o["over"]] = float(view["over"])
        opts = view["options"]
        for i, f in enumerate(HOUSE_FLAGS):
            vec[o["house_rules"] + i] = float(bool(opts[f]))
        for cid, copies in opts["expansion"].items():
            vec[o["expansion"] + pi[cid]] += copies
        inc(o["turn_player"] + rel(view["turn_player"]))
        inc(o["start_player"] + rel(view["start_player"]))
        pending = view["pending"]
        if pending["player"] >= 0:
            inc(o["to_move"] + rel(pending["player"]))
        kind = pending["kind"]
        inc(o["decision"] + _DEC[kind])
        if "card" in pending:
            inc(o["action_card"] + pi[pending["card"]])
            inc(o["action_slot"] + _SLOT[pending["action"]])
            inc(o["action_caravan"] + pending["caravan"] - 1)
        if "mode" in pending:
            if kind == "resource":
                inc(o["resource_mode"] + _RMODE[pending["mode"]])
            else:
                inc(o["contract_mode"] + _CMODE[pending["mode"]])
        if "amount" in pending:
            vec[o["amount"]] = pending["amount"]
        if "drawn_count" in pending:
            vec[o["drawn_count"]] = pending["drawn_count"]
            deck = DECK_NAMES.index(pending["deck"])
            inc(o["drawn_deck"] + deck)
            for cid in pending.get("drawn", ()):
                if deck == CONTRACTS:
                    inc(o["drawn_contracts"] + ci[cid])
                else:
                    inc(o["drawn_persons"] + pi[cid])
        seats = view["seats"]
        ranking = sorted(range(n), key=lambda p: (-seats[p]["points"], -seats[p]["last_gain"], p))
        for s in range(n):
            p = (me + s) % n
            seat = seats[p]
            pre = f"seat{s}."
            vec[o[pre + "points"]] = seat["points"]
            inc(o[pre + "rank"] + ranking.index(p))
            for i, r in enumerate(("ginger", "cloves", "pepper", "anise", "cinnamon", "gold", "mules")):
                vec[o[pre + "resources"] + i] = seat["resources"][r]
            for cid in seat["contracts"]:
                inc(o[pre + "contracts"] + ci[cid])
            for c, caravan in enumerate(seat["caravans"]):
                q = f"{pre}caravan{c}."
                vec[o[q + "present"]] = 1
                vec[o[q + "length"]] = len(caravan)
                for i, cid in enumerate(caravan):
                    if i < D:
                        inc(o[q + "cards"] + i * K + pi[cid])
                    inc(o[q + "counts"] + pi[cid])
        for cid in view["display"]:
            inc(o["display"] + ci[cid])
        for cid in view["discard"]:
            inc(o["discard"] + pi[cid])
        for cid in view["box"]:
            inc(o["box"] + pi[cid])
        vec[o["spare_patriarch"]] = float(view["spare_patriarch"])
        for d, name in enumerate(DECK_NAMES):
            deck = view["decks"][name]
            vec[o[f"deck.{name}.size"]] = deck["size"]
            vec[o[f"deck.{name}.under"]] = len(deck["under"])
            index = ci if d == CONTRACTS else pi
            for cid in deck["under"]:
                if cid is not None:
                    inc(o[f"deck.{name}.known"] + index[cid])
        return vec

    def action_mask(self, game: Game, player: int | None = None) -> np.ndarray:
        """``int8`` mask over the action space: 1 for each legal action (all 0 if ``player`` is not to move)."""
        mask = np.zeros(A.SIZE, np.int8)
        if player is None or player == game.to_move:
            mask[list(game.legal())] = 1
        return mask


_ENCODERS: dict[tuple[str, int, int, int], ObservationEncoder] = {}


def encoder_for(cards: CardSet, players: int, turn_limit: int = 1000) -> ObservationEncoder:
    """A shared encoder for this card set, player count and turn limit (built once)."""
    key = (cards.digest, id(cards), players, turn_limit)
    enc = _ENCODERS.get(key)
    if enc is None:
        enc = _ENCODERS[key] = ObservationEncoder(cards, players, turn_limit)
    return enc
