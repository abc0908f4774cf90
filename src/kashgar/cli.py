"""The ``kashgar`` command: cards, scenario, replay, simulate, bench."""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence

from .actions import NotationError
from .bots import BotError, split_specs
from .cards import CardDataError, CardSet, load_cards
from .game import IllegalAction, Options, ScenarioError

HOUSE_RULES = {
    "min-caravan": "min_caravan_two",
    "farrier": "farrier_two_mules",
    "spice-merchants": "spice_merchants_in_discard",
}


class UsageError(Exception):
    """A bad command-line value."""


def _add_cards(p: argparse.ArgumentParser) -> None:
    p.add_argument("--cards", metavar="FILE", help="play with this card file instead of the built-in one")


def _add_options(p: argparse.ArgumentParser) -> None:
    p.add_argument("--players", type=int, default=2, help="2, 3 or 4 players (default 2)")
    p.add_argument(
        "--expansion", nargs="?", const="all", default=None, metavar="IDS",
        help="shuffle in the Cut and Thrust cards: all of them, or a comma-separated list of card ids",
    )
    p.add_argument(
        "--house", default="", metavar="RULES",
        help="house rules, comma-separated: min-caravan (caravans never shrink below 2), "
        "farrier (the Farrier costs 2 mules), spice-merchants (one per player starts in the discard pile)",
    )
    p.add_argument("--no-reshuffle", action="store_true", help="an empty Standard deck stays empty")
    p.add_argument("--turn-limit", type=int, default=1000, help="end the game after this many turns (default 1000)")


def build_options(args: argparse.Namespace, cards: CardSet) -> Options:
    """Options from the common command-line flags; UsageError names a bad value."""
    expansion: tuple[tuple[str, int], ...] = ()
    if args.expansion:
        exp_cards = [p for p in cards.persons if p.deck == "expansion"]
        if args.expansion == "all":
            expansion = tuple((p.id, p.copies) for p in exp_cards)
        else:
            ids = [x.strip() for x in args.expansion.split(",") if x.strip()]
            known = {p.id: p.copies for p in exp_cards}
            for cid in ids:
                if cid not in known:
                    raise UsageError(f"--expansion: {cid!r} is not a Cut and Thrust card (known: {', '.join(known)})")
            expansion = tuple((cid, known[cid]) for cid in ids)
    house = {}
    for rule in [x.strip() for x in args.house.split(",") if x.strip()]:
        if rule not in HOUSE_RULES:
            raise UsageError(f"--house: unknown house rule {rule!r} (known: {', '.join(HOUSE_RULES)})")
        house[HOUSE_RULES[rule]] = True
    try:
        return Options(
            players=args.players, expansion=expansion, reshuffle_discard=not args.no_reshuffle,
            turn_limit=args.turn_limit, **house,
        )
    except ValueError as exc:
        raise UsageError(str(exc)) from None


def parser() -> argparse.ArgumentParser:
    ap = argparse.ArgumentParser(prog="kashgar", description="Kashgar: Merchants of the Silk Road")
    sub = ap.add_subparsers(dest="command", required=True)

    p = sub.add_parser("cards", help="list the cards")
    _add_cards(p)
    p.add_argument("--json", action="store_true", help="print JSON")
    p.add_argument("--lang", default="en", choices=["en", "de"])
    p.add_argument("--contracts", action="store_true", help="list the contracts instead of the person cards")

    p = sub.add_parser("scenario", help="load a position, apply actions, print the state as JSON")
    _add_cards(p)
    p.add_argument("file")
    p.add_argument("--do", default="", metavar="ACTIONS", help='actions in notation, separated by ";"')
    p.add_argument("--view", type=int, metavar="PLAYER", help="print what this player (1-4) sees instead of the full state")
    p.add_argument("--record", metavar="OUT", help="also save a game record to OUT")

    p = sub.add_parser("replay", help="rebuild a game from its record")
    _add_cards(p)
    p.add_argument("file")
    p.add_argument("--json", action="store_true", help="print the final state as JSON")

    p = sub.add_parser("simulate", help="play random games and report statistics")
    _add_cards(p)
    _add_options(p)
    p.add_argument("--games", type=int, default=100)
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--json", action="store_true")
    p.add_argument("--records", metavar="DIR", help="save the record of every game into DIR")

    p = sub.add_parser("tournament", help="play bots against each other in rotating seats")
    _add_cards(p)
    _add_options(p)
    p.add_argument("--bots", required=True, metavar="SPECS",
                   help="comma-separated bots, one per seat (or fewer, repeated in order): random, heuristic, value, "
                   "ismcts, ismcts:easy|normal|hard, ismcts:iterations=N, ismcts:seconds=S, with search options after "
                   "the budget: ismcts:seconds=1,prior=5,c=0.3")
    p.add_argument("--games", type=int, default=100)
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--workers", type=int, default=1, help="local processes (default 1)")
    p.add_argument("--ray", metavar="ADDRESS", help="run the games on a Ray cluster (or 'local' to start one here)")
    p.add_argument("--records", metavar="DIR", help="save the record of every game into DIR")
    p.add_argument("--json", action="store_true")

    p = sub.add_parser("play", help="play in the terminal: hotseat and against the bots")
    _add_cards(p)
    _add_options(p)
    p.add_argument("--bots", type=int, default=1, help="how many of the seats are bots (default 1)")
    p.add_argument("--level", default="normal", help="bot level: easy, normal, hard, or a bot spec such as heuristic")
    p.add_argument("--lang", default="en", choices=["en", "de"])
    p.add_argument("--seed", type=int, default=None, help="seed for the deal (default: random)")
    p.add_argument("--load", metavar="FILE", help="resume a saved game (a game record)")
    p.add_argument("--save", metavar="FILE", help="where to save the record (default: kashgar-YYYY-MM-DD-HHMM.json; "
                   "with --load, that file); when given, the record is also written after every move")

    p = sub.add_parser("serve", help="play in the browser: the game server (lobby, table, bots)")
    from .server.__main__ import add_arguments as _serve_arguments

    _serve_arguments(p)

    p = sub.add_parser("bench", help="measure engine speed")
    _add_cards(p)
    p.add_argument("--seconds", type=float, default=3.0, help="seconds per measurement (default 3)")
    p.add_argument("--json", action="store_true")
    return ap


def main(argv: Sequence[str] | None = None) -> int:
    args = parser().parse_args(argv)
    try:
        cards = load_cards(args.cards) if getattr(args, "cards", None) else load_cards()
        return _COMMANDS[args.command](args, cards)
    except (CardDataError, ScenarioError, IllegalAction, NotationError, UsageError, BotError, ValueError) as exc:
        print(f"kashgar {args.command}: error: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("interrupted", file=sys.stderr)
        return 130


def _console():
    """A rich console; piped to a file or a pager, wide enough not to squeeze tables."""
    from rich.console import Console

    console = Console()
    return console if console.is_terminal else Console(width=160)


def _cmd_cards(args: argparse.Namespace, cards: CardSet) -> int:
    from . import text

    if args.json:
        print(json.dumps(text.cards_json(cards, args.lang), indent=1, ensure_ascii=False))
        return 0

    table = text.contracts_table(cards, args.lang) if args.contracts else text.cards_table(cards, args.lang)
    _console().print(table)
    return 0


def _cmd_scenario(args: argparse.Namespace, cards: CardSet) -> int:
    from .records import make_record, save_record
    from .scenario import load_scenario_file, run_actions

    game = load_scenario_file(args.file, cards)
    start = game.copy()
    run_actions(game, args.do)
    if args.view is not None:
        if not 1 <= args.view <= game.n:
            raise UsageError(f"--view: player must be 1..{game.n}")
        out = game.observation(args.view - 1)
    else:
        out = game.to_dict()
    print(json.dumps(out, indent=1))
    if args.record:
        save_record(args.record, make_record(game, start=start))
    return 0


def _cmd_replay(args: argparse.Namespace, cards: CardSet) -> int:
    from .records import RecordError, load_record, replay, state_digest

    try:
        game = replay(load_record(args.file), cards)
    except RecordError as exc:
        raise UsageError(str(exc)) from None
    if args.json:
        print(json.dumps(game.to_dict(), indent=1))
        return 0
    print(f"replayed {game.step} actions, {game.turn_no} turns; final state {state_digest(game)} matches the record")
    print("points: " + ", ".join(f"player {p + 1}: {game.points[p]}" for p in range(game.n)))
    if game.over:
        print(f"winner: player {game.winner() + 1}")
    else:
        print(f"not over: player {game.to_move + 1} to choose ({game.decision})")
    return 0


def _cmd_simulate(args: argparse.Namespace, cards: CardSet) -> int:
    from .simulate import simulate

    if args.games < 1:
        raise UsageError("--games must be at least 1")
    options = build_options(args, cards)
    on_game = None
    if args.records:
        from pathlib import Path

        from .records import make_record, save_record

        folder = Path(args.records)
        folder.mkdir(parents=True, exist_ok=True)

        def on_game(game):
            save_record(folder / f"game-{game.seed}.json", make_record(game))

    if args.json:
        result = simulate(options, args.games, args.seed, cards, on_game=on_game)
        print(json.dumps(result, indent=1))
        return 0
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn
    from rich.table import Table

    console = Console(stderr=True)
    with Progress(
        TextColumn("simulating"), BarColumn(), MofNCompleteColumn(), TimeRemainingColumn(), console=console
    ) as prog:
        task = prog.add_task("games", total=args.games)
        result = simulate(
            options, args.games, args.seed, cards, progress=lambda i: prog.update(task, completed=i), on_game=on_game
        )
    t = Table(title=f"{result['games']} random games, {result['players']} players, seed {result['seed']}")
    t.add_column("measure")
    t.add_column("mean", justify="right")
    t.add_column("min", justify="right")
    t.add_column("median", justify="right")
    t.add_column("max", justify="right")
    for key, label in (("turns", "length in turns"), ("actions", "length in actions"),
                       ("points_all", "points (every player)"), ("points_winner", "points (winner)")):
        d = result[key]
        t.add_row(label, str(d["mean"]), str(d["min"]), str(d["median"]), str(d["max"]))
    Console().print(t)
    wins = ", ".join(f"seat {i + 1}: {w} ({r:.1%})" for i, (w, r) in enumerate(zip(result["wins_by_seat"], result["win_rate_by_seat"])))
    print(f"winners by seat: {wins}")
    if result["turn_limit_reached"]:
        print(f"games stopped by the turn limit: {result['turn_limit_reached']}")
    print(f"{result['games_per_second']} games/s, {result['steps_per_second']} steps/s ({result['seconds']} s)")
    return 0


def _cmd_bench(args: argparse.Namespace, cards: CardSet) -> int:
    from .simulate import bench

    if args.seconds <= 0:
        raise UsageError("--seconds must be positive")
    result = bench(args.seconds, cards)
    if args.json:
        print(json.dumps(result, indent=1))
        return 0
    for key in ("2p", "4p"):
        r = result[key]
        print(f"random {key[0]}-player games: {r['steps_per_second']:>9,} steps/s  {r['games_per_second']:>8,.1f} games/s  "
              f"({r['steps_per_game']} steps/game, {r['games']} games in {r['seconds']} s)")
    print(f"game copy: {result['copy_us']} µs")
    print(f"ismcts at the start of a 2-player game: {result['ismcts_iterations_per_second_2p_start']:,} iterations/s")
    tg = result["targets"]
    print(f"targets: >= {tg['steps_per_second']:,} steps/s, >= {tg['games_per_second_2p']:,} 2-player games/s, "
          f"copy <= {tg['copy_us']} µs, ismcts >= {tg['ismcts_iterations_per_second']:,} iterations/s")
    return 0


def _cmd_tournament(args: argparse.Namespace, cards: CardSet) -> int:
    from .tournament import check_bots, run_tournament

    options = build_options(args, cards)
    bots = check_bots(split_specs(args.bots), options.players)
    if args.games < 1:
        raise UsageError("--games must be at least 1")
    if args.workers < 1:
        raise UsageError("--workers must be at least 1")
    kw = dict(
        bots=bots, options=options, games=args.games, seed=args.seed, workers=args.workers, ray_address=args.ray,
        cards_path=args.cards, records_dir=args.records,
    )
    if args.json:
        result = run_tournament(**kw)
        print(json.dumps(result, indent=1))
        return 0
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn
    from rich.table import Table

    with Progress(TextColumn("playing"), BarColumn(), MofNCompleteColumn(), TimeRemainingColumn(),
                  console=Console(stderr=True)) as prog:
        task = prog.add_task("games", total=args.games)
        result = run_tournament(**kw, progress=lambda i: prog.update(task, completed=i))
    t = Table(title=f"{result['games']} games, {result['players']} players, seed {result['seed']}")
    for col in ("bot", "seats", "wins", "win rate", "95% CI", "avg points", "win rate by seat", "ms/decision"):
        t.add_column(col, justify="left" if col == "bot" else "right")
    for b in result["bots"]:
        seats = " ".join(f"{x['win_rate']:.0%}" if x["win_rate"] is not None else "-" for x in b["by_seat"])
        t.add_row(b["bot"], str(b["seats_per_game"]), str(b["wins"]), f"{b['win_rate']:.1%}",
                  f"{b['ci95'][0]:.1%}-{b['ci95'][1]:.1%}", str(b["avg_points"]), seats, str(b["ms_per_decision"]))
    _console().print(t)
    rates = ", ".join(f"seat {i + 1}: {r:.1%}" for i, r in enumerate(result["seat_win_rates"]))
    print(f"average length {result['avg_turns']} turns, {result['avg_actions']} actions; wins by seat: {rates}")
    print(f"{result['seconds']} s with {result['workers']} worker(s)" + (f" on Ray ({args.ray})" if args.ray else ""))
    return 0


def _cmd_play(args: argparse.Namespace, cards: CardSet) -> int:
    from .tui import run

    return run(args, cards)


def _cmd_serve(args: argparse.Namespace, cards: CardSet) -> int:
    from .server.__main__ import run

    return run(args)


_COMMANDS = {
    "serve": _cmd_serve,
    "tournament": _cmd_tournament,
    "play": _cmd_play,
    "cards": _cmd_cards,
    "scenario": _cmd_scenario,
    "replay": _cmd_replay,
    "simulate": _cmd_simulate,
    "bench": _cmd_bench,
}

if __name__ == "__main__":
    sys.exit(main())
