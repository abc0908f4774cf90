"""Card data: the built-in file is complete, and a broken file gives an error naming card and field."""

from __future__ import annotations

import tomllib
from importlib import resources

import pytest

from kashgar.cards import CardDataError, load_cards, parse_cards
from kashgar.game import Game, Options


def raw() -> dict:
    return tomllib.loads(resources.files("kashgar.data").joinpath("cards.toml").read_text("utf-8"))


def person(data: dict, cid: str) -> dict:
    return next(p for p in data["person"] if p["id"] == cid)


def test_builtin_counts() -> None:
    cards = load_cards()
    by_deck: dict[str, int] = {}
    for p in cards.persons:
        by_deck[p.deck] = by_deck.get(p.deck, 0) + p.copies
    assert by_deck == {"patriarch": 13, "start": 12, "standard": 76, "special": 12, "expansion": 12}
    assert sum(by_deck.values()) == 125
    assert sum(c.copies for c in cards.contracts) == 40
    kinds: dict[str, int] = {}
    for c in cards.contracts:
        kinds[c.kind] = kinds.get(c.kind, 0) + c.copies
    assert kinds == {"small": 16, "large": 12, "wheat": 8, "pepper": 2, "gold": 2}
    assert sorted(p.rank for p in cards.persons if p.deck == "start") == list(range(1, 13))
    for p in cards.persons:
        assert p.en and p.de and p.src
        for a in p.caravan + p.parting:
            assert a.src and a.effects


def test_provenance_of_examples() -> None:
    cards = load_cards()
    assert cards.contract("large-1").src == "S"
    assert cards.person("patriarch").must and cards.person("gate-guard").must
    assert cards.person("farmer").per_wheat


@pytest.mark.parametrize(
    ("mutate", "message"),
    [
        (lambda d: person(d, "cooper").update(copies=5), "deck 'standard' has 77 cards, expected 76"),
        (lambda d: person(d, "cooper")["caravan"][0]["effects"].append({"op": "teleport"}),
         "card 'cooper', field 'caravan[0].effects[2].op': unknown effect 'teleport'"),
        (lambda d: person(d, "planter")["caravan"][0]["effects"][0].update(res="saffron"),
         "card 'planter', field 'caravan[0].effects[0].res': unknown resource 'saffron'"),
        (lambda d: person(d, "smith")["caravan"][0].update(cost={"gold": "two"}),
         "card 'smith', field 'caravan[0].cost.gold': expected an integer from 1 to 9"),
        (lambda d: person(d, "smith")["caravan"][0].update(cost=[2]), "card 'smith', field 'caravan[0].cost'"),
        (lambda d: person(d, "planter")["caravan"][0]["effects"][0].update(n=-3), "card 'planter', field 'caravan[0].effects[0].n'"),
        (lambda d: person(d, "planter").update(deck="secret"), "card 'planter', field 'deck'"),
        (lambda d: person(d, "planter").update(colour="red"), "card 'planter', field 'colour': unknown field"),
        (lambda d: person(d, "planter")["caravan"][0]["effects"][0].update(depth=3),
         "card 'planter', field 'caravan[0].effects[0].depth'"),
        (lambda d: person(d, "grocer").update(rank=2), "start cards must have different ranks"),
        (lambda d: d["contract"][0].update(cost={"gold": 4, "saffron": 1}), "card 'small-1', field 'cost': unknown resource 'saffron'"),
        (lambda d: d["contract"][0].update(copies=2), "the contract deck has 41 cards, expected 40"),
        (lambda d: person(d, "planter").update(src="X"), "card 'planter', field 'src'"),
        (lambda d: person(d, "planter").pop("de"), "card 'planter', field 'de'"),
    ],
)
def test_broken_card_file_names_card_and_field(mutate, message: str) -> None:
    data = raw()
    mutate(data)
    with pytest.raises(CardDataError) as exc:
        parse_cards(data)
    assert message in str(exc.value)


def test_not_toml(tmp_path) -> None:
    bad = tmp_path / "cards.toml"
    bad.write_text("[[person]\nid = ")
    with pytest.raises(CardDataError, match="not valid TOML"):
        load_cards(bad)


def test_corrected_card_file_is_played(tmp_path) -> None:
    """A player's corrected file changes the game: here the Planter gives 4 instead of 3."""
    text = resources.files("kashgar.data").joinpath("cards.toml").read_text("utf-8")
    data = raw()
    planter = person(data, "planter")
    assert planter["caravan"][0]["effects"][0]["n"] == 3
    fixed = tmp_path / "cards.toml"
    marker = 'de = "Pflanzerin"'
    assert marker in text
    head, tail = text.split(marker, 1)
    tail = tail.replace('{ op = "increase", res = "spice", n = 3 }', '{ op = "increase", res = "spice", n = 4 }', 1)
    fixed.write_text(head + marker + tail, encoding="utf-8")
    cards = load_cards(fixed)
    assert cards.person("planter").caravan[0].effects[0].n == 4
    assert cards.digest != load_cards().digest
    from kashgar.scenario import load_scenario, run_actions

    g = load_scenario({"players": [{"caravans": [["planter"], ["patriarch"], ["patriarch"]]},
                                   {"caravans": [["patriarch"], ["patriarch"], ["patriarch"]]}]}, cards)
    run_actions(g, "1A; ginger")
    assert g.resources(0)["ginger"] == 7
    Game.new(Options(players=4), 1, cards)
