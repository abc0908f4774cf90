"""Steps per second of each research adapter next to the bare engine.

    python -m kashgar.envs.bench [--seconds 3] [--players 2] [--json]

Every figure plays uniformly random legal games for about ``--seconds`` and counts decisions
(one legal action applied; OpenSpiel chance nodes are counted apart):

* ``engine``: ``Game.legal()`` + ``apply_unchecked`` - the bare rules engine;
* ``engine+encode``: the same, plus the observation vector and action mask of the player to move;
* ``pettingzoo``: ``env()`` (with PettingZoo's order-enforcing wrapper), ``last()`` + ``step()``
  per decision, the action sampled from the mask;
* ``gymnasium``: ``KashgarEnv`` against ``random`` bots; figures count the learner's steps and,
  apart, every decision of the game (bots included);
* ``openspiel``: ``python_kashgar`` states through pyspiel (deal and draws as chance nodes);
  ``openspiel+observer`` also fills the vector of the player to move through
  ``open_spiel.python.observation.make_observation`` (a numpy array), ``openspiel+tensor``
  through ``state.observation_tensor()`` (pyspiel converts it to a Python list: slower).
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from collections.abc import Callable
from typing import Any

from ..game import Game
from .common import make_options


def _timed(seconds: float, play_one: Callable[[int], tuple[int, int]]) -> dict[str, Any]:
    """Run ``play_one(seed) -> (decisions, extra)`` game after game for ``seconds``."""
    t0 = time.perf_counter()
    games = steps = extra = 0
    seed = 1
    while time.perf_counter() - t0 < seconds:
        s, e = play_one(seed)
        steps += s
        extra += e
        games += 1
        seed += 1
    dt = time.perf_counter() - t0
    return {"games": games, "seconds": round(dt, 3), "steps": steps, "steps_per_second": round(steps / dt),
            "extra": extra, "extra_per_second": round(extra / dt)}


def bench_engine(seconds: float, players: int = 2) -> dict[str, Any]:
    """The bare engine: random legal play."""
    options = make_options(players)

    def one(seed: int) -> tuple[int, int]:
        g = Game.new(options, seed)
        rand = random.Random(seed).random
        while not g.over:
            legal = g.legal()
            g.apply_unchecked(legal[int(rand() * len(legal))])
        return g.step, 0

    return _timed(seconds, one)


def bench_encoded(seconds: float, players: int = 2) -> dict[str, Any]:
    """The engine plus the shared encoder: vector and mask for the player to move, every step."""
    from .encoding import encoder_for

    options = make_options(players)
    g0 = Game.new(options, 0)
    enc = encoder_for(g0.cards, players, options.turn_limit)

    def one(seed: int) -> tuple[int, int]:
        g = Game.new(options, seed)
        rand = random.Random(seed).random
        while not g.over:
            p = g.to_move
            enc.encode(g, p)
            enc.action_mask(g)
            legal = g.legal()
            g.apply_unchecked(legal[int(rand() * len(legal))])
        return g.step, 0

    return _timed(seconds, one)


def bench_pettingzoo(seconds: float, players: int = 2) -> dict[str, Any]:
    """PettingZoo AEC: last() + step() per decision."""
    import numpy as np

    from .pettingzoo import env as make_env

    e = make_env(players=players)

    def one(seed: int) -> tuple[int, int]:
        e.reset(seed=seed)
        rand = random.Random(seed).random
        steps = 0
        for _agent in e.agent_iter():
            obs, _reward, term, trunc, _info = e.last()
            if term or trunc:
                e.step(None)
                continue
            legal = np.flatnonzero(obs["action_mask"])
            e.step(int(legal[int(rand() * len(legal))]))
            steps += 1
        return steps, 0

    return _timed(seconds, one)


def bench_gymnasium(seconds: float, players: int = 2) -> dict[str, Any]:
    """Gymnasium: the learner's step() against random bots (extra: every decision of the game)."""
    import numpy as np

    from .gymnasium import KashgarEnv

    e = KashgarEnv(players=players, opponents="random")

    def one(seed: int) -> tuple[int, int]:
        _obs, info = e.reset(seed=seed)
        rand = random.Random(seed).random
        steps = 0
        done = False
        while not done:
            legal = np.flatnonzero(info["action_mask"])
            _obs, _r, done, _trunc, info = e.step(int(legal[int(rand() * len(legal))]))
            steps += 1
        return steps, e.game.step

    return _timed(seconds, one)


def bench_openspiel(seconds: float, players: int = 2, observe: str = "") -> dict[str, Any]:
    """OpenSpiel: random play through pyspiel (extra: chance nodes); ``observe``: "", "observer" or "tensor"."""
    import pyspiel
    from open_spiel.python.observation import make_observation

    from .openspiel import sample_outcome  # importing it registers python_kashgar

    game = pyspiel.load_game(f"python_kashgar(players={players})")
    observer = make_observation(game)

    def one(seed: int) -> tuple[int, int]:
        rng = random.Random(seed)
        state = game.new_initial_state()
        steps = chance = 0
        while not state.is_terminal():
            if state.is_chance_node():
                state.apply_action(sample_outcome(state.chance_outcomes(), rng))
                chance += 1
            else:
                if observe == "tensor":
                    state.observation_tensor(state.current_player())
                elif observe == "observer":
                    observer.set_from(state, state.current_player())
                legal = state.legal_actions()
                state.apply_action(legal[int(rng.random() * len(legal))])
                steps += 1
        return steps, chance

    return _timed(seconds, one)


def run(seconds: float = 3.0, players: int = 2, only: list[str] | None = None) -> dict[str, dict[str, Any]]:
    """Measure every adapter (or those named in ``only``); a missing library is reported, not raised."""
    benches: dict[str, Callable[[], dict[str, Any]]] = {
        "engine": lambda: bench_engine(seconds, players),
        "engine+encode": lambda: bench_encoded(seconds, players),
        "pettingzoo": lambda: bench_pettingzoo(seconds, players),
        "gymnasium": lambda: bench_gymnasium(seconds, players),
        "openspiel": lambda: bench_openspiel(seconds, players),
        "openspiel+observer": lambda: bench_openspiel(seconds, players, observe="observer"),
        "openspiel+tensor": lambda: bench_openspiel(seconds, players, observe="tensor"),
    }
    unknown = set(only or ()) - set(benches)
    if unknown:
        raise ValueError(f"unknown benchmark(s): {', '.join(sorted(unknown))} (known: {', '.join(benches)})")
    out: dict[str, dict[str, Any]] = {}
    for name, fn in benches.items():
        if only and name not in only:
            continue
        try:
            out[name] = fn()
        except ImportError as exc:
            out[name] = {"error": str(exc)}
    return out


_EXTRA = {
    "gymnasium": "all decisions/s (bots too)",
    "openspiel": "chance nodes/s",
    "openspiel+observer": "chance nodes/s",
    "openspiel+tensor": "chance nodes/s",
}


def format_table(results: dict[str, dict[str, Any]]) -> str:
    """The results as a Markdown table, with each adapter's speed relative to the bare engine."""
    base = results.get("engine", {}).get("steps_per_second")
    lines = ["| adapter | steps/s | vs engine | games | other |", "|---|---:|---:|---:|---|"]
    for name, r in results.items():
        if "error" in r:
            lines.append(f"| {name} | - | - | - | {r['error']} |")
            continue
        rel = f"{r['steps_per_second'] / base:.1%}" if base else "-"
        other = f"{r['extra_per_second']:,} {_EXTRA[name]}" if name in _EXTRA else ""
        lines.append(f"| {name} | {r['steps_per_second']:,} | {rel} | {r['games']} | {other} |")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    """Command line: print the table (or JSON)."""
    p = argparse.ArgumentParser(prog="python -m kashgar.envs.bench", description=__doc__.split("\n\n")[0])
    p.add_argument("--seconds", type=float, default=3.0, help="seconds per figure (default 3)")
    p.add_argument("--players", type=int, default=2, help="2, 3 or 4 (default 2)")
    p.add_argument("--only", default="", help="comma-separated subset, e.g. engine,pettingzoo")
    p.add_argument("--json", action="store_true", help="print JSON instead of a table")
    args = p.parse_args(argv)
    try:
        only = [x.strip() for x in args.only.split(",") if x.strip()] or None
        results = run(args.seconds, args.players, only)
    except ValueError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    if args.json:
        print(json.dumps({"players": args.players, "seconds": args.seconds, "results": results}, indent=2))
    else:
        print(f"random legal play, {args.players} players, ~{args.seconds:g} s per figure (Python {sys.version.split()[0]})")
        print(format_table(results))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
