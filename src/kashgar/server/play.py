"""Pure game helpers of the server: applying actions with their log entries, option parsing,
undo rules. Nothing here touches the database or the network."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from .. import actions as A
from ..bots import BOT_NAMES, BotError, parse_spec
from ..bots.ismcts import LEVELS
from ..cards import CardSet, load_cards
from ..game import Game, Options

SLOTS = "ABPX"
#: What the lobby offers: every bot, ISMCTS at each of its levels.
BOT_LEVELS = tuple(n for n in BOT_NAMES if n != "ismcts") + tuple(f"ismcts:{level}" for level in LEVELS)
HOUSE_RULES = {
    "min-caravan": "min_caravan_two",
    "farrier": "farrier_two_mules",
    "spice-merchants": "spice_merchants_in_discard",
}
MAX_NAME = 40
MIN_CLOCK = 10
MAX_CLOCK = 14 * 24 * 3600


class BadRequest(ValueError):
    """A request that cannot be carried out; ``status`` is the HTTP status, the message says why."""

    def __init__(self, message: str, status: int = 400) -> None:
        super().__init__(message)
        self.status = status


def check_bot_spec(spec: Any) -> str:
    if not isinstance(spec, str):
        raise BadRequest(f"bot: expected one of {', '.join(BOT_LEVELS)}, got {spec!r}")
    spec = spec.strip().lower()
    if spec not in BOT_LEVELS:
        try:
            name, arg = parse_spec(spec)
        except BotError as exc:
            raise BadRequest(f"bot: {exc}") from None
        if name != "ismcts" or not arg.startswith("iterations="):
            raise BadRequest(f"bot: expected one of {', '.join(BOT_LEVELS)} or ismcts:iterations=N, got {spec!r}")
        n = arg.partition("=")[2]
        if "," in n:
            raise BadRequest(f"bot: seats take ismcts:iterations=N without search options, got {spec!r}")
        if not n.isdigit() or not 1 <= int(n) <= 20000:
            raise BadRequest(f"bot: ismcts:iterations=N needs N from 1 to 20000, got {spec!r}")
    return spec


def check_name(name: Any, default: str) -> str:
    if name is None or (isinstance(name, str) and not name.strip()):
        return default
    if not isinstance(name, str):
        raise BadRequest(f"name: expected text, got {type(name).__name__}")
    name = " ".join(name.split())
    if len(name) > MAX_NAME:
        raise BadRequest(f"name: at most {MAX_NAME} characters")
    if any(ord(ch) < 32 or ord(ch) == 127 for ch in name):
        raise BadRequest("name: control characters are not allowed")
    return name


def parse_options(body: dict, players: int, cards: CardSet | None = None) -> Options:
    """Options from a create-game request: ``expansion`` ("all", a list of Cut and Thrust ids, or
    nothing) and ``house`` (a list of house rule names)."""
    cards = cards or load_cards()
    exp_cards = {p.id: p.copies for p in cards.persons if p.deck == "expansion"}
    exp = body.get("expansion")
    expansion: list[tuple[str, int]] = []
    if exp in (None, False, "", [], "none"):
        pass
    elif exp in ("all", True):
        expansion = sorted(exp_cards.items())
    elif isinstance(exp, list):
        for cid in exp:
            if not isinstance(cid, str) or cid not in exp_cards:
                raise BadRequest(f"expansion: {cid!r} is not a Cut and Thrust card (known: {', '.join(exp_cards)})")
            expansion.append((cid, exp_cards[cid]))
    else:
        raise BadRequest('expansion: expected "all" or a list of Cut and Thrust card ids')
    house = body.get("house") or []
    if not isinstance(house, list):
        raise BadRequest(f"house: expected a list of house rules ({', '.join(HOUSE_RULES)})")
    kw = {}
    for rule in house:
        if rule not in HOUSE_RULES:
            raise BadRequest(f"house: unknown house rule {rule!r} (known: {', '.join(HOUSE_RULES)})")
        kw[HOUSE_RULES[rule]] = True
    return Options(players=players, expansion=tuple(expansion), **kw)


def describe(g: Game, aid: int) -> dict[str, Any]:
    """Public details of action ``aid`` in position ``g`` (before it is applied): the card it
    concerns, for the log."""
    out: dict[str, Any] = {}
    P = g.cards.persons
    if aid < A.PASS:
        c, o = divmod(aid, 4)
        cards = g.car[g.turn_player * 4 + c]
        if cards:
            out["card"] = P[cards[0]].id
        out["caravan"] = c + 1
        out["slot"] = SLOTS[o]
    elif A.HERD <= aid < A.CARD:
        s, _d = divmod(aid - A.HERD, 4)
        cards = g.car[g.pend_player * 4 + s]
        if cards:
            out["card"] = P[cards[0]].id
    elif A.CARD <= aid < A.KEEP:
        c, pos = divmod(aid - A.CARD, A.MAX_POSITION)
        cards = g.car[g.pend_player * 4 + c]
        if pos < len(cards):
            out["card"] = P[cards[pos]].id
    return out


def step(g: Game, action: int | str, seq: int, *, auto: bool = False, bot: bool = False) -> dict[str, Any]:
    """Apply one action to ``g`` and return its log entry. Raises IllegalAction/NotationError and
    leaves ``g`` unchanged when the action is not legal."""
    if isinstance(action, str):
        aid = A.parse(action, g.cards)
    else:
        aid = action
    seat = g.to_move
    turn = g.turn_no
    info = describe(g, aid) if aid in g.legal() else {}
    g.draw_log = []
    try:
        g.apply(aid)
        drew = bool(g.draw_log)
    finally:
        g.draw_log = None
    entry = {
        "seq": seq,
        "seat": seat,
        "a": g.action_text(aid),
        "turn": turn,
        "auto": auto,
        "bot": bot,
        "drew": drew,
        "points": list(g.points),
    }
    entry.update(info)
    return entry


def forced_steps(g: Game, seq: int) -> list[dict[str, Any]]:
    """Apply every decision that has a single legal action; their log entries."""
    out = []
    while not g.over and len(g.legal()) == 1:
        out.append(step(g, g.legal()[0], seq + len(out), auto=True))
    return out


@dataclass
class Replayed:
    game: Game
    log: list[dict[str, Any]] = field(default_factory=list)


def rebuild(options: Options, seed: int, rows: list[tuple[int, str, bool, bool]], upto: int | None = None,
            cards: CardSet | None = None) -> Replayed:
    """Replay stored actions ``(seat, text, auto, bot)``; ``upto`` stops after that many."""
    g = Game.new(options, seed, cards)
    r = Replayed(g)
    for i, (seat, text, auto, bot) in enumerate(rows if upto is None else rows[:upto]):
        if g.to_move != seat:
            raise ValueError(f"stored action {i + 1} ({text!r}) was made by seat {seat + 1}, but seat {g.to_move + 1} is to move")
        r.log.append(step(g, text, i, auto=auto, bot=bot))
    return r


def undo_options(log: list[dict[str, Any]], seat: int, humans: list[int]) -> dict[str, Any]:
    """What ``seat`` may undo: the decisions it may go back to (before them), and whether the
    other people must agree.

    One person with bots: any earlier decision of theirs, freely. Several people: only one's own
    last decision, freely while no hidden card was drawn since (the decision itself included) and
    no other person decided since; otherwise with the others' consent.
    """
    mine = [e["seq"] for e in log if e["seat"] == seat and not e["auto"] and not e["bot"]]
    if seat not in humans or not mine:
        return {"can": False, "targets": [], "consent": False}
    if len(humans) == 1:
        return {"can": True, "targets": mine, "to": mine[-1], "consent": False}
    t = mine[-1]
    later = log[t:]
    free = not any(e["drew"] for e in later) and all(e["seat"] == seat or e["auto"] or e["bot"] for e in later)
    return {"can": True, "targets": [t], "to": t, "consent": not free}
