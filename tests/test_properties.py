"""Property tests over random games: invariants that must hold after every action."""

from __future__ import annotations

import json
import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from kashgar import actions as A
from kashgar.cards import CAPS, load_cards
from kashgar.game import Game, IllegalAction, Options
from kashgar.records import make_record, replay

CARDS = load_cards()
EXPECTED = {p.id: p.copies for p in CARDS.persons if p.id != "matriarch"}
EXPECTED.update({c.id: c.copies for c in CARDS.contracts})

options_st = st.builds(
    lambda players, exp, min2, farrier, sm: (
        Options.with_full_expansion(players=players, min_caravan_two=min2, farrier_two_mules=farrier, spice_merchants_in_discard=sm)
        if exp
        else Options(players=players, min_caravan_two=min2, farrier_two_mules=farrier, spice_merchants_in_discard=sm)
    ),
    st.sampled_from([2, 3, 4]),
    st.booleans(),
    st.booleans(),
    st.booleans(),
    st.booleans(),
)
SETTINGS = settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def scratch_points(g: Game, p: int) -> int:
    """Points computed from scratch, independently of the engine's bookkeeping."""
    wheat = sum(1 for k in g.fulfilled[p] if CARDS.contracts[k].kind == "wheat")
    total = sum(CARDS.contracts[k].points for k in g.fulfilled[p])
    for cards in g.caravans(p):
        for k in cards:
            person = CARDS.persons[k]
            total += wheat if person.per_wheat else person.points
    return total


def play(g: Game, rng: random.Random, check=None) -> Game:
    while not g.over:
        legal = g.legal_actions()
        assert legal, "a game that is not over always has a legal action"
        g.apply(rng.choice(legal))
        if check:
            check(g)
    return g


@SETTINGS
@given(options=options_st, seed=st.integers(0, 2**31))
def test_invariants_after_every_action(options: Options, seed: int) -> None:
    g = Game.new(options, seed)

    def check(g: Game) -> None:
        assert g.card_census() == EXPECTED
        for i, v in enumerate(g.res):
            assert 0 <= v <= CAPS[i % 7]
        for p in range(g.n):
            assert g.points[p] == scratch_points(g, p)
            assert len(g.caravans(p)) in (3, 4)
        assert len(g.display) <= 4
        assert g.to_move in range(g.n) or (g.over and g.to_move == -1)

    check(g)
    play(g, random.Random(seed), check)
    assert g.over and g.to_move == -1 and g.legal_actions() == []
    # The game ends by the rules: 25 points reached (round completed) or no card left to play.
    assert max(g.points) >= 25 or not any(g.car) or g.turn_no >= options.turn_limit


@SETTINGS
@given(options=options_st, seed=st.integers(0, 2**31))
def test_same_seed_same_actions_same_game(options: Options, seed: int) -> None:
    a = play(Game.new(options, seed), random.Random(seed))
    b = Game.new(options, seed)
    for action in a.history():
        b.apply(action)
    assert a.fingerprint() == b.fingerprint()


@SETTINGS
@given(options=options_st, seed=st.integers(0, 2**31), cut=st.floats(0, 1))
def test_serialisation_round_trip(options: Options, seed: int, cut: float) -> None:
    g = Game.new(options, seed)
    rng = random.Random(seed)
    full = play(g.copy(), random.Random(seed))
    stop = int(full.step * cut)
    for _ in range(stop):
        g.apply(rng.choice(g.legal_actions()))
    data = json.loads(json.dumps(g.to_dict()))
    h = Game.from_dict(data)
    assert h.fingerprint() == g.fingerprint()
    assert h.history() == g.history()
    # Both continue identically.
    play(g, random.Random(1))
    play(h, random.Random(1))
    assert h.fingerprint() == g.fingerprint()


@SETTINGS
@given(options=options_st, seed=st.integers(0, 2**31))
def test_record_replays_identically(options: Options, seed: int) -> None:
    g = play(Game.new(options, seed), random.Random(seed))
    rec = json.loads(json.dumps(make_record(g)))
    h = replay(rec)
    assert h.fingerprint() == g.fingerprint()


@SETTINGS
@given(options=options_st, seed=st.integers(0, 2**31), cut=st.floats(0, 1), rseed=st.integers(0, 1000))
def test_redeal_never_changes_what_the_player_sees(options: Options, seed: int, cut: float, rseed: int) -> None:
    g = Game.new(options, seed)
    rng = random.Random(seed)
    steps = int(300 * cut)
    for _ in range(steps):
        if g.over:
            break
        g.apply(rng.choice(g.legal_actions()))
    for p in range(g.n):
        r = g.redeal(p, rseed)
        assert r.observation(p) == g.observation(p)
        assert r.card_census() == EXPECTED
        # The re-dealt game is playable to its end.
        play(r, random.Random(rseed))
    assert g.card_census() == EXPECTED


def test_redeal_resamples_hidden_information() -> None:
    g = Game.new(Options(players=2), 3)
    seen = {tuple(sorted(g.redeal(0, s).decks[0][1])) for s in range(5)}
    assert len(seen) == 1, "the pool is unordered: its content is known, so it stays"
    draws = set()
    for s in range(20):
        r = g.redeal(0, s)
        r.apply("1A")
        draws.add(tuple(sorted(r.pend_data[1])))
    assert len(draws) > 1, "future draws differ between redeals"


def test_copy_is_independent() -> None:
    g = Game.new(Options(players=3), 11)
    before = g.fingerprint()
    c = g.copy()
    play(c, random.Random(0))
    assert g.fingerprint() == before


def test_illegal_action_leaves_the_game_unchanged() -> None:
    g = Game.new(Options(players=2), 5)
    before = g.fingerprint()
    illegal = [a for a in range(A.SIZE) if a not in g.legal_actions()]
    for a in illegal[:50] + illegal[-50:]:
        with pytest.raises(IllegalAction) as exc:
            g.apply(a)
        assert "not legal" in str(exc.value) or "does not have" in str(exc.value)
    with pytest.raises(A.NotationError):
        g.apply("frobnicate")
    with pytest.raises(IllegalAction, match="outside the action space"):
        g.apply(A.SIZE + 5)
    assert g.fingerprint() == before


def test_notation_round_trips_over_the_whole_action_space() -> None:
    for a in range(A.SIZE):
        try:
            text = A.to_text(a, CARDS)
        except A.NotationError:
            # Ids of kinds this card set does not have.
            assert a >= A.KEEP
            continue
        assert A.parse(text, CARDS) == a
        assert A.parse("  " + text.upper() + " ", CARDS) == a


def test_observation_hides_deck_order_and_others_knowledge() -> None:
    g = Game.new(Options(players=2), 7)
    # Play until someone put a card under a deck (Herbalist, Noble, Guild Lord, ...).
    rng = random.Random(2)
    for _ in range(5000):
        if g.over:
            g = Game.new(Options(players=2), rng.randrange(10**6))
        if any(g.decks[d][2] for d in (1, 2)):
            break
        g.apply(rng.choice(g.legal_actions()))
    d = 1 if g.decks[1][2] else 2
    knower = next(q for q in range(2) if g.decks[d][2][0][1] >> q & 1)
    other = 1 - knower
    name = ("standard", "special", "contracts")[d]
    assert g.observation(knower)["decks"][name]["under"][0] is not None
    assert g.observation(other)["decks"][name]["under"][0] is None
    obs = json.dumps(g.observation(other))
    assert "pool" not in obs and "rng" not in obs


def test_pending_draw_is_private() -> None:
    g = Game.new(Options(players=2), 1)
    p = g.to_move
    g.apply(next(a for a in g.legal_actions() if A.to_text(a, CARDS).endswith("A")))
    assert g.decision == "keep"
    mine = g.observation(p)["pending"]
    theirs = g.observation(1 - p)["pending"]
    assert len(mine["drawn"]) == 2 and mine["drawn_count"] == 2
    assert "drawn" not in theirs and theirs["drawn_count"] == 2


@SETTINGS
@given(options=options_st, seed=st.integers(0, 2**31), cut=st.integers(0, 250), rseed=st.integers(0, 1000))
def test_redeal_depends_only_on_what_the_player_knows(options: Options, seed: int, cut: int, rseed: int) -> None:
    g = Game.new(options, seed)
    rng = random.Random(seed)
    for _ in range(cut):
        if g.over:
            break
        g.apply(rng.choice(g.legal_actions()))
    p = g.to_move if not g.over else 0
    other = g.redeal(p, rseed + 1)  # same view for p, different hidden cards
    assert other.observation(p) == g.observation(p)
    assert g.redeal(p, rseed).fingerprint() == other.redeal(p, rseed).fingerprint()


def test_forced_draws_and_draw_log() -> None:
    g = Game.new(Options(players=2), 4)
    probe = g.copy()
    probe.draw_log = []
    probe.apply("1A")
    assert [d for d, _ in probe.draw_log] == [0, 0]
    pool = probe.draw_log[0][1]
    assert len(pool) == 76
    want = (CARDS.person_index["warrior"], CARDS.person_index["baker"])
    g.forced = want
    g.apply("1A")
    assert sorted(g.pend_data[1]) == sorted(want) and g.forced == ()
