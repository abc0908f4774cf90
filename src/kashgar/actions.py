"""The fixed action space: every decision of the game is one integer id with one text form.

The layout never depends on the game in progress, so an id means the same thing in every
position (what is *legal* depends on the position). Families, in id order:

=========  =====  ===================================================  ==================
family     ids    meaning                                              notation
=========  =====  ===================================================  ==================
turn       0-15   caravan c (1-4) and what to do with its front card:  ``1A`` ``1B`` ``1P``
                  A/B = first/second caravan action, P = parting       ``1X``
                  action, X = pass (the card goes to the back)
pass       16     no caravan has a card: the turn passes               ``pass``
done       17     stop an optional or repeated choice                  ``done``
resource   18-24  ginger, cloves, pepper, anise, cinnamon, gold, mules ``ginger`` ...
player     25-28  a player (seat 1-4)                                  ``player 2``
caravan    29-32  one of your caravans                                 ``caravan 3``
amount     33-42  an amount 0-9 (how much gold)                        ``amount 4``
herd       43-58  move the front card of caravan s to the back of d    ``herd 1>2``
card       59-570 the card at position p (1 = front, up to 128) of     ``card 2.3``
                  caravan c
keep       571-   keep a drawn person card of this kind                ``keep planter``
take       635-   take a card of this kind from the discard pile       ``take baker``
contract   699-   fulfil a contract of this kind                       ``fulfil large-1``
=========  =====  ===================================================  ==================

Identical cards share a kind, so choosing between two copies is one action.
"""

from __future__ import annotations

from .cards import RESOURCES, CardSet

MAX_CARAVANS = 4
MAX_PLAYERS = 4
MAX_POSITION = 128
MAX_KINDS = 64

TURN = 0
OPTIONS = "ABPX"
OPT_A, OPT_B, OPT_P, OPT_X = range(4)
PASS = 16
DONE = 17
RES = 18
PLAYER = 25
CARAVAN = 29
AMOUNT = 33
HERD = 43
CARD = 59
KEEP = CARD + MAX_CARAVANS * MAX_POSITION
TAKE = KEEP + MAX_KINDS
CONTRACT = TAKE + MAX_KINDS
SIZE = CONTRACT + MAX_KINDS

FAMILIES = (
    ("turn", TURN, PASS),
    ("pass", PASS, DONE),
    ("done", DONE, RES),
    ("resource", RES, PLAYER),
    ("player", PLAYER, CARAVAN),
    ("caravan", CARAVAN, AMOUNT),
    ("amount", AMOUNT, HERD),
    ("herd", HERD, CARD),
    ("card", CARD, KEEP),
    ("keep", KEEP, TAKE),
    ("take", TAKE, CONTRACT),
    ("contract", CONTRACT, SIZE),
)


class NotationError(ValueError):
    """Text that is not an action of the notation, or an id outside the action space."""


def turn(caravan: int, option: int) -> int:
    """Id of the turn action on ``caravan`` (0-based) with option ``OPT_*``."""
    return TURN + caravan * 4 + option


def card_at(caravan: int, position: int) -> int:
    """Id of choosing the card at ``position`` (0-based from the front) of ``caravan`` (0-based)."""
    return CARD + caravan * MAX_POSITION + position


def family(action: int) -> str:
    """The family name of an action id."""
    for name, lo, hi in FAMILIES:
        if lo <= action < hi:
            return name
    raise NotationError(f"action id {action} is outside the action space 0..{SIZE - 1}")


def to_text(action: int, cards: CardSet) -> str:
    """The notation of an action id."""
    if not isinstance(action, int) or not 0 <= action < SIZE:
        raise NotationError(f"action id {action!r} is outside the action space 0..{SIZE - 1}")
    if action < PASS:
        return f"{action // 4 + 1}{OPTIONS[action % 4]}"
    if action == PASS:
        return "pass"
    if action == DONE:
        return "done"
    if action < PLAYER:
        return RESOURCES[action - RES]
    if action < CARAVAN:
        return f"player {action - PLAYER + 1}"
    if action < AMOUNT:
        return f"caravan {action - CARAVAN + 1}"
    if action < HERD:
        return f"amount {action - AMOUNT}"
    if action < CARD:
        s, d = divmod(action - HERD, 4)
        return f"herd {s + 1}>{d + 1}"
    if action < KEEP:
        c, p = divmod(action - CARD, MAX_POSITION)
        return f"card {c + 1}.{p + 1}"
    if action < TAKE:
        return f"keep {_person_id(cards, action - KEEP, action)}"
    if action < CONTRACT:
        return f"take {_person_id(cards, action - TAKE, action)}"
    k = action - CONTRACT
    if k >= len(cards.contracts):
        raise NotationError(f"action id {action} names contract kind {k}, which this card set does not have")
    return f"fulfil {cards.contracts[k].id}"


def _person_id(cards: CardSet, k: int, action: int) -> str:
    if k >= len(cards.persons):
        raise NotationError(f"action id {action} names person kind {k}, which this card set does not have")
    return cards.persons[k].id


def _number(word: str, lo: int, hi: int, what: str, text: str) -> int:
    if not word.isdigit() or not lo <= int(word) <= hi:
        raise NotationError(f"{text!r}: {what} must be a number from {lo} to {hi}")
    return int(word)


def parse(text: str, cards: CardSet) -> int:
    """The action id of a notation string (case and spacing are free)."""
    if not isinstance(text, str):
        raise NotationError(f"expected notation text, got {text!r}")
    words = text.strip().lower().split()
    if not words:
        raise NotationError("empty action")
    head = words[0]
    if len(words) == 1:
        if head == "pass":
            return PASS
        if head == "done":
            return DONE
        if head in RESOURCES:
            return RES + RESOURCES.index(head)
        if head == "star-anise":
            return RES + 3
        if len(head) >= 2 and head[:-1].isdigit() and head[-1].upper() in OPTIONS:
            c = _number(head[:-1], 1, MAX_CARAVANS, "the caravan", text)
            return turn(c - 1, OPTIONS.index(head[-1].upper()))
        raise NotationError(
            f"{text!r} is not an action (examples: 1A, 2P, 3X, keep planter, fulfil small-1, ginger, done)"
        )
    if len(words) != 2:
        raise NotationError(f"{text!r}: an action is one or two words")
    arg = words[1]
    if head == "player":
        return PLAYER + _number(arg, 1, MAX_PLAYERS, "the player", text) - 1
    if head == "caravan":
        return CARAVAN + _number(arg, 1, MAX_CARAVANS, "the caravan", text) - 1
    if head == "amount":
        return AMOUNT + _number(arg, 0, 9, "the amount", text)
    if head == "herd":
        parts = arg.split(">")
        if len(parts) != 2:
            raise NotationError(f"{text!r}: write herd FROM>TO, e.g. herd 1>2")
        s = _number(parts[0], 1, MAX_CARAVANS, "the caravan", text)
        d = _number(parts[1], 1, MAX_CARAVANS, "the caravan", text)
        return HERD + (s - 1) * 4 + d - 1
    if head == "card":
        parts = arg.split(".")
        if len(parts) != 2:
            raise NotationError(f"{text!r}: write card CARAVAN.POSITION, e.g. card 2.1 for the front card of caravan 2")
        c = _number(parts[0], 1, MAX_CARAVANS, "the caravan", text)
        p = _number(parts[1], 1, MAX_POSITION, "the position", text)
        return card_at(c - 1, p - 1)
    if head in ("keep", "take"):
        if arg not in cards.person_index:
            raise NotationError(f"{text!r}: no person card has the id {arg!r}")
        return (KEEP if head == "keep" else TAKE) + cards.person_index[arg]
    if head == "fulfil" or head == "fulfill":
        if arg not in cards.contract_index:
            raise NotationError(f"{text!r}: no contract has the id {arg!r}")
        return CONTRACT + cards.contract_index[arg]
    raise NotationError(f"{text!r} is not an action: unknown word {head!r}")
