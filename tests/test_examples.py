"""Every worked example of the rulebooks (seeds 000 and 001), played as a scenario.

Numbers are the seeds' numbers where they give them; where a seed leaves a number open the
test says so and picks one. Card texts marked R in shared/spec/cards.md are the project's
reconstruction; the examples only rely on them where the example itself needs the card.
"""

from __future__ import annotations

import pytest

from helpers import (
    BASE,
    CARDS,
    OPP,
    SPICES,
    THREE_PATRIARCHS,
    act,
    assert_illegal,
    box,
    cv,
    discard,
    display,
    fulfilled,
    res,
    scenario,
    under,
)
from kashgar.game import Game, Options

EXAMPLE_CARAVANS = [["patriarch", "grocer"], ["patriarch", "servant"], ["patriarch", "prophet"]]


def test_turn_example_patriarch_draws_planter_and_baker_keeps_planter():
    g = scenario(EXAMPLE_CARAVANS, THREE_PATRIARCHS, decks={"standard": {"top": ["planter", "baker"]}})
    # "!": the Patriarchs cannot be passed, so every caravan offers only A and B.
    assert g.legal_texts() == ["1A", "1B", "2A", "2B", "3A", "3B"]
    act(g, "1A")
    assert g.decision == "keep" and g.to_move == 0
    assert g.observation(0)["pending"]["drawn"] == ["planter", "baker"]
    assert g.observation(1)["pending"].get("drawn") is None  # the opponent does not see the draw
    assert sorted(g.legal_texts()) == ["keep baker", "keep planter"]
    act(g, "keep planter")
    assert cv(g) == [["grocer", "patriarch", "planter"], ["patriarch", "servant"], ["patriarch", "prophet"]]
    assert discard(g) == ["baker"]
    assert g.resources(0) == BASE  # both Patriarch actions are free
    assert g.to_move == 1 and g.decision == "turn"


def test_turn_example_alternative_second_action_turns_to_matriarch_at_the_back():
    g = scenario(EXAMPLE_CARAVANS, THREE_PATRIARCHS, decks={"standard": {"top": ["planter", "baker"]}})
    size = g.observation(0)["decks"]["standard"]["size"]
    act(g, "1B")
    assert cv(g) == [["grocer", "matriarch"], ["patriarch", "servant"], ["patriarch", "prophet"]]
    assert discard(g) == []
    assert g.observation(0)["decks"]["standard"]["size"] == size  # no new card
    assert g.resources(0) == BASE
    assert g.to_move == 1


# ------------------------------------------------------------------------------ seed 000/001: contract example


def test_contract_example_grocer_fulfils_large_contract():
    g = scenario(
        {"caravans": [["grocer", "patriarch", "planter"], ["patriarch", "servant"], ["patriarch", "prophet"]],
         "resources": {"mules": 3, "cinnamon": 6}},
        THREE_PATRIARCHS,
        display=["large-1", "small-1", "small-2", "wheat-1"],
        decks={"contracts": {"top": ["small-9"]}},
    )
    assert CARDS.contract("large-1").points == 4 and CARDS.contract("large-1").mules == 3
    act(g, "1P")
    assert g.decision == "contract"
    # ginger/cloves 3 cannot pay small-1/small-2 (4 each); the Wheat Field (1+1+1) can be paid.
    assert sorted(g.legal_texts()) == ["fulfil large-1", "fulfil wheat-1"]
    act(g, "fulfil large-1")
    assert g.resources(0) == res(mules=2, cinnamon=0)  # 1 mule and 6 cinnamon paid
    assert fulfilled(g) == ["large-1"]
    assert g.points[0] == 1 + 4  # the Prophet's 1 VP and the contract's 4
    assert display(g) == ["small-1", "small-2", "wheat-1", "small-9"]  # refilled from the deck
    assert cv(g)[0] == ["patriarch", "planter"]  # the Grocer left the game
    assert "grocer" in box(g)


def test_contract_mule_requirement_is_not_paid_but_must_be_met():
    # 3 mules are required, 1 is paid; with only 2 mules the Large contract is out of reach.
    g = scenario({"caravans": [["grocer"], ["patriarch"], ["patriarch"]], "resources": {"mules": 2, "cinnamon": 6}},
                 THREE_PATRIARCHS, display=["large-1", "small-1", "small-2", "wheat-1"])
    act(g, "1P")
    assert g.legal_texts() == ["fulfil wheat-1"]
    assert_illegal(g, "fulfil large-1")


# ------------------------------------------------------------------------------ seed 001: card index


def test_baker_raises_a_spice_to_the_best_opponent_value():
    # Opponents have cinnamon 4 and 6: the Baker raises the player's cinnamon to 6.
    g = scenario(
        {"caravans": [["baker"], ["patriarch"], ["patriarch"]], "resources": {"cinnamon": 2, "pepper": 1}},
        {"caravans": [["patriarch"]], "resources": {"cinnamon": 4, "pepper": 7}},
        {"caravans": [["patriarch"]], "resources": {"cinnamon": 6}},
    )
    act(g, "1A")
    assert sorted(g.legal_texts()) == sorted(SPICES)  # pepper would have been possible too
    act(g, "cinnamon")
    assert g.resources(0) == res(cinnamon=6, pepper=1)
    assert g.resources(1)["cinnamon"] == 4 and g.resources(2)["cinnamon"] == 6


def test_baker_alternative_pepper_and_never_lowers():
    opponents = ({"caravans": [["patriarch"]], "resources": {"cinnamon": 4, "pepper": 7}},
                 {"caravans": [["patriarch"]], "resources": {"cinnamon": 6}})
    g = scenario({"caravans": [["baker"], ["patriarch"], ["patriarch"]], "resources": {"pepper": 1}}, *opponents)
    act(g, "1A; pepper")
    assert g.resources(0) == res(pepper=7)
    g = scenario({"caravans": [["baker"], ["patriarch"], ["patriarch"]], "resources": {"cinnamon": 8}}, *opponents)
    act(g, "1A; cinnamon")
    assert g.resources(0) == res(cinnamon=8)  # the best opponent has 6: nothing is lowered


def test_cooper_sets_gold_to_4_and_increases_mules_by_1():
    g = scenario({"caravans": [["cooper"], ["patriarch"], ["patriarch"]], "resources": {"gold": 1}}, THREE_PATRIARCHS)
    act(g, "1A")
    assert sorted(g.legal_texts()) == sorted([*SPICES, "gold"])  # gold or a spice; never mules
    act(g, "gold")
    assert g.resources(0) == res(gold=4, mules=4)


def test_traveling_merchant_pays_4_gold_for_pepper_4_cinnamon_2_mules_1():
    g = scenario({"caravans": [["traveling-merchant"], ["patriarch"], ["patriarch"]], "resources": {"gold": 5}},
                 THREE_PATRIARCHS)
    act(g, "1A")
    assert g.legal_texts() == [f"amount {i}" for i in range(6)]  # any amount of the gold he has
    act(g, "amount 4")
    assert g.resources(0)["gold"] == 1
    assert sorted(g.legal_texts()) == sorted([*SPICES, "mules"])
    act(g, "pepper; pepper; cinnamon; mules")
    assert g.resources(0) == res(gold=1, pepper=7, cinnamon=5, mules=4)
    assert g.to_move == 1


def test_debt_collector_caravan_action_with_3_contracts():
    g = scenario({"caravans": [["debt-collector"], ["patriarch"], ["patriarch"]],
                  "contracts": ["small-5", "small-6", "wheat-1"]}, THREE_PATRIARCHS)
    act(g, "1A; pepper")
    assert g.resources(0) == res(gold=6, pepper=6)


def test_debt_collector_parting_action_with_4_contracts_draws_4_special_cards():
    g = scenario(
        {"caravans": [["debt-collector", "patriarch"], ["patriarch"], ["patriarch"]],
         "contracts": ["small-5", "small-6", "wheat-1", "large-2"]},
        THREE_PATRIARCHS,
        decks={"special": {"top": ["farrier", "tailor", "guild-lord", "courtesan"]}},
    )
    act(g, "1P")
    assert sorted(g.legal_texts()) == ["keep courtesan", "keep farrier", "keep guild-lord", "keep tailor"]
    act(g, "keep tailor")
    assert cv(g)[0] == ["patriarch", "tailor"]
    assert "debt-collector" in box(g)
    # The three others go under the Special deck; only the player knows which they are.
    assert under(g, "special", 0) == ["farrier", "guild-lord", "courtesan"]
    assert under(g, "special", 1) == [None, None, None]


def test_patroness_caravan_of_4_increases_ginger_by_4():
    g = scenario({"caravans": [["patroness", "patriarch", "grocer", "planter"], ["patriarch"], ["patriarch"]]},
                 THREE_PATRIARCHS)
    act(g, "1A")
    assert sorted(g.legal_texts()) == sorted([*SPICES, "mules"])
    act(g, "ginger")
    assert g.resources(0) == res(ginger=7)  # all 4 on ginger, none left for cinnamon
    assert g.to_move == 1


def test_merchants_daughter_counts_only_patriarch_side_up():
    g = scenario({"caravans": [["merchants-daughter", "patriarch"], ["patriarch", "grocer"], ["matriarch"]]},
                 THREE_PATRIARCHS)
    act(g, "1A; ginger")
    assert g.resources(0) == res(gold=5, ginger=5)


def test_hawker_pays_missing_spices_with_gold():
    # Seed: must pay 4 pepper + 6 cinnamon, has 3 + 4, so 3 spices are missing and cost 3 gold.
    # No contract of ours costs 4 + 6; large-9 (1 mule, 4 pepper, 4 cinnamon, needs 4 mules) with
    # 3 pepper and 2 cinnamon is the same situation: 3 missing spices, paid with 3 gold.
    who = {"caravans": [["hawker"], ["spice-merchant"], ["patriarch"]],
           "resources": {"pepper": 3, "cinnamon": 2, "gold": 5, "mules": 4}}
    g = scenario(who, THREE_PATRIARCHS, display=["large-9", "small-1", "small-2", "small-3"])
    act(g, "1A")
    assert "fulfil large-9" in g.legal_texts()
    act(g, "fulfil large-9")
    assert g.resources(0) == res(pepper=0, cinnamon=0, gold=2, mules=3)
    assert g.points[0] == -1 + 5  # the Spice Merchant's -1 and the contract's 5
    # Without the Hawker (Spice Merchant: a normal fulfilment) large-9 cannot be paid.
    g = scenario(who, THREE_PATRIARCHS, display=["large-9", "small-1", "small-2", "small-3"])
    act(g, "2A")
    assert g.decision == "turn" and g.to_move == 1 and fulfilled(g) == []


def test_hawker_never_gives_gold_voluntarily():
    g = scenario({"caravans": [["hawker"], ["patriarch"], ["patriarch"]],
                  "resources": {"pepper": 5, "cinnamon": 4, "gold": 5, "mules": 4}},
                 THREE_PATRIARCHS, display=["large-9", "small-1", "small-2", "small-3"])
    act(g, "1A; fulfil large-9")
    assert g.resources(0) == res(pepper=1, cinnamon=0, gold=5, mules=3)


def test_farrier_fulfils_small_and_special_for_free_without_payout_large_goes_under():
    g = scenario({"caravans": [["farrier"], ["patriarch"], ["patriarch"]]}, THREE_PATRIARCHS,
                 decks={"contracts": {"top": ["large-2", "small-1", "pepper-1"]}})
    act(g, "1A")
    assert fulfilled(g) == ["small-1", "pepper-1"]
    assert g.resources(0) == res(mules=2)  # only the Farrier's cost; no +6 pepper payout
    assert g.points[0] == 1 + 2 + 2  # Farrier 1 VP, small-1 2, pepper-1 2
    assert under(g, "contracts", 0) == ["large-2"]
    assert under(g, "contracts", 1) == [None]
    assert g.to_move == 1


def test_farrier_wheat_field_counts_for_farmers():
    g = scenario({"caravans": [["farrier"], ["farmer"], ["patriarch"]]}, THREE_PATRIARCHS,
                 decks={"contracts": {"top": ["wheat-1", "large-2", "small-1"]}})
    assert g.points[0] == 1  # Farrier 1, Farmer 0 (no Wheat Field yet)
    act(g, "1A")
    assert fulfilled(g) == ["wheat-1", "small-1"]
    assert g.points[0] == 1 + 1 + 2 + 1  # Farrier, wheat-1, small-1, Farmer now 1


def test_boatman_pays_4_pepper_and_sets_ginger_to_9():
    g = scenario({"caravans": [["boatman"], ["patriarch"], ["patriarch"]], "resources": {"pepper": 5, "ginger": 2}},
                 THREE_PATRIARCHS)
    act(g, "1B")
    assert g.legal_texts() == ["pepper"]  # only pepper has 4 to pay
    act(g, "pepper")
    assert g.resources(0)["pepper"] == 1
    # Pepper cannot be lowered by 4 and then set to 9.
    assert "pepper" not in g.legal_texts()
    assert sorted(g.legal_texts()) == ["anise", "cinnamon", "cloves", "ginger"]
    assert_illegal(g, "pepper")
    act(g, "ginger")
    assert g.resources(0) == res(pepper=1, ginger=9)


def test_beggar_everyone_loses_2_gold_then_activator_sets_gold_to_6():
    # Seed: one opponent goes from 5 to 3, another from 1 to 0; someone has 0, so the player gets 6.
    g = scenario({"caravans": [["beggar"], ["patriarch"], ["patriarch"]], "resources": {"gold": 3}},
                 {"caravans": [["patriarch"]], "resources": {"gold": 5}},
                 {"caravans": [["patriarch"]], "resources": {"gold": 1}})
    act(g, "1A")
    assert [g.resources(p)["gold"] for p in range(3)] == [6, 3, 0]


def test_beggar_opponent_already_at_0_gold_also_counts():
    g = scenario({"caravans": [["beggar"], ["patriarch"], ["patriarch"]], "resources": {"gold": 5}},
                 {"caravans": [["patriarch"]], "resources": {"gold": 0}})
    act(g, "1A")
    assert [g.resources(p)["gold"] for p in range(2)] == [6, 0]


def test_beggar_nobody_at_0_gold():
    g = scenario({"caravans": [["beggar"], ["patriarch"], ["patriarch"]], "resources": {"gold": 5}},
                 {"caravans": [["patriarch"]], "resources": {"gold": 4}})
    act(g, "1A")
    assert [g.resources(p)["gold"] for p in range(2)] == [3, 2]


def test_caravan_leader_opponents_with_5_or_more_mules_lose_3():
    g = scenario({"caravans": [["caravan-leader"], ["patriarch"], ["patriarch"]], "resources": {"mules": 5}},
                 {"caravans": [["patriarch"]], "resources": {"mules": 5}},
                 {"caravans": [["patriarch"]], "resources": {"mules": 4}})
    act(g, "1A")
    # The player himself is not affected (he had 5 too); +2 is the reconstructed gain, capped at 6.
    assert [g.resources(p)["mules"] for p in range(3)] == [6, 2, 4]


def test_courtesan_turns_opponents_patriarchs_and_matriarchs_in_place():
    g = scenario({"caravans": [["courtesan", "patriarch"], ["matriarch"], ["patriarch"]]},
                 {"caravans": [["patriarch", "grocer"], ["servant", "matriarch"], ["matriarch", "patriarch"]]})
    act(g, "1A")
    assert cv(g, 1) == [["matriarch", "grocer"], ["servant", "patriarch"], ["patriarch", "matriarch"]]
    assert cv(g, 0) == [["patriarch", "courtesan"], ["matriarch"], ["patriarch"]]  # own cards unchanged


def test_herder_every_player_moves_each_front_card_to_another_caravan():
    g = scenario({"caravans": [["herder", "grocer"], ["servant", "prophet"], ["barmaid"]]},
                 {"caravans": [["scribe", "city-guard"], ["wainwright"], ["herbalist"]]})
    act(g, "1A")
    assert cv(g) == [["grocer", "herder"], ["servant", "prophet"], ["barmaid"]]
    assert g.decision == "herd" and g.to_move == 0
    assert "herd 1>1" not in g.legal_texts() and "herd 1>2" in g.legal_texts()
    # Any order; two cards may go to the same caravan.
    act(g, "herd 2>1; herd 1>3; herd 3>1")
    assert cv(g) == [["herder", "servant", "barmaid"], ["prophet"], ["grocer"]]
    assert g.decision == "herd" and g.to_move == 1  # now the opponent moves his
    assert_illegal(g, "herd 1>1")
    act(g, "herd 1>2; herd 2>3; herd 3>1")
    assert cv(g, 1) == [["city-guard", "herbalist"], ["scribe"], ["wainwright"]]
    assert g.decision == "turn" and g.to_move == 1 and g.turn_player == 1


def test_tailor_draws_5_keeps_1_at_the_front():
    g = scenario({"caravans": [["tailor", "grocer"], ["patriarch"], ["patriarch"]]}, OPP,
                 decks={"standard": {"top": ["planter", "baker", "cooper", "hawker", "warrior"]}})
    act(g, "1A")
    assert g.observation(0)["pending"]["drawn"] == ["planter", "baker", "cooper", "hawker", "warrior"]
    act(g, "keep warrior")
    assert cv(g)[0] == ["warrior", "grocer", "tailor"]
    assert discard(g) == ["planter", "baker", "cooper", "hawker"]  # face up: anyone may look
    assert g.observation(1)["discard"] == ["planter", "baker", "cooper", "hawker"]
    act(g, "1X")  # opponent
    assert "1A" in g.legal_texts()  # the Warrior can be used next turn
    act(g, "1A")
    assert g.resources(0) == res(mules=4)
    assert cv(g)[0] == ["grocer", "tailor", "warrior"]


def test_village_beauty_moves_all_patriarchs_to_the_front_matriarchs_stay():
    g = scenario({"caravans": [["village-beauty", "grocer", "patriarch"], ["servant", "matriarch", "patriarch"],
                               ["prophet", "barmaid"]]},
                 {"caravans": [["scribe", "patriarch"], ["city-guard", "matriarch"], ["patriarch"]]})
    act(g, "1P")
    assert cv(g, 0) == [["patriarch", "grocer"], ["patriarch", "servant", "matriarch"], ["prophet", "barmaid"]]
    assert cv(g, 1) == [["patriarch", "scribe"], ["city-guard", "matriarch"], ["patriarch"]]
    assert "village-beauty" in box(g)


@pytest.mark.parametrize("players", [2, 3])
def test_aristocrat_spare_patriarch_exists_iff_aristocrat_was_dealt(players):
    seen = set()
    for seed in range(40):
        g = Game.new(Options(players=players), seed)
        dealt = any("aristocrat" in c for p in range(players) for c in cv(g, p))
        seen.add(dealt)
        assert g.spare == int(dealt), f"seed {seed}"
        assert g.observation(0)["spare_patriarch"] is dealt
        pats_in_box = box(g).count("patriarch")
        assert pats_in_box == 13 - 3 * players - int(dealt), f"seed {seed}"
        assert g.card_census()["patriarch"] == 13
    assert seen == {True, False}


def test_aristocrat_is_always_dealt_with_4_players():
    for seed in range(10):
        g = Game.new(Options(players=4), seed)
        assert g.spare == 1
        assert box(g).count("patriarch") == 0


def test_aristocrat_parting_action_makes_a_fourth_caravan():
    g = scenario({"caravans": [["aristocrat", "grocer"], ["patriarch"], ["patriarch"]]}, OPP)
    assert g.spare == 1 and g.points[0] == 2
    act(g, "1P")
    assert cv(g) == [["grocer"], ["patriarch"], ["patriarch"], ["patriarch"]]
    assert g.spare == 0 and g.points[0] == 0
    assert "aristocrat" in box(g)
    act(g, "1X")  # opponent
    assert "4A" in g.legal_texts() and "4B" in g.legal_texts()
    act(g, "4B")
    assert cv(g)[3] == ["matriarch"]


def test_aristocrat_without_spare_patriarch_adds_no_caravan():
    g = scenario({"caravans": [["aristocrat", "grocer"], ["patriarch"], ["patriarch"]]}, THREE_PATRIARCHS,
                 spare_patriarch=False)
    act(g, "1P")
    assert cv(g) == [["grocer"], ["patriarch"], ["patriarch"]]


def test_matriarch_takes_a_card_from_the_discard_pile_then_turns_back_at_the_back():
    g = scenario({"caravans": [["matriarch", "grocer"], ["patriarch"], ["patriarch"]]}, THREE_PATRIARCHS,
                 discard=["baker", "planter", "baker"])
    assert "1X" not in g.legal_texts()
    act(g, "1A")
    assert g.decision == "take"
    assert sorted(g.legal_texts()) == ["take baker", "take planter"]
    act(g, "take planter")
    assert cv(g)[0] == ["grocer", "planter", "patriarch"]
    assert discard(g) == ["baker", "baker"]
    assert g.to_move == 1


def test_matriarch_with_empty_discard_is_only_turned_and_moved():
    g = scenario({"caravans": [["matriarch", "grocer"], ["patriarch"], ["patriarch"]]}, THREE_PATRIARCHS)
    act(g, "1A")
    assert cv(g)[0] == ["grocer", "patriarch"]
    assert g.to_move == 1 and g.decision == "turn"


def test_cup_bearer_caravan_action_removes_one_card_even_the_patriarch():
    g = scenario({"caravans": [["cup-bearer", "patriarch", "grocer"], ["patriarch"], ["patriarch"]]}, THREE_PATRIARCHS)
    act(g, "1A")
    assert cv(g)[0] == ["patriarch", "grocer", "cup-bearer"]
    assert g.decision == "card"
    assert {"card 1.1", "card 1.2", "card 1.3"} <= set(g.legal_texts())
    assert not any(t.startswith("card 2") for t in g.legal_texts())  # only this caravan
    act(g, "card 1.1")
    assert cv(g)[0] == ["grocer", "cup-bearer"]
    assert box(g).count("patriarch") >= 1
    assert g.to_move == 1


def test_cup_bearer_parting_action_removes_up_to_two_cards_from_any_caravans():
    g = scenario({"caravans": [["cup-bearer", "grocer"], ["patriarch", "servant"], ["patriarch", "prophet"]]},
                 THREE_PATRIARCHS)
    act(g, "1P")
    assert "cup-bearer" in box(g)
    act(g, "card 2.1")
    assert g.decision == "card" and "done" in g.legal_texts()
    act(g, "card 3.1")
    assert cv(g) == [["grocer"], ["servant"], ["prophet"]]
    assert g.to_move == 1
    # The same two cards may come from one caravan, and one may stop after one card.
    g = scenario({"caravans": [["cup-bearer", "grocer"], ["patriarch", "servant"], ["patriarch", "prophet"]]},
                 THREE_PATRIARCHS)
    act(g, "1P; card 2.2; card 2.1")
    assert cv(g) == [["grocer"], [], ["patriarch", "prophet"]]
    g = scenario({"caravans": [["cup-bearer", "grocer"], ["patriarch", "servant"], ["patriarch", "prophet"]]},
                 THREE_PATRIARCHS)
    act(g, "1P; card 1.1; done")
    assert cv(g) == [[], ["patriarch", "servant"], ["patriarch", "prophet"]]


def test_impostor_parting_action_removes_any_card_of_this_caravan_even_the_patriarch():
    g = scenario({"caravans": [["impostor", "patriarch", "grocer"], ["patriarch", "servant"], ["patriarch"]]},
                 THREE_PATRIARCHS)
    act(g, "1P")
    assert not any(t.startswith("card 2") for t in g.legal_texts())
    act(g, "card 1.1")
    assert cv(g) == [["grocer"], ["patriarch", "servant"], ["patriarch"]]
    assert "impostor" in box(g)


def test_noble_caravan_action_second_special_card_under_the_special_deck():
    g = scenario({"caravans": [["noble", "grocer"], ["patriarch"], ["patriarch"]], "resources": {"gold": 3}},
                 THREE_PATRIARCHS, decks={"special": {"top": ["tailor", "farrier"]}})
    act(g, "1A")
    assert g.resources(0)["gold"] == 1  # the reconstructed cost of 2 gold
    act(g, "keep tailor")
    assert cv(g)[0] == ["grocer", "noble", "tailor"]
    assert under(g, "special", 0) == ["farrier"]
    assert discard(g) == []


def test_noble_parting_action_removes_the_patriarch_so_the_caravan_stops_growing():
    g = scenario({"caravans": [["noble", "grocer", "patriarch"], ["noble", "matriarch"], ["patriarch"]]}, OPP)
    act(g, "1P")
    assert cv(g)[0] == ["grocer"]
    act(g, "1X")  # opponent
    act(g, "2P")  # a Matriarch is the same card
    assert cv(g) == [["grocer"], [], ["patriarch"]]


def test_gypsy_caravan_action_moves_another_caravans_front_card_to_its_back():
    # "useful for preventing the Patriarch action"
    g = scenario({"caravans": [["gypsy", "grocer"], ["patriarch", "servant"], ["patriarch", "prophet"]]},
                 THREE_PATRIARCHS)
    act(g, "1A")
    assert g.legal_texts() == ["caravan 2", "caravan 3"]
    act(g, "caravan 2")
    assert cv(g) == [["grocer", "gypsy"], ["servant", "patriarch"], ["patriarch", "prophet"]]


def test_farmer_draws_two_wheat_fields_keeps_only_one():
    g = scenario({"caravans": [["farmer"], ["patriarch"], ["patriarch"]], "resources": {"mules": 0}},
                 THREE_PATRIARCHS, decks={"contracts": {"top": ["wheat-1", "wheat-7", "large-2"]}})
    act(g, "1A")
    assert sorted(g.legal_texts()) == ["done", "fulfil wheat-1", "fulfil wheat-7"]
    act(g, "fulfil wheat-7")
    assert fulfilled(g) == ["wheat-7"]
    assert g.resources(0) == res(mules=0)  # free: no requirement, no cost
    assert g.points[0] == 2 + 1  # wheat-7 is worth 2, the Farmer now 1
    assert under(g, "contracts", 0) == ["wheat-1", "large-2"]
    assert g.to_move == 1


def test_farmer_scoring_three_wheat_fields_make_each_farmer_worth_3():
    g = scenario({"caravans": [["spice-merchant", "farmer"], ["farmer"], ["patriarch"]],
                  "contracts": ["wheat-1", "wheat-2", "wheat-7"]},
                 OPP, display=["wheat-3", "small-1", "small-2", "small-3"])
    assert g.points[0] == (1 + 1 + 2) + 2 * 3 - 1  # contracts + two Farmers at 3 + Spice Merchant -1
    act(g, "1P; ginger")  # Spice Merchant parting (R): its -1 leaves with it
    assert g.points[0] == 4 + 6
    g2 = scenario({"caravans": [["spice-merchant", "farmer"], ["farmer"], ["patriarch"]],
                   "contracts": ["wheat-1", "wheat-2", "wheat-7"]},
                  THREE_PATRIARCHS, display=["wheat-3", "small-1", "small-2", "small-3"])
    act(g2, "1A; fulfil wheat-3")  # a 4th Wheat Field: each Farmer grows to 4
    assert g2.points[0] == (1 + 1 + 2 + 1) + 2 * 4 - 1


# ------------------------------------------------------------------------------ general rules


def test_exclamation_cards_cannot_be_passed():
    g = scenario({"caravans": [["patriarch", "grocer"], ["matriarch", "servant"], ["gate-guard", "prophet"]]},
                 THREE_PATRIARCHS)
    legal = g.legal_texts()
    assert not {"1X", "2X", "3X"} & set(legal)
    assert {"1A", "1B", "2A", "3A", "3P"} <= set(legal)
    for a in ("1X", "2X", "3X"):
        assert_illegal(g, a)


def test_pass_moves_the_card_to_the_back_and_does_nothing_else():
    g = scenario({"caravans": [["grocer", "patriarch"], ["patriarch"], ["patriarch"]]}, THREE_PATRIARCHS)
    assert "1X" in g.legal_texts()
    act(g, "1X")
    assert cv(g)[0] == ["patriarch", "grocer"]
    assert g.resources(0) == BASE and g.to_move == 1


def test_increase_past_the_cap_is_forfeited():
    g = scenario({"caravans": [["planter"], ["breeder"], ["patriarch"]], "resources": {"ginger": 8, "mules": 5}},
                 OPP)
    act(g, "1A; ginger")
    assert g.resources(0)["ginger"] == 9  # +3 from 8: spices stop at 9
    act(g, "1X")
    act(g, "2A")
    assert g.resources(0)["mules"] == 6  # +2 from 5: mules stop at 6


def test_set_can_lower_a_value():
    g = scenario({"caravans": [["charlatan"], ["servant"], ["patriarch"]],
                  "resources": {"anise": 8, "gold": 9, "ginger": 7, "cloves": 0, "pepper": 2}},
                 OPP)
    act(g, "1A; anise")
    assert g.resources(0)["anise"] == 5  # set to 5, from 8
    act(g, "1X")
    act(g, "2A; ginger; cloves; pepper")
    # gold 9 -> 5, ginger 7 -> 2 (down), cloves 0 -> 2 (up), pepper 2 -> 2 (unchanged)
    assert g.resources(0) == res(anise=5, gold=5, ginger=2, cloves=2, pepper=2)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_start_player_holds_the_lowest_ranked_start_card(players):
    for seed in range(15):
        g = Game.new(Options(players=players), seed)
        best = {p: min(CARDS.person(c[1]).rank for c in cv(g, p)) for p in range(players)}
        want = min(best, key=best.get)
        assert g.start_player == want and g.turn_player == want and g.to_move == want, f"seed {seed}"


# ------------------------------------------------------------------------------ the end of the game

# Two players at 23 points: Large contracts 6 + 6 + 5 + 5 and a Basket Maker (1 VP), or Large
# contracts 5 + 5 + 5 + 5 and a Small one of 3. The Hawker at the front can fulfil small-1 or
# small-2 (2 VP each) for the 25th point.
NEAR_END = (
    {"contracts": ["large-11", "large-12", "large-5", "large-6"], "other": "basket-maker"},
    {"contracts": ["large-7", "large-8", "large-9", "large-10", "small-10"], "other": "charlatan"},
)


def near_end_player(which: int = 0) -> dict:
    return {"caravans": [["hawker"], [NEAR_END[which]["other"]], ["patriarch"]],
            "contracts": list(NEAR_END[which]["contracts"]), "resources": {"ginger": 4, "cloves": 4}}


def test_reaching_25_triggers_the_end_and_the_round_is_completed():
    g = scenario(near_end_player(), {"caravans": OPP},
                 {"caravans": THREE_PATRIARCHS}, display=["small-1", "small-2", "small-3", "small-4"],
                 start_player=2, turn_player=2)
    assert g.points[0] == 23
    act(g, "1B")  # player 3 (the start player)
    act(g, "1A; fulfil small-1")  # player 1 reaches 25
    assert g.points[0] == 25 and g.end_triggered and not g.over
    assert g.to_move == 1
    act(g, "1X")  # player 2, the last of the round
    assert g.over and g.to_move == -1 and g.legal_texts() == []
    assert g.winner() == 0


def test_the_start_player_reaching_25_lets_everyone_else_play():
    g = scenario(near_end_player(), OPP,
                 display=["small-1", "small-2", "small-3", "small-4"])
    act(g, "1A; fulfil small-1")
    assert g.end_triggered and not g.over and g.to_move == 1
    act(g, "1X")
    assert g.over


def test_tie_break_the_tied_player_who_last_gained_points_wins():
    g = scenario(near_end_player(0), near_end_player(1),
                 display=["small-1", "small-2", "small-3", "small-4"])
    assert g.points == [23, 23]
    act(g, "1A; fulfil small-1")
    act(g, "1A; fulfil small-2")
    assert g.over and g.points == [25, 25]
    assert g.winner() == 1 and g.ranking() == [1, 0]
    assert g.observation(0)["ranking"] == [1, 0]


def test_no_tie_the_higher_score_wins():
    g = scenario(near_end_player(0), near_end_player(1),
                 display=["small-1", "small-2", "small-3", "small-4"])
    act(g, "1A; fulfil small-1")  # player 1: 25
    act(g, "1X")  # player 2 stays at 23
    assert g.over and g.points == [25, 23] and g.winner() == 0


@pytest.mark.parametrize(("gains", "ranking"), [((7, 3), [0, 1]), ((3, 7), [1, 0])])
def test_tie_break_from_a_scenario_last_gain(gains, ranking):
    g = scenario({"caravans": [["hawker"], ["patriarch"], ["patriarch"]], "contracts": ["small-5"], "last_gain": gains[0]},
                 {"caravans": [["charlatan"], ["patriarch"], ["patriarch"]], "contracts": ["small-6"], "last_gain": gains[1]})
    assert g.points == [2, 2] and g.ranking() == ranking
