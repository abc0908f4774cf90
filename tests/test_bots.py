"""Bots: legal moves only, determinism, no peeking at hidden cards, tournaments end to end."""

from __future__ import annotations

import json
import random

import pytest

from kashgar.bots import BotError, Seat, make_bot, split_specs
from kashgar.bots.heuristic import evaluate
from kashgar.cli import main
from kashgar.game import Game, Options
from kashgar.tournament import check_bots, run_tournament, seating, wilson

FAST = ["random", "heuristic", "value", "ismcts:iterations=40", "ismcts:iterations=40,prior=0"]


def positions(count: int, seed: int = 0, expansion: bool = True) -> list[Game]:
    """Positions sampled from random games (2-4 players, every kind of decision)."""
    rng = random.Random(seed)
    out = []
    while len(out) < count:
        n = rng.choice([2, 3, 4])
        opts = Options.with_full_expansion(players=n) if expansion else Options(players=n)
        g = Game.new(opts, rng.randrange(10**6))
        while not g.over and len(out) < count:
            if rng.random() < 0.08 or g.decision != "turn":
                out.append(g.copy())
            g.apply(rng.choice(g.legal_actions()))
    return out


@pytest.mark.parametrize("spec", FAST)
def test_bots_only_return_legal_actions(spec: str) -> None:
    bot = make_bot(spec, 1)
    for g in positions(150 if not spec.startswith("ismcts") else 60, seed=hash(spec) & 0xFFFF):
        a = bot.act(g)
        assert a in g.legal_actions(), (spec, g.decision, g.action_text(a))


@pytest.mark.parametrize("spec", FAST)
def test_same_seed_same_decisions(spec: str) -> None:
    for g in positions(25, seed=3):
        assert make_bot(spec, 7).act(g) == make_bot(spec, 7).act(g.copy())


@pytest.mark.parametrize("spec", ["heuristic", "value", "ismcts:iterations=60"])
def test_no_peeking_hidden_deck_order_does_not_change_the_decision(spec: str) -> None:
    """Two games that differ only in what the seat cannot see give the same decision."""
    differing = 0
    for i, g in enumerate(positions(40, seed=11)):
        p = g.to_move
        other = g.redeal(p, 1000 + i)  # same view for p, different hidden cards and future draws
        assert other.observation(p) == g.observation(p)
        if other.fingerprint() != g.fingerprint():
            differing += 1
        assert make_bot(spec, 5).act(g) == make_bot(spec, 5).act(other)
    assert differing > 30  # the hidden information really differed


def test_seat_gives_no_access_to_the_game() -> None:
    g = Game.new(Options(players=2), 1)
    seat = Seat(g, g.to_move)
    assert not hasattr(seat, "__dict__") and "_game" in Seat.__slots__
    d = seat.determinize(random.Random(1))
    assert d is not g and d.observation(seat.player) == g.observation(seat.player)
    with pytest.raises(ValueError, match="not player"):
        Seat(g, 1 - g.to_move)


def test_heuristic_prefers_fulfilling_a_contract() -> None:
    from kashgar.scenario import load_scenario

    g = load_scenario({
        "players": [
            {"caravans": [["grocer"], ["patriarch", "servant"], ["patriarch", "prophet"]],
             "resources": {"mules": 3, "cinnamon": 6}},
            {"caravans": [["patriarch"], ["patriarch"], ["patriarch"]]},
        ],
        "display": ["large-1", "small-1", "small-2", "wheat-1"],
    })
    bot = make_bot("heuristic", 0)
    assert g.action_text(bot.act(g)) == "1P"
    g.apply("1P")
    assert g.action_text(bot.act(g)) == "fulfil large-1"
    assert evaluate(g, 0) > 0


@pytest.mark.parametrize(
    ("spec", "message"),
    [
        ("dragon", "unknown bot 'dragon'"),
        ("ismcts:ultra", "unknown ismcts level 'ultra'"),
        ("ismcts:iterations=0", "iterations must be from 1"),
        ("ismcts:iterations=x", "must be a whole number"),
        ("ismcts:seconds=-1", "seconds must be from"),
        ("ismcts:depth=3", "unknown ismcts option 'depth'"),
        ("ismcts:seconds=1,iterations=5", "'iterations=5' repeats an option"),
        ("ismcts:hard,easy", "'easy' repeats an option"),
        ("ismcts:prior=2,prior=3", "'prior=3' repeats an option"),
        ("ismcts:prior=-1", "prior must be from 0 to 1,000, got -1"),
        ("ismcts:prior=nan", "prior must be from 0"),
        ("ismcts:c=x", "c must be a number, got 'x'"),
        ("ismcts:c=11", "c must be from 0 to 10"),
        ("ismcts:prior=5,c=0.3,fast", "unknown ismcts level 'fast'"),
        ("heuristic:hard", "takes no level"),
        ("", "empty bot name"),
    ],
)
def test_bad_bot_specs(spec: str, message: str) -> None:
    with pytest.raises(BotError, match=message):
        make_bot(spec)


def test_search_options_in_the_spec() -> None:
    bot = make_bot("ismcts:seconds=1.5,prior=5,c=0.3", seed=2)
    assert (bot.seconds, bot.iterations, bot.prior_visits, bot.c) == (1.5, None, 5.0, 0.3)
    assert bot.name == "ismcts:seconds=1.5,prior=5,c=0.3"
    bot = make_bot("ismcts:prior=0,hard")
    assert (bot.iterations, bot.prior_visits) == (3000, 0.0)
    bot = make_bot("ismcts:c=1.2")  # options only: the normal level's budget
    assert (bot.iterations, bot.c) == (700, 1.2)


def test_split_specs_keeps_search_options_with_their_bot() -> None:
    assert split_specs("ismcts:seconds=1,prior=5,c=0.3,heuristic") == ["ismcts:seconds=1,prior=5,c=0.3", "heuristic"]
    assert split_specs("heuristic, ismcts:hard ,random") == ["heuristic", "ismcts:hard", "random"]
    assert split_specs("value+ismcts:iterations=9,prior=2") == ["value", "ismcts:iterations=9,prior=2"]
    # A key=value item with nothing to attach to stays a spec of its own, so make_bot names it.
    assert split_specs("prior=5,heuristic") == ["prior=5", "heuristic"]
    assert split_specs("heuristic,prior=5") == ["heuristic", "prior=5"]


def test_bad_tables() -> None:
    with pytest.raises(BotError, match="3 bots named for 2 seats"):
        check_bots(["random", "random", "random"], 2)
    with pytest.raises(BotError, match="cannot fill 4 seats evenly"):
        check_bots(["random", "random", "heuristic"], 4)
    with pytest.raises(BotError, match="2, 3 or 4 seats"):
        check_bots(["random"], 5)


def test_seats_rotate() -> None:
    bots = ["a", "b", "b", "b"]
    tables = [seating(bots, 4, i) for i in range(4)]
    assert [t.index("a") for t in tables] == [0, 1, 2, 3]


def test_wilson_interval() -> None:
    lo, hi = wilson(50, 100)
    assert lo == pytest.approx(0.4038, abs=1e-3) and hi == pytest.approx(0.5962, abs=1e-3)
    assert wilson(0, 10)[0] == pytest.approx(0.0, abs=1e-9) and wilson(10, 10)[1] == pytest.approx(1.0)


def test_tournament_is_reproducible_and_worker_independent(tmp_path) -> None:
    kw = dict(bots=["heuristic", "random"], options=Options(players=2), games=6, seed=5)
    a = run_tournament(**kw)
    b = run_tournament(**kw, workers=2, records_dir=tmp_path)
    assert a["results"] == b["results"]
    assert [x["wins"] for x in a["bots"]] == [x["wins"] for x in b["bots"]]
    assert a["bots"][0]["wins"] >= 5  # heuristic beats random
    assert len(list(tmp_path.glob("game-*.json"))) == 6


def test_tournament_cli_json(capsys) -> None:
    code = main(["tournament", "--bots", "ismcts:iterations=20,prior=3,heuristic,random", "--players", "3",
                 "--games", "3", "--seed", "2", "--json"])
    out = json.loads(capsys.readouterr().out)
    assert code == 0 and out["games"] == 3 and out["players"] == 3
    bots = {b["bot"]: b for b in out["bots"]}
    assert set(bots) == {"ismcts:iterations=20,prior=3", "heuristic", "random"}
    assert sum(b["wins"] for b in bots.values()) == 3
    for b in bots.values():
        assert 0 <= b["ci95"][0] <= b["ci95"][1] <= 1 and b["ms_per_decision"] > 0
        assert len(b["by_seat"]) == 3


def test_tournament_cli_errors(capsys) -> None:
    assert main(["tournament", "--bots", "heuristic,dragon", "--games", "2"]) == 2
    assert "unknown bot 'dragon'" in capsys.readouterr().err
    assert main(["tournament", "--bots", "ismcts:iterations=5,prior=x,heuristic", "--games", "2"]) == 2
    assert "prior must be a number, got 'x'" in capsys.readouterr().err
    assert main(["tournament", "--bots", "heuristic,random", "--games", "0"]) == 2
    assert "--games must be at least 1" in capsys.readouterr().err


def test_tournament_on_a_local_ray_cluster() -> None:
    """Ray 2.x removed local_mode; this starts a real single-node Ray cluster on this machine."""
    pytest.importorskip("ray")
    kw = dict(bots=["heuristic", "random"], options=Options(players=2), games=4, seed=9)
    on_ray = run_tournament(**kw, ray_address="local")
    assert on_ray["results"] == run_tournament(**kw)["results"]


def test_search_with_one_ply_priors_plays_legal_reproducible_moves() -> None:
    from kashgar.bots.ismcts import ISMCTSBot

    for g in positions(30, seed=21):
        a = ISMCTSBot(3, iterations=40, prior_visits=5, exploration=0.3).act(g)
        assert a in g.legal_actions()
        assert a == ISMCTSBot(3, iterations=40, prior_visits=5, exploration=0.3).act(g.copy())
    with pytest.raises(BotError, match="prior_visits"):
        ISMCTSBot(0, prior_visits=-1)
    with pytest.raises(BotError, match="learned evaluation"):
        ISMCTSBot(0, prior_visits=5, evaluation="heuristic")
    with pytest.raises(BotError, match="exploration must be from 0 to 10"):
        ISMCTSBot(0, exploration=-0.1)


def test_the_prior_is_the_default_where_it_applies() -> None:
    from kashgar.bots.ismcts import ISMCTSBot

    bot = ISMCTSBot(0)
    assert (bot.prior_visits, bot.c) == (5.0, 0.3)
    assert (make_bot("ismcts:prior=0").prior_visits, make_bot("ismcts:prior=0").c) == (0.0, 0.7)
    # Without the learned evaluation or with tree opponents there is no prior: the plain search.
    assert (ISMCTSBot(0, evaluation="heuristic").prior_visits, ISMCTSBot(0, opponent_model="tree").c) == (0.0, 0.7)


def test_first_iteration_scores_every_action_and_follows_the_best_score() -> None:
    """On a fresh node every child has no real visit, so the first walk goes to the action with the
    best 1-ply value, the same score the ``value`` bot uses."""
    from kashgar.bots.ismcts import ISMCTSBot, Node
    from kashgar.bots.value import value_after

    checked = 0
    for g in positions(40, seed=5):
        if len(g.legal()) < 2:
            continue
        bot = ISMCTSBot(1)
        bot.me = me = g.pend_player
        root = Node()
        bot._iterate_prior(root, g.copy())
        assert root.prior is not None and set(root.prior) == set(g.legal())
        for a, v in root.prior.items():
            assert v == value_after(bot.model, g, a, me, bot.weights)
        visited = [a for a, ch in root.children.items() if ch.n]
        assert visited == [max(g.legal(), key=lambda a: root.prior[a])]
        checked += 1
    assert checked >= 20
