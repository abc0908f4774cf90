"""Fit the tree search's value model (:mod:`kashgar.bots.value`) from games of the heuristic bot.

Usage (needs numpy, from the ``rl`` extra)::

    python -m kashgar.bots.train_value --games 4000 --players 2 3 4 --workers 2 --seed 1 \\
        --out src/kashgar/data/value.json

For each player count it plays ``--games`` games between heuristic bots that make a uniformly
random turn ``--epsilon`` of the time (so that the positions vary), records every player's
feature vector at the start of every turn together with who finally won, and fits the
conditional-logit weights by maximum likelihood with a little L2. One game in five is held out:
the model's log-loss and accuracy there are stored in the file next to the same figures for the
hand-tuned evaluation the search used before (softmax of :func:`kashgar.bots.heuristic.evaluate`
at temperature 12), so every shipped model says how much better than that it is.
"""

from __future__ import annotations

import argparse
import datetime as _dt
import math
import multiprocessing as mp
import random
import sys
import time
from pathlib import Path
from typing import Any

from ..game import Game, Options
from .heuristic import HeuristicBot, evaluate
from .value import FEATURES, N_FEATURES, ValueModel, features

OLD_TEMPERATURE = 12.0


def play(args: tuple[int, int, float]) -> tuple[list[list[list[float]]], list[list[float]], int]:
    """One game: the feature vectors of every turn start, the old evaluation there, the winner."""
    seed, players, epsilon = args
    g = Game.new(Options(players=players), seed)
    rng = random.Random(seed * 7919 + 1)
    bots = [HeuristicBot(seed * 10 + q) for q in range(players)]
    xs: list[list[list[float]]] = []
    olds: list[list[float]] = []
    while not g.over:
        if g.pend_kind == "turn":
            xs.append([features(g, q) for q in range(players)])
            olds.append([evaluate(g, q) for q in range(players)])
            if rng.random() < epsilon:
                legal = g.legal()
                g.apply(legal[rng.randrange(len(legal))])
                continue
        g.apply(bots[g.to_move].act(g))
    return xs, olds, g.winner()


def fit(x: Any, y: Any, l2: float = 1e-3, steps: int = 1500, lr: float = 0.05) -> Any:
    """Maximum-likelihood conditional logit: ``x`` (N, players, F), ``y`` (N,) winner indices.

    Features are scaled to unit spread for the optimiser (Adam, full batch); the returned weights
    apply to the raw features."""
    import numpy as np

    scale = x.reshape(-1, x.shape[-1]).std(axis=0)
    scale[scale < 1e-9] = 1.0
    z = x / scale
    n = len(y)
    w = np.zeros(x.shape[-1])
    m = np.zeros_like(w)
    v = np.zeros_like(w)
    rows = np.arange(n)
    for t in range(1, steps + 1):
        u = z @ w
        u -= u.max(axis=1, keepdims=True)
        p = np.exp(u)
        p /= p.sum(axis=1, keepdims=True)
        p[rows, y] -= 1.0  # d(-log p_y)/du
        grad = np.einsum("np,npf->f", p, z) / n + 2 * l2 * w
        m = 0.9 * m + 0.1 * grad
        v = 0.999 * v + 0.001 * grad * grad
        w -= lr * (m / (1 - 0.9**t)) / (np.sqrt(v / (1 - 0.999**t)) + 1e-8)
    return w / scale


def scores(u: Any, y: Any) -> tuple[float, float]:
    """Log-loss and accuracy of utilities ``u`` (N, players) against winners ``y``."""
    import numpy as np

    u = u - u.max(axis=1, keepdims=True)
    logp = u - np.log(np.exp(u).sum(axis=1, keepdims=True))
    rows = np.arange(len(y))
    return float(-logp[rows, y].mean()), float((u.argmax(axis=1) == y).mean())


def train(players: int, games: int, seed: int, workers: int, epsilon: float, log: Any = None) -> dict:
    """Play, fit and score one player count; returns the weights and the held-out figures."""
    import numpy as np

    jobs = [(seed * 1_000_000 + players * 100_000 + i, players, epsilon) for i in range(games)]
    t0 = time.perf_counter()
    if workers > 1:
        with mp.get_context("spawn").Pool(workers) as pool:
            out = pool.map(play, jobs, chunksize=16)
    else:
        out = [play(j) for j in jobs]
    play_s = time.perf_counter() - t0
    held = [i for i in range(games) if i % 5 == 4]
    used = [i for i in range(games) if i % 5 != 4]

    def arrays(idx: list[int]) -> tuple[Any, Any, Any]:
        xs = [pos for i in idx for pos in out[i][0]]
        olds = [pos for i in idx for pos in out[i][1]]
        ys = [out[i][2] for i in idx for _ in out[i][0]]
        return np.asarray(xs, dtype=float), np.asarray(olds, dtype=float), np.asarray(ys)

    x, _, y = arrays(used)
    hx, hold, hy = arrays(held)
    w = fit(x, y)
    loss, acc = scores(hx @ w, hy)
    old_loss, old_acc = scores(hold / OLD_TEMPERATURE, hy)
    result = {
        "weights": [round(float(a), 6) for a in w],
        "games": games,
        "positions": len(y),
        "held_out_positions": len(hy),
        "held_out_log_loss": round(loss, 4),
        "held_out_accuracy": round(acc, 4),
        "old_evaluation_log_loss": round(old_loss, 4),
        "old_evaluation_accuracy": round(old_acc, 4),
        "chance_log_loss": round(math.log(players), 4),
        "play_seconds": round(play_s, 1),
    }
    if log:
        print(
            f"{players} players: {games} games, {len(y)} positions ({play_s:.0f} s); held out: log-loss {loss:.3f}"
            f" (old evaluation {old_loss:.3f}, chance {math.log(players):.3f}), accuracy {acc:.1%}"
            f" (old {old_acc:.1%})",
            file=log,
            flush=True,
        )
    return result


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m kashgar.bots.train_value", description=__doc__.split("\n\n")[0])
    ap.add_argument("--games", type=int, default=4000, help="games per player count (default 4000)")
    ap.add_argument("--players", type=int, nargs="+", default=[2, 3, 4], choices=[2, 3, 4])
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--workers", type=int, default=1)
    ap.add_argument("--epsilon", type=float, default=0.1, help="share of random turns (default 0.1)")
    ap.add_argument("--out", type=Path, required=True, help="where to write the model (JSON)")
    a = ap.parse_args(argv)
    if a.games < 10:
        ap.error("--games must be at least 10")
    if not 0 <= a.epsilon <= 1:
        ap.error("--epsilon must be from 0 to 1")
    if not a.out.parent.is_dir():
        ap.error(f"--out: folder {a.out.parent} does not exist")  # say so before minutes of play, not after
    weights = {}
    info: dict[str, Any] = {
        "made_by": "python -m kashgar.bots.train_value",
        "date": _dt.date.today().isoformat(),
        "seed": a.seed,
        "epsilon": a.epsilon,
        "policy": "heuristic",
        "per_players": {},
    }
    for n in sorted(set(a.players)):
        r = train(n, a.games, a.seed, a.workers, a.epsilon, log=sys.stderr)
        weights[str(n)] = r.pop("weights")
        info["per_players"][str(n)] = r
    ValueModel.from_dict({"features": list(FEATURES), "weights": weights, "info": info}).save(a.out)
    print(f"wrote {a.out} ({N_FEATURES} features)", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
