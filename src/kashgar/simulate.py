"""Uniformly random games for statistics, and the engine benchmark (``kashgar simulate``/``bench``)."""

from __future__ import annotations

import random
import statistics
import time
from collections.abc import Callable
from typing import Any

from .game import Game, Options


def random_game(options: Options, seed: int, cards: Any = None) -> Game:
    """Play one game with uniformly random legal actions (game and chooser seeded by ``seed``)."""
    g = Game.new(options, seed, cards)
    rand = random.Random(seed ^ 0x5EED).random
    while not g.over:
        legal = g.legal()
        g.apply_unchecked(legal[int(rand() * len(legal))])
    return g


def simulate(
    options: Options,
    games: int,
    seed: int,
    cards: Any = None,
    progress: Callable[[int], None] | None = None,
    on_game: Callable[[Game], None] | None = None,
) -> dict:
    """Play ``games`` random games (seeds ``seed``, ``seed + 1``, ...); return summary statistics."""
    t0 = time.perf_counter()
    turns: list[int] = []
    steps: list[int] = []
    points: list[int] = []
    win_points: list[int] = []
    wins = [0] * options.players
    limit_hits = 0
    for i in range(games):
        g = random_game(options, seed + i, cards)
        turns.append(g.turn_no)
        steps.append(g.step)
        points.extend(g.points)
        w = g.winner()
        wins[w] += 1
        win_points.append(g.points[w])
        if g.turn_no >= options.turn_limit:
            limit_hits += 1
        if on_game:
            on_game(g)
        if progress:
            progress(i + 1)
    dt = time.perf_counter() - t0

    def dist(xs: list[int]) -> dict:
        if not xs:
            return {}
        q = statistics.quantiles(xs, n=4) if len(xs) > 1 else [xs[0]] * 3
        return {"mean": round(statistics.fmean(xs), 2), "min": min(xs), "p25": q[0], "median": q[1], "p75": q[2], "max": max(xs)}

    return {
        "games": games,
        "players": options.players,
        "options": options.to_dict(),
        "seed": seed,
        "turns": dist(turns),
        "actions": dist(steps),
        "points_all": dist(points),
        "points_winner": dist(win_points),
        "wins_by_seat": wins,
        "win_rate_by_seat": [round(w / games, 4) for w in wins] if games else [],
        "turn_limit_reached": limit_hits,
        "seconds": round(dt, 3),
        "games_per_second": round(games / dt, 1) if dt else None,
        "steps_per_second": round(sum(steps) / dt) if dt else None,
    }


def bench(seconds: float = 3.0, cards: Any = None) -> dict:
    """Measure random-game throughput (2 and 4 players) and the cost of a game copy."""
    out: dict[str, Any] = {}
    for players in (2, 4):
        options = Options(players=players)
        t0 = time.perf_counter()
        games = steps = 0
        seed = 1
        while time.perf_counter() - t0 < seconds:
            g = random_game(options, seed, cards)
            games += 1
            steps += g.step
            seed += 1
        dt = time.perf_counter() - t0
        out[f"{players}p"] = {
            "games": games,
            "seconds": round(dt, 3),
            "games_per_second": round(games / dt, 1),
            "steps_per_second": round(steps / dt),
            "steps_per_game": round(steps / games, 1),
        }
    # Copy cost, over positions sampled from random 2-player games.
    positions = []
    for s in range(20):
        g = Game.new(Options(players=2), s, cards)
        rand = random.Random(s).random
        while not g.over:
            if rand() < 0.05:
                positions.append(g.copy())
            legal = g.legal()
            g.apply_unchecked(legal[int(rand() * len(legal))])
    reps = 200
    t0 = time.perf_counter()
    for _ in range(reps):
        for p in positions:
            p.copy()
    dt = time.perf_counter() - t0
    out["copy_us"] = round(dt / (reps * len(positions)) * 1e6, 3)
    # ISMCTS speed at the start of a 2-player game (first decision of several deals).
    from .bots.base import Seat
    from .bots.ismcts import ISMCTSBot

    iters = 0
    t0 = time.perf_counter()
    seed = 0
    while time.perf_counter() - t0 < seconds:
        g = Game.new(Options(players=2), seed, cards)
        bot = ISMCTSBot(seed, iterations=1000)
        bot.early_stop = False
        bot.choose(Seat(g, g.to_move))
        iters += bot.last_iterations
        seed += 1
    out["ismcts_iterations_per_second_2p_start"] = round(iters / (time.perf_counter() - t0))
    out["targets"] = {
        "steps_per_second": 200_000, "games_per_second_2p": 1000, "copy_us": 3.0,
        "ismcts_iterations_per_second": 3000,
    }
    return out
