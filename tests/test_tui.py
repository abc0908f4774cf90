"""``kashgar play`` through its real interface: the Textual app driven by Textual's pilot.

Whole games are played to their end with key presses and the input line; the bots are ``random``
with no pause between their moves, so the tests are fast and do not depend on the search bots.
"""

from __future__ import annotations

import argparse
import asyncio
import io
import threading
import time
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

from rich.console import Console
from textual.pilot import Pilot
from textual.widgets import Input, OptionList, Static

from helpers import scenario
from kashgar.bots import Bot, Seat
from kashgar.cards import load_cards
from kashgar.cli import parser
from kashgar.game import Options
from kashgar.records import load_record, replay, state_digest
from kashgar.tui import make_session
from kashgar.tui.app import (
    AskScreen,
    BoardScreen,
    ChoiceScreen,
    CurtainScreen,
    EndScreen,
    KashgarApp,
    TextScreen,
    make_app,
)
from kashgar.tui.session import Session

CARDS = load_cards()


def drive(app: KashgarApp, script: Callable[[Pilot], Awaitable[None]], size: tuple[int, int] = (100, 30)) -> None:
    """Run ``app`` headless at ``size`` and let ``script`` press the keys."""

    async def main() -> None:
        async with app.run_test(size=size) as pilot:
            await script(pilot)

    asyncio.run(main())


def board(app: KashgarApp) -> BoardScreen:
    return app.board


def shown(widget: Static, width: int = 100) -> str:
    """The text a Static shows (markup and colours dropped)."""
    console = Console(width=width, record=True, file=io.StringIO())
    console.print(widget.content)
    return console.export_text()


async def settle(pilot: Pilot, app: KashgarApp, timeout: float = 20.0) -> None:
    """Wait until a person is asked something: the board with a question, or another screen."""
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        await pilot.pause(0)
        if not isinstance(app.screen, BoardScreen):
            return
        s = app.session
        if s.game.over or (s.human_to_move and board(app)._prompted == s.version):
            return
        await asyncio.sleep(0.002)
    raise AssertionError("the game did not come back to a person in time")


async def type_text(pilot: Pilot, text: str) -> None:
    """Type ``text`` key by key, as a person would."""
    keys = {" ": "space", ">": "greater_than_sign", ".": "full_stop", "-": "minus"}
    await pilot.press(*(keys.get(ch, ch) for ch in text))


def message(app: KashgarApp) -> str:
    return shown(board(app).query_one("#message", Static), 200).strip()


def command(app: KashgarApp) -> Input:
    return board(app).query_one("#command", Input)


# --------------------------------------------------------------------------------------------
# Whole games


def test_a_whole_game_against_a_bot_through_the_interface(tmp_path: Path) -> None:
    save = tmp_path / "game.json"
    s = Session(CARDS, Options(players=2), 3, [None, "random"])
    app = make_app(s, str(save), bot_delay=0)

    async def script(pilot: Pilot) -> None:
        await settle(pilot, app)
        screen = board(app)
        assert "seed 3" in shown(screen.query_one("#title", Static))
        table = shown(screen.query_one("#table", Static))
        assert "Gin" in table and "Mule" in table and "P1 you" in table and "P2 bot" in table
        assert "Contracts: cost" in shown(screen.query_one("#contracts", Static))
        assert "▶" in shown(screen.query_one("#p0", Static))
        # By number with the keys, by arrow and Enter, by typing the notation.
        await pilot.press("1", "enter")
        await settle(pilot, app)
        options = screen.query_one("#choices", OptionList)
        await pilot.press("down")
        assert options.highlighted == 1
        expected = screen._choices[1].action
        before = len(s.actions)
        await pilot.press("enter")
        assert s.actions[before] == expected
        await settle(pilot, app)
        notation = screen._choices[-1].notation
        before = len(s.actions)
        await type_text(pilot, notation)
        await pilot.press("enter")
        assert s.game.action_text(s.actions[before]) == notation
        # The rest of the game through the input line (faster than key by key).
        moves = 3
        while not isinstance(app.screen, EndScreen):
            await settle(pilot, app)
            if isinstance(app.screen, EndScreen):
                break
            inp = command(app)
            inp.value = str(1 + moves % len(screen._choices))
            await inp.action_submit()
            moves += 1
        assert s.game.over and moves > 50
        end = shown(app.screen.query_one("#end-text", Static), 400)
        assert "Game over" in end and "Final scores" in end and "wins with" in end
        assert f"saved to {save}" in end
        rec = load_record(save)
        assert rec["result"]["over"] and state_digest(replay(rec)) == state_digest(s.game)
        assert rec["actions"] == [s.game.action_text(a) for a in s.actions]
        await pilot.press("enter")

    drive(app, script)
    assert app.return_value == 0


def test_a_hotseat_game_to_its_end_with_the_curtain_and_undo(tmp_path: Path) -> None:
    """Two people share the keyboard; Player 1 knows a card under the Special deck, so the board is
    hidden whenever the keyboard passes to Player 1. The game ends by the turn limit."""
    g = scenario(
        [["patriarch", "grocer"], ["patriarch", "servant"], ["patriarch", "prophet"]],
        [["patriarch", "barmaid"], ["patriarch", "scribe"], ["patriarch", "city-guard"]],
        decks={"special": {"under": [{"card": "tailor", "known_by": [0]}]}},
        turn_player=1, start_player=1, options={"turn_limit": 10},
    )
    s = Session(CARDS, g.options, 0, [None, None], start=g)
    app = make_app(s, str(tmp_path / "hot.json"), bot_delay=0)
    curtains: list[int] = []
    undone: list[int] = []

    async def script(pilot: Pilot) -> None:
        await settle(pilot, app)
        assert s.to_move == 1
        await pilot.press("2", "enter")  # Player 2: 1B, the Patriarch turns over (no draw)
        await settle(pilot, app)
        assert isinstance(app.screen, CurtainScreen)  # Player 1 may see the Tailor under the Special deck
        assert "Player 1" in shown(app.screen.query_one("#curtain", Static))
        await pilot.press("enter")
        await settle(pilot, app)
        assert "You know under Special: Tailor" in shown(board(app).query_one("#decks", Static))
        await pilot.press("ctrl+z")  # back to Player 2's decision: no hidden card was drawn since
        await settle(pilot, app)
        assert s.to_move == 1 and not s.actions
        await pilot.press("2", "enter")
        while not isinstance(app.screen, EndScreen):
            await settle(pilot, app)
            if isinstance(app.screen, CurtainScreen):
                curtains.append(s.to_move)
                await pilot.press("enter")
            elif isinstance(app.screen, BoardScreen):
                before = len(s.actions)
                drew = s.game.decision == "keep" and not undone
                await pilot.press("1", "enter")
                if drew:  # right after a draw: undo may go back to it, never past it
                    undone.append(before)
                    await pilot.press("ctrl+z")
                    await settle(pilot, app)
                    if isinstance(app.screen, CurtainScreen):
                        await pilot.press("enter")
                    assert len(s.actions) == before and s.game.decision == "keep"
                    await pilot.press("ctrl+z")
                    assert "never goes back past the draw of a hidden card" in message(app)
        end = shown(app.screen.query_one("#end-text", Static))
        assert "The turn limit (10) was reached." in end
        await pilot.press("escape")
        assert "Game over" in shown(board(app).query_one("#question", Static))
        await pilot.press("ctrl+q")  # saved at the end: quits without asking

    drive(app, script)
    assert curtains and set(curtains) == {0} and undone
    assert (tmp_path / "hot.json").exists()


# --------------------------------------------------------------------------------------------
# Input, quitting, saving, loading


def test_bad_input_reprompts_with_a_clear_message_and_loses_nothing(tmp_path: Path) -> None:
    s = Session(CARDS, Options(players=2), 7, [None, "random"])
    app = make_app(s, str(tmp_path / "x.json"), bot_delay=0)

    async def script(pilot: Pilot) -> None:
        await settle(pilot, app)
        start = s.game.fingerprint()
        n = len(board(app)._choices)
        await pilot.press("9", "9", "enter")
        assert message(app).startswith(f"There is no choice 99: type a number from 1 to {n}")
        assert command(app).value == "99"  # kept for correction
        await pilot.press("escape")
        assert command(app).value == "" and message(app) == ""
        await type_text(pilot, "buy camel")
        await pilot.press("enter")
        assert message(app).startswith("Not understood: 'buy camel'")
        command(app).value = "4a"
        await pilot.press("enter")
        assert message(app).startswith("'4A' is not possible now. Possible:")
        await pilot.press("ctrl+z")
        assert message(app) == "Nothing to undo yet."
        assert s.game.fingerprint() == start and not s.actions and isinstance(app.screen, BoardScreen)
        command(app).value = ""
        await type_text(pilot, "1A")
        await pilot.press("enter")
        assert s.game.action_text(s.actions[0]) == "1A"

    drive(app, script)


def test_ctrl_c_offers_to_save_and_the_saved_game_resumes(tmp_path: Path) -> None:
    save = tmp_path / "saved.json"
    s = Session(CARDS, Options(players=3), 9, [None, "random", "random"])
    app = make_app(s, str(save), bot_delay=0)

    async def script(pilot: Pilot) -> None:
        await settle(pilot, app)
        await pilot.press("1", "enter")
        await settle(pilot, app)
        await pilot.press("ctrl+c")
        assert isinstance(app.screen, ChoiceScreen)
        await pilot.press("escape")  # keep playing
        assert isinstance(app.screen, BoardScreen) and not save.exists()
        await pilot.press("ctrl+c")
        await pilot.press("s")

    drive(app, script)
    assert app.return_value == 0 and save.exists()
    args = parser().parse_args(["play", "--load", str(save)])
    back = make_session(args, CARDS)
    assert back.seats == [None, "random", "random"] and back.actions == s.actions
    assert state_digest(back.game) == state_digest(s.game)
    # --bots/--level given with --load replace the stored seats.
    args = parser().parse_args(["play", "--load", str(save), "--bots", "0"])
    assert make_session(args, CARDS).seats == [None, None, None]


def test_quit_without_saving(tmp_path: Path) -> None:
    s = Session(CARDS, Options(players=2), 9, [None, "random"])
    app = make_app(s, str(tmp_path / "never.json"), bot_delay=0)

    async def script(pilot: Pilot) -> None:
        await settle(pilot, app)
        await pilot.press("1", "enter")
        await settle(pilot, app)
        await pilot.press("ctrl+c", "n")

    drive(app, script)
    assert app.return_value == 0 and not (tmp_path / "never.json").exists()


def test_help_discard_log_screens_save_dialog_and_load_command(tmp_path: Path) -> None:
    s = Session(CARDS, Options(players=2), 12, [None, "random"])
    app = make_app(s, str(tmp_path / "default.json"), bot_delay=0)
    other = Session(CARDS, Options(players=2), 99, [None, "random"])
    other.apply(other.choices()[0].action)
    other.save(tmp_path / "other.json")

    async def script(pilot: Pilot) -> None:
        await settle(pilot, app)
        for _ in range(6):
            await pilot.press("1", "enter")
            await settle(pilot, app)
        await pilot.press("f1")
        assert isinstance(app.screen, TextScreen)
        page = shown(app.screen.query_one("#page-text", Static))
        assert "Cards in play" in page and "Patriarch" in page and "never goes back" not in page
        assert "undo goes back to your previous decision" in page
        await pilot.press("escape", "f2")
        assert "Discard pile" in shown(app.screen.query_one("#page-title", Static))
        await pilot.press("escape", "f3")
        log = shown(app.screen.query_one("#page-text", Static))
        assert "P1 plays" in log and "P2 " in log
        await pilot.press("escape", "ctrl+s")
        assert isinstance(app.screen, AskScreen)
        answer = app.screen.query_one("#answer", Input)
        assert answer.value == str(tmp_path / "default.json")
        answer.value = str(tmp_path / "mine.json")
        await pilot.press("enter")
        assert (tmp_path / "mine.json").exists() and message(app).startswith("Saved to")
        command(app).value = f"load {tmp_path / 'other.json'}"
        await pilot.press("enter")
        await settle(pilot, app)
        assert app.session.seed == 99 and app.session is not s
        assert "game loaded: 1 actions replayed" in app.session.log[1].text
        command(app).value = f"load {tmp_path / 'missing.json'}"
        await pilot.press("enter")
        assert message(app).startswith("Cannot load: cannot read record") and app.session.seed == 99

    drive(app, script)


# --------------------------------------------------------------------------------------------
# Bots, languages, sizes


class SlowBot(Bot):
    """Thinks for a while (in the worker thread) and then takes the first legal action."""

    name = "slow"

    def __init__(self) -> None:
        super().__init__(0)
        self.release = threading.Event()

    def choose(self, seat: Seat) -> int:
        self.release.wait(5)
        return seat.legal_actions()[0]


def test_a_thinking_bot_does_not_freeze_the_screen_and_bot_moves_are_paced(tmp_path: Path) -> None:
    g = scenario([["patriarch"], ["patriarch"], ["patriarch"]], [["city-guard"], ["patriarch"], ["patriarch"]],
                 turn_player=1, start_player=1)
    s = Session(CARDS, g.options, 0, [None, "random"], start=g)
    slow = SlowBot()
    s.bots[1] = slow
    app = make_app(s, str(tmp_path / "x.json"), bot_delay=0.2)

    async def script(pilot: Pilot) -> None:
        await pilot.pause(0.05)
        assert "is thinking" in shown(board(app).query_one("#question", Static))
        await pilot.press("f1")  # the screen still answers while the bot thinks
        assert isinstance(app.screen, TextScreen)
        await pilot.press("escape")
        slow.release.set()
        await settle(pilot, app)
        assert s.actions and s.log[0].bot
        assert "P2 plays City Guard" in message(app)

    drive(app, script)


def test_german_interface() -> None:
    s = Session(CARDS, Options(players=2), 3, [None, "random"], lang="de")
    app = make_app(s, "unused.json", bot_delay=0)

    async def script(pilot: Pilot) -> None:
        await settle(pilot, app)
        screen = board(app)
        assert "Startwert 3" in shown(screen.query_one("#title", Static))
        assert "du bist am Zug" in shown(screen.query_one("#question", Static))
        assert "Aufträge: Kosten" in shown(screen.query_one("#contracts", Static))
        keys = {b.description for b in screen._bindings.key_to_bindings["f1"]}
        assert keys == {"Hilfe"}
        await pilot.press("9", "9", "enter")
        assert message(app).startswith("Es gibt keine Wahl 99")

    drive(app, script)


def test_the_layout_fits_100x30_and_80x24() -> None:
    for size in ((100, 30), (80, 24)):
        s = Session(CARDS, Options(players=4), 3, [None, "random", "random", "random"])
        app = make_app(s, "unused.json", bot_delay=0)

        async def script(pilot: Pilot, size: Any = size, app: KashgarApp = app) -> None:
            await settle(pilot, app)
            screen = board(app)
            width, height = size
            for sel, min_height in (("#command", 1), ("#choices", 3), ("#players", 4), ("#table", 5), ("#log", 2)):
                region = screen.query_one(sel).region
                assert region.height >= min_height, (size, sel, region)
                assert region.right <= width and region.bottom <= height, (size, sel, region)
            table = shown(screen.query_one("#table", Static), screen.query_one("#table").region.width)
            assert "Mule" in table and ("Contr." in table or "Ctr" in table) and "P4" in table

        drive(app, script, size=size)


def test_watching_bots_play_a_whole_game(tmp_path: Path) -> None:
    s = Session(CARDS, Options(players=2, turn_limit=30), 4, ["random", "random"])
    app = make_app(s, str(tmp_path / "bots.json"), bot_delay=0)

    async def script(pilot: Pilot) -> None:
        await settle(pilot, app)
        assert isinstance(app.screen, EndScreen) and s.game.over
        assert "watching bots" in shown(board(app).query_one("#title", Static))
        await pilot.press("enter")

    drive(app, script)
    assert load_record(tmp_path / "bots.json")["result"]["turns"] == 30


def test_run_wires_the_command_line(monkeypatch, tmp_path: Path, capsys) -> None:
    """``kashgar play`` builds the session from the flags and prints where the record went."""
    import kashgar.tui as tui
    from kashgar.tui import app as app_module

    seen: dict[str, Any] = {}

    def fake_run(self: KashgarApp, *args: Any, **kw: Any) -> int:
        seen["session"] = self.session
        seen["save"] = self.save_path
        seen["delay"] = self.bot_delay
        self.saved_to = self.save_path
        self.saved_version = self.session.version
        return 0

    monkeypatch.setattr(app_module.KashgarApp, "run", fake_run)
    monkeypatch.setenv("KASHGAR_BOT_DELAY", "0")
    args = argparse.Namespace(**vars(parser().parse_args(
        ["play", "--players", "3", "--bots", "2", "--level", "random", "--seed", "8", "--expansion",
         "--save", str(tmp_path / "r.json")])))
    assert tui.run(args, CARDS) == 0
    s = seen["session"]
    assert s.seats == [None, "random", "random"] and s.seed == 8 and s.options.expansion
    assert seen["save"] == str(tmp_path / "r.json") and seen["delay"] == 0
    assert f"Resume with: kashgar play --load {tmp_path / 'r.json'}" in capsys.readouterr().out
