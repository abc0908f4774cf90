"""Research adapters: the shared encoder, PettingZoo, Gymnasium and OpenSpiel (each against its own checker)."""

from __future__ import annotations

import importlib.util
import random
import subprocess
import sys
import warnings
from pathlib import Path

import pytest

np = pytest.importorskip("numpy")

from kashgar import actions as A  # noqa: E402
from kashgar.cards import load_cards  # noqa: E402
from kashgar.envs.common import final_rewards, make_options  # noqa: E402
from kashgar.envs.encoding import ObservationEncoder, encoder_for  # noqa: E402
from kashgar.game import Game, Options  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
CARDS = load_cards()


def heuristic_available() -> bool:
    return importlib.util.find_spec("kashgar.bots.heuristic") is not None


def positions(count: int, seed: int, players: int | None = None, expansion: bool = True) -> list[Game]:
    """Positions from random games, every kind of decision (and a few finished games)."""
    rng = random.Random(seed)
    out: list[Game] = []
    while len(out) < count:
        n = players or rng.choice([2, 3, 4])
        opts = Options.with_full_expansion(players=n) if expansion and rng.random() < 0.6 else Options(players=n)
        g = Game.new(opts, rng.randrange(10**6))
        while len(out) < count:
            if rng.random() < 0.1 or g.decision not in ("turn",):
                out.append(g.copy())
            if g.over:
                break
            g.apply_unchecked(rng.choice(g.legal()))
    return out


# ------------------------------------------------------------------------------ options and rewards


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"players": 5}, "players must be 2, 3 or 4, got 5"),
        ({"players": 1}, "players must be 2, 3 or 4"),
        ({"expansion": "beggar,dragon"}, "'dragon' is not a Cut and Thrust card"),
        ({"expansion": {"herder": 3}}, "'herder' takes 0 to 2 copies"),
        ({"house": "min-caravan,teleport"}, "unknown house rule 'teleport'"),
        ({"turn_limit": 0}, "turn_limit must be a positive integer"),
    ],
)
def test_bad_options_are_clear_value_errors(kwargs: dict, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        make_options(**kwargs)


def test_options_forms() -> None:
    full = Options.with_full_expansion(players=3)
    assert make_options(3, True).expansion == full.expansion == make_options(3, "all").expansion
    assert make_options(2, "beggar+herder").expansion == (("beggar", 2), ("herder", 2))
    assert make_options(2, ["herder"]).expansion == (("herder", 2),)
    assert make_options(2, {"envoy": 1}).expansion == (("envoy", 1),)
    o = make_options(4, house="min-caravan,farrier+spice-merchants", reshuffle_discard=False)
    assert o.min_caravan_two and o.farrier_two_mules and o.spice_merchants_in_discard and not o.reshuffle_discard


@pytest.mark.parametrize("players", [2, 3, 4])
def test_rewards_sum_to_zero(players: int) -> None:
    g = Game.new(Options(players=players), 5)
    rng = random.Random(5)
    assert final_rewards(g) == [0.0] * players
    while not g.over:
        g.apply_unchecked(rng.choice(g.legal()))
    win = final_rewards(g, "win")
    rank = final_rewards(g, "rank")
    assert abs(sum(win)) < 1e-9 and abs(sum(rank)) < 1e-9
    assert win[g.winner()] == 1.0 == rank[g.winner()]
    assert rank[g.ranking()[-1]] == -1.0
    with pytest.raises(ValueError, match="reward must be one of win, rank"):
        final_rewards(g, "points")


# ------------------------------------------------------------------------------ the shared encoder


def test_encoder_sizes_and_layout() -> None:
    sizes = {}
    for n in (2, 3, 4):
        enc = ObservationEncoder(CARDS, n)
        secs = enc.sections()
        assert [s.offset for s in secs] == [sum(x.size for x in secs[:i]) for i in range(len(secs))]
        assert sum(s.size for s in secs) == enc.size == enc.low.shape[0] == enc.high.shape[0]
        assert len({s.name for s in secs}) == len(secs)
        assert (enc.low < enc.high).all()
        sizes[n] = enc.size
    assert sizes == {2: 4080, 3: 5872, 4: 7666}
    with pytest.raises(ValueError, match="players must be 2, 3 or 4"):
        ObservationEncoder(CARDS, 5)


def test_documented_layout_is_the_real_one() -> None:
    assert ObservationEncoder(CARDS, 2).describe() in (ROOT / "docs" / "research.md").read_text(encoding="utf-8")


def test_encoding_equals_the_encoding_of_the_players_view() -> None:
    """The fast encoder reads the engine; it must equal the encoding of Game.observation (the reference)."""
    for g in positions(160, seed=1):
        enc = encoder_for(g.cards, g.n, g.options.turn_limit)
        for p in range(g.n):
            v = enc.encode(g, p)
            assert v.dtype == np.float32 and v.shape == (enc.size,)
            assert np.array_equal(v, enc.encode_view(g.observation(p))), (g.decision, p)
            assert ((v >= enc.low) & (v <= enc.high)).all()


def test_encoding_carries_no_hidden_information() -> None:
    """Re-dealing everything a seat cannot see leaves that seat's vector unchanged."""
    redrawn = 0
    for i, g in enumerate(positions(120, seed=2)):
        enc = encoder_for(g.cards, g.n)
        for p in range(g.n):
            other = g.redeal(p, 1000 + i)
            assert np.array_equal(enc.encode(g, p), enc.encode(other, p))
            if g.decision == "keep" and p != g.to_move:
                redrawn += sorted(other.pend_data[1]) != sorted(g.pend_data[1])
    assert redrawn > 5  # another player's drawn cards really were different


def test_drawn_cards_are_seen_only_by_the_player_who_draws() -> None:
    seen = 0
    for g in positions(200, seed=3):
        if g.decision != "keep":
            continue
        enc = encoder_for(g.cards, g.n)
        for p in range(g.n):
            drawn = enc.section(enc.encode(g, p), "drawn_persons")
            assert drawn.sum() == (len(g.pend_data[1]) if p == g.to_move else 0)
            assert enc.section(enc.encode(g, p), "drawn_count")[0] == len(g.pend_data[1])
        seen += 1
    assert seen > 5


def test_relative_seats_and_mask() -> None:
    g = Game.new(Options(players=3), 9)
    enc = encoder_for(g.cards, 3)
    for p in range(3):
        v = enc.encode(g, p)
        assert enc.section(v, "seat")[p] == 1
        assert enc.section(v, "seat0.points")[0] == g.points[p]
        assert enc.section(v, "seat1.points")[0] == g.points[(p + 1) % 3]
        assert list(enc.section(v, "seat0.resources")) == g.res[p * 7: p * 7 + 7]
        assert enc.section(v, "to_move")[(g.to_move - p) % 3] == 1
    mask = enc.action_mask(g)
    assert mask.dtype == np.int8 and mask.shape == (A.SIZE,)
    assert list(np.flatnonzero(mask)) == list(g.legal())
    assert not enc.action_mask(g, (g.to_move + 1) % 3).any()


def test_core_does_not_import_numpy() -> None:
    code = "import sys, kashgar, kashgar.game, kashgar.bots, kashgar.envs; print('numpy' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"


# ------------------------------------------------------------------------------ PettingZoo


@pytest.mark.parametrize(("players", "expansion"), [(2, None), (3, True), (4, "herder,envoy")])
def test_pettingzoo_api_test(players: int, expansion: object) -> None:
    pz_test = pytest.importorskip("pettingzoo.test")
    from kashgar.envs.pettingzoo import env

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        pz_test.api_test(env(players=players, expansion=expansion, seed=players), num_cycles=1000)


@pytest.mark.parametrize("players", [2, 4])
def test_pettingzoo_seed_test(players: int) -> None:
    pz_test = pytest.importorskip("pettingzoo.test")
    from kashgar.envs.pettingzoo import env

    pz_test.seed_test(lambda: env(players=players, expansion=True), num_cycles=500)


def play_aec(e, seed: int) -> dict:
    e.reset(seed=seed)
    rng = random.Random(seed)
    for agent in e.agent_iter():
        obs, _reward, term, trunc, _info = e.last()
        if term or trunc:
            e.step(None)
            continue
        assert obs["action_mask"].any() and agent == e.agent_selection
        e.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    return e


def test_pettingzoo_plays_the_engine_game_and_rewards_at_the_end() -> None:
    pytest.importorskip("pettingzoo")
    from kashgar.envs.pettingzoo import env, raw_env

    e = raw_env(players=3, reward="rank")
    seen_rewards = {}
    e.reset(seed=11)
    assert e.game.fingerprint() == Game.new(Options(players=3), 11).fingerprint()
    rng = random.Random(0)
    steps = 0
    for agent in e.agent_iter():
        obs, reward, term, _trunc, info = e.last()
        if term:
            seen_rewards[agent] = reward
            assert set(info) == {"points", "rank"}
            e.step(None)
            continue
        assert reward == 0
        p = e.agent_name_mapping[agent]
        assert p == e.game.to_move
        assert np.array_equal(obs["observation"], e.encoder.encode(e.game, p))
        others = [a for a in e.agents if a != agent]
        assert not any(e.observe(a)["action_mask"].any() for a in others)
        e.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
        steps += 1
    assert sorted(seen_rewards.values()) == [-1.0, 0.0, 1.0]
    assert steps > 100
    # A seeded env replays the same games; an unseeded reset draws a new seed from it.
    a, b = env(players=2, seed=4), env(players=2, seed=4)
    for _ in range(2):
        assert play_aec(a, 1).unwrapped.game.fingerprint() == play_aec(b, 1).unwrapped.game.fingerprint()


def test_pettingzoo_illegal_actions_and_bad_arguments() -> None:
    pytest.importorskip("pettingzoo")
    from kashgar.envs.pettingzoo import env

    e = env(players=2, seed=1)
    e.reset()
    agent = e.agent_selection
    e.step(A.SIZE - 1)  # never legal at the first turn
    assert all(e.terminations.values())
    assert e.rewards[agent] == -1.0 and e.infos[agent]["illegal_action"]
    e = env(players=2, seed=1, illegal_action="raise")
    e.reset()
    with pytest.raises(ValueError, match="is not legal"):
        e.step(A.SIZE - 1)
    for bad, message in (
        ({"players": 5}, "players must be 2, 3 or 4"),
        ({"reward": "points"}, "reward must be one of"),
        ({"illegal_action": "ignore"}, "illegal_action must be one of"),
        ({"render_mode": "rgb_array"}, "render_mode"),
    ):
        with pytest.raises(ValueError, match=message):
            env(**bad)


def test_pettingzoo_render() -> None:
    pytest.importorskip("pettingzoo")
    from kashgar.envs.pettingzoo import env

    e = env(players=2, seed=3, render_mode="ansi")
    e.reset()
    text = e.render()
    assert "player 1:" in text and "caravan 1:" in text and "to choose" in text


# ------------------------------------------------------------------------------ Gymnasium


def test_gymnasium_check_env() -> None:
    gym = pytest.importorskip("gymnasium")
    from gymnasium.utils.env_checker import check_env

    from kashgar.envs.gymnasium import KashgarEnv

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        check_env(gym.make("Kashgar-v0").unwrapped)
        check_env(KashgarEnv(players=3, seat=None, expansion=True, opponents=["random", "random"]))
        check_env(KashgarEnv(players=4, seat=2, reward="rank", render_mode="ansi"))


def test_gymnasium_registration_and_episode() -> None:
    gym = pytest.importorskip("gymnasium")
    env = gym.make("kashgar.envs.gymnasium:Kashgar-v0", players=3, seat=1)
    obs, info = env.reset(seed=3)
    inner = env.unwrapped
    assert inner.game.to_move == 1 and info["seat"] == 1
    assert list(np.flatnonzero(info["action_mask"])) == list(inner.game.legal())
    assert np.array_equal(inner.action_masks(), info["action_mask"].astype(bool))
    assert np.array_equal(obs, inner.encoder.encode(inner.game, 1))
    rng = random.Random(1)
    total = 0.0
    for _ in range(5000):
        obs, reward, terminated, truncated, info = env.step(int(rng.choice(np.flatnonzero(info["action_mask"]))))
        total += reward
        assert not truncated
        if terminated:
            break
        assert reward == 0 and inner.game.to_move == 1
    assert terminated and inner.game.over
    assert total == (1.0 if inner.game.winner() == 1 else -0.5)
    assert info["rank"] == inner.game.ranking().index(1) and not info["action_mask"].any()
    with pytest.raises(RuntimeError, match="episode is over"):
        env.step(0)


def test_gymnasium_illegal_action_and_bad_arguments() -> None:
    pytest.importorskip("gymnasium")
    from kashgar.envs.gymnasium import KashgarEnv

    e = KashgarEnv(players=2)
    e.reset(seed=0)
    _obs, reward, terminated, _trunc, info = e.step(A.SIZE - 1)
    assert terminated and reward == -1.0 and info["illegal_action"]
    e = KashgarEnv(players=2, illegal_action="raise")
    e.reset(seed=0)
    with pytest.raises(ValueError, match="is not legal"):
        e.step(A.SIZE - 1)
    for bad, message in (
        ({"players": 5}, "players must be 2, 3 or 4, got 5"),
        ({"opponents": "grandmaster"}, "unknown bot 'grandmaster'"),
        ({"opponents": ["random"], "players": 3}, "expected 2 opponent bot name"),
        ({"opponents": "random:strong"}, "takes no level"),
        ({"seat": 2}, "seat must be 0..1"),
        ({"expansion": "dragon"}, "not a Cut and Thrust card"),
    ):
        with pytest.raises(ValueError, match=message):
            KashgarEnv(**bad)


@pytest.mark.skipif(not heuristic_available(), reason="the heuristic bot is not in this checkout yet")
def test_gymnasium_against_the_heuristic_bot() -> None:
    pytest.importorskip("gymnasium")
    from kashgar.envs.gymnasium import KashgarEnv

    e = KashgarEnv(players=2, opponents="heuristic", seat=None)
    _obs, info = e.reset(seed=2)
    rng = random.Random(2)
    terminated = False
    while not terminated:
        _obs, _reward, terminated, _trunc, info = e.step(int(rng.choice(np.flatnonzero(info["action_mask"]))))
    assert e.game.over and "winner" in info


# ------------------------------------------------------------------------------ OpenSpiel


@pytest.fixture(scope="module")
def pyspiel():
    mod = pytest.importorskip("pyspiel")
    import kashgar.envs.openspiel  # noqa: F401  (registers python_kashgar)

    return mod


def random_chance(state, rng: random.Random) -> int:
    outcomes = state.chance_outcomes()
    assert abs(sum(p for _, p in outcomes) - 1.0) < 1e-9
    r = rng.random()
    for a, p in outcomes:
        r -= p
        if r < 0:
            return a
    return outcomes[-1][0]


def test_openspiel_random_sim_test(pyspiel) -> None:
    pyspiel.random_sim_test(pyspiel.load_game("python_kashgar"), num_sims=2, serialize=False, verbose=False)
    game = pyspiel.load_game("python_kashgar(players=4,expansion=all,house=min-caravan+spice-merchants,reward=rank)")
    assert game.num_players() == 4
    pyspiel.random_sim_test(game, num_sims=1, serialize=True, verbose=False)


def test_openspiel_parameters(pyspiel) -> None:
    game = pyspiel.load_game("python_kashgar", {"players": 3, "expansion": "beggar,herder", "turn_limit": 200})
    assert game.num_players() == 3 and game.num_distinct_actions() == A.SIZE
    assert game.observation_tensor_shape() == [encoder_for(CARDS, 3, 200).size]
    assert game.information_state_tensor_shape() == game.observation_tensor_shape()
    state = game.new_initial_state()
    assert state.is_chance_node() and len(state.chance_outcomes()) == 12
    with pytest.raises(ValueError, match="players must be 2, 3 or 4, got 5"):
        pyspiel.load_game("python_kashgar(players=5)")
    with pytest.raises(ValueError, match="reward must be one of"):
        pyspiel.load_game("python_kashgar(reward=points)")


def deal(pyspiel, game, start: list[int], display: list[int]):
    state = game.new_initial_state()
    for k in start + display:
        assert state.is_chance_node()
        assert k in dict(state.chance_outcomes())
        state.apply_action(k)
    return state


@pytest.mark.parametrize("players", [2, 3, 4])
def test_openspiel_deal_gives_the_engines_starting_position(pyspiel, players: int) -> None:
    for seed in range(3):
        opts = Options(players=players, spice_merchants_in_discard=seed == 1)
        ref = Game.new(opts, seed)
        start = [ref.car[p * 4 + c][1] for p in range(players) for c in range(3)]
        params = {"players": players, "house": "spice-merchants" if seed == 1 else ""}
        state = deal(pyspiel, pyspiel.load_game("python_kashgar", params), start, list(ref.display))
        assert not state.is_chance_node() and state.current_player() == ref.to_move
        for p in range(players):
            mine, theirs = state.g.observation(p), ref.observation(p)
            assert mine == theirs
        assert state.g.card_census() == ref.card_census()


def test_openspiel_draws_are_chance_nodes_and_private(pyspiel) -> None:
    """A draw is one chance node per random card; the non-drawing players cannot tell outcomes apart."""
    game = pyspiel.load_game("python_kashgar(players=3)")
    rng = random.Random(4)
    checked = 0
    state = game.new_initial_state()
    while not state.is_terminal() and checked < 5:
        if state.is_chance_node():
            if state.g is not None and len(state.chance_outcomes()) > 1:
                actor = state.actor
                a, b = state.clone(), state.clone()
                while a.is_chance_node():
                    a.apply_action(a.chance_outcomes()[0][0])
                    b.apply_action(b.chance_outcomes()[-1][0])
                if a.g.decision == "keep" and a.g.pend_data[1] != b.g.pend_data[1]:
                    for p in range(3):
                        same = p != actor
                        assert (a.information_state_string(p) == b.information_state_string(p)) == same
                        assert (a.observation_string(p) == b.observation_string(p)) == same
                        assert (a.observation_tensor(p) == b.observation_tensor(p)) == same
                    checked += 1
            state.apply_action(random_chance(state, rng))
        else:
            state.apply_action(rng.choice(state.legal_actions()))
    assert checked == 5


def test_openspiel_chance_probabilities_follow_the_pool(pyspiel) -> None:
    game = pyspiel.load_game("python_kashgar")
    rng = random.Random(8)
    state = game.new_initial_state()
    seen = 0
    while not state.is_terminal():
        if state.is_chance_node():
            if state.g is not None:
                _deck, pool = state._next
                outcomes = dict(state.chance_outcomes())
                assert outcomes == {k: pool.count(k) / len(pool) for k in set(pool)}
                seen += 1
            state.apply_action(random_chance(state, rng))
        else:
            state.apply_action(rng.choice(state.legal_actions()))
    assert seen > 20
    assert sum(state.returns()) == 0.0 and sorted(state.returns()) == [-1.0, 1.0]


def test_openspiel_resample_from_infostate(pyspiel) -> None:
    """Same information state for the player; what the player cannot see (here: the other
    player's drawn cards) is re-sampled; what the player can see stays."""
    game = pyspiel.load_game("python_kashgar(players=2,expansion=all)")
    rng = random.Random(5)
    sampler = pyspiel.UniformProbabilitySampler(0.0, 1.0)
    state = game.new_initial_state()
    tested = redrawn = 0
    while not state.is_terminal() and tested < 60:
        if state.is_chance_node():
            state.apply_action(random_chance(state, rng))
            continue
        if rng.random() < 0.3 or state.g.decision == "keep":
            p = state.current_player()
            for q in (p, 1 - p):
                drawn = set()
                for _ in range(8):
                    other = state.resample_from_infostate(q, sampler)
                    assert other.information_state_string(q) == state.information_state_string(q)
                    assert other.observation_tensor(q) == state.observation_tensor(q)
                    if q == p:
                        assert other.legal_actions() == state.legal_actions()
                    if state.g.decision == "keep":
                        drawn.add(other.g.pend_data[1])
                if state.g.decision == "keep":
                    if q == p:
                        assert drawn == {state.g.pend_data[1]}
                    else:
                        redrawn += len(drawn) > 1
            tested += 1
        state.apply_action(rng.choice(state.legal_actions()))
    assert tested == 60 and redrawn > 5


def test_openspiel_ismcts_plays_a_full_game(pyspiel) -> None:
    from open_spiel.python.algorithms import ismcts, mcts

    game = pyspiel.load_game("python_kashgar")
    rs = np.random.RandomState(3)
    bot = ismcts.ISMCTSBot(game, mcts.RandomRolloutEvaluator(1, rs), uct_c=2.0, max_simulations=3, random_state=rs)
    rng = random.Random(3)
    state = game.new_initial_state()
    moves = 0
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_action(random_chance(state, rng))
        elif state.current_player() == 0:
            state.apply_action(bot.step(state))
            moves += 1
        else:
            state.apply_action(rng.choice(state.legal_actions()))
    assert moves > 50 and sorted(state.returns()) == [-1.0, 1.0]


# ------------------------------------------------------------------------------ benchmark and example


def test_bench_prints_every_adapter(capsys) -> None:
    pytest.importorskip("pettingzoo")
    pytest.importorskip("pyspiel")
    from kashgar.envs.bench import main

    assert main(["--seconds", "0.05"]) == 0
    out = capsys.readouterr().out
    for name in ("engine", "engine+encode", "pettingzoo", "gymnasium", "openspiel", "openspiel+observer",
                 "openspiel+tensor"):
        assert f"| {name} |" in out
    assert main(["--seconds", "0.01", "--only", "teleport"]) == 2


def test_training_example_runs_and_prints_win_rates() -> None:
    pytest.importorskip("gymnasium")
    script = ROOT / "examples" / "train_masked_policy.py"
    out = subprocess.run(
        [sys.executable, str(script), "--seconds", "2", "--eval-games", "2", "--opponent", "random"],
        capture_output=True, text=True, check=True, timeout=120,
    ).stdout
    assert "trained" in out and "win rate vs random: trained policy" in out and "masked random" in out
