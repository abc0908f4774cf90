"""The terminal front end without a screen: seats, typed choices, undo rules, records, move texts."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from rich.text import Text

from helpers import scenario
from kashgar import actions as A
from kashgar.cards import load_cards
from kashgar.cli import main
from kashgar.game import Game, Options
from kashgar.records import load_record, replay, state_digest
from kashgar.tui.session import (
    InputProblem,
    Session,
    SetupError,
    bot_spec,
    make_seats,
    public_view,
)

CARDS = load_cards()


def first_choices(s: Session, humans_pick: int = 0) -> None:
    """One decision of whoever is to move: a human takes choice ``humans_pick``, a bot decides."""
    p = s.to_move
    if s.is_human(p):
        choices = s.choices()
        s.apply(choices[min(humans_pick, len(choices) - 1)].action)
    else:
        s.apply(s.bots[p].act(s.game.copy()), bot=True)


# --------------------------------------------------------------------------------------------
# Seats and the command line


def test_bots_take_the_last_seats_and_levels_map_to_bot_specs() -> None:
    assert make_seats(3, 2, "normal") == [None, "ismcts:normal", "ismcts:normal"]
    assert make_seats(2, 0, "random") == [None, None]
    assert make_seats(4, 4, "heuristic") == ["heuristic"] * 4
    assert bot_spec("easy") == "ismcts:easy" and bot_spec("HARD") == "ismcts:hard"
    assert bot_spec("ismcts:iterations=200") == "ismcts:iterations=200"
    with pytest.raises(SetupError, match="--bots must be between 0 and the number of players"):
        make_seats(2, 3, "random")
    s = Session(CARDS, Options(players=3), 1, make_seats(3, 2, "easy"))
    assert [b.name for b in s.bots.values()] == ["ismcts:easy", "ismcts:easy"] and s.humans == [0]


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["play", "--players", "2", "--bots", "3", "--level", "random"], "--bots must be between 0 and"),
        (["play", "--level", "clever"], "unknown bot 'clever'"),
        (["play", "--players", "5"], "players must be 2, 3 or 4"),
        (["play", "--load", "/nonexistent/game.json"], "cannot read record"),
        (["play", "--expansion", "dragon"], "not a Cut and Thrust card"),
    ],
)
def test_bad_play_options_exit_with_a_clear_message(capsys, argv: list[str], message: str) -> None:
    code = main(argv)
    _out, err = capsys.readouterr()
    assert code == 2 and message in err


# --------------------------------------------------------------------------------------------
# Typed choices


def test_a_choice_is_a_number_or_notation_and_bad_input_explains_itself() -> None:
    s = Session(CARDS, Options(players=2), 7, [None, None])
    choices = s.choices()
    assert [c.number for c in choices] == list(range(1, len(choices) + 1))
    assert s.resolve("1") == choices[0].action
    assert s.resolve(f" {len(choices)} ") == choices[-1].action
    assert s.resolve("1b") == A.turn(0, A.OPT_B)
    with pytest.raises(InputProblem, match=f"There is no choice 99: type a number from 1 to {len(choices)}"):
        s.resolve("99")
    with pytest.raises(InputProblem, match="Not understood: 'buy camel'"):
        s.resolve("buy camel")
    with pytest.raises(InputProblem, match=r"'4A' is not possible now\. Possible: 1A, 1B"):
        s.resolve("4A")
    with pytest.raises(InputProblem, match="Type a number or an action"):
        s.resolve("  ")
    assert s.game.step == 0 and not s.actions  # nothing happened


def test_resources_may_be_typed_in_german() -> None:
    g = scenario([["grocer"], ["patriarch"], ["patriarch"]], [["patriarch"], ["patriarch"], ["patriarch"]])
    s = Session(CARDS, g.options, 0, [None, None], lang="de", start=g)
    s.apply("1A")  # the Grocer: increase a spice by 2
    assert s.game.decision == "resource"
    assert s.resolve("Pfeffer") == A.RES + 2
    with pytest.raises(InputProblem, match="Nicht verstanden"):
        s.resolve("Safran")


def test_previews_show_what_a_choice_changes_but_never_a_hidden_draw() -> None:
    g = scenario([["city-guard"], ["patriarch"], ["patriarch"]], [["patriarch"], ["patriarch"], ["patriarch"]])
    s = Session(CARDS, g.options, 0, [None, None], start=g)
    by_text = {c.notation: c for c in s.choices()}
    assert Text.from_markup(by_text["1A"].preview).plain == "P1 mules 3→4"
    assert "gold 3→6" in Text.from_markup(by_text["1P"].preview).plain
    assert by_text["2A"].preview == ""  # the Patriarch draws two hidden cards: no preview


# --------------------------------------------------------------------------------------------
# Undo


def test_undo_against_bots_goes_back_to_every_earlier_decision_of_the_human() -> None:
    s = Session(CARDS, Options(players=3), 11, [None, "random", "random"])
    while len(s.actions) < 60:
        first_choices(s, humans_pick=1)
    human_points = [i for i, (who, n) in enumerate(zip(s._who, s._nlegal)) if who == 0 and n > 1]
    undone = 0
    while s.undo():
        undone += 1
        assert s.human_to_move and len(s.game.legal()) > 1
        assert len(s.actions) == human_points[-undone]
        fresh = Game.new(Options(players=3), 11, CARDS)
        for a in s.actions:
            fresh.apply(a)
        assert fresh.fingerprint() == s.game.fingerprint()  # undo = replay of the kept actions
    assert undone == len(human_points)
    assert s.undo_problem() == "Nothing to undo yet."


def test_hotseat_undo_never_goes_back_past_a_hidden_draw() -> None:
    s = Session(CARDS, Options(players=2), 4, [None, None])
    first = s.to_move
    s.apply("1B")  # the Patriarch turns over: nothing drawn
    assert s.undo() == 1 and s.to_move == first and not s.actions
    s.apply("1B")
    s.apply("1A")  # the other player's Patriarch draws two Standard cards
    assert s.game.decision == "keep"
    assert s.undo() == 0
    assert "never goes back past the draw of a hidden card" in s.undo_problem()
    keep = s.choices()[0].action
    s.apply(keep)
    assert s.undo() == 1 and s.game.decision == "keep"  # back to the decision right after the draw
    assert s.undo() == 0


# --------------------------------------------------------------------------------------------
# Views, records, results


def test_hotseat_board_shows_the_player_to_move_and_bots_see_only_public_information() -> None:
    s = Session(CARDS, Options(players=3), 5, [None, None, "random"])
    while not (s.is_human(s.to_move) and s.game.decision == "keep"):
        first_choices(s)
    p = s.to_move
    assert s.viewer == p and s.view()["pending"]["drawn"] and s.has_private(p)
    other = next(q for q in s.humans if q != p)
    assert not s.has_private(other)
    obs = public_view(s.game.observation(p))
    assert "drawn" not in obs["pending"] and obs["legal"] == []
    assert all(x is None for d in obs["decks"].values() for x in d["under"])


def test_record_round_trip_keeps_the_game_and_the_seats(tmp_path: Path) -> None:
    s = Session(CARDS, Options(players=3), 21, [None, "random", "random"], lang="de")
    for _ in range(40):
        first_choices(s)
    path = s.save(tmp_path / "game.json")
    rec = load_record(path)
    assert rec["meta"]["seats"] == ["human", "random", "random"]
    assert state_digest(replay(rec)) == state_digest(s.game)
    back = Session.load(path, CARDS, "de")
    assert back.seats == s.seats and back.actions == s.actions and back.seed == 21
    assert state_digest(back.game) == state_digest(s.game)
    assert len(back.log) == len(s.log) + 1 and "Partie geladen" in back.log[-1].text
    assert Session.load(path, CARDS, seats=[None, None, "random"]).hotseat


def test_a_scenario_start_is_kept_in_the_record(tmp_path: Path) -> None:
    g = scenario([["grocer"], ["patriarch"], ["patriarch"]], [["patriarch"], ["patriarch"], ["patriarch"]])
    s = Session(CARDS, g.options, 0, [None, "random"], start=g)
    s.apply("1A")
    s.apply("pepper")
    rec = s.record()
    assert "start" in rec and rec["actions"] == ["1A", "pepper"]
    back = Session.from_record(rec, CARDS)
    assert state_digest(back.game) == state_digest(s.game)
    assert back.undo() == 1 and back.actions == [A.turn(0, A.OPT_A)]


def test_the_result_explains_the_tie_break() -> None:
    s = Session(CARDS, Options(players=3), 1, [None, "random", "random"])
    while len(s.actions) < 40:
        first_choices(s)
    turn = {e.step: e.turn + 1 for e in s.log}
    g = s.game
    g.over = True
    g.points = [25, 25, 12]
    g.last_gain = [20, 30, 5]
    g.end_triggered = True
    res = s.result()
    assert res["winner"] == 1
    assert [r["player"] for r in res["ranking"]] == [1, 0, 2]
    assert [r["last_gain"] for r in res["ranking"]] == [turn[30], turn[20], turn[5]]
    assert turn[30] > turn[20]
    assert res["why"] == (
        "Player 1 and Player 2 are tied with 25 VP. The tie goes to the player who gained points last: "
        f"Player 2 (Player 2 in turn {turn[30]}, Player 1 in turn {turn[20]})."
    )
    assert res["end"] == "A player reached 25 points; the round was played to the end."
    g.last_gain = [30, 30, 5]
    why = s.result()["why"]
    assert f"Player 1 in turn {turn[30]}, action 30" in why and "lower seat number" in why
    g.points = [20, 26, 12]
    assert s.result()["why"] == "Player 2 wins with 26 VP."


@pytest.mark.parametrize(("lang", "players", "seed"), [("en", 4, 1), ("de", 3, 2), ("en", 2, 3)])
def test_every_move_of_random_games_is_described_and_offered(lang: str, players: int, seed: int) -> None:
    """Whole games with the Cut and Thrust cards: every choice has a label, every move a log line."""
    s = Session(CARDS, Options.with_full_expansion(CARDS, players=players), seed, [None] * players, lang=lang)
    rng = random.Random(seed)
    families = set()
    while not s.game.over:
        choices = s.choices()
        for c in choices:
            Text.from_markup(c.label)  # valid markup
            Text.from_markup(c.preview)
        pick = rng.choice(choices)
        families.add(A.family(pick.action))
        entry = s.apply(pick.action)
        assert Text.from_markup(entry.text).plain.startswith(("P", "S"))
    assert len(s.log) == len(s.actions)
    assert {"turn", "keep", "resource", "contract"} <= families
    res = s.result()
    assert res["winner"] == s.game.winner() and res["why"]
