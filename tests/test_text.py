"""Card texts: every card renders in both languages; representative cards read exactly as intended."""

from __future__ import annotations

import io
import json

import pytest
from rich.console import Console
from rich.table import Table

from kashgar import text
from kashgar.cards import _EFFECT_FIELDS, _ENUMS, RESOURCES, _effect, _Where, load_cards

CARDS = load_cards()


def _export(*renderables: object) -> str:
    """What a terminal shows, as plain text (markup interpreted and dropped)."""
    console = Console(width=200, record=True, file=io.StringIO())
    for r in renderables:
        console.print(r)
    return console.export_text().strip()


def _caravan(card_id: str, lang: str) -> list[str]:
    return text.card_text(CARDS.person(card_id), lang)["caravan"]


def _parting(card_id: str, lang: str) -> list[str]:
    return text.card_text(CARDS.person(card_id), lang)["parting"]


# --------------------------------------------------------------------------------------------
# Every card, both languages


@pytest.mark.parametrize("lang", text.LANGS)
def test_every_person_renders(lang: str) -> None:
    for p in CARDS.persons:
        info = text.card_text(p, lang)
        assert info["name"] == (p.de if lang == "de" else p.en)
        assert len(info["caravan"]) == len(p.caravan)
        assert len(info["parting"]) == len(p.parting)
        for t in info["caravan"] + info["parting"]:
            assert t.strip(), p.id
            assert t.endswith("."), (p.id, t)
            assert "[" not in t, (p.id, t)  # plain text carries no markup
        for action in p.caravan + p.parting:
            for e in action.effects:
                assert text.effect_text(e, lang).strip()
        assert isinstance(info["points"], str) and info["points"]


@pytest.mark.parametrize("lang", text.LANGS)
def test_every_contract_renders(lang: str) -> None:
    for k in CARDS.contracts:
        info = text.contract_text(k, lang)
        assert info["name"] == text.card_name(k, lang)
        assert info["cost"], k.id
        assert info["points"] == k.points and info["mules"] == k.mules
        assert ("+" in info["payout"]) == bool(k.payout)


def test_languages_differ() -> None:
    for p in CARDS.persons:
        for a in p.caravan + p.parting:
            assert text.action_text(a, "en") != text.action_text(a, "de"), p.id


# Synthetic effects: every op of the vocabulary and every enumerated field value renders.
_RAW_EFFECTS = [
    {"op": "increase", "res": "gold", "n": 1},
    {"op": "increase", "res": "cloves", "n": 2},
    {"op": "increase", "res": "spice", "n": 1, "count": 3},
    {"op": "increase", "res": ["mules", "spice"], "n": "caravan_size"},
    {"op": "increase", "res": "spice", "n": "patriarchs", "count": 2},
    {"op": "increase", "res": "gold", "n": "contracts"},
    {"op": "increase", "res": ["gold", "mules"], "n": 1, "count": 2},
    {"op": "set", "res": "mules", "n": 6, "who": "self"},
    {"op": "set", "res": "spice", "n": 2, "count": 3},
    {"op": "set", "res": ["gold", "spice"], "n": 4, "who": "opponents"},
    {"op": "set", "res": "cinnamon", "n": 2, "who": "opponents"},
    {"op": "set", "res": "gold", "n": 6, "if": "any_zero_gold"},
    {"op": "set", "res": "spice", "n": 9, "except": "paid"},
    {"op": "set", "res": "spice", "n": 5, "count": 2, "except": "paid"},
    {"op": "decrease", "res": "gold", "n": 2, "who": "self"},
    {"op": "decrease", "res": "mules", "n": 3, "who": "self", "min_before": 5},
    {"op": "decrease", "res": "pepper", "n": 1, "who": "all", "min_before": 2},
    {"op": "decrease", "res": "anise", "n": 1, "who": "opponents"},
    {"op": "draw", "deck": "standard", "n": 1},
    {"op": "draw", "deck": "special", "n": 3, "to": "front"},
    {"op": "draw", "deck": "standard", "n": "contracts", "to": "back"},
    {"op": "take_discard"},
    {"op": "fulfil"},
    {"op": "fulfil", "mode": "normal"},
    {"op": "fulfil", "mode": "free_small"},
    {"op": "fulfil", "mode": "gold_for_spice"},
    {"op": "fulfil", "mode": "cinnamon_for_spice"},
    {"op": "draw_contracts", "n": 3, "mode": "wheat_free_one"},
    {"op": "draw_contracts", "n": 1, "mode": "small_special_free"},
    {"op": "draw_contracts", "n": 2, "mode": "pay_any"},
    {"op": "remove", "from": "this_caravan", "n": 2},
    {"op": "remove", "from": "own_caravans", "n": 1, "what": "any"},
    {"op": "remove", "from": "own_caravans", "n": 1, "what": "patriarch"},
    {"op": "turn"},
    {"op": "turn", "place": "back"},
    {"op": "flip_patriarchs", "who": "all"},
    {"op": "flip_patriarchs", "who": "opponents"},
    {"op": "patriarchs_to_front", "who": "self"},
    {"op": "patriarchs_to_front", "who": "opponents"},
    {"op": "patriarchs_to_front", "who": "all"},
    {"op": "cycle_front"},
    {"op": "herd"},
    {"op": "raise_to_opponent_max", "res": "spice"},
    {"op": "swap", "res": "spice"},
    {"op": "shuffle", "deck": "standard"},
    {"op": "shuffle", "deck": "special"},
    {"op": "new_caravan"},
    {"op": "spend_gold", "per_gold": [{"res": "spice", "n": 2}, {"res": ["gold", "mules"], "n": 1}]},
]


def test_synthetic_effects_cover_the_vocabulary() -> None:
    assert {raw["op"] for raw in _RAW_EFFECTS} == set(_EFFECT_FIELDS)
    for (op, key), values in _ENUMS.items():
        used = {raw.get(key) for raw in _RAW_EFFECTS if raw["op"] == op}
        assert set(values) <= used, (op, key)


@pytest.mark.parametrize("lang", text.LANGS)
@pytest.mark.parametrize("raw", _RAW_EFFECTS, ids=lambda raw: "-".join(str(v) for v in raw.values())[:60])
def test_every_effect_renders(raw: dict, lang: str) -> None:
    effect = _effect(raw, _Where("test"), "effects[0]")
    plain = text.effect_text(effect, lang)
    assert plain.strip() and plain.endswith(".")
    assert plain[0].isupper()
    assert "[" not in plain and "None" not in plain and "{" not in plain
    coloured = text.effect_text(effect, lang, markup=True)
    assert _export(coloured) == plain


def test_unknown_language_and_op() -> None:
    with pytest.raises(ValueError):
        text.card_text(CARDS.person("cooper"), "fr")
    bogus = _effect({"op": "herd"}, _Where("test"), "effects[0]")
    object.__setattr__(bogus, "op", "teleport")
    with pytest.raises(ValueError):
        text.effect_text(bogus)


# --------------------------------------------------------------------------------------------
# Resource names, costs


def test_resource_names() -> None:
    assert [text.resource_name(r) for r in range(len(RESOURCES))] == [
        "ginger",
        "cloves",
        "pepper",
        "star anise",
        "cinnamon",
        "gold",
        "mules",
    ]
    assert [text.resource_name(r, "de") for r in range(len(RESOURCES))] == [
        "Ingwer",
        "Nelken",
        "Pfeffer",
        "Sternanis",
        "Zimt",
        "Gold",
        "Mulis",
    ]


def test_costs() -> None:
    wainwright = CARDS.person("wainwright").caravan[0]
    assert text.cost_text(wainwright) == "Pay 1 gold"
    assert text.cost_text(wainwright, "de") == "Zahle 1 Gold"
    nightwatch = CARDS.person("nightwatch").caravan[0]
    assert text.cost_text(nightwatch) == "Pay 1 mule"
    assert text.cost_text(nightwatch, "de") == "Zahle 1 Muli"
    boatman = CARDS.person("boatman").caravan[1]
    assert text.cost_text(boatman) == "Pay 4 of one spice"
    assert text.cost_text(CARDS.person("grocer").caravan[0]) == ""
    assert text.action_text(wainwright) == "Pay 1 gold: increase mules by 2."
    assert text.action_text(wainwright, "de") == "Zahle 1 Gold: Erhöhe Mulis um 2."


def test_contracts() -> None:
    large = text.contract_text(CARDS.contract("large-1"))
    assert large["cost"] == "1 mule, 6 cinnamon"
    assert large["payout"] == ""
    assert (large["points"], large["mules"]) == (4, 3)
    assert text.contract_text(CARDS.contract("large-1"), "de")["cost"] == "1 Muli, 6 Zimt"
    pepper = CARDS.contract("pepper-1")
    assert text.contract_text(pepper)["payout"] == "+6 pepper"
    assert text.contract_text(pepper, "de")["payout"] == "+6 Pfeffer"
    assert text.contract_text(pepper, "de")["cost"] == "4 Gold"
    assert text.contract_text(CARDS.contract("wheat-1"))["cost"] == "1 ginger, 1 clove, 1 pepper"


# --------------------------------------------------------------------------------------------
# Representative cards, exact texts


def test_patriarch() -> None:
    assert _caravan("patriarch", "en") == [
        "Draw 2 Standard cards, keep 1 at the back of this caravan; the rest go face up to the discard pile.",
        "Turn this card over and place it at the back of this caravan.",
    ]
    assert _caravan("patriarch", "de") == [
        "Ziehe 2 Standardkarten, reihe 1 davon am Ende dieser Karawane ein; die übrigen kommen offen auf den "
        "Ablagestapel.",
        "Wende diese Karte und reihe sie am Ende dieser Karawane ein.",
    ]
    info = text.card_text(CARDS.person("patriarch"))
    assert info["must"] is True and info["copies"] == 13 and info["parting"] == []


def test_cooper() -> None:
    assert _caravan("cooper", "en") == ["Set gold or a spice to 4. Increase mules by 1."]
    assert _parting("cooper", "en") == ["Increase mules by 2."]
    assert _caravan("cooper", "de") == ["Setze Gold oder ein Gewürz auf 4. Erhöhe Mulis um 1."]
    assert _parting("cooper", "de") == ["Erhöhe Mulis um 2."]
    assert text.card_text(CARDS.person("cooper"), "de")["name"] == "Böttcher"


def test_boatman() -> None:
    assert _caravan("boatman", "en") == [
        "Increase a spice by 2.",
        "Pay 4 of one spice: set a different spice to 9.",
    ]
    assert _caravan("boatman", "de") == [
        "Erhöhe ein Gewürz um 2.",
        "Zahle 4 von einem Gewürz: Setze ein anderes Gewürz auf 9.",
    ]


def test_hawker() -> None:
    assert _caravan("hawker", "en") == ["Fulfil a contract; missing spices may be paid with gold 1:1."]
    assert _caravan("hawker", "de") == ["Erfülle 1 Auftrag; fehlende Gewürze dürfen 1:1 mit Gold bezahlt werden."]


def test_herder() -> None:
    assert _caravan("herder", "en") == [
        "Every player moves the front card of each of their caravans to the back of a different caravan of "
        "theirs, in an order they choose."
    ]
    assert _caravan("herder", "de") == [
        "Jeder Spieler reiht die vorderste Karte jeder seiner Karawanen am Ende einer anderen seiner Karawanen "
        "ein, in beliebiger Reihenfolge."
    ]


def test_traveling_merchant() -> None:
    assert _caravan("traveling-merchant", "en") == [
        "Pay any amount of gold; for each gold, increase a spice by 2 or mules by 1."
    ]
    assert _caravan("traveling-merchant", "de") == [
        "Zahle beliebig viel Gold; erhöhe für jedes Gold ein Gewürz um 2 oder Mulis um 1."
    ]


def test_gate_guard() -> None:
    en = text.card_text(CARDS.person("gate-guard"), "en")
    assert en["caravan"] == ["Every opponent reduces gold by 3."]
    assert en["parting"] == ["Every opponent sets gold to 2."]
    assert (en["points"], en["must"], en["deck"]) == ("3", True, "expansion")
    de = text.card_text(CARDS.person("gate-guard"), "de")
    assert de["name"] == "Torwache"
    assert de["caravan"] == ["Jeder Mitspieler verringert sein Gold um 3."]
    assert de["parting"] == ["Jeder Mitspieler setzt sein Gold auf 2."]


def test_more_cards() -> None:
    assert _caravan("woman-of-the-woods", "en") == ["Increase two different spices by 1 each."]
    assert _caravan("woman-of-the-woods", "de") == ["Erhöhe zwei verschiedene Gewürze um je 1."]
    assert _caravan("patroness", "en") == ["Increase mules or a spice by the number of cards in this caravan."]
    assert _caravan("tailor", "en") == [
        "Draw 5 Standard cards, keep 1 at the FRONT of this caravan; the rest go face up to the discard pile."
    ]
    assert _caravan("caravan-leader", "en") == [
        "Increase mules by 2. Every opponent who had 5 or more mules reduces mules by 3."
    ]
    assert _caravan("caravan-leader", "de") == [
        "Erhöhe Mulis um 2. Jeder Mitspieler, der 5 oder mehr Mulis hatte, verringert seine Mulis um 3."
    ]
    assert _parting("scribe", "de") == ["Erfülle 1 Kleinauftrag kostenlos: ohne Muli-Bedingung, ohne Kosten."]
    assert text.card_text(CARDS.person("spice-merchant"))["points"] == "-1"
    assert text.card_text(CARDS.person("farmer"))["points"] == "1 per Wheat Field"
    assert text.card_text(CARDS.person("farmer"), "de")["points"] == "1 je Getreidefeld"


# --------------------------------------------------------------------------------------------
# Tables and JSON


@pytest.mark.parametrize("lang", text.LANGS)
def test_tables(lang: str) -> None:
    persons = text.cards_table(CARDS, lang)
    contracts = text.contracts_table(CARDS, lang)
    assert isinstance(persons, Table) and isinstance(contracts, Table)
    assert persons.row_count == len(CARDS.persons)
    assert contracts.row_count == len(CARDS.contracts)
    out = _export(persons, contracts)
    assert "[/" not in out and "[yellow]" not in out
    assert text.card_name(CARDS.person("gate-guard"), lang) in out
    assert ("Sternanis" if lang == "de" else "star anise") in out


@pytest.mark.parametrize("lang", text.LANGS)
def test_cards_json(lang: str) -> None:
    data = text.cards_json(CARDS, lang)
    again = json.loads(json.dumps(data, ensure_ascii=False))
    assert again == data
    assert [p["id"] for p in data["persons"]] == [p.id for p in CARDS.persons]
    assert [k["id"] for k in data["contracts"]] == [k.id for k in CARDS.contracts]
    boatman = next(p for p in data["persons"] if p["id"] == "boatman")
    assert boatman["caravan"][1] == text.action_text(CARDS.person("boatman").caravan[1], lang)
