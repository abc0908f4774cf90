"""Tournaments between bots: rotating seats, confidence intervals, local processes or Ray.

Game ``i`` (0-based) is dealt from seed ``seed + i``; at a table of N seats, the bot named ``j``-th
sits in seat ``(j + i) mod N``, so over N consecutive games every bot plays every seat. Each bot's
own seed is derived from the tournament seed, the game and the seat, so the results do not depend
on how games are spread over workers: a tournament is reproducible from its seed (with iteration
budgets; a budget in seconds depends on the machine).
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from .bots import BotError, make_bot
from .cards import load_cards
from .game import Game, Options

Z95 = 1.959963984540054


@dataclass
class GameResult:
    """One finished game of a tournament."""

    index: int
    seed: int
    seats: list[str]
    points: list[int]
    winner: int
    ranking: list[int]
    turns: int
    steps: int
    think_seconds: list[float] = field(default_factory=list)
    decisions: list[int] = field(default_factory=list)
    record: dict | None = None


def seating(bots: list[str], players: int, index: int) -> list[str]:
    """The bot spec in each seat for game ``index``."""
    table = [bots[j % len(bots)] for j in range(players)]
    return [table[(s - index) % players] for s in range(players)]


def check_bots(bots: list[str], players: int) -> list[str]:
    """Validate a bot list for a table; BotError names the problem."""
    if not 2 <= players <= 4:
        raise BotError(f"a table has 2, 3 or 4 seats, got {players}")
    bots = [b.strip().lower() for b in bots if b.strip()]
    if not bots:
        raise BotError("no bots named (e.g. --bots heuristic,ismcts:hard)")
    if len(bots) > players:
        raise BotError(f"{len(bots)} bots named for {players} seats: name at most one bot per seat")
    if players % len(bots):
        raise BotError(
            f"{len(bots)} bots cannot fill {players} seats evenly: name one bot per seat "
            f"(e.g. ismcts:hard,heuristic,heuristic,heuristic)"
        )
    for b in bots:
        make_bot(b, 0)  # raises BotError for an unknown bot, level or budget
    return bots


def play_game(
    bots: list[str], options: Options, seed: int, index: int, cards_path: str | None = None, keep_record: bool = False
) -> GameResult:
    """Play game ``index`` of a tournament to its end."""
    cards = load_cards(cards_path) if cards_path else load_cards()
    seats = seating(bots, options.players, index)
    game_seed = seed + index
    g = Game.new(options, game_seed, cards)
    players = [make_bot(spec, (seed * 1_000_003 + index * 16 + s) & 0x7FFFFFFF) for s, spec in enumerate(seats)]
    think = [0.0] * options.players
    decisions = [0] * options.players
    while not g.over:
        p = g.to_move
        t0 = time.perf_counter()
        action = players[p].act(g)
        think[p] += time.perf_counter() - t0
        decisions[p] += 1
        g.apply(action)
    record = None
    if keep_record:
        from .records import make_record

        record = make_record(g, meta={"bots": seats, "tournament_seed": seed, "game": index})
    return GameResult(
        index=index, seed=game_seed, seats=seats, points=list(g.points), winner=g.winner(), ranking=g.ranking(),
        turns=g.turn_no, steps=g.step, think_seconds=think, decisions=decisions, record=record,
    )


def _play_args(args: tuple) -> GameResult:
    return play_game(*args)


def wilson(wins: float, n: int, z: float = Z95) -> tuple[float, float]:
    """Wilson score interval for a proportion."""
    if n == 0:
        return (0.0, 1.0)
    p = wins / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    return (max(0.0, centre - half), min(1.0, centre + half))


def summarize(results: list[GameResult], bots: list[str], players: int) -> dict[str, Any]:
    """Per-bot statistics of a finished tournament."""
    games = len(results)
    out_bots = []
    for spec in dict.fromkeys(bots):
        per_game = sum(1 for j in range(players) if bots[j % len(bots)] == spec)
        seat_trials = games * per_game
        wins = sum(1 for r in results if r.seats[r.winner] == spec)
        pts = [r.points[s] for r in results for s in range(players) if r.seats[s] == spec]
        think = sum(r.think_seconds[s] for r in results for s in range(players) if r.seats[s] == spec)
        dec = sum(r.decisions[s] for r in results for s in range(players) if r.seats[s] == spec)
        by_seat = []
        for s in range(players):
            n = sum(1 for r in results if r.seats[s] == spec)
            w = sum(1 for r in results if r.seats[s] == spec and r.winner == s)
            by_seat.append({"seat": s + 1, "games": n, "wins": w, "win_rate": round(w / n, 4) if n else None})
        lo, hi = wilson(wins, seat_trials)
        out_bots.append(
            {
                "bot": spec,
                "seats_per_game": per_game,
                "wins": wins,
                "win_rate": round(wins / seat_trials, 4) if seat_trials else None,
                "ci95": [round(lo, 4), round(hi, 4)],
                "avg_points": round(sum(pts) / len(pts), 2) if pts else None,
                "by_seat": by_seat,
                "ms_per_decision": round(1000 * think / dec, 3) if dec else None,
                "decisions": dec,
            }
        )
    seat_wins = [sum(1 for r in results if r.winner == s) for s in range(players)]
    return {
        "games": games,
        "players": players,
        "bots": out_bots,
        "avg_turns": round(sum(r.turns for r in results) / games, 2) if games else None,
        "avg_actions": round(sum(r.steps for r in results) / games, 2) if games else None,
        "seat_win_rates": [round(w / games, 4) for w in seat_wins] if games else [],
    }


def run_tournament(
    bots: list[str],
    options: Options,
    games: int,
    seed: int = 0,
    workers: int = 1,
    ray_address: str | None = None,
    cards_path: str | None = None,
    records_dir: str | Path | None = None,
    progress: Callable[[int], None] | None = None,
) -> dict[str, Any]:
    """Play a tournament; returns :func:`summarize`'s statistics plus timing and settings."""
    bots = check_bots(bots, options.players)
    if games < 1:
        raise BotError("a tournament needs at least one game")
    if workers < 1:
        raise BotError("--workers must be at least 1")
    keep = records_dir is not None
    tasks = [(bots, options, seed, i, cards_path, keep) for i in range(games)]
    t0 = time.perf_counter()
    results: list[GameResult] = []
    if ray_address is not None:
        results = _run_ray(tasks, ray_address, progress)
    elif workers == 1:
        for i, t in enumerate(tasks):
            results.append(_play_args(t))
            if progress:
                progress(i + 1)
    else:
        import multiprocessing as mp

        ctx = mp.get_context("spawn")
        with ctx.Pool(workers) as pool:
            for i, r in enumerate(pool.imap_unordered(_play_args, tasks)):
                results.append(r)
                if progress:
                    progress(i + 1)
    elapsed = time.perf_counter() - t0
    results.sort(key=lambda r: r.index)
    if keep:
        from .records import save_record

        folder = Path(records_dir)  # type: ignore[arg-type]
        folder.mkdir(parents=True, exist_ok=True)
        for r in results:
            save_record(folder / f"game-{r.index:04d}.json", r.record)  # type: ignore[arg-type]
    summary = summarize(results, bots, options.players)
    summary.update({"seed": seed, "options": options.to_dict(), "seconds": round(elapsed, 2), "workers": workers})
    if ray_address is not None:
        summary["ray"] = ray_address
    summary["results"] = [
        {k: v for k, v in asdict(r).items() if k not in ("record", "think_seconds", "decisions")} for r in results
    ]
    return summary


def _run_ray(tasks: list[tuple], address: str, progress: Callable[[int], None] | None) -> list[GameResult]:
    try:
        import ray
    except ImportError:
        raise BotError("--ray needs Ray: pip install 'kashgar[ray]'") from None
    started = False
    if not ray.is_initialized():
        if address == "local":
            ray.init(num_cpus=None, include_dashboard=False, log_to_driver=False, configure_logging=False)
        else:
            ray.init(address=address, include_dashboard=False, log_to_driver=False, configure_logging=False)
        started = True
    try:
        remote = ray.remote(_play_args)
        pending = [remote.remote(t) for t in tasks]
        results: list[GameResult] = []
        while pending:
            done, pending = ray.wait(pending, num_returns=1)
            results.extend(ray.get(done))
            if progress:
                progress(len(results))
        return results
    finally:
        if started:
            ray.shutdown()
