"""Card texts in English and German, generated from the compiled card data.

Nothing here is stored text: every sentence is built from the :class:`~kashgar.cards.Effect`
vocabulary (``docs/card-format.md``), so what a player reads can never disagree with what the
engine does. German uses the vocabulary of the German rules ("Erhöhe", "Setze", "Entferne",
"Wende", "Erfülle 1 Auftrag", Standardkarten, Sonderkarten, Ablagestapel ...).

The text functions return plain text. With ``markup=True`` resource names are coloured with
`rich` markup (used by :func:`cards_table` and :func:`contracts_table`); rich turns the markup
into colours on a terminal and drops it when a table is exported as text.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from rich.markup import escape
from rich.table import Table

from .cards import RESOURCES, SPICES, Action, CardSet, Contract, Effect, Person

LANGS = ("en", "de")

_SPICE_SET = frozenset(range(len(SPICES)))

# Indexed like kashgar.cards.RESOURCES: ginger, cloves, pepper, anise, cinnamon, gold, mules.
_NAMES = {
    "en": ("ginger", "cloves", "pepper", "star anise", "cinnamon", "gold", "mules"),
    "de": ("Ingwer", "Nelken", "Pfeffer", "Sternanis", "Zimt", "Gold", "Mulis"),
}
# Names for an amount of exactly 1 ("1 mule", "1 Muli").
_SINGULAR = {
    "en": ("ginger", "clove", "pepper", "star anise", "cinnamon", "gold", "mule"),
    "de": ("Ingwer", "Nelke", "Pfeffer", "Sternanis", "Zimt", "Gold", "Muli"),
}
# German grammatical gender of each resource name: m(asculine), n(euter), p(lural).
_GENDER_DE = ("m", "p", "m", "m", "m", "n", "p")
_POSSESSIVE_DE = {  # accusative possessive by gender
    "sein": {"m": "seinen", "n": "sein", "p": "seine"},
    "dein": {"m": "deinen", "n": "dein", "p": "deine"},
}
_COLOURS = ("yellow", "magenta", "red", "green", "dark_orange", "bright_yellow", "white")


def resource_colour(r: int) -> str:
    """The rich colour used for resource ``r`` (index into kashgar.cards.RESOURCES)."""
    return _COLOURS[r]

_NUMBER_WORDS = {
    "en": ("zero", "one", "two", "three", "four", "five"),
    "de": ("null", "ein", "zwei", "drei", "vier", "fünf"),
}

_DECK_NAMES = {
    "en": {
        "patriarch": "Patriarch",
        "start": "Start",
        "standard": "Standard",
        "special": "Special",
        "expansion": "Cut and Thrust",
    },
    "de": {
        "patriarch": "Patriarch",
        "start": "Start",
        "standard": "Standard",
        "special": "Sonder",
        "expansion": "Hauen und Stechen",
    },
}

_KIND_NAMES = {
    "en": {
        "small": "Small",
        "large": "Large",
        "wheat": "Wheat Field",
        "pepper": "Immediate pepper",
        "gold": "Immediate gold",
    },
    "de": {
        "small": "Kleinauftrag",
        "large": "Großauftrag",
        "wheat": "Getreidefeld",
        "pepper": "Sofort-Ertrag Pfeffer",
        "gold": "Sofort-Ertrag Gold",
    },
}


def _check(lang: str) -> str:
    if lang not in LANGS:
        raise ValueError(f"unknown language {lang!r} (expected one of {', '.join(LANGS)})")
    return lang


class _Ctx:
    """Language and markup for one rendering."""

    __slots__ = ("de", "lang", "markup")

    def __init__(self, lang: str, markup: bool) -> None:
        self.lang = _check(lang)
        self.de = lang == "de"
        self.markup = markup

    def t(self, en: str, de: str) -> str:
        """Pick the English or the German text."""
        return de if self.de else en

    def colour(self, r: int, word: str) -> str:
        """A resource word, coloured when rendering markup."""
        return f"[{_COLOURS[r]}]{word}[/]" if self.markup else word

    def res(self, r: int) -> str:
        """The name of resource ``r``."""
        return self.colour(r, _NAMES[self.lang][r])

    def amount(self, r: int, n: int) -> str:
        """``n`` of resource ``r``: "2 gold", "1 mule", "6 Zimt"."""
        names = _SINGULAR if n == 1 else _NAMES
        return f"{n} {self.colour(r, names[self.lang][r])}"

    def poss(self, word: str, r: int) -> str:
        """German accusative possessive ("seinen Zimt", "dein Gold"); English: the bare name."""
        if not self.de:
            return self.res(r)
        return f"{_POSSESSIVE_DE[word][_GENDER_DE[r]]} {self.res(r)}"

    def number(self, k: int) -> str:
        """A small number as a word: "two", "zwei"."""
        words = _NUMBER_WORDS[self.lang]
        return words[k] if 0 <= k < len(words) else str(k)


def _join(items: Sequence[str], word: str) -> str:
    """Join words the way a sentence lists them: a / a or b / a, b or c."""
    items = list(items)
    if len(items) <= 1:
        return "".join(items)
    return f"{', '.join(items[:-1])} {word} {items[-1]}"


def _choice(c: _Ctx, choices: Sequence[int], count: int = 1, other: bool = False) -> str:
    """The resources an effect lets the player pick from, as a noun phrase.

    ``count`` > 1 asks for that many different ones; ``other`` excludes the spice just paid.
    """
    spice_all = _SPICE_SET <= set(choices)
    if count > 1:
        if spice_all and len(choices) == len(SPICES):
            if other:
                return c.t(
                    f"{c.number(count)} different spices other than the one paid",
                    f"{c.number(count)} verschiedene andere Gewürze als das bezahlte",
                )
            return c.t(f"{c.number(count)} different spices", f"{c.number(count)} verschiedene Gewürze")
        parts = []
        spices_done = False
        for r in choices:
            if r in _SPICE_SET and spice_all:
                if not spices_done:
                    parts.append(c.t("the spices", "den Gewürzen"))
                    spices_done = True
            else:
                parts.append(c.res(r))
        return c.t(
            f"{c.number(count)} different ones of {_join(parts, 'and')}",
            f"{c.number(count)} verschiedene aus {_join(parts, 'und')}",
        )
    parts = []
    spices_done = False
    for r in choices:
        if r in _SPICE_SET and spice_all:
            if not spices_done:
                if other:
                    parts.append(c.t("a different spice", "ein anderes Gewürz"))
                else:
                    parts.append(c.t("a spice", "ein Gewürz"))
                spices_done = True
        else:
            parts.append(c.res(r))
    return _join(parts, c.t("or", "oder"))


def _by(c: _Ctx, n: int | str, each: bool) -> str:
    """The amount of an increase: "by 2", "um je 2", "by the number of ..."."""
    if isinstance(n, int):
        return c.t(f"by {n} each" if each else f"by {n}", f"um je {n}" if each else f"um {n}")
    en, de = {
        "caravan_size": ("the number of cards in this caravan", "die Anzahl der Karten in dieser Karawane"),
        "patriarchs": (
            "the number of your cards showing the Patriarch side",
            "die Anzahl deiner Karten mit der Patriarchen-Seite oben",
        ),
        "contracts": ("the number of contracts you have fulfilled", "die Anzahl deiner erfüllten Aufträge"),
    }[n]
    return c.t(f"each by {en}" if each else f"by {en}", f"um je {de}" if each else f"um {de}")


def _single(e: Effect) -> int | None:
    return e.choices[0] if len(e.choices) == 1 else None


# --------------------------------------------------------------------------------------------
# One renderer per effect op


def _increase(c: _Ctx, e: Effect) -> str:
    what = _choice(c, e.choices, e.count)
    return c.t(f"Increase {what} {_by(c, e.n, e.count > 1)}.", f"Erhöhe {what} {_by(c, e.n, e.count > 1)}.")


def _set(c: _Ctx, e: Effect) -> str:
    what = _choice(c, e.choices, e.count, other=e.except_paid)
    each = e.count > 1
    to_en = f"to {e.n} each" if each else f"to {e.n}"
    to_de = f"auf je {e.n}" if each else f"auf {e.n}"
    r = _single(e)
    if e.who == "opponents":
        target = c.poss("sein", r) if r is not None else what
        text = c.t(f"Every opponent sets {what} {to_en}.", f"Jeder Mitspieler setzt {target} {to_de}.")
    elif e.condition == "any_zero_gold":
        gold = c.res(RESOURCES.index("gold"))
        en_target = f"your {what}" if r is not None else what
        de_target = c.poss("dein", r) if r is not None else what
        text = c.t(
            f"If any player now has 0 {gold}, set {en_target} {to_en}.",
            f"Hat nun ein Spieler 0 {gold}, setze {de_target} {to_de}.",
        )
    else:
        text = c.t(f"Set {what} {to_en}.", f"Setze {what} {to_de}.")
    if e.condition and e.condition != "any_zero_gold":  # future conditions: show them, never hide them
        text = f"{text[:-1]} ({e.condition})."
    return text


def _decrease(c: _Ctx, e: Effect) -> str:
    r = e.choices[0]
    name = c.res(r)
    if e.who == "self":
        if e.min_before:
            return c.t(
                f"If you had {e.min_before} or more {name}, reduce {name} by {e.n}.",
                f"Hast du {e.min_before} oder mehr {name}, verringere {c.poss('dein', r)} um {e.n}.",
            )
        return c.t(f"Reduce {name} by {e.n}.", f"Verringere {name} um {e.n}.")
    en_who, de_who = (
        ("Every opponent", "Jeder Mitspieler") if e.who == "opponents" else ("Every player", "Jeder Spieler")
    )
    if e.min_before:
        return c.t(
            f"{en_who} who had {e.min_before} or more {name} reduces {name} by {e.n}.",
            f"{de_who}, der {e.min_before} oder mehr {name} hatte, verringert {c.poss('sein', r)} um {e.n}.",
        )
    return c.t(f"{en_who} reduces {name} by {e.n}.", f"{de_who} verringert {c.poss('sein', r)} um {e.n}.")


def _draw(c: _Ctx, e: Effect) -> str:
    special = e.deck == "special"
    front = e.to == "front"
    where_en = "at the FRONT of this caravan" if front else "at the back of this caravan"
    where_de = "ganz VORNE in dieser Karawane" if front else "am Ende dieser Karawane"
    rest_en = "the rest go under the Special deck" if special else "the rest go face up to the discard pile"
    rest_de = (
        "die übrigen kommen unter den Stapel der Sonderkarten"
        if special
        else "die übrigen kommen offen auf den Ablagestapel"
    )
    if e.n == "contracts":
        cards_en = (
            "as many Special cards as contracts you have fulfilled"
            if special
            else ("as many Standard cards as contracts you have fulfilled")
        )
        cards_de = (
            "so viele Sonderkarten, wie du Aufträge erfüllt hast"
            if special
            else ("so viele Standardkarten, wie du Aufträge erfüllt hast")
        )
        return c.t(
            f"Draw {cards_en}, keep 1 {where_en}; {rest_en}.",
            f"Ziehe {cards_de}, reihe 1 davon {where_de} ein; {rest_de}.",
        )
    if e.n == 1:
        return c.t(
            f"Draw 1 {'Special' if special else 'Standard'} card and place it {where_en}.",
            f"Ziehe 1 {'Sonderkarte' if special else 'Standardkarte'} und reihe sie {where_de} ein.",
        )
    return c.t(
        f"Draw {e.n} {'Special' if special else 'Standard'} cards, keep 1 {where_en}; {rest_en}.",
        f"Ziehe {e.n} {'Sonderkarten' if special else 'Standardkarten'}, reihe 1 davon {where_de} ein; {rest_de}.",
    )


def _take_discard(c: _Ctx, e: Effect) -> str:
    return c.t(
        "Take a card of your choice from the discard pile to the back of this caravan.",
        "Nimm 1 beliebige Karte vom Ablagestapel und reihe sie am Ende dieser Karawane ein.",
    )


def _fulfil(c: _Ctx, e: Effect) -> str:
    mode = e.mode or "normal"
    if mode == "free_small":
        return c.t(
            "Fulfil a Small contract for free: no mule requirement, no cost.",
            "Erfülle 1 Kleinauftrag kostenlos: ohne Muli-Bedingung, ohne Kosten.",
        )
    if mode in ("gold_for_spice", "cinnamon_for_spice"):
        r = c.res(RESOURCES.index("gold" if mode == "gold_for_spice" else "cinnamon"))
        return c.t(
            f"Fulfil a contract; missing spices may be paid with {r} 1:1.",
            f"Erfülle 1 Auftrag; fehlende Gewürze dürfen 1:1 mit {r} bezahlt werden.",
        )
    return c.t("Fulfil a contract.", "Erfülle 1 Auftrag.")


def _draw_contracts(c: _Ctx, e: Effect) -> str:
    head_en = f"Draw {e.n} contracts" if e.n != 1 else "Draw 1 contract"
    head_de = f"Ziehe {e.n} Aufträge" if e.n != 1 else "Ziehe 1 Auftrag"
    rest_en = "the rest go under the contract deck"
    rest_de = "die übrigen kommen unter den Stapel der Auftragskarten"
    mid_en, mid_de = {
        "wheat_free_one": (
            "you may fulfil one Wheat Field among them for free",
            "du darfst 1 Getreidefeld davon kostenlos erfüllen",
        ),
        "small_special_free": (
            "fulfil every Small and Special contract among them for free, without immediate payouts",
            "erfülle alle Klein- und Spezialaufträge davon kostenlos, ohne Sofort-Ertrag",
        ),
        "pay_any": (
            "fulfil any of them by meeting their mule requirements and paying their costs",
            "erfülle beliebig viele davon, indem du ihre Muli-Bedingung erfüllst und ihre Kosten bezahlst",
        ),
    }[e.mode]
    return c.t(f"{head_en}; {mid_en}; {rest_en}.", f"{head_de}; {mid_de}; {rest_de}.")


def _remove(c: _Ctx, e: Effect) -> str:
    if e.what == "patriarch":
        if e.source == "this_caravan":
            return c.t(
                "Remove this caravan's Patriarch/Matriarch from the game.",
                "Entferne den Patriarchen/die Matriarchin dieser Karawane.",
            )
        if e.n == 1:
            return c.t(
                "Remove 1 Patriarch/Matriarch of your caravans from the game.",
                "Entferne 1 Patriarchen/Matriarchin aus deinen Karawanen.",
            )
        return c.t(
            f"Remove up to {e.n} Patriarchs/Matriarchs of your caravans from the game.",
            f"Entferne bis zu {e.n} Patriarchen/Matriarchinnen aus deinen Karawanen.",
        )
    here_en = "in this caravan" if e.source == "this_caravan" else "in your caravans"
    here_de = "aus dieser Karawane" if e.source == "this_caravan" else "aus deinen Karawanen"
    if e.n == 1:
        return c.t(
            f"Remove 1 card of your choice {here_en} from the game.",
            f"Entferne 1 beliebige Karte {here_de}.",
        )
    return c.t(
        f"Remove up to {e.n} cards of your choice {here_en} from the game.",
        f"Entferne bis zu {e.n} beliebige Karten {here_de}.",
    )


def _turn(c: _Ctx, e: Effect) -> str:
    if e.place_back:
        return c.t(
            "Turn this card over and place it at the back of this caravan.",
            "Wende diese Karte und reihe sie am Ende dieser Karawane ein.",
        )
    return c.t("Turn this card over.", "Wende diese Karte.")


def _who(c: _Ctx, who: str) -> tuple[str, str]:
    """Subject of an effect on several players: (English, German)."""
    return {
        "opponents": ("Every opponent", "Jeder Mitspieler"),
        "all": ("Every player", "Jeder Spieler"),
    }.get(who, ("You", "Du"))


def _flip_patriarchs(c: _Ctx, e: Effect) -> str:
    if e.who == "self":
        return c.t(
            "Turn each of your Patriarchs to the Matriarch side and each Matriarch to the Patriarch side, in place.",
            "Wende jeden deiner Patriarchen auf die Matriarchin-Seite und jede Matriarchin auf die "
            "Patriarchen-Seite, ohne sie zu verschieben.",
        )
    en, de = _who(c, e.who)
    return c.t(
        f"{en} turns each Patriarch to the Matriarch side and each Matriarch to the Patriarch side, in place.",
        f"{de} wendet jeden Patriarchen auf die Matriarchin-Seite und jede Matriarchin auf die "
        "Patriarchen-Seite, ohne sie zu verschieben.",
    )


def _patriarchs_to_front(c: _Ctx, e: Effect) -> str:
    if e.who == "self":
        return c.t(
            "Move each of your cards showing the Patriarch side to the front of its caravan.",
            "Reihe jede deiner Karten mit der Patriarchen-Seite oben ganz vorne in ihrer Karawane ein.",
        )
    en, de = _who(c, e.who)
    return c.t(
        f"{en} moves each of their cards showing the Patriarch side to the front of its caravan.",
        f"{de} reiht jede seiner Karten mit der Patriarchen-Seite oben ganz vorne in ihrer Karawane ein.",
    )


def _cycle_front(c: _Ctx, e: Effect) -> str:
    return c.t(
        "Move the front card of another of your caravans to the back of that caravan.",
        "Reihe die vorderste Karte einer anderen deiner Karawanen am Ende derselben Karawane ein.",
    )


def _herd(c: _Ctx, e: Effect) -> str:
    return c.t(
        "Every player moves the front card of each of their caravans to the back of a different caravan "
        "of theirs, in an order they choose.",
        "Jeder Spieler reiht die vorderste Karte jeder seiner Karawanen am Ende einer anderen seiner "
        "Karawanen ein, in beliebiger Reihenfolge.",
    )


def _raise_to_opponent_max(c: _Ctx, e: Effect) -> str:
    return c.t(
        "Choose a spice; raise it to the highest value any opponent has of it (it is never lowered).",
        "Wähle ein Gewürz; erhöhe es auf den höchsten Wert, den ein Mitspieler davon hat (es sinkt nie).",
    )


def _swap(c: _Ctx, e: Effect) -> str:
    return c.t(
        "Choose an opponent and a spice; swap your value of that spice with theirs.",
        "Wähle einen Mitspieler und ein Gewürz; tauscht eure Werte dieses Gewürzes.",
    )


def _shuffle(c: _Ctx, e: Effect) -> str:
    if e.deck == "special":
        return c.t("Shuffle the Special deck.", "Mische den Stapel der Sonderkarten.")
    return c.t("Shuffle the Standard deck.", "Mische den Stapel der Standardkarten.")


def _new_caravan(c: _Ctx, e: Effect) -> str:
    return c.t(
        "Start a new caravan with the spare Patriarch, if it is still there.",
        "Bilde mit dem übrigen Patriarchen eine neue Karawane, falls er noch da ist.",
    )


def _spend_gold(c: _Ctx, e: Effect) -> str:
    gains = []
    for choices, n in e.per_gold:
        gains.append(c.t(f"{_choice(c, choices)} by {n}", f"{_choice(c, choices)} um {n}"))
    gold = c.res(RESOURCES.index("gold"))
    # A gain that is itself a choice ("gold or mules by 1") is set off by a comma.
    word = c.t("or", "oder")
    if any(len(choices) > 1 and not _SPICE_SET <= set(choices) for choices, _ in e.per_gold):
        gains_text = f", {word} ".join(gains)
    else:
        gains_text = _join(gains, word)
    if not c.de:
        return f"Pay any amount of {gold}; for each {gold}, increase {gains_text}."
    return f"Zahle beliebig viel {gold}; erhöhe für jedes {gold} {gains_text}."


_RENDER: dict[str, Any] = {
    "increase": _increase,
    "set": _set,
    "decrease": _decrease,
    "draw": _draw,
    "take_discard": _take_discard,
    "fulfil": _fulfil,
    "draw_contracts": _draw_contracts,
    "remove": _remove,
    "turn": _turn,
    "flip_patriarchs": _flip_patriarchs,
    "patriarchs_to_front": _patriarchs_to_front,
    "cycle_front": _cycle_front,
    "herd": _herd,
    "raise_to_opponent_max": _raise_to_opponent_max,
    "swap": _swap,
    "shuffle": _shuffle,
    "new_caravan": _new_caravan,
    "spend_gold": _spend_gold,
}


# --------------------------------------------------------------------------------------------
# Public API


def resource_name(r: int, lang: str = "en") -> str:
    """The name of resource ``r`` (an index into :data:`kashgar.cards.RESOURCES`)."""
    return _NAMES[_check(lang)][r]


def card_name(card: Person | Contract, lang: str = "en") -> str:
    """The printed name of a person card or contract in ``lang``."""
    return card.de if _check(lang) == "de" else card.en


def effect_text(effect: Effect, lang: str = "en", *, markup: bool = False) -> str:
    """One effect as a short sentence, e.g. "Increase a spice by 2." / "Erhöhe ein Gewürz um 2."

    With ``markup`` the resource names carry rich colour markup.
    """
    c = _Ctx(lang, markup)
    try:
        render = _RENDER[effect.op]
    except KeyError:
        raise ValueError(f"no text for effect {effect.op!r}") from None
    return render(c, effect)


def _amounts(c: _Ctx, pairs: Sequence[tuple[int, int]], spice: int) -> list[str]:
    out = [c.amount(r, n) for r, n in pairs]
    if spice:
        out.append(c.t(f"{spice} of one spice", f"{spice} von einem Gewürz"))
    return out


def cost_text(action: Action, lang: str = "en", *, markup: bool = False) -> str:
    """The cost of an action: "Pay 1 gold", "Pay 4 of one spice", "Zahle 1 Gold"; "" if free."""
    c = _Ctx(lang, markup)
    parts = _amounts(c, action.cost, action.cost_spice)
    if not parts:
        return ""
    return c.t(f"Pay {_join(parts, 'and')}", f"Zahle {_join(parts, 'und')}")


def action_text(action: Action, lang: str = "en", *, markup: bool = False) -> str:
    """A whole action: its cost (if any), a colon, then its effects as sentences.

    "Pay 4 of one spice: set a different spice to 9." / "Zahle 4 von einem Gewürz: Setze ein
    anderes Gewürz auf 9." (German keeps the capital after the colon, as before a full sentence.)
    """
    body = " ".join(effect_text(e, lang, markup=markup) for e in action.effects)
    cost = cost_text(action, lang, markup=markup)
    if not cost:
        return body
    if lang == "en" and body and body[0].isupper():
        body = body[0].lower() + body[1:]
    return f"{cost}: {body}"


def _points(c: _Ctx, person: Person) -> str:
    if person.per_wheat:
        return c.t("1 per Wheat Field", "1 je Getreidefeld")
    return str(person.points)


def deck_name(deck: str, lang: str = "en") -> str:
    """The name of a person deck ("Special", "Sonder", "Cut and Thrust" ...)."""
    return _DECK_NAMES[_check(lang)].get(deck, deck)


def card_text(person: Person, lang: str = "en", *, markup: bool = False) -> dict[str, Any]:
    """Everything printed on a person card, as texts.

    Keys: name, points (e.g. "2", "-1", "1 per Wheat Field"), must (the "!" flag), deck (the deck
    id), deck_name, copies, rank, caravan (one text per caravan action), parting (list), src.
    """
    c = _Ctx(lang, markup)
    return {
        "name": card_name(person, lang),
        "points": _points(c, person),
        "must": person.must,
        "deck": person.deck,
        "deck_name": deck_name(person.deck, lang),
        "copies": person.copies,
        "rank": person.rank,
        "caravan": [action_text(a, lang, markup=markup) for a in person.caravan],
        "parting": [action_text(a, lang, markup=markup) for a in person.parting],
        "src": person.src,
    }


def contract_cost_text(contract: Contract, lang: str = "en", *, markup: bool = False) -> str:
    """A contract's cost: "1 mule, 6 cinnamon" / "1 Muli, 6 Zimt"; "" if it costs nothing."""
    c = _Ctx(lang, markup)
    return ", ".join(_amounts(c, contract.cost, contract.cost_spice))


def payout_text(contract: Contract, lang: str = "en", *, markup: bool = False) -> str:
    """A contract's immediate payout: "+6 pepper" / "+6 Pfeffer"; "" if none."""
    c = _Ctx(lang, markup)
    return ", ".join(f"+{c.amount(r, n)}" for r, n in contract.payout)


def contract_text(contract: Contract, lang: str = "en", *, markup: bool = False) -> dict[str, Any]:
    """Everything printed on a contract, as texts.

    Keys: name, kind (the kind id), kind_name, points, mules (the requirement), cost (e.g.
    "1 mule, 6 cinnamon"), payout ("+6 pepper" or ""), copies, src.
    """
    _check(lang)
    return {
        "name": card_name(contract, lang),
        "kind": contract.kind,
        "kind_name": _KIND_NAMES[lang].get(contract.kind, contract.kind),
        "points": contract.points,
        "mules": contract.mules,
        "cost": contract_cost_text(contract, lang, markup=markup),
        "payout": payout_text(contract, lang, markup=markup),
        "copies": contract.copies,
        "src": contract.src,
    }


def _numbered(texts: list[str]) -> str:
    if len(texts) <= 1:
        return "".join(texts)
    return "\n".join(f"{i}. {t}" for i, t in enumerate(texts, 1))


def cards_table(cards: CardSet, lang: str = "en", *, markup: bool = True) -> Table:
    """A rich table of all person cards: deck, name, copies, points, "!", actions, provenance."""
    c = _Ctx(lang, markup)
    table = Table(title=c.t("Person cards", "Personenkarten"), show_lines=True)
    table.add_column(c.t("Deck", "Stapel"), max_width=10, overflow="fold")
    table.add_column(c.t("Name", "Name"), style="bold", max_width=14, overflow="fold")
    table.add_column("#", justify="right")
    table.add_column(c.t("VP", "SP"), justify="right", max_width=7)
    table.add_column("!", justify="center")
    table.add_column(c.t("Caravan action", "Karawanen-Aktion"), ratio=3)
    table.add_column(c.t("Parting action", "Abschied-Aktion"), ratio=2)
    table.add_column(c.t("Source", "Quelle"))
    for p in cards.persons:
        info = card_text(p, lang, markup=markup)
        caravan = _numbered(info["caravan"]) or "—"
        parting = _numbered(info["parting"]) or "—"
        name = info["name"] if not markup else escape(info["name"])
        if p.rank:
            name = f"{name} ({p.rank})"
        table.add_row(
            info["deck_name"],
            name,
            str(p.copies),
            info["points"] if not markup else escape(info["points"]),
            "!" if p.must else "",
            caravan,
            parting,
            p.src,
        )
    return table


def contracts_table(cards: CardSet, lang: str = "en", *, markup: bool = True) -> Table:
    """A rich table of all contracts: id, name, VP, mules needed, cost, payout, copies, provenance."""
    c = _Ctx(lang, markup)
    table = Table(title=c.t("Contracts", "Aufträge"))
    table.add_column("Id")
    table.add_column(c.t("Name", "Name"), style="bold")
    table.add_column(c.t("VP", "SP"), justify="right")
    table.add_column(c.t("Mules needed", "Mulis nötig"), justify="right")
    table.add_column(c.t("Cost", "Kosten"))
    table.add_column(c.t("Payout", "Sofort-Ertrag"))
    table.add_column("#", justify="right")
    table.add_column(c.t("Source", "Quelle"))
    for k in cards.contracts:
        info = contract_text(k, lang, markup=markup)
        table.add_row(
            k.id,
            info["name"] if not markup else escape(info["name"]),
            str(k.points),
            str(k.mules),
            info["cost"] or "—",
            info["payout"],
            str(k.copies),
            k.src,
        )
    return table


def cards_json(cards: CardSet, lang: str = "en") -> dict[str, list[dict[str, Any]]]:
    """All card texts as JSON-serialisable data: {"persons": [...], "contracts": [...]}, each with "id"."""
    _check(lang)
    return {
        "persons": [{"id": p.id, **card_text(p, lang)} for p in cards.persons],
        "contracts": [{"id": k.id, **contract_text(k, lang)} for k in cards.contracts],
    }
