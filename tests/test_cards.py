"""Card by card: every person card kind (caravan and parting actions) and every contract kind.

Each card's expected effect is the one in shared/spec/cards.md (S, W or R); the card data is
src/kashgar/data/cards.toml. Every test states the exact resulting resources, caravans, discard
pile and points. ``test_every_card_kind_is_covered`` checks that no kind was forgotten.
"""

from __future__ import annotations

import pytest

from helpers import (
    BASE,
    CARDS,
    DISPLAY,
    OPP,
    SPICES,
    act,
    assert_illegal,
    box,
    cv,
    deck_size,
    discard,
    display,
    drawn,
    fulfilled,
    me,
    res,
    scenario,
    turn_over,
    under,
)
from kashgar.cards import RESOURCES
from kashgar.game import Game, Options

COVERED: dict[str, list[str]] = {}


def covers(*ids: str):
    """Register what a test checks: "card:A" / "card:B" (first / second caravan action),
    "card:P" (parting action) or a contract id. See test_every_card_kind_is_covered."""

    def mark(fn):
        for i in ids:
            COVERED.setdefault(i, []).append(fn.__name__)
        return fn

    return mark


SIMPLE = [
    ("grocer", "1A; pepper", {}, {"pepper": 5}, SPICES),
    ("servant", "1A; ginger; cloves; anise", {"gold": 8, "ginger": 7, "cloves": 0},
     {"gold": 5, "ginger": 2, "cloves": 2, "anise": 2}, SPICES),
    ("servant", "1P", {"mules": 2}, {"mules": 4}, None),
    ("prophet", "1P", {}, {"gold": 6}, None),
    ("barmaid", "1A; anise", {}, {"gold": 4, "anise": 4}, SPICES),
    ("scribe", "1A; cloves", {}, {"cloves": 4}, SPICES),
    ("city-guard", "1A", {}, {"mules": 4}, None),
    ("city-guard", "1P", {}, {"gold": 6}, None),
    ("wainwright", "1A", {"gold": 1}, {"gold": 0, "mules": 5}, None),
    ("wainwright", "1P", {"mules": 1}, {"mules": 6}, None),
    ("woman-of-the-woods", "1A; ginger; pepper", {}, {"ginger": 4, "pepper": 4}, SPICES),
    ("woman-of-the-woods", "1P; cinnamon", {}, {"cinnamon": 7}, SPICES),
    ("herbalist", "1A", {}, {"cloves": 5}, None),
    ("village-beauty", "1A; ginger", {}, {"ginger": 4}, SPICES),
    ("gypsy", "1P", {}, {"gold": 5}, None),
    ("aristocrat", "1A", {}, {"gold": 5}, None),
    ("spice-merchant", "1P; anise", {}, {"anise": 5}, SPICES),
    ("market-woman", "1A; cloves; cinnamon", {}, {"cloves": 4, "cinnamon": 4}, SPICES),
    ("market-woman", "1P; pepper", {}, {"pepper": 7}, SPICES),
    ("charlatan", "1A; ginger", {"ginger": 1}, {"ginger": 5}, SPICES),
    ("charlatan", "1A; ginger", {"ginger": 8}, {"ginger": 5}, SPICES),
    ("charlatan", "1P", {"gold": 9}, {"gold": 6}, None),
    ("cooper", "1A; pepper", {"pepper": 8}, {"pepper": 4, "mules": 4}, (*SPICES, "gold")),
    ("cooper", "1P", {}, {"mules": 5}, None),
    ("basket-maker", "1A", {}, {"mules": 4, "gold": 4}, None),
    ("basket-maker", "1P", {}, {"mules": 6}, None),
    ("planter", "1A; anise", {}, {"anise": 6}, SPICES),
    ("planter", "1P; ginger; cinnamon", {}, {"ginger": 6, "cinnamon": 6}, SPICES),
    ("cinnamon-prince", "1P", {}, {"cinnamon": 7}, None),
    ("impostor", "1A", {}, {"gold": 5}, None),
    ("mule-handler", "1A", {"gold": 2}, {"gold": 0, "mules": 5}, None),
    ("mule-handler", "1P", {}, {"mules": 6}, None),
    ("baker", "1P; cloves", {}, {"cloves": 5}, SPICES),
    ("boatman", "1A; anise", {}, {"anise": 5}, SPICES),
    ("nightwatch", "1A", {"mules": 1}, {"mules": 0, "gold": 6}, None),
    ("nightwatch", "1P", {}, {"gold": 7}, None),
    ("warrior", "1A", {}, {"mules": 4}, None),
    ("smith", "1A; pepper", {"gold": 2}, {"gold": 0, "mules": 5, "pepper": 4}, SPICES),
    ("smith", "1P", {}, {"gold": 6}, None),
    ("breeder", "1A", {}, {"mules": 5}, None),
    ("breeder", "1P", {"mules": 0}, {"mules": 6}, None),
    ("courtesan", "1B", {}, {"gold": 6}, None),
]
for _card, _actions, *_ in SIMPLE:
    COVERED.setdefault(f"{_card}:{_actions[1]}", []).append("test_simple_resource_action")


@pytest.mark.parametrize(("card", "actions", "start", "expected", "choices"), SIMPLE,
                         ids=[f"{c}-{a.split(';')[0]}" for c, a, *_ in SIMPLE])
def test_simple_resource_action(card, actions, start, expected, choices):
    g = scenario(me([[card, "patriarch"], ["patriarch"], ["patriarch"]], **start), OPP)
    first, *rest = [a.strip() for a in actions.split(";")]
    act(g, first)
    if choices is not None:
        assert g.decision == "resource" and g.to_move == 0
        assert sorted(g.legal_texts()) == sorted(choices)
    if rest:
        act(g, "; ".join(rest))
    turn_over(g)
    assert g.resources(0) == {**BASE, **start, **expected}
    assert g.resources(1) == BASE
    if first.endswith("P"):
        assert cv(g)[0] == ["patriarch"] and card in box(g)
    else:
        assert cv(g)[0] == ["patriarch", card]
    assert g.points[0] == sum(CARDS.person(c).points for cv_ in cv(g) for c in cv_)


def test_multi_spice_choices_must_be_different():
    # "two different spices" / "three spices": a spice already chosen is not offered again.
    g = scenario(me([["servant"], ["market-woman"], ["patriarch"]]), OPP)
    act(g, "1A; ginger")
    assert sorted(g.legal_texts()) == ["anise", "cinnamon", "cloves", "pepper"]
    assert_illegal(g, "ginger")
    act(g, "cloves")
    assert sorted(g.legal_texts()) == ["anise", "cinnamon", "pepper"]


# ------------------------------------------------------------------------------ Patriarch / Matriarch


@covers("patriarch:A")
def test_patriarch_draw_two_keep_one_other_to_discard():
    g = scenario(me([["patriarch", "grocer"], ["patriarch"], ["patriarch"]]), OPP,
                 decks={"standard": {"top": ["hawker", "noble"]}})
    act(g, "1A; keep noble")
    assert cv(g)[0] == ["grocer", "patriarch", "noble"]
    assert discard(g) == ["hawker"]
    assert g.points[0] == 1  # the Noble's VP
    turn_over(g)


@covers("patriarch:B", "matriarch:A")
def test_patriarch_turns_to_matriarch_and_back():
    g = scenario(me([["patriarch", "grocer"], ["patriarch"], ["patriarch"]]), OPP, discard=["warrior"])
    act(g, "1B")
    assert cv(g)[0] == ["grocer", "matriarch"]
    act(g, "1X")
    act(g, "1X")  # grocer passed
    assert cv(g)[0] == ["matriarch", "grocer"]
    act(g, "1X")
    assert g.legal_texts().count("1X") == 0  # "!"
    act(g, "1A")
    assert g.legal_texts() == ["take warrior"]
    act(g, "take warrior")
    assert cv(g)[0] == ["grocer", "warrior", "patriarch"]
    assert discard(g) == [] and g.points[0] == 3


def test_standard_deck_exhausted_reshuffles_the_discard_pile():
    g = scenario(me([["patriarch"], ["patriarch"], ["patriarch"]]), OPP,
                 decks={"standard": {"cards": []}}, discard=["hawker", "noble"])
    assert deck_size(g, "standard") == 0
    act(g, "1A")
    assert sorted(drawn(g)) == ["hawker", "noble"]
    act(g, "keep hawker")
    assert cv(g)[0] == ["patriarch", "hawker"] and discard(g) == ["noble"]


# ------------------------------------------------------------------------------ start cards


@covers("grocer:P")
def test_grocer_parting_fulfils_a_contract():
    g = scenario(me([["grocer"], ["patriarch"], ["patriarch"]], ginger=4), OPP,
                 display=["small-1", "small-2", "large-1", "gold-1"], decks={"contracts": {"top": ["small-9"]}})
    act(g, "1P")
    assert g.legal_texts() == ["fulfil small-1"]
    act(g, "fulfil small-1")
    assert g.resources(0) == res(ginger=0)
    assert fulfilled(g) == ["small-1"] and g.points[0] == 2
    assert display(g) == ["small-2", "large-1", "gold-1", "small-9"]
    assert cv(g)[0] == [] and "grocer" in box(g)


@covers("prophet:A")
def test_prophet_draws_three_keeps_one_rest_face_up_to_discard():
    g = scenario(me([["prophet"], ["patriarch"], ["patriarch"]]), OPP, discard=["baker"],
                 decks={"standard": {"top": ["planter", "warrior", "cooper"]}})
    act(g, "1A")
    assert drawn(g) == ["planter", "warrior", "cooper"]
    act(g, "keep warrior")
    assert cv(g)[0] == ["prophet", "warrior"]
    assert discard(g) == ["baker", "planter", "cooper"]
    assert g.points[0] == 1 + 3


@covers("barmaid:P")
def test_barmaid_parting_draws_four_keeps_one():
    g = scenario(me([["barmaid", "grocer"], ["patriarch"], ["patriarch"]]), OPP,
                 decks={"standard": {"top": ["planter", "warrior", "cooper", "noble"]}})
    act(g, "1P")
    assert sorted(g.legal_texts()) == ["keep cooper", "keep noble", "keep planter", "keep warrior"]
    act(g, "keep noble")
    assert cv(g)[0] == ["grocer", "noble"]
    assert discard(g) == ["planter", "warrior", "cooper"]
    assert "barmaid" in box(g)


@covers("scribe:P")
def test_scribe_parting_fulfils_a_small_contract_for_free():
    g = scenario(me([["scribe"], ["patriarch"], ["patriarch"]], mules=0, ginger=0, cloves=0),
                 OPP, display=["small-9", "large-2", "wheat-1", "gold-1"])
    assert g.points[0] == 1
    act(g, "1P")
    assert g.legal_texts() == ["fulfil small-9"]  # only Small contracts, requirement ignored
    act(g, "fulfil small-9")
    assert g.resources(0) == res(mules=0, ginger=0, cloves=0)  # nothing paid
    assert fulfilled(g) == ["small-9"] and g.points[0] == 3


@covers("herbalist:P")
def test_herbalist_parting_draws_two_special_keeps_one_other_under():
    g = scenario(me([["herbalist", "grocer"], ["patriarch"], ["patriarch"]]), OPP,
                 decks={"special": {"top": ["guild-lord", "tailor"]}})
    size = deck_size(g, "special")
    act(g, "1P; keep guild-lord")
    assert cv(g)[0] == ["grocer", "guild-lord"]
    assert under(g, "special", 0) == ["tailor"] and under(g, "special", 1) == [None]
    assert deck_size(g, "special") == size - 1
    assert discard(g) == [] and g.points[0] == 2


@covers("village-beauty:P")
def test_village_beauty_parting_patriarchs_to_front_for_every_player():
    g = scenario(me([["village-beauty", "grocer", "patriarch", "patriarch"], ["servant", "matriarch"],
                     ["prophet", "patriarch", "barmaid"]]),
                 {"caravans": [["scribe", "city-guard", "patriarch"], ["matriarch", "gypsy"], ["patriarch"]]})
    assert g.points[0] == 3 + 1
    act(g, "1P")
    assert cv(g) == [["patriarch", "patriarch", "grocer"], ["servant", "matriarch"],
                     ["patriarch", "prophet", "barmaid"]]
    assert cv(g, 1) == [["patriarch", "scribe", "city-guard"], ["matriarch", "gypsy"], ["patriarch"]]
    assert g.points[0] == 1


@covers("gypsy:A")
def test_gypsy_caravan_action_cycles_another_caravan():
    g = scenario(me([["gypsy"], ["patriarch", "servant"], []]), OPP)
    act(g, "1A")
    assert g.legal_texts() == ["caravan 2"]  # not its own caravan, not an empty one
    act(g, "caravan 2")
    assert cv(g) == [["gypsy"], ["servant", "patriarch"], []]
    assert g.resources(0) == BASE
    turn_over(g)


@covers("aristocrat:P")
def test_aristocrat_parting_starts_a_fourth_caravan():
    g = scenario(me([["aristocrat"], ["patriarch"], ["patriarch"]]), OPP)
    assert g.spare == 1
    act(g, "1P")
    assert cv(g) == [[], ["patriarch"], ["patriarch"], ["patriarch"]]
    assert g.spare == 0 and g.observation(1)["spare_patriarch"] is False
    act(g, "1X")
    assert g.legal_texts() == ["2A", "2B", "3A", "3B", "4A", "4B"]


# ------------------------------------------------------------------------------ standard cards


@covers("spice-merchant:A")
def test_spice_merchant_fulfils_a_contract_paying_the_cost():
    g = scenario(me([["spice-merchant"], ["patriarch"], ["patriarch"]], cinnamon=6, mules=3), OPP,
                 display=["large-1", "large-2", "wheat-2", "pepper-1"], decks={"contracts": {"top": ["small-4"]}})
    assert g.points[0] == -1
    act(g, "1A")
    assert sorted(g.legal_texts()) == ["fulfil large-1", "fulfil wheat-2"]  # pepper-1 needs 4 gold
    act(g, "fulfil wheat-2")
    assert g.resources(0) == res(cloves=2, pepper=2, cinnamon=5, mules=3)
    assert g.points[0] == -1 + 1
    assert display(g) == ["large-1", "large-2", "pepper-1", "small-4"]


def test_fulfil_with_no_payable_contract_does_nothing():
    g = scenario(me([["spice-merchant"], ["patriarch"], ["patriarch"]]), OPP)
    assert "1A" in g.legal_texts()
    act(g, "1A")
    turn_over(g)
    assert g.resources(0) == BASE and fulfilled(g) == [] and display(g) == DISPLAY


@covers("farmer:A", "wheat-1", "wheat-2", "wheat-4", "wheat-8")
def test_farmer_fulfils_one_drawn_wheat_field_for_free_others_under():
    g = scenario(me([["farmer"], ["farmer"], ["patriarch"]], contracts=["wheat-1"], mules=0), OPP,
                 decks={"contracts": {"top": ["small-1", "wheat-8", "wheat-4"]}})
    assert g.points[0] == 1 + 2 * 1
    act(g, "1A")
    assert sorted(g.legal_texts()) == ["done", "fulfil wheat-4", "fulfil wheat-8"]
    assert drawn(g) == ["small-1", "wheat-8", "wheat-4"]
    hidden = g.observation(1)["pending"]
    assert hidden["drawn_count"] == 3 and "drawn" not in hidden  # the opponent does not see them
    act(g, "fulfil wheat-8")
    assert fulfilled(g) == ["wheat-1", "wheat-8"]
    assert g.resources(0) == res(mules=0)
    assert g.points[0] == 1 + 2 + 2 * 2
    assert under(g, "contracts") == ["small-1", "wheat-4"]
    assert display(g) == DISPLAY
    turn_over(g)


@covers("farmer:A")
def test_farmer_may_decline_and_without_wheat_all_go_under():
    g = scenario(me([["farmer"], ["farmer"], ["patriarch"]]), OPP,
                 decks={"contracts": {"top": ["small-1", "wheat-8", "large-2", "small-2", "small-3", "small-5"]}})
    act(g, "1A; done")
    assert fulfilled(g) == [] and under(g, "contracts") == ["small-1", "wheat-8", "large-2"]
    act(g, "1X")
    act(g, "2A")  # no Wheat Field: no decision
    turn_over(g)
    assert under(g, "contracts") == ["small-1", "wheat-8", "large-2", "small-2", "small-3", "small-5"]


@covers("patroness:A")
def test_patroness_increases_mules_by_caravan_size():
    g = scenario(me([["patroness", "patriarch"], ["patriarch"], ["patriarch"]], mules=2), OPP)
    act(g, "1A; mules")
    assert g.resources(0) == res(mules=4)
    assert cv(g)[0] == ["patriarch", "patroness"]


@covers("hawker:A", "large-9")
def test_hawker_gold_replaces_only_missing_spices():
    g = scenario(me([["hawker"], ["patriarch"], ["patriarch"]], pepper=1, cinnamon=4, gold=3, mules=4), OPP,
                 display=["large-9", "large-11", "large-12", "pepper-1"])
    act(g, "1A")
    assert g.legal_texts() == ["fulfil large-9"]  # 3 missing pepper, 3 gold
    act(g, "fulfil large-9")
    assert g.resources(0) == res(pepper=0, cinnamon=0, gold=0, mules=3)
    g = scenario(me([["hawker"], ["patriarch"], ["patriarch"]], pepper=1, cinnamon=4, gold=2, mules=4), OPP,
                 display=["large-9", "large-11", "large-12", "pepper-1"])
    act(g, "1A")
    turn_over(g)  # 3 missing, only 2 gold: nothing to fulfil
    assert g.resources(0) == res(pepper=1, cinnamon=4, gold=2, mules=4)


@covers("cinnamon-prince:A", "small-9")
def test_cinnamon_prince_cinnamon_replaces_missing_spices():
    g = scenario(me([["cinnamon-prince"], ["patriarch"], ["patriarch"]], ginger=1, cloves=3, cinnamon=2),
                 OPP, display=["small-9", "small-13", "large-2", "large-3"])
    assert g.points[0] == 1
    act(g, "1A")
    # small-9: 3 ginger + 3 cloves, 2 ginger missing -> 2 cinnamon. small-13: 3 ginger + 3 cinnamon:
    # 2 ginger missing + 3 cinnamon = 5 cinnamon needed, only 2.
    assert g.legal_texts() == ["fulfil small-9"]
    act(g, "fulfil small-9")
    assert g.resources(0) == res(ginger=0, cloves=0, cinnamon=0)
    assert g.points[0] == 1 + 3


@covers("noble:A")
def test_noble_caravan_action_pays_2_gold_draws_two_special():
    g = scenario(me([["noble"], ["patriarch"], ["patriarch"]], gold=2), OPP,
                 decks={"special": {"top": ["courtesan", "debt-collector"]}})
    act(g, "1A")
    assert g.resources(0) == res(gold=0)
    act(g, "keep courtesan")
    assert cv(g)[0] == ["noble", "courtesan"]
    assert under(g, "special") == ["debt-collector"]
    assert g.points[0] == 1 + 2


@covers("noble:P")
def test_noble_parting_removes_this_caravans_patriarch_with_a_choice_when_two():
    g = scenario(me([["noble", "patriarch", "grocer", "matriarch"], ["patriarch"], ["patriarch"]]), OPP)
    act(g, "1P")
    assert g.decision == "card"
    assert sorted(g.legal_texts()) == ["card 1.1", "card 1.3"]  # only the Patriarch cards
    act(g, "card 1.3")
    assert cv(g)[0] == ["patriarch", "grocer"]
    assert box(g).count("noble") == 1
    # No Patriarch in the caravan: nothing more happens.
    g = scenario(me([["noble", "grocer"], ["patriarch"], ["patriarch"]]), OPP)
    act(g, "1P")
    turn_over(g)
    assert cv(g) == [["grocer"], ["patriarch"], ["patriarch"]]


@covers("impostor:P")
def test_impostor_parting_removes_a_card_of_this_caravan():
    g = scenario(me([["impostor", "warrior", "grocer"], ["patriarch"], ["patriarch"]]), OPP)
    assert g.points[0] == 3
    act(g, "1P")
    assert sorted(g.legal_texts()) == ["card 1.1", "card 1.2", "done"]
    act(g, "card 1.1")
    assert cv(g)[0] == ["grocer"] and g.points[0] == 0
    assert "warrior" in box(g) and "impostor" in box(g)


@covers("baker:A")
def test_baker_caravan_action_three_players():
    g = scenario(me([["baker"], ["patriarch"], ["patriarch"]], anise=0),
                 {"caravans": [["patriarch"]], "resources": {"anise": 5}},
                 {"caravans": [["patriarch"]], "resources": {"anise": 8}})
    act(g, "1A; anise")
    assert g.resources(0) == res(anise=8)
    assert [g.resources(p)["anise"] for p in (1, 2)] == [5, 8]


@covers("boatman:B")
def test_boatman_second_action_pay_four_of_one_spice_set_another_to_nine():
    g = scenario(me([["boatman"], ["patriarch"], ["patriarch"]], cloves=4, cinnamon=7, ginger=8), OPP)
    act(g, "1B")
    assert sorted(g.legal_texts()) == ["cinnamon", "cloves", "ginger"]  # spices with at least 4
    act(g, "cinnamon")
    assert sorted(g.legal_texts()) == ["anise", "cloves", "ginger", "pepper"]
    act(g, "anise")
    assert g.resources(0) == res(cloves=4, cinnamon=3, ginger=8, anise=9)
    assert cv(g)[0] == ["boatman"]


@covers("traveling-merchant:A")
def test_traveling_merchant_spends_gold_each_for_two_spice_or_one_mule():
    g = scenario(me([["traveling-merchant"], ["patriarch"], ["patriarch"]], gold=2, mules=6, ginger=8), OPP)
    act(g, "1A; amount 2; ginger; mules")
    assert g.resources(0) == res(gold=0, mules=6, ginger=9)  # both gains capped
    g = scenario(me([["traveling-merchant"], ["patriarch"], ["patriarch"]], gold=2), OPP)
    act(g, "1A; amount 0")
    turn_over(g)
    assert g.resources(0) == res(gold=2)


@covers("merchants-daughter:A")
def test_merchants_daughter_counts_patriarchs_in_all_caravans():
    g = scenario(me([["merchants-daughter", "patriarch", "patriarch"], ["patriarch"], ["matriarch"]]), OPP)
    act(g, "1A")
    assert sorted(g.legal_texts()) == sorted(SPICES)
    act(g, "cloves")
    assert g.resources(0) == res(gold=6, cloves=6)
    g = scenario(me([["merchants-daughter"], ["matriarch"], ["matriarch"]]), OPP)
    act(g, "1A; cloves")
    assert g.resources(0) == BASE  # no Patriarch: +0


@covers("cup-bearer:A")
def test_cup_bearer_caravan_action_removes_one_card_of_this_caravan():
    g = scenario(me([["cup-bearer", "warrior", "patriarch"], ["patriarch", "grocer"], ["patriarch"]]), OPP)
    act(g, "1A")
    assert sorted(g.legal_texts()) == ["card 1.1", "card 1.2", "card 1.3", "done"]
    act(g, "card 1.1")
    assert cv(g) == [["patriarch", "cup-bearer"], ["patriarch", "grocer"], ["patriarch"]]
    assert g.points[0] == 0 and "warrior" in box(g)
    turn_over(g)


@covers("cup-bearer:P")
def test_cup_bearer_parting_removes_up_to_two_cards_of_any_caravan():
    g = scenario(me([["cup-bearer", "warrior"], ["patriarch", "grocer"], ["patriarch", "nightwatch"]]), OPP)
    assert g.points[0] == 3 + 1
    act(g, "1P")
    assert sorted(g.legal_texts()) == ["card 1.1", "card 2.1", "card 2.2", "card 3.1", "card 3.2", "done"]
    act(g, "card 1.1; card 3.2")
    assert cv(g) == [[], ["patriarch", "grocer"], ["patriarch"]]
    assert g.points[0] == 0
    turn_over(g)


def test_card_points_count_while_in_a_caravan():
    g = scenario(me([["warrior", "nightwatch"], ["patriarch"], ["patriarch"]]), OPP)
    assert g.points[0] == 4
    act(g, "1A")
    assert g.points[0] == 4  # moved to the back: still counts


# ------------------------------------------------------------------------------ special cards


@covers("farrier:A", "small-1", "pepper-1")
def test_farrier_costs_one_mule_small_and_special_free_without_payout():
    g = scenario(me([["farrier"], ["patriarch"], ["patriarch"]], mules=1, pepper=2), OPP,
                 decks={"contracts": {"top": ["pepper-1", "large-2", "small-1"]}})
    act(g, "1A")
    assert fulfilled(g) == ["pepper-1", "small-1"]
    assert g.resources(0) == res(mules=0, pepper=2)
    assert g.points[0] == 1 + 2 + 2
    assert under(g, "contracts") == ["large-2"]
    assert cv(g)[0] == ["farrier"]
    turn_over(g)


@covers("farrier:A")
def test_farrier_house_rule_costs_two_mules():
    g = scenario(me([["farrier"], ["patriarch"], ["patriarch"]], mules=1), OPP,
                 options={"farrier_two_mules": True}, decks={"contracts": {"top": ["small-1", "small-2", "small-3"]}})
    assert_illegal(g, "1A")
    g = scenario(me([["farrier"], ["patriarch"], ["patriarch"]], mules=2), OPP,
                 options={"farrier_two_mules": True}, decks={"contracts": {"top": ["small-1", "small-2", "small-3"]}})
    act(g, "1A")
    assert g.resources(0) == res(mules=0)
    assert fulfilled(g) == ["small-1", "small-2", "small-3"]


@covers("guild-lord:A", "small-2", "wheat-3")
def test_guild_lord_draws_three_contracts_and_pays_for_any():
    g = scenario(me([["guild-lord"], ["patriarch"], ["patriarch"]], cloves=5), OPP,
                 decks={"contracts": {"top": ["small-2", "large-2", "wheat-3"]}})
    act(g, "1A")
    assert sorted(g.legal_texts()) == ["done", "fulfil small-2", "fulfil wheat-3"]
    act(g, "fulfil small-2")
    assert g.resources(0) == res(cloves=1)
    assert sorted(g.legal_texts()) == ["done", "fulfil wheat-3"]
    act(g, "fulfil wheat-3")
    assert g.resources(0) == res(cloves=1, ginger=2, pepper=2, cinnamon=2)
    assert fulfilled(g) == ["small-2", "wheat-3"]
    assert under(g, "contracts") == ["large-2"]
    assert g.points[0] == 2 + 2 + 1
    assert display(g) == DISPLAY
    turn_over(g)


@covers("guild-lord:A")
def test_guild_lord_may_stop_all_rest_under():
    g = scenario(me([["guild-lord"], ["patriarch"], ["patriarch"]], cloves=5), OPP,
                 decks={"contracts": {"top": ["small-2", "large-2", "wheat-3"]}})
    act(g, "1A; done")
    assert fulfilled(g) == [] and g.resources(0) == res(cloves=5)
    assert under(g, "contracts") == ["small-2", "large-2", "wheat-3"]


@covers("debt-collector:A", "debt-collector:P")
def test_debt_collector_both_actions():
    g = scenario(me([["debt-collector"], ["patriarch"], ["patriarch"]], contracts=["small-1", "small-2"]), OPP)
    act(g, "1A; ginger")
    assert g.resources(0) == res(gold=5, ginger=5)
    g = scenario(me([["debt-collector"], ["patriarch"], ["patriarch"]], contracts=["small-1", "small-2"]), OPP,
                 decks={"special": {"top": ["farrier", "tailor"]}})
    act(g, "1P")
    assert drawn(g) == ["farrier", "tailor"]
    act(g, "keep farrier")
    assert cv(g)[0] == ["farrier"] and under(g, "special") == ["tailor"]
    g = scenario(me([["debt-collector"], ["patriarch"], ["patriarch"]]), OPP)
    act(g, "1P")  # no contract: no card drawn
    turn_over(g)
    assert cv(g)[0] == []


@covers("gray-eminence:A")
def test_gray_eminence_caravan_draws_three_keeps_one():
    g = scenario(me([["gray-eminence"], ["patriarch"], ["patriarch"]]), OPP,
                 decks={"standard": {"top": ["breeder", "smith", "boatman"]}})
    act(g, "1A; keep smith")
    assert cv(g)[0] == ["gray-eminence", "smith"]
    assert discard(g) == ["breeder", "boatman"]


@covers("gray-eminence:P")
def test_gray_eminence_parting_takes_a_card_from_the_discard_pile():
    g = scenario(me([["gray-eminence", "grocer"], ["patriarch"], ["patriarch"]]), OPP,
                 discard=["breeder", "warrior", "breeder"])
    act(g, "1P")
    assert sorted(g.legal_texts()) == ["take breeder", "take warrior"]
    act(g, "take warrior")
    assert cv(g)[0] == ["grocer", "warrior"]
    assert discard(g) == ["breeder", "breeder"]
    assert g.points[0] == 3


@covers("courtesan:A")
def test_courtesan_flips_opponents_patriarchs_in_place_three_players():
    g = scenario(me([["courtesan", "patriarch"], ["matriarch"], ["patriarch"]]),
                 {"caravans": [["grocer", "patriarch"], ["matriarch"], ["patriarch", "matriarch"]]},
                 {"caravans": [["patriarch"], ["servant"], ["matriarch", "prophet"]]})
    act(g, "1A")
    assert cv(g, 0) == [["patriarch", "courtesan"], ["matriarch"], ["patriarch"]]
    assert cv(g, 1) == [["grocer", "matriarch"], ["patriarch"], ["matriarch", "patriarch"]]
    assert cv(g, 2) == [["matriarch"], ["servant"], ["patriarch", "prophet"]]
    assert all(g.resources(p) == BASE for p in range(3))


@covers("tailor:A")
def test_tailor_keeps_one_of_five_at_the_front():
    g = scenario(me([["tailor", "grocer"], ["patriarch"], ["patriarch"]]), OPP,
                 decks={"standard": {"top": ["breeder", "smith", "boatman", "warrior", "hawker"]}})
    act(g, "1A")
    assert len(g.legal_texts()) == 5
    act(g, "keep boatman")
    assert cv(g)[0] == ["boatman", "grocer", "tailor"]
    assert discard(g) == ["breeder", "smith", "warrior", "hawker"]


# ------------------------------------------------------------------------------ Cut and Thrust


@covers("beggar:A")
def test_beggar_everyone_loses_two_gold():
    g = scenario(me([["beggar"], ["patriarch"], ["patriarch"]], gold=1),
                 {"caravans": [["patriarch"]], "resources": {"gold": 4}})
    assert g.points[0] == -2
    act(g, "1A")
    assert [g.resources(p)["gold"] for p in range(2)] == [6, 2]  # own gold hit 0: set to 6


@covers("envoy:A")
def test_envoy_shuffles_the_special_deck_and_draws_two():
    g = scenario(me([["envoy"], ["patriarch"], ["patriarch"]]), OPP,
                 decks={"special": {"top": ["tailor"], "under": [{"card": "farrier", "known_by": [0, 1]}]}})
    size = deck_size(g, "special")
    assert under(g, "special") == ["farrier"]
    act(g, "1A")
    d = drawn(g)
    assert len(d) == 2 and all(CARDS.person(x).deck == "special" for x in d)
    act(g, f"keep {d[0]}")
    assert cv(g)[0] == ["envoy", d[0]]
    # The old knowledge is shuffled away; only the new card under the deck is known.
    assert under(g, "special", 0) == [d[1]] and under(g, "special", 1) == [None]
    assert deck_size(g, "special") == size - 1


@covers("herder:A")
def test_herder_moves_front_cards_for_every_player_in_turn_order():
    g = scenario(me([["herder", "grocer"], ["servant"], []]),
                 {"caravans": [["scribe"], [], ["barmaid", "prophet"]]},
                 {"caravans": [["gypsy"], ["aristocrat"], ["herbalist"]]})
    act(g, "1A")
    assert sorted(g.legal_texts()) == ["herd 1>2", "herd 1>3", "herd 2>1", "herd 2>3"]  # empty caravan: no source
    act(g, "herd 1>3; herd 2>3")
    assert cv(g, 0) == [["herder"], [], ["grocer", "servant"]]
    assert g.to_move == 1
    act(g, "herd 3>2; herd 1>2")
    assert cv(g, 1) == [[], ["barmaid", "scribe"], ["prophet"]]
    assert g.to_move == 2
    act(g, "herd 1>2; herd 2>3; herd 3>1")
    assert cv(g, 2) == [["herbalist"], ["gypsy"], ["aristocrat"]]
    turn_over(g)


@covers("caravan-leader:A")
def test_caravan_leader_gains_two_mules_and_hits_rich_opponents():
    g = scenario(me([["caravan-leader"], ["patriarch"], ["patriarch"]], mules=1),
                 {"caravans": [["patriarch"]], "resources": {"mules": 6}},
                 {"caravans": [["patriarch"]], "resources": {"mules": 2}})
    assert g.points[0] == 2
    act(g, "1A")
    assert [g.resources(p)["mules"] for p in range(3)] == [3, 3, 2]


@covers("conjuress:A")
def test_conjuress_swaps_a_spice_with_an_opponent():
    g = scenario(me([["conjuress"], ["patriarch"], ["patriarch"]], pepper=1),
                 {"caravans": [["patriarch"]], "resources": {"pepper": 9}},
                 {"caravans": [["patriarch"]], "resources": {"pepper": 6}})
    act(g, "1A")
    assert g.legal_texts() == ["player 2", "player 3"]
    act(g, "player 2")
    assert sorted(g.legal_texts()) == sorted(SPICES)
    act(g, "pepper")
    assert [g.resources(p)["pepper"] for p in range(3)] == [9, 1, 6]
    turn_over(g)


@covers("gate-guard:A")
def test_gate_guard_cannot_pass_caravan_action_costs_opponents_three_gold():
    g = scenario(me([["gate-guard"], ["patriarch"], ["patriarch"]], gold=1),
                 {"caravans": [["patriarch"]], "resources": {"gold": 5}},
                 {"caravans": [["patriarch"]], "resources": {"gold": 2}})
    assert g.points[0] == 3
    assert_illegal(g, "1X")
    act(g, "1A")
    assert [g.resources(p)["gold"] for p in range(3)] == [1, 2, 0]


@covers("gate-guard:P")
def test_gate_guard_parting_sets_opponents_gold_to_two():
    g = scenario(me([["gate-guard"], ["patriarch"], ["patriarch"]], gold=7),
                 {"caravans": [["patriarch"]], "resources": {"gold": 9}},
                 {"caravans": [["patriarch"]], "resources": {"gold": 0}})
    act(g, "1P")
    assert [g.resources(p)["gold"] for p in range(3)] == [7, 2, 2]
    assert g.points[0] == 0


# ------------------------------------------------------------------------------ contracts


@covers("small-6", "small-14")
def test_small_contract_mule_requirement_and_cost():
    g = scenario(me([["spice-merchant"], ["spice-merchant"], ["patriarch"]], mules=1, ginger=5, cloves=5, pepper=2),
                 OPP, display=["small-6", "small-14", "large-2", "large-3"])
    act(g, "1A")
    assert g.legal_texts() == ["fulfil small-6"]  # small-14 needs 2 mules
    act(g, "fulfil small-6")
    assert g.resources(0) == res(mules=1, ginger=3, cloves=3, pepper=2)
    assert g.points[0] == -2 + 2


@covers("large-1", "large-11")
def test_large_contract_pays_mules_and_spices():
    g = scenario(me([["spice-merchant"], ["patriarch"], ["patriarch"]], mules=5, ginger=5, cinnamon=6), OPP,
                 display=["large-11", "large-1", "small-1", "small-2"])
    act(g, "1A")
    assert "fulfil large-11" in g.legal_texts() and "fulfil large-1" in g.legal_texts()
    act(g, "fulfil large-11")
    assert g.resources(0) == res(mules=3, ginger=0, cinnamon=1)
    assert g.points[0] == -1 + 6


@covers("wheat-5", "wheat-6", "wheat-7")
def test_wheat_fields_raise_every_farmer():
    g = scenario(me([["spice-merchant"], ["farmer", "farmer"], ["farmer"]], contracts=["wheat-7"]), OPP,
                 display=["wheat-5", "wheat-6", "large-2", "large-3"])
    assert g.points[0] == -1 + 2 + 3 * 1
    act(g, "1A; fulfil wheat-5")
    assert g.resources(0) == res(cloves=2, pepper=2, anise=2)
    assert g.points[0] == -1 + 2 + 1 + 3 * 2


@covers("pepper-1")
def test_pepper_contract_costs_gold_and_pays_six_pepper_capped():
    g = scenario(me([["spice-merchant"], ["patriarch"], ["patriarch"]], gold=4, mules=2, pepper=5), OPP,
                 display=["pepper-1", "large-2", "large-3", "large-4"])
    act(g, "1A; fulfil pepper-1")
    assert g.resources(0) == res(gold=0, mules=2, pepper=9)
    assert g.points[0] == -1 + 2


@covers("gold-1", "gold-2")
def test_gold_contract_pays_six_gold():
    g = scenario(me([["spice-merchant"], ["spice-merchant"], ["patriarch"]], cloves=5, cinnamon=5, gold=1), OPP,
                 display=["gold-1", "gold-2", "large-3", "large-4"])
    act(g, "1A; fulfil gold-1")
    assert g.resources(0) == res(cloves=0, cinnamon=5, gold=7)
    act(g, "1X")
    act(g, "2A; fulfil gold-2")
    assert g.resources(0) == res(cloves=0, cinnamon=0, gold=9)
    assert g.points[0] == -2 + 4


@pytest.mark.parametrize("cid", [c.id for c in CARDS.contracts], ids=str)
def test_every_contract_mule_requirement_and_cost(cid):
    c = CARDS.contract(cid)
    costs = {name: 0 for name in BASE}
    for r, n in c.cost:
        costs[RESOURCES[r]] = n
    start = {name: min(costs[name] + (c.mules if name == "mules" else 0), 9) for name in BASE}
    start["mules"] = max(c.mules, costs["mules"])
    others = [x for x in ("large-3", "large-4", "large-7", "large-8", "large-2") if x != cid][:3]
    g = scenario(me([["spice-merchant"], ["patriarch"], ["patriarch"]], **start), OPP, display=[cid, *others])
    act(g, "1A")
    assert f"fulfil {cid}" in g.legal_texts()
    act(g, f"fulfil {cid}")
    expected = {name: start[name] - costs[name] for name in BASE}
    for r, n in c.payout:
        name = RESOURCES[r]
        expected[name] = min(expected[name] + n, 9)
    assert g.resources(0) == expected
    assert g.points[0] == -1 + c.points
    # One less of anything required, and the contract is out of reach.
    for name in BASE:
        need = start["mules"] if name == "mules" else costs[name]
        if need:
            short = dict(start, **{name: need - 1})
            g = scenario(me([["spice-merchant"], ["patriarch"], ["patriarch"]], **short), OPP, display=[cid, *others])
            act(g, "1A")
            assert f"fulfil {cid}" not in g.legal_texts(), name


# ------------------------------------------------------------------------------ illegal actions

UNPAYABLE = [
    ("wainwright", {"gold": 0}, "1A"),
    ("mule-handler", {"gold": 1}, "1A"),
    ("smith", {"gold": 1}, "1A"),
    ("noble", {"gold": 1}, "1A"),
    ("nightwatch", {"mules": 0}, "1A"),
    ("farrier", {"mules": 0}, "1A"),
    ("boatman", {}, "1B"),  # no spice has 4
]


@pytest.mark.parametrize(("card", "start", "action"), UNPAYABLE, ids=[u[0] for u in UNPAYABLE])
def test_an_action_whose_cost_cannot_be_paid_is_illegal(card, start, action):
    g = scenario(me([[card], ["patriarch"], ["patriarch"]], **start), OPP)
    assert_illegal(g, action)
    assert "1X" in g.legal_texts()  # the card can still be passed


def test_illegal_sub_decisions_leave_the_game_unchanged():
    g = scenario(me([["patriarch"], ["grocer"], ["patriarch"]], cinnamon=5, mules=3), OPP,
                 display=["large-1", "large-2", "large-3", "large-4"], decks={"standard": {"top": ["hawker", "noble"]}})
    assert_illegal(g, "4A")  # no fourth caravan
    assert_illegal(g, "keep hawker")  # not a keep decision
    act(g, "1A")
    assert_illegal(g, "keep warrior")  # not drawn
    assert_illegal(g, "1A")  # a decision is pending
    act(g, "keep noble")
    act(g, "1X")
    act(g, "2P")
    turn_over(g)  # large-1 needs 6 cinnamon: nothing to fulfil
    assert fulfilled(g) == []


def test_empty_caravans_mean_the_turn_passes():
    g = scenario(me([[], [], []]), OPP)
    assert g.legal_texts() == ["pass"]
    act(g, "pass")
    turn_over(g)


def test_game_ends_when_no_caravan_holds_a_card():
    g = scenario(me([["grocer"], [], []], contracts=["small-5"]), {"caravans": [[], [], []], "contracts": ["small-6"],
                                                                  "last_gain": 5})
    act(g, "1P")  # nothing to fulfil; the last card leaves: nobody can ever act again
    assert g.over and g.legal_texts() == []
    assert g.points == [2, 2] and g.winner() == 1


def test_house_rule_spice_merchants_start_in_discard():
    for n in (2, 3):
        g = Game.new(Options(players=n, spice_merchants_in_discard=True), 3)
        assert discard(g) == ["spice-merchant"] * n
    assert discard(Game.new(Options(players=2), 3)) == []


def test_keep_one_is_compulsory():
    g = scenario(me([["patriarch"], ["patriarch"], ["patriarch"]]), OPP, decks={"standard": {"top": ["hawker", "noble"]}})
    act(g, "1A")
    assert sorted(g.legal_texts()) == ["keep hawker", "keep noble"]
    assert_illegal(g, "done")


def test_special_deck_draws_what_is_there():
    g = scenario(me([["noble"], ["patriarch"], ["patriarch"]], gold=4), OPP, decks={"special": {"cards": ["tailor"]}})
    assert deck_size(g, "special") == 1
    act(g, "1A")
    assert g.legal_texts() == ["keep tailor"]
    act(g, "keep tailor")
    assert cv(g)[0] == ["noble", "tailor"] and deck_size(g, "special") == 0
    act(g, "1X")
    act(g, "1A")  # the Noble again: nothing left to draw, the gold is still paid
    turn_over(g)
    assert g.resources(0) == res(gold=0) and cv(g)[0] == ["tailor", "noble"]


def test_display_stays_below_four_when_the_contract_deck_is_empty():
    # All 40 contracts placed: 4 face up, 36 fulfilled, none left in the deck.
    rest = [c.id for c in CARDS.contracts for _ in range(c.copies)]
    shown = ["small-1", "large-3", "large-4", "large-7"]
    for c in shown:
        rest.remove(c)
    g = scenario(me([["grocer"], ["patriarch"], ["patriarch"]], contracts=rest[:18], ginger=4),
                 {"caravans": OPP, "contracts": rest[18:]}, display=shown, decks={"contracts": {"cards": []}})
    assert deck_size(g, "contracts") == 0
    act(g, "1P; fulfil small-1")
    assert display(g) == ["large-3", "large-4", "large-7"]


def test_house_rule_min_caravan_two():
    opts = {"min_caravan_two": True}
    g = scenario(me([["impostor", "grocer"], ["cup-bearer", "warrior", "noble"],
                     ["servant"]]), OPP, options=opts)
    # A parting action would leave fewer than 2 cards: not offered for a 2-card caravan.
    assert "1P" not in g.legal_texts() and "1A" in g.legal_texts()
    assert "3P" not in g.legal_texts()
    assert_illegal(g, "1P")
    # The Cup Bearer's parting (3 cards -> 2) is allowed, but removes nothing from 2-card caravans.
    act(g, "2P")
    turn_over(g)
    assert cv(g) == [["impostor", "grocer"], ["warrior", "noble"], ["servant"]]
    g = scenario(me([["cup-bearer", "warrior", "noble"], ["patriarch", "grocer", "servant"],
                     ["prophet"]]), OPP, options=opts)
    act(g, "1P")
    assert sorted(g.legal_texts()) == ["card 2.1", "card 2.2", "card 2.3", "done"]
    act(g, "card 2.1")
    turn_over(g)  # caravan 2 is down to 2 cards: no second removal
    assert cv(g) == [["warrior", "noble"], ["grocer", "servant"], ["prophet"]]


def test_scenario_box_holds_unused_cut_and_thrust_cards_like_game_new():
    g = scenario(me([["beggar"], ["patriarch"], ["patriarch"]]), OPP)  # one Beggar in play
    new = Game.new(Options(players=2, expansion={"beggar": 1}), 0)
    assert new.card_census()["beggar"] == 2 and box(new).count("beggar") == 1
    assert box(g).count("beggar") == 1, "the second Beggar is not in the scenario's box"
    assert box(g).count("herder") == 2, "the unused Herders are not in the scenario's box"
    assert g.card_census()["herder"] == 2


# ------------------------------------------------------------------------------ every kind


@pytest.mark.parametrize("pid", [p.id for p in CARDS.persons], ids=str)
def test_every_person_scores_its_points_in_a_caravan(pid):
    p = CARDS.person(pid)
    g = scenario(me([[pid], ["patriarch"], ["patriarch"]], contracts=["wheat-1", "wheat-2"]), OPP)
    want = 2 * 1 + (2 if p.per_wheat else p.points)
    assert g.points[0] == want


def test_every_card_kind_is_covered():
    """Every caravan action (A, B) and parting action (P) of all 48 person kinds, and every
    contract kind, has a test above that checks its effect."""
    assert len(CARDS.persons) == 48
    wanted = set()
    for p in CARDS.persons:
        wanted |= {f"{p.id}:{'AB'[i]}" for i in range(len(p.caravan))}
        wanted |= {f"{p.id}:P" for _ in p.parting}
    missing = sorted(wanted - set(COVERED))
    assert not missing, f"actions without an effect test: {missing}"
    unknown = sorted(k for k in COVERED if ":" in k and k not in wanted)
    assert not unknown, f"covered actions that no card has: {unknown}"
    kinds = {CARDS.contract(c).kind for c in COVERED if c in CARDS.contract_index}
    assert kinds == {"small", "large", "wheat", "pepper", "gold"}
