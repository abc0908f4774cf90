"""Tune a value model (:mod:`kashgar.bots.value`) so that it ranks the moves of a turn well.

Usage (needs numpy, from the ``rl`` extra)::

    python -m kashgar.bots.tune_value --players 2 --generations 14 --workers 2 --seed 1 \\
        --model src/kashgar/data/value.json --out src/kashgar/data/value.json

Why: :mod:`kashgar.bots.train_value` fits the weights to predict who wins, and they do that well,
but a bot choosing its moves by them (:class:`~kashgar.bots.value.ValueBot`) won only 46% of its
games against the heuristic bot. Predicting the winner is decided by the big differences between
positions (who is ahead); choosing a move depends on the small differences between the positions
one turn can reach, which that fit leaves loose.

How: an antithetic evolution strategy on the weights of one player count. Every generation draws
``--pairs`` random directions (each weight scaled to its feature's spread), and a ValueBot with
the weights moved a step each way plays ``--games`` fresh deals against heuristic bots (the same
deals for every candidate, one ValueBot seat rotating round the table); the weights then move
along the win-rate gradient. Afterwards one factor rescales the weights to the best log-loss on
positions of heuristic self-play, so that the values stay calibrated chances to win (the tree
search averages them). Finally the starting and the tuned weights each play ``--check`` further
deals; the tuned weights are kept only if they won more, and the figures are stored in the
model's ``info["tuned"]``.
"""

from __future__ import annotations

import argparse
import datetime as _dt
import math
import multiprocessing as mp
import sys
import time
from pathlib import Path
from typing import Any

from ..game import Game, Options
from .base import Bot
from .heuristic import HeuristicBot, greedy_choice
from .train_value import play as self_play
from .train_value import scores
from .value import N_FEATURES, ValueBot, ValueModel, features

SIGMA = 0.3  # size of a probe, relative to a typical weight's effect
STEP = 0.5  # size of a step along the normalised gradient, in the same units


def duel(args: tuple[tuple[float, ...], int, list[int]]) -> int:
    """Games won by a ValueBot with weights ``w`` against heuristic bots on the given deals."""
    w, players, seeds = args
    model = ValueModel({players: tuple(w)}, {})
    wins = 0
    for seed in seeds:
        g = Game.new(Options(players=players), seed)
        me = seed % players
        bots: list[Bot] = [HeuristicBot(seed * 10 + q) for q in range(players)]
        bots[me] = ValueBot(seed * 10 + me, model)
        while not g.over:
            g.apply(bots[g.to_move].act(g))
        wins += g.winner() == me
    return wins


def win_rates(pool: Any, candidates: list[Any], players: int, seeds: list[int]) -> list[float]:
    """Win rate of each weight vector on the same deals."""
    k = 4 if pool is not None else 1
    chunks = [seeds[i::k] for i in range(k)]
    jobs = [(tuple(float(x) for x in w), players, c) for w in candidates for c in chunks]
    out = pool.map(duel, jobs, chunksize=1) if pool is not None else [duel(j) for j in jobs]
    return [sum(out[i * k : (i + 1) * k]) / len(seeds) for i in range(len(candidates))]


def feature_spread(players: int, seed: int, games: int = 30) -> Any:
    """Spread of the difference between two players' features at turn starts (heuristic play)."""
    import numpy as np

    rows = []
    for i in range(games):
        g = Game.new(Options(players=players), seed + i)
        while not g.over:
            if g.pend_kind == "turn":
                rows.append(np.subtract(features(g, 0), features(g, 1)))
            g.apply_unchecked(greedy_choice(g))
    return np.maximum(np.std(np.asarray(rows), axis=0), 0.5)


def calibrate(pool: Any, w: Any, players: int, seeds: list[int]) -> tuple[float, float]:
    """The factor that gives ``w`` its best log-loss on heuristic self-play, and that log-loss."""
    import numpy as np

    jobs = [(s, players, 0.1) for s in seeds]
    out = pool.map(self_play, jobs, chunksize=8) if pool is not None else [self_play(j) for j in jobs]
    x = np.asarray([pos for o in out for pos in o[0]], dtype=float)
    y = np.asarray([o[2] for o in out for _ in o[0]])
    u = x @ w
    lo, hi = math.log(0.02), math.log(20.0)  # log-loss is convex in the factor: ternary search
    for _ in range(60):
        a, b = lo + (hi - lo) / 3, hi - (hi - lo) / 3
        if scores(u * math.exp(a), y)[0] < scores(u * math.exp(b), y)[0]:
            hi = b
        else:
            lo = a
    factor = math.exp((lo + hi) / 2)
    return factor, scores(u * factor, y)[0]


def tune(
    model: ValueModel,
    players: int,
    generations: int,
    pairs: int,
    games: int,
    check: int,
    seed: int,
    workers: int,
    calibration_games: int = 600,
    log: Any = None,
) -> tuple[tuple[float, ...], dict]:
    """Tune the weights for ``players``; returns the weights to keep and what was measured."""
    import numpy as np

    if players not in model.weights:
        raise ValueError(f"the model has no weights for {players} players to start from")
    base = seed * 1_000_000
    rng = np.random.default_rng(seed)
    start = np.asarray(model.weights[players], dtype=float)
    w = start.copy()
    t0 = time.perf_counter()
    pool = mp.get_context("spawn").Pool(workers) if workers > 1 else None
    try:
        spread = feature_spread(players, base + 950_000)
        typical = float(np.mean(np.abs(start * spread))) or 0.05
        scale = SIGMA * typical / spread
        history = []
        for gen in range(generations):
            seeds = list(range(base + 600_000 + gen * games, base + 600_000 + (gen + 1) * games))
            eps = rng.standard_normal((pairs, N_FEATURES))
            cands = [w + e * scale for e in eps] + [w - e * scale for e in eps]
            f = np.asarray(win_rates(pool, cands, players, seeds))
            grad = ((f[:pairs] - f[pairs:])[:, None] * eps).mean(axis=0)
            norm = float(np.linalg.norm(grad))
            if norm > 0:
                w = w + STEP * math.sqrt(N_FEATURES) * grad / norm * scale
            history.append(round(float(f.mean()), 4))
            if log:
                print(
                    f"{players} players, generation {gen + 1}/{generations}: candidates won {f.mean():.1%}"
                    f" (best {f.max():.1%})",
                    file=log,
                    flush=True,
                )
        factor, loss = calibrate(pool, w, players, list(range(base + 700_000, base + 700_000 + calibration_games)))
        w = w * factor
        check_seeds = list(range(base + 800_000, base + 800_000 + check))
        before, after = win_rates(pool, [start, w], players, check_seeds)
    finally:
        if pool is not None:
            pool.close()
            pool.join()
    kept = after > before
    if log:
        print(
            f"{players} players: 1-ply win rate against the heuristic on {check} new deals: {before:.1%} before,"
            f" {after:.1%} tuned ({'kept' if kept else 'not better: the starting weights are kept'});"
            f" log-loss after rescaling x{factor:.2f}: {loss:.3f}",
            file=log,
            flush=True,
        )
    info = {
        "generations": generations,
        "pairs": pairs,
        "games_per_candidate": games,
        "candidate_win_rate_by_generation": history,
        "rescaled_by": round(factor, 4),
        "calibration_games": calibration_games,
        "log_loss_after": round(loss, 4),
        "check_games": check,
        "one_ply_win_rate_before": round(before, 4),
        "one_ply_win_rate_after": round(after, 4),
        "kept": kept,
        "seconds": round(time.perf_counter() - t0, 1),
    }
    chosen = w if kept else start
    return tuple(round(float(x), 6) for x in chosen), info


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m kashgar.bots.tune_value", description=__doc__.split("\n\n")[0])
    ap.add_argument("--players", type=int, nargs="+", default=[2], choices=[2, 3, 4])
    ap.add_argument("--generations", type=int, default=14)
    ap.add_argument("--pairs", type=int, default=6, help="probe directions per generation (default 6)")
    ap.add_argument("--games", type=int, default=300, help="deals per candidate and generation (default 300)")
    ap.add_argument("--check", type=int, default=2000, help="deals for the before/after check (default 2000)")
    ap.add_argument(
        "--calibration-games",
        type=int,
        default=600,
        help="heuristic self-play games for rescaling the weights (default 600)",
    )
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--workers", type=int, default=1)
    ap.add_argument("--model", type=Path, help="model to start from (default: the shipped one)")
    ap.add_argument("--out", type=Path, required=True, help="where to write the tuned model (JSON)")
    a = ap.parse_args(argv)
    for name, low in (
        ("generations", 1),
        ("pairs", 1),
        ("games", 4),
        ("check", 4),
        ("workers", 1),
        ("calibration_games", 10),
    ):
        if getattr(a, name) < low:
            ap.error(f"--{name.replace('_', '-')} must be at least {low}")
    if a.generations * a.games > 100_000:
        ap.error("--generations x --games must be at most 100,000 (the deals must not overlap the check deals)")
    if not a.out.parent.is_dir():
        ap.error(f"--out: folder {a.out.parent} does not exist")
    try:
        model = ValueModel.load(a.model)
    except (OSError, ValueError) as exc:
        ap.error(f"--model: {exc}")
    weights = dict(model.weights)
    info = dict(model.info)
    tuned = dict(info.get("tuned", {}))
    for n in sorted(set(a.players)):
        try:
            weights[n], r = tune(
                model,
                n,
                a.generations,
                a.pairs,
                a.games,
                a.check,
                a.seed,
                a.workers,
                a.calibration_games,
                log=sys.stderr,
            )
        except ValueError as exc:
            ap.error(str(exc))
        tuned[str(n)] = {
            "made_by": "python -m kashgar.bots.tune_value",
            "date": _dt.date.today().isoformat(),
            "seed": a.seed,
            **r,
        }
    info["tuned"] = tuned
    ValueModel(weights, info).save(a.out)
    print(f"wrote {a.out}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
