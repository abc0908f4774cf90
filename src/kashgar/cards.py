"""Card data: loading, validation and the compiled card set the engine interprets.

The cards live in one plain TOML file (``data/cards.toml``, format in ``docs/card-format.md``).
:func:`load_cards` reads and validates it; every error is a :class:`CardDataError` that names the
card and the field. The result is an immutable :class:`CardSet`: person kinds and contract kinds
indexed by small integers, each action compiled to a tuple of :class:`Effect` values.
"""

from __future__ import annotations

import hashlib
import tomllib
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path
from typing import Any

SPICES = ("ginger", "cloves", "pepper", "anise", "cinnamon")
RESOURCES = SPICES + ("gold", "mules")
GOLD = 5
MULES = 6
CAPS = (9, 9, 9, 9, 9, 9, 6)
RES_INDEX = {name: i for i, name in enumerate(RESOURCES)}

DECKS = ("patriarch", "start", "standard", "special", "expansion")
DECK_SIZES = {"patriarch": 13, "start": 12, "standard": 76, "special": 12, "expansion": 12}
CONTRACT_KINDS = ("small", "large", "wheat", "pepper", "gold")
CONTRACT_TOTAL = 40
COUNT_EXPRS = ("caravan_size", "patriarchs", "contracts")
PROVENANCE = {"S", "W", "R"}


class CardDataError(ValueError):
    """A card file that cannot be used; the message names the card and the field."""


@dataclass(frozen=True, slots=True)
class Effect:
    """One step of an action, in the small vocabulary the engine interprets.

    ``choices`` are the resource indices the player may pick from (one entry: no choice).
    ``n`` is an int, or one of :data:`COUNT_EXPRS`.
    """

    op: str
    choices: tuple[int, ...] = ()
    n: int | str = 0
    count: int = 1
    who: str = "self"
    deck: str = ""
    to: str = "back"
    mode: str = ""
    what: str = "any"
    source: str = ""
    min_before: int = 0
    except_paid: bool = False
    condition: str = ""
    place_back: bool = False
    per_gold: tuple[tuple[tuple[int, ...], int], ...] = ()
    raw: dict = field(default_factory=dict, compare=False, hash=False)


@dataclass(frozen=True, slots=True)
class Action:
    """A caravan or parting action: its cost and its effects."""

    cost: tuple[tuple[int, int], ...]
    cost_spice: int
    effects: tuple[Effect, ...]
    src: str
    raw: dict = field(default_factory=dict, compare=False, hash=False)


@dataclass(frozen=True, slots=True)
class Person:
    """A kind of person card (all copies of one card share it)."""

    index: int
    id: str
    en: str
    de: str
    deck: str
    copies: int
    points: int
    per_wheat: bool
    must: bool
    rank: int
    flip: int
    caravan: tuple[Action, ...]
    parting: tuple[Action, ...]
    src: str
    seeds: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class Contract:
    """A kind of contract card."""

    index: int
    id: str
    en: str
    de: str
    kind: str
    copies: int
    points: int
    mules: int
    cost: tuple[tuple[int, int], ...]
    cost_spice: int
    payout: tuple[tuple[int, int], ...]
    src: str
    seeds: tuple[str, ...]

    @property
    def special(self) -> bool:
        """Wheat Fields and the two immediate-payout kinds are Special contracts."""
        return self.kind in ("wheat", "pepper", "gold")


@dataclass(frozen=True)
class CardSet:
    """All card kinds of one card file, indexed for the engine."""

    persons: tuple[Person, ...]
    contracts: tuple[Contract, ...]
    digest: str
    person_index: dict[str, int]
    contract_index: dict[str, int]

    def person(self, key: str | int) -> Person:
        """A person kind by id or index."""
        return self.persons[key if isinstance(key, int) else self.person_index[key]]

    def contract(self, key: str | int) -> Contract:
        """A contract kind by id or index."""
        return self.contracts[key if isinstance(key, int) else self.contract_index[key]]

    @property
    def patriarch(self) -> int:
        return self.person_index["patriarch"]

    @property
    def matriarch(self) -> int:
        return self.person_index["matriarch"]

    def deck_kinds(self, deck: str) -> list[int]:
        return [p.index for p in self.persons if p.deck == deck]


# --------------------------------------------------------------------------------------------
# Loading and validation


class _Where:
    """Builds error messages that name the card and the field."""

    def __init__(self, card: str) -> None:
        self.card = card

    def fail(self, fieldname: str, problem: str) -> CardDataError:
        return CardDataError(f"card {self.card!r}, field {fieldname!r}: {problem}")


def _resource_choices(value: Any, where: _Where, fieldname: str) -> tuple[int, ...]:
    names = value if isinstance(value, list) else [value]
    if not names:
        raise where.fail(fieldname, "empty resource list")
    out: list[int] = []
    for name in names:
        if name == "spice":
            out.extend(range(5))
        elif isinstance(name, str) and name in RES_INDEX:
            out.append(RES_INDEX[name])
        else:
            raise where.fail(
                fieldname, f"unknown resource {name!r} (expected one of {', '.join(RESOURCES)}, spice)"
            )
    if len(set(out)) != len(out):
        raise where.fail(fieldname, f"resource listed twice in {value!r}")
    return tuple(out)


def _int(value: Any, where: _Where, fieldname: str, lo: int, hi: int) -> int:
    if not isinstance(value, int) or isinstance(value, bool) or not lo <= value <= hi:
        raise where.fail(fieldname, f"expected an integer from {lo} to {hi}, got {value!r}")
    return value


def _cost(value: Any, where: _Where, fieldname: str) -> tuple[tuple[tuple[int, int], ...], int]:
    if value is None:
        return (), 0
    if not isinstance(value, dict):
        raise where.fail(fieldname, f"a cost is a table of resource = amount, got {value!r}")
    pairs: list[tuple[int, int]] = []
    spice = 0
    for name, amount in value.items():
        n = _int(amount, where, f"{fieldname}.{name}", 1, 9)
        if name == "spice":
            spice = n
        elif name in RES_INDEX:
            pairs.append((RES_INDEX[name], n))
        else:
            raise where.fail(fieldname, f"unknown resource {name!r} in cost")
    return tuple(pairs), spice


_EFFECT_FIELDS: dict[str, set[str]] = {
    "increase": {"res", "n", "count"},
    "set": {"res", "n", "count", "except", "who", "if"},
    "decrease": {"res", "n", "who", "min_before"},
    "draw": {"deck", "n", "to"},
    "take_discard": set(),
    "fulfil": {"mode"},
    "draw_contracts": {"n", "mode"},
    "remove": {"from", "n", "what"},
    "turn": {"place"},
    "flip_patriarchs": {"who"},
    "patriarchs_to_front": {"who"},
    "cycle_front": set(),
    "herd": set(),
    "raise_to_opponent_max": {"res"},
    "swap": {"res"},
    "shuffle": {"deck"},
    "new_caravan": set(),
    "spend_gold": {"per_gold"},
}
_REQUIRED: dict[str, set[str]] = {
    "increase": {"res", "n"},
    "set": {"res", "n"},
    "decrease": {"res", "n", "who"},
    "draw": {"deck", "n"},
    "draw_contracts": {"n", "mode"},
    "remove": {"from", "n"},
    "flip_patriarchs": {"who"},
    "patriarchs_to_front": {"who"},
    "raise_to_opponent_max": {"res"},
    "swap": {"res"},
    "shuffle": {"deck"},
    "spend_gold": {"per_gold"},
}
_ENUMS: dict[tuple[str, str], tuple[str, ...]] = {
    ("set", "who"): ("self", "opponents"),
    ("set", "except"): ("paid",),
    ("set", "if"): ("any_zero_gold",),
    ("decrease", "who"): ("self", "opponents", "all"),
    ("draw", "deck"): ("standard", "special"),
    ("draw", "to"): ("back", "front"),
    ("fulfil", "mode"): ("normal", "free_small", "gold_for_spice", "cinnamon_for_spice"),
    ("draw_contracts", "mode"): ("wheat_free_one", "small_special_free", "pay_any"),
    ("remove", "from"): ("this_caravan", "own_caravans"),
    ("remove", "what"): ("any", "patriarch"),
    ("turn", "place"): ("back",),
    ("flip_patriarchs", "who"): ("opponents", "all"),
    ("patriarchs_to_front", "who"): ("all", "self", "opponents"),
    ("raise_to_opponent_max", "res"): ("spice",),
    ("swap", "res"): ("spice",),
    ("shuffle", "deck"): ("special", "standard"),
}


def _effect(raw: Any, where: _Where, fieldname: str) -> Effect:
    if not isinstance(raw, dict):
        raise where.fail(fieldname, f"an effect is a table with an 'op', got {raw!r}")
    op = raw.get("op")
    if op not in _EFFECT_FIELDS:
        raise where.fail(f"{fieldname}.op", f"unknown effect {op!r} (known: {', '.join(_EFFECT_FIELDS)})")
    allowed = _EFFECT_FIELDS[op]
    for key in raw:
        if key != "op" and key not in allowed:
            raise where.fail(f"{fieldname}.{key}", f"effect {op!r} has no field {key!r}")
    for key in _REQUIRED.get(op, ()):
        if key not in raw:
            raise where.fail(f"{fieldname}.{key}", f"effect {op!r} needs field {key!r}")
    for (eop, key), values in _ENUMS.items():
        if eop == op and key in raw and raw[key] not in values:
            raise where.fail(f"{fieldname}.{key}", f"expected one of {', '.join(values)}, got {raw[key]!r}")

    kw: dict[str, Any] = {"op": op, "raw": dict(raw)}
    if op in ("increase", "set", "decrease"):
        kw["choices"] = _resource_choices(raw["res"], where, f"{fieldname}.res")
        n = raw["n"]
        if op == "increase" and isinstance(n, str):
            if n not in COUNT_EXPRS:
                raise where.fail(f"{fieldname}.n", f"expected an integer or one of {', '.join(COUNT_EXPRS)}, got {n!r}")
            kw["n"] = n
        else:
            kw["n"] = _int(n, where, f"{fieldname}.n", 0, 9)
        if "count" in raw:
            kw["count"] = _int(raw["count"], where, f"{fieldname}.count", 1, 5)
            if kw["count"] > len(kw["choices"]):
                raise where.fail(f"{fieldname}.count", "more different resources than there are choices")
        if op == "decrease" and len(kw["choices"]) != 1:
            raise where.fail(f"{fieldname}.res", "decrease takes one fixed resource")
        kw["who"] = raw.get("who", "self")
        kw["except_paid"] = raw.get("except") == "paid"
        kw["condition"] = raw.get("if", "")
        if "min_before" in raw:
            kw["min_before"] = _int(raw["min_before"], where, f"{fieldname}.min_before", 0, 9)
    elif op == "draw":
        kw["deck"] = raw["deck"]
        n = raw["n"]
        kw["n"] = n if n == "contracts" else _int(n, where, f"{fieldname}.n", 1, 9)
        kw["to"] = raw.get("to", "back")
    elif op == "fulfil":
        kw["mode"] = raw.get("mode", "normal")
    elif op == "draw_contracts":
        kw["n"] = _int(raw["n"], where, f"{fieldname}.n", 1, 9)
        kw["mode"] = raw["mode"]
    elif op == "remove":
        kw["source"] = raw["from"]
        kw["n"] = _int(raw["n"], where, f"{fieldname}.n", 1, 9)
        kw["what"] = raw.get("what", "any")
    elif op == "turn":
        kw["place_back"] = raw.get("place") == "back"
    elif op in ("flip_patriarchs", "patriarchs_to_front"):
        kw["who"] = raw["who"]
    elif op in ("raise_to_opponent_max", "swap"):
        kw["choices"] = tuple(range(5))
    elif op == "shuffle":
        kw["deck"] = raw["deck"]
    elif op == "spend_gold":
        per = raw["per_gold"]
        if not isinstance(per, list) or not per:
            raise where.fail(f"{fieldname}.per_gold", "expected a non-empty list of {res, n} tables")
        gains = []
        for i, gain in enumerate(per):
            if not isinstance(gain, dict) or set(gain) != {"res", "n"}:
                raise where.fail(f"{fieldname}.per_gold[{i}]", "expected a table with exactly res and n")
            gains.append(
                (
                    _resource_choices(gain["res"], where, f"{fieldname}.per_gold[{i}].res"),
                    _int(gain["n"], where, f"{fieldname}.per_gold[{i}].n", 1, 9),
                )
            )
        kw["per_gold"] = tuple(gains)
    return Effect(**kw)


def _action(raw: Any, where: _Where, fieldname: str) -> Action:
    if not isinstance(raw, dict):
        raise where.fail(fieldname, "an action is a table with 'effects'")
    for key in raw:
        if key not in ("cost", "effects", "src"):
            raise where.fail(f"{fieldname}.{key}", f"an action has no field {key!r}")
    effects = raw.get("effects")
    if not isinstance(effects, list) or not effects:
        raise where.fail(f"{fieldname}.effects", "an action needs a non-empty list of effects")
    cost, cost_spice = _cost(raw.get("cost"), where, f"{fieldname}.cost")
    compiled = tuple(_effect(e, where, f"{fieldname}.effects[{i}]") for i, e in enumerate(effects))
    if cost_spice == 0 and any(e.except_paid for e in compiled):
        raise where.fail(f"{fieldname}.effects", "except = 'paid' needs a 'spice' cost")
    return Action(cost, cost_spice, compiled, _src(raw.get("src", ""), where, f"{fieldname}.src"), dict(raw))


def _src(value: Any, where: _Where, fieldname: str) -> str:
    if not isinstance(value, str) or not value or not set(value.split("/")) <= PROVENANCE:
        raise where.fail(fieldname, f"provenance is S, W, R or a mix like 'S/R', got {value!r}")
    return value


def _text(raw: dict, key: str, where: _Where) -> str:
    value = raw.get(key)
    if not isinstance(value, str) or not value.strip():
        raise where.fail(key, "expected a non-empty string")
    return value


def _seeds(raw: dict, where: _Where) -> tuple[str, ...]:
    seeds = raw.get("seeds", [])
    if not isinstance(seeds, list) or not all(isinstance(s, str) and s.isdigit() and len(s) == 3 for s in seeds):
        raise where.fail("seeds", f"expected a list of seed numbers like ['000', '001'], got {seeds!r}")
    return tuple(seeds)


_PERSON_FIELDS = {
    "id", "en", "de", "deck", "copies", "points", "must", "rank", "flip", "src", "seeds", "caravan", "parting",
}
_CONTRACT_FIELDS = {"id", "en", "de", "kind", "copies", "points", "mules", "cost", "payout", "src", "seeds"}


def _entry(raw: Any, i: int, table: str, allowed: set[str]) -> tuple[str, _Where]:
    """Check the shape and id of one [[person]] or [[contract]] entry."""
    cid = raw.get("id") if isinstance(raw, dict) else None
    where = _Where(cid if isinstance(cid, str) else f"{table} #{i + 1}")
    if not isinstance(raw, dict):
        raise where.fail(table, "expected a table")
    for key in raw:
        if key not in allowed:
            raise where.fail(key, "unknown field")
    if not isinstance(cid, str) or not cid or not all(ch.isalnum() or ch == "-" for ch in cid):
        raise where.fail("id", "expected a slug of letters, digits and '-'")
    return cid, where


def parse_cards(data: dict, digest: str = "") -> CardSet:
    """Validate parsed TOML data and compile it into a :class:`CardSet`."""
    if not isinstance(data, dict):
        raise CardDataError("the card file must be a TOML document")
    unknown = set(data) - {"person", "contract"}
    if unknown:
        raise CardDataError(f"unknown top-level table(s): {', '.join(sorted(unknown))} (expected person, contract)")
    raw_persons = data.get("person")
    raw_contracts = data.get("contract")
    if not isinstance(raw_persons, list) or not raw_persons:
        raise CardDataError("the card file has no [[person]] entries")
    if not isinstance(raw_contracts, list) or not raw_contracts:
        raise CardDataError("the card file has no [[contract]] entries")

    persons: list[Person] = []
    seen: dict[str, int] = {}
    flips: list[str] = []
    for i, raw in enumerate(raw_persons):
        card, where = _entry(raw, i, "person", _PERSON_FIELDS)
        if card in seen:
            raise where.fail("id", "duplicate id")
        deck = raw.get("deck")
        if deck not in DECKS:
            raise where.fail("deck", f"expected one of {', '.join(DECKS)}, got {deck!r}")
        copies = _int(raw.get("copies"), where, "copies", 0, 20)
        points_raw = raw.get("points", 0)
        per_wheat = points_raw == "wheat_fields"
        points = 0 if per_wheat else _int(points_raw, where, "points", -9, 9)
        must = raw.get("must", False)
        if not isinstance(must, bool):
            raise where.fail("must", f"expected true or false, got {must!r}")
        rank = raw.get("rank", 0)
        if deck == "start":
            rank = _int(rank, where, "rank", 1, 99)
        elif rank not in (0, None):
            raise where.fail("rank", "only start cards have a rank")
        flip = raw.get("flip", "")
        if deck == "patriarch" and not flip:
            raise where.fail("flip", "a patriarch-deck card needs the id of its other side")
        flips.append(flip or "")
        caravan_raw = raw.get("caravan", [])
        parting_raw = raw.get("parting", [])
        if not isinstance(caravan_raw, list) or len(caravan_raw) > 2:
            raise where.fail("caravan", "expected at most two [[person.caravan]] actions")
        if not isinstance(parting_raw, list) or len(parting_raw) > 1:
            raise where.fail("parting", "expected at most one [[person.parting]] action")
        caravan = tuple(_action(a, where, f"caravan[{j}]") for j, a in enumerate(caravan_raw))
        parting = tuple(_action(a, where, f"parting[{j}]") for j, a in enumerate(parting_raw))
        seen[card] = len(persons)
        persons.append(
            Person(
                index=len(persons), id=card, en=_text(raw, "en", where), de=_text(raw, "de", where), deck=deck,
                copies=copies, points=points, per_wheat=per_wheat, must=must, rank=rank or 0, flip=-1,
                caravan=caravan, parting=parting, src=_src(raw.get("src"), where, "src"), seeds=_seeds(raw, where),
            )
        )
    # Resolve flips.
    for i, flip in enumerate(flips):
        if flip:
            where = _Where(persons[i].id)
            if flip not in seen:
                raise where.fail("flip", f"unknown card {flip!r}")
            other = persons[seen[flip]]
            if flips[other.index] != persons[i].id:
                raise where.fail("flip", f"{flip!r} must name {persons[i].id!r} as its flip side")
            persons[i] = _replace(persons[i], flip=other.index)
    for required in ("patriarch", "matriarch"):
        if required not in seen:
            raise CardDataError(f"the card file needs a person with id {required!r}")
    # Deck counts.
    for deck, size in DECK_SIZES.items():
        have = sum(p.copies for p in persons if p.deck == deck)
        if have != size:
            names = ", ".join(f"{p.id} x{p.copies}" for p in persons if p.deck == deck)
            raise CardDataError(f"deck {deck!r} has {have} cards, expected {size} (cards: {names})")
    ranks = [p.rank for p in persons if p.deck == "start"]
    if len(set(ranks)) != len(ranks):
        raise CardDataError(f"start cards must have different ranks, got {sorted(ranks)}")
    for p in persons:
        if p.deck == "start" and p.copies != 1:
            raise _Where(p.id).fail("copies", "start cards are single copies")

    contracts: list[Contract] = []
    cseen: dict[str, int] = {}
    for i, raw in enumerate(raw_contracts):
        cid, where = _entry(raw, i, "contract", _CONTRACT_FIELDS)
        if cid in cseen or cid in seen:
            raise where.fail("id", "duplicate id")
        kind = raw.get("kind")
        if kind not in CONTRACT_KINDS:
            raise where.fail("kind", f"expected one of {', '.join(CONTRACT_KINDS)}, got {kind!r}")
        cost, cost_spice = _cost(raw.get("cost"), where, "cost")
        payout, payout_spice = _cost(raw.get("payout") or None, where, "payout")
        if payout_spice:
            raise where.fail("payout", "a payout names its resource")
        cseen[cid] = len(contracts)
        contracts.append(
            Contract(
                index=len(contracts), id=cid, en=_text(raw, "en", where), de=_text(raw, "de", where), kind=kind,
                copies=_int(raw.get("copies", 1), where, "copies", 1, 40), points=_int(raw.get("points"), where, "points", 0, 9),
                mules=_int(raw.get("mules", 0), where, "mules", 0, 6), cost=cost, cost_spice=cost_spice, payout=payout,
                src=_src(raw.get("src"), where, "src"), seeds=_seeds(raw, where),
            )
        )
    total = sum(c.copies for c in contracts)
    if total != CONTRACT_TOTAL:
        raise CardDataError(f"the contract deck has {total} cards, expected {CONTRACT_TOTAL}")
    if len(persons) > 64 or len(contracts) > 64:
        raise CardDataError("at most 64 person kinds and 64 contract kinds fit the action space")
    return CardSet(tuple(persons), tuple(contracts), digest, dict(seen), dict(cseen))


def _replace(p: Person, **changes: Any) -> Person:
    values = {name: getattr(p, name) for name in Person.__dataclass_fields__}
    values.update(changes)
    return Person(**values)


def load_cards(path: str | Path | None = None) -> CardSet:
    """Load and validate a card file; ``None`` loads the built-in one (cached)."""
    if path is None:
        global _DEFAULT
        if _DEFAULT is None:
            text = resources.files("kashgar.data").joinpath("cards.toml").read_bytes()
            _DEFAULT = _parse_bytes(text, "built-in cards.toml")
        return _DEFAULT
    p = Path(path)
    try:
        text = p.read_bytes()
    except OSError as exc:
        raise CardDataError(f"cannot read card file {str(p)!r}: {exc.strerror}") from None
    return _parse_bytes(text, str(p))


def _parse_bytes(text: bytes, name: str) -> CardSet:
    try:
        data = tomllib.loads(text.decode("utf-8"))
    except UnicodeDecodeError:
        raise CardDataError(f"{name}: not UTF-8 text") from None
    except tomllib.TOMLDecodeError as exc:
        raise CardDataError(f"{name}: not valid TOML: {exc}") from None
    return parse_cards(data, hashlib.sha256(text).hexdigest()[:16])


_DEFAULT: CardSet | None = None
