"""Scenario files: describe any position as JSON and load it as a :class:`~kashgar.game.Game`.

The format is documented in ``docs/scenarios.md``. Only what matters needs to be written: missing
resources are 3, missing decks hold every card of their kind not placed elsewhere, unused
Patriarchs, undealt start cards and unused Cut and Thrust cards go to the box. Every problem is a
:class:`~kashgar.game.ScenarioError` naming the field.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from .cards import CAPS, RESOURCES, CardSet, load_cards
from .game import CONTRACTS, DECK_NAMES, SPECIAL, STANDARD, Game, Options, ScenarioError

_TOP_FIELDS = {
    "format", "options", "seed", "players", "display", "decks", "discard", "box", "spare_patriarch",
    "turn_player", "start_player", "turn", "end_triggered", "comment",
}
_PLAYER_FIELDS = {"caravans", "resources", "contracts", "last_gain", "name", "comment"}
_DECK_FIELDS = {"top", "cards", "under"}


def load_scenario_file(path: str | Path, cards: CardSet | None = None) -> Game:
    """Read a scenario JSON file and build the position."""
    p = Path(path)
    try:
        text = p.read_text(encoding="utf-8")
    except OSError as exc:
        raise ScenarioError(f"cannot read scenario {str(p)!r}: {exc.strerror}") from None
    except UnicodeDecodeError:
        raise ScenarioError(f"scenario {str(p)!r} is not UTF-8 text") from None
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise ScenarioError(f"scenario {str(p)!r} is not valid JSON: {exc}") from None
    return load_scenario(data, cards)


def load_scenario(data: Any, cards: CardSet | None = None) -> Game:
    """Build the position a scenario document describes."""
    cards = cards or load_cards()
    if not isinstance(data, dict):
        raise ScenarioError("a scenario is a JSON object")
    if data.get("format", "kashgar-scenario") == "kashgar-state":
        return Game.from_dict(data, cards)
    _no_unknown(data, _TOP_FIELDS, "scenario")
    try:
        options = Options.from_dict(data.get("options", {}))
    except (ValueError, TypeError) as exc:
        raise ScenarioError(f"options: {exc}") from None
    seed = data.get("seed", 0)
    if not isinstance(seed, int):
        raise ScenarioError(f"seed: expected an integer, got {seed!r}")
    players = data.get("players")
    if not isinstance(players, list) or len(players) != options.players:
        raise ScenarioError(
            f"players: expected a list of {options.players} players (options.players), got "
            f"{len(players) if isinstance(players, list) else players!r}"
        )
    g = Game._blank(cards, options, seed)
    P = cards.persons
    left = {p.index: p.copies for p in P}
    left[cards.patriarch] = P[cards.patriarch].copies
    left[cards.matriarch] = 0
    exp = dict(options.expansion)
    out_of_game: list[int] = []  # Cut and Thrust copies not in this game: in the box
    for p in P:
        if p.deck == "expansion":
            if p.id in exp and exp[p.id] > p.copies:
                raise ScenarioError(f"options.expansion: {p.id!r} has only {p.copies} copies")
            left[p.index] = exp.get(p.id, 0)
            out_of_game.extend([p.index] * (p.copies - left[p.index]))
    for cid in exp:
        if cid not in cards.person_index or P[cards.person_index[cid]].deck != "expansion":
            raise ScenarioError(f"options.expansion: {cid!r} is not a Cut and Thrust card")
    cleft = {c.index: c.copies for c in cards.contracts}

    def person(x: Any, where: str) -> int:
        if not isinstance(x, str) or x not in cards.person_index:
            raise ScenarioError(f"{where}: unknown person card {x!r}")
        k = cards.person_index[x]
        pool = cards.patriarch if k == cards.matriarch else k
        if left[pool] <= 0:
            raise ScenarioError(f"{where}: no copy of {x!r} left (the game has {P[pool].copies} in play)")
        left[pool] -= 1
        return k

    def contract(x: Any, where: str) -> int:
        if not isinstance(x, str) or x not in cards.contract_index:
            raise ScenarioError(f"{where}: unknown contract {x!r}")
        k = cards.contract_index[x]
        if cleft[k] <= 0:
            raise ScenarioError(f"{where}: no copy of contract {x!r} left (the game has {cards.contracts[k].copies})")
        cleft[k] -= 1
        return k

    def person_list(xs: Any, where: str) -> list[int]:
        if not isinstance(xs, list):
            raise ScenarioError(f"{where}: expected a list of card ids")
        return [person(x, f"{where}[{i}]") for i, x in enumerate(xs)]

    n = options.players
    ncar = []
    fulfilled = []
    for pi, pl in enumerate(players):
        where = f"players[{pi}]"
        if not isinstance(pl, dict):
            raise ScenarioError(f"{where}: expected an object")
        _no_unknown(pl, _PLAYER_FIELDS, where)
        cars = pl.get("caravans")
        if not isinstance(cars, list) or not 1 <= len(cars) <= 4:
            raise ScenarioError(f"{where}.caravans: expected a list of 1 to 4 caravans (front to back)")
        for c, cv in enumerate(cars):
            g.car[pi * 4 + c] = tuple(person_list(cv, f"{where}.caravans[{c}]"))
        ncar.append(len(cars))
        res = pl.get("resources", {})
        if not isinstance(res, dict):
            raise ScenarioError(f"{where}.resources: expected an object of resource: value")
        for name, value in res.items():
            if name not in RESOURCES:
                raise ScenarioError(f"{where}.resources: unknown resource {name!r} (known: {', '.join(RESOURCES)})")
            r = RESOURCES.index(name)
            if not isinstance(value, int) or isinstance(value, bool) or not 0 <= value <= CAPS[r]:
                raise ScenarioError(f"{where}.resources.{name}: expected 0..{CAPS[r]}, got {value!r}")
            g.res[pi * 7 + r] = value
        cs = pl.get("contracts", [])
        if not isinstance(cs, list):
            raise ScenarioError(f"{where}.contracts: expected a list of contract ids")
        fulfilled.append(tuple(contract(x, f"{where}.contracts[{i}]") for i, x in enumerate(cs)))
        lg = pl.get("last_gain", -1)
        if not isinstance(lg, int):
            raise ScenarioError(f"{where}.last_gain: expected an integer")
        g.last_gain[pi] = lg
    g.ncar = tuple(ncar)
    g.fulfilled = tuple(fulfilled)

    g.discard = tuple(person_list(data.get("discard", []), "discard"))
    for i, k in enumerate(g.discard):
        if P[k].deck not in ("standard", "expansion"):
            raise ScenarioError(f"discard[{i}]: only Standard and Cut and Thrust cards are discarded, not {P[k].id!r}")
    box = person_list(data.get("box", []), "box")

    spare = data.get("spare_patriarch")
    if spare is None:
        aristocrat = cards.person_index.get("aristocrat")
        spare = any(aristocrat in g.car[i] for i in range(4 * n)) and sum(ncar) <= 3 * n
    if not isinstance(spare, bool):
        raise ScenarioError("spare_patriarch: expected true or false")
    if spare:
        person("patriarch", "spare_patriarch")
    g.spare = int(spare)

    decks_raw = data.get("decks", {})
    if not isinstance(decks_raw, dict):
        raise ScenarioError("decks: expected an object with standard, special, contracts")
    for name in decks_raw:
        if name not in DECK_NAMES:
            raise ScenarioError(f"decks: unknown deck {name!r} (known: {', '.join(DECK_NAMES)})")
    display_raw = data.get("display")
    display: list[int] = []
    if display_raw is not None:
        if not isinstance(display_raw, list) or len(display_raw) > 4:
            raise ScenarioError("display: expected a list of at most 4 contract ids")
        display = [contract(x, f"display[{i}]") for i, x in enumerate(display_raw)]

    deck_kinds = {
        STANDARD: {p.index for p in P if p.deck in ("standard", "expansion")},
        SPECIAL: {p.index for p in P if p.deck == "special"},
    }
    explicit: dict[int, bool] = {}
    for d, name in enumerate(DECK_NAMES):
        raw = decks_raw.get(name, {})
        where = f"decks.{name}"
        if not isinstance(raw, dict):
            raise ScenarioError(f"{where}: expected an object with top, cards, under")
        _no_unknown(raw, _DECK_FIELDS, where)
        take = contract if d == CONTRACTS else person

        def one(x: Any, w: str, d: int = d, take: Any = take) -> int:
            k = take(x, w)
            if d != CONTRACTS and k not in deck_kinds[d]:
                raise ScenarioError(f"{w}: {x!r} does not belong in the {DECK_NAMES[d]} deck")
            return k

        top = raw.get("top", [])
        if not isinstance(top, list):
            raise ScenarioError(f"{where}.top: expected a list (first card is drawn first)")
        top_k = tuple(one(x, f"{where}.top[{i}]") for i, x in enumerate(top))
        under_raw = raw.get("under", [])
        if not isinstance(under_raw, list):
            raise ScenarioError(f"{where}.under: expected a list of {{card, known_by}}")
        under = []
        for i, u in enumerate(under_raw):
            w = f"{where}.under[{i}]"
            if not isinstance(u, dict) or "card" not in u:
                raise ScenarioError(f"{w}: expected {{\"card\": id, \"known_by\": [players]}}")
            known = u.get("known_by", [])
            if not isinstance(known, list) or not all(isinstance(q, int) and 0 <= q < n for q in known):
                raise ScenarioError(f"{w}.known_by: expected a list of player numbers 0..{n - 1}")
            mask = 0
            for q in known:
                mask |= 1 << q
            under.append((one(u["card"], w), mask))
        pool: tuple[int, ...] | None = None
        if "cards" in raw:
            if not isinstance(raw["cards"], list):
                raise ScenarioError(f"{where}.cards: expected a list of card ids")
            pool = tuple(one(x, f"{where}.cards[{i}]") for i, x in enumerate(raw["cards"]))
        explicit[d] = pool is not None
        g.decks[d] = (top_k, pool if pool is not None else (), tuple(under))

    # The rest of each deck: every card not placed elsewhere.
    for d in (STANDARD, SPECIAL):
        if not explicit[d]:
            pool_l = []
            for k in sorted(deck_kinds[d]):
                pool_l.extend([k] * left[k])
                left[k] = 0
            top_k, _, under = g.decks[d]
            g.decks[d] = (top_k, tuple(pool_l), under)
    if not explicit[CONTRACTS]:
        pool_c = []
        for k, m in cleft.items():
            pool_c.extend([k] * m)
            cleft[k] = 0
        top_k, _, under = g.decks[CONTRACTS]
        g.decks[CONTRACTS] = (top_k, tuple(pool_c), under)
    elif any(cleft.values()):
        missing = ", ".join(f"{cards.contracts[k].id} x{m}" for k, m in cleft.items() if m)
        raise ScenarioError(f"decks.contracts.cards: contracts are never removed from the game; not placed: {missing}")
    for k, m in left.items():
        box.extend([k] * m)
    g.box = tuple(box + out_of_game)
    if display_raw is None:
        g.display = ()
        g._refill_display()
    else:
        g.display = tuple(display)

    for key in ("turn_player", "start_player"):
        v = data.get(key, 0)
        if not isinstance(v, int) or not 0 <= v < n:
            raise ScenarioError(f"{key}: expected a player number 0..{n - 1}, got {v!r}")
        setattr(g, key, v)
    turn = data.get("turn", 0)
    if not isinstance(turn, int) or turn < 0:
        raise ScenarioError("turn: expected a non-negative integer")
    g.turn_no = turn
    et = data.get("end_triggered", False)
    if not isinstance(et, bool):
        raise ScenarioError("end_triggered: expected true or false")
    g.end_triggered = et
    lg = list(g.last_gain)
    for p in range(n):
        g._rescore(p)
    g.last_gain = lg
    g._begin_turn()
    return g


def _no_unknown(d: dict, allowed: set[str], where: str) -> None:
    unknown = set(d) - allowed
    if unknown:
        raise ScenarioError(f"{where}: unknown field(s) {', '.join(sorted(unknown))} (allowed: {', '.join(sorted(allowed))})")


def run_actions(game: Game, actions: str | list[str]) -> list[str]:
    """Apply actions in notation ("1A; keep planter" or a list); return the texts applied.

    On an illegal or unparsable action, raises with the step number, and the game keeps every
    action before it (the caller holds a copy if it needs the original).
    """
    items = [a.strip() for a in actions.split(";")] if isinstance(actions, str) else list(actions)
    done = []
    for i, text in enumerate(x for x in items if x):
        try:
            game.apply(text)
        except ValueError as exc:
            raise type(exc)(f"action {i + 1} ({text!r}): {exc}") from None
        done.append(text)
    return done
