"""The Textual application: the board, the numbered choices, the typed-notation input, and the screens
for help, the discard pile, the log, saving, quitting, passing the keyboard and the end of the game.

Keyboard only (works over SSH). The input line always has the focus: type a number or an action in
notation and press Enter; ↑/↓ move through the choices and Enter on an empty line takes the
highlighted one. Function and control keys do the rest (see :data:`KEYS_HELP`).
"""

from __future__ import annotations

import random
import threading
from dataclasses import replace
from typing import Any, ClassVar

from rich.console import Group, RenderableType
from rich.markup import escape
from rich.table import Table
from rich.text import Text
from textual import events
from textual.app import App, ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.screen import ModalScreen, Screen
from textual.widgets import Footer, Input, OptionList, RichLog, Static
from textual.widgets.option_list import Option

from ..records import RecordError
from . import render
from .session import Choice, InputProblem, Session, SetupError

LOG_LINES = 200  # log entries kept on the board (F3 shows all)
COMMANDS = {
    "help": "help", "?": "help", "hilfe": "help",
    "undo": "undo", "u": "undo", "zurück": "undo", "rückgängig": "undo",
    "save": "save", "speichern": "save",
    "load": "load", "laden": "load",
    "discard": "discard", "ablage": "discard",
    "log": "log", "protokoll": "log",
    "quit": "quit", "exit": "quit", "q": "quit", "beenden": "quit", "ende": "quit",
    "result": "result", "ergebnis": "result",
}


def keys_help(s: Session) -> Table:
    """The keys and typed commands, in the session's language."""
    L = s.L
    rows = [
        (L.t("1 … 9, Enter", "1 … 9, Enter"), L.t("choose by number", "nach Nummer wählen")),
        (L.t("1A, keep planter, …", "1A, keep planter, …"),
         L.t("choose by typing the action in notation (see below)", "Aktion in Notation tippen (siehe unten)")),
        ("↑ ↓, Enter", L.t("move through the choices; Enter on an empty line takes the highlighted one",
                           "durch die Wahlmöglichkeiten; Enter auf leerer Zeile nimmt die markierte")),
        ("F1 / help", L.t("this help: keys, undo rules, every card explained", "diese Hilfe: Tasten, Rückgängig, alle Karten")),
        ("F2 / discard", L.t("browse the discard pile", "den Ablagestapel durchsehen")),
        ("F3 / log", L.t("the whole move log", "das ganze Zugprotokoll")),
        ("F4 / result", L.t("the result (once the game is over)", "das Ergebnis (nach Spielende)")),
        ("Ctrl+Z / undo", L.t("undo (see the rules below)", "rückgängig (Regeln unten)")),
        ("Ctrl+S / save [FILE]", L.t("save the game record", "den Spielbericht speichern")),
        ("load FILE", L.t("load a saved game record and resume it", "einen gespeicherten Spielbericht laden und weiterspielen")),
        ("PgUp PgDn", L.t("scroll the caravans", "die Karawanen blättern")),
        ("Ctrl+C, Ctrl+Q / quit", L.t("quit (offers to save first)", "beenden (bietet Speichern an)")),
        ("Esc", L.t("clear the input line; close a window", "Eingabe löschen; Fenster schließen")),
    ]
    t = Table.grid(padding=(0, 2, 0, 0))
    t.add_column(style="bold", no_wrap=True)
    t.add_column(ratio=1)
    for k, v in rows:
        t.add_row(k.replace("Ctrl+", "Strg+") if L.de else k, v)
    return t


def undo_help(s: Session) -> str:
    L = s.L
    if not s.humans:
        return L.t("Only bots play: there is nothing to undo.", "Es spielen nur Bots: nichts rückgängig zu machen.")
    if s.hotseat:
        return L.t(
            "Several people share this keyboard (hotseat): undo goes back one decision of a person at a time, "
            "but never past the last draw of a hidden card (a card drawn from a deck, or a new contract laid out).",
            "Mehrere Personen teilen sich die Tastatur: Rückgängig geht jeweils eine Entscheidung einer Person "
            "zurück, aber nie hinter das letzte Ziehen einer verdeckten Karte (vom Stapel, oder ein neuer Auftrag).",
        )
    return L.t(
        "You play against bots: undo goes back to your previous decision, again and again, as far as the "
        "start of the game. Bot moves in between are taken back too.",
        "Du spielst gegen Bots: Rückgängig geht zu deiner vorigen Entscheidung zurück, beliebig oft, bis zum "
        "Spielbeginn. Die Bot-Züge dazwischen werden mit zurückgenommen.",
    )


NOTATION_HELP = {
    "en": (
        "Notation: [bold]1A[/] [bold]1B[/] [bold]1P[/] [bold]1X[/] = front card of caravan 1: first or second "
        "caravan action, parting action, or pass (the card goes to the back). Then, as asked: a resource "
        "([bold]ginger cloves pepper anise cinnamon gold mules[/]), [bold]keep ID[/], [bold]take ID[/], "
        "[bold]fulfil ID[/], [bold]card 2.3[/] (caravan 2, 3rd card), [bold]caravan 3[/], [bold]herd 1>2[/], "
        "[bold]player 2[/], [bold]amount 4[/], [bold]done[/], [bold]pass[/]. Card and contract ids are shown "
        "in grey next to the names."
    ),
    "de": (
        "Notation: [bold]1A[/] [bold]1B[/] [bold]1P[/] [bold]1X[/] = vorderste Karte von Karawane 1: erste oder "
        "zweite Karawanen-Aktion, Abschied-Aktion, oder passen (die Karte kommt nach hinten). Dann, je nach "
        "Frage: ein Rohstoff ([bold]ginger cloves pepper anise cinnamon gold mules[/] oder deutsch: Ingwer, "
        "Nelken, Pfeffer, Sternanis, Zimt, Gold, Mulis), [bold]keep ID[/], [bold]take ID[/], [bold]fulfil ID[/], "
        "[bold]card 2.3[/] (Karawane 2, 3. Karte), [bold]caravan 3[/], [bold]herd 1>2[/], [bold]player 2[/], "
        "[bold]amount 4[/], [bold]done[/], [bold]pass[/]. Karten- und Auftrags-IDs stehen grau neben den Namen."
    ),
}


# --------------------------------------------------------------------------------------------
# Secondary screens


class TextScreen(ModalScreen[None]):
    """A scrollable page of rich renderables (help, discard pile, log); Esc, q or F-key closes it."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape,q,f1,f2,f3,f4", "close", "Close"),
        Binding("pageup", "page(-1)", show=False),
        Binding("pagedown", "page(1)", show=False),
        Binding("home", "home", show=False),
        Binding("end", "end", show=False),
    ]

    def __init__(self, title: str, parts: list[RenderableType], name: str | None = None) -> None:
        super().__init__(name=name)
        self.title_text = title
        self.parts = parts

    def compose(self) -> ComposeResult:
        with Vertical(id="page"):
            yield Static(Text.from_markup(f"[bold]{self.title_text}[/]  [dim](Esc)[/]"), id="page-title")
            with VerticalScroll(id="page-body"):
                yield Static(Group(*self.parts), id="page-text")

    def on_mount(self) -> None:
        self.query_one("#page-body").focus()

    def action_close(self) -> None:
        self.dismiss(None)

    def action_page(self, d: int) -> None:
        body = self.query_one("#page-body", VerticalScroll)
        body.scroll_page_down() if d > 0 else body.scroll_page_up()

    def action_home(self) -> None:
        self.query_one("#page-body", VerticalScroll).scroll_home()

    def action_end(self) -> None:
        self.query_one("#page-body", VerticalScroll).scroll_end()


class AskScreen(ModalScreen[str | None]):
    """A one-line question with an editable answer (the save path); Enter answers, Esc cancels."""

    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape", "cancel", "Cancel")]

    def __init__(self, question: str, value: str) -> None:
        super().__init__()
        self.question = question
        self.value = value

    def compose(self) -> ComposeResult:
        with Vertical(id="dialog"):
            yield Static(Text.from_markup(self.question))
            yield Input(value=self.value, id="answer")

    def on_mount(self) -> None:
        self.query_one("#answer", Input).focus()

    def on_input_submitted(self, event: Input.Submitted) -> None:
        event.stop()
        self.dismiss(event.value.strip() or None)

    def action_cancel(self) -> None:
        self.dismiss(None)


class ChoiceScreen(ModalScreen[str]):
    """A question answered with one key: ``keys`` maps a key to the answer; Esc answers "cancel"."""

    def __init__(self, question: str, keys: dict[str, str], lines: list[str]) -> None:
        super().__init__()
        self.question = question
        self.keys = keys
        self.lines = lines

    def compose(self) -> ComposeResult:
        with Vertical(id="dialog"):
            yield Static(Text.from_markup(self.question + "\n\n" + "\n".join(self.lines)))

    def on_key(self, event: events.Key) -> None:
        event.stop()
        if event.key == "escape":
            self.dismiss("cancel")
        elif event.key in self.keys:
            self.dismiss(self.keys[event.key])


class CurtainScreen(Screen[None]):
    """Hotseat: hides the board until the next person at the keyboard presses Enter."""

    BINDINGS: ClassVar[list[BindingType]] = [Binding("enter,space", "ready", "Ready")]

    def __init__(self, text: str) -> None:
        super().__init__()
        self.text = text

    def compose(self) -> ComposeResult:
        yield Static(Text.from_markup(self.text), id="curtain")

    def action_ready(self) -> None:
        self.dismiss(None)


class EndScreen(ModalScreen[str]):
    """Final scores, the winner with the tie-break explained, and where the record was saved."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("enter,q", "quit_game", "Quit"),
        Binding("escape,b", "board", "Board"),
        Binding("ctrl+z,u", "undo", "Undo"),
    ]

    def __init__(self, session: Session, saved: str) -> None:
        super().__init__()
        self.session = session
        self.saved = saved

    def compose(self) -> ComposeResult:
        s = self.session
        L = s.L
        res = s.result()
        keys = L.t("[bold]Enter[/] quit · [bold]Esc[/] look at the board", "[bold]Enter[/] beenden · [bold]Esc[/] Spielbrett ansehen")
        if s.humans:
            keys += L.t(" · [bold]u[/] undo", " · [bold]u[/] rückgängig")
        parts: list[RenderableType] = [
            Text.from_markup(L.t("[bold reverse] Game over [/]", "[bold reverse] Spielende [/]")),
            Text.from_markup(res["end"] + L.t(f" ({res['turns']} turns)", f" ({res['turns']} Züge)")),
            render.result_table(s),
            Text.from_markup(f"[bold]{res['why']}[/]"),
            Text.from_markup(f"[dim]{res['rule']}[/]"),
            Text.from_markup(self.saved),
            Text.from_markup(keys),
        ]
        with VerticalScroll(id="end"):
            yield Static(Group(*parts), id="end-text")

    def action_quit_game(self) -> None:
        self.dismiss("quit")

    def action_board(self) -> None:
        self.dismiss("board")

    def action_undo(self) -> None:
        self.dismiss("undo")


# --------------------------------------------------------------------------------------------
# The board


class CommandInput(Input):
    """The input line. ↑/↓ and PgUp/PgDn are passed on to the board (choices, caravans)."""


class BoardScreen(Screen[None]):
    """The board, the choices and the input line; drives the game (humans, bots, undo, end)."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("f1", "help", "Help"),
        Binding("f2", "discard", "Discard"),
        Binding("f3", "log", "Log"),
        Binding("ctrl+z", "undo", "Undo"),
        Binding("ctrl+s", "save", "Save"),
        Binding("f4", "result", "Result", show=False),
        Binding("up", "cursor(-1)", show=False),
        Binding("down", "cursor(1)", show=False),
        Binding("pageup", "scroll_players(-1)", show=False),
        Binding("pagedown", "scroll_players(1)", show=False),
        Binding("escape", "clear", show=False),
    ]

    def __init__(self) -> None:
        super().__init__()
        self._choices: list[Choice] = []
        self._prompted: int | None = None  # session version the choices were built for
        self._thinking: int | None = None  # session version a bot is thinking about
        self._last_prompted: int | None = None  # last human seat asked (hotseat curtain)
        self._drawn: dict[str, Any] = {}  # what each board widget shows (see _show)
        self._log_shown = 0  # log entries written to the log widget
        self._log_last: Any = None
        self._end_shown: int | None = None

    @property
    def kapp(self) -> KashgarApp:
        app = self.app
        assert isinstance(app, KashgarApp)
        return app

    @property
    def session(self) -> Session:
        return self.kapp.session

    def compose(self) -> ComposeResult:
        yield Static(id="title")
        with Horizontal(id="main"):
            with Vertical(id="left"):
                yield Static(id="table")
                yield VerticalScroll(id="players")
            with Vertical(id="side"):
                yield Static(id="contracts")
                yield Static(id="decks")
                yield RichLog(id="log", wrap=True, min_width=20, max_lines=LOG_LINES)
        with Vertical(id="prompt"):
            yield Static(id="question")
            yield OptionList(id="choices")
            yield Static(id="detail")
            yield CommandInput(id="command", placeholder="")
            yield Static(id="message")
        yield Footer()

    async def on_mount(self) -> None:
        self.query_one("#choices", OptionList).can_focus = False
        self.query_one("#log", RichLog).can_focus = False
        self.query_one("#players", VerticalScroll).can_focus = False
        await self.rebuild_players()
        self.fit(self.size.height)
        self.query_one("#command", Input).focus()
        self.refresh_board()
        self.call_after_refresh(self.advance)

    def on_resize(self, event: events.Resize) -> None:
        self.fit(event.size.height)
        if self.query("#p0"):
            self.refresh_board()  # the narrow and wide forms differ

    def fit(self, height: int) -> None:
        """Share the height between the board and the prompt (readable at 30 rows, usable at 24).

        The prompt has a fixed height, so the board does not jump (or redraw) with every question.
        """
        if height >= 34:
            choices, detail = 8, 3
        elif height >= 28:
            choices, detail = 6, 3
        else:
            choices, detail = max(3, height - 20), 2
        self.query_one("#choices", OptionList).styles.height = choices
        self.query_one("#detail", Static).styles.height = detail
        gap = 1 if height >= 28 else 0
        self.query_one("#decks", Static).styles.margin = (gap, 0, 0, 0)
        self.query_one("#log", RichLog).styles.margin = (gap, 0, 0, 0)

    async def rebuild_players(self) -> None:
        """One widget per player (again after a game with another number of players was loaded)."""
        box = self.query_one("#players", VerticalScroll)
        await box.remove_children()
        await box.mount_all([Static(id=f"p{p}", classes="player") for p in range(self.session.game.n)])
        self.query_one("#table", Static).styles.height = self.session.game.n + 1
        self._log_shown = 0
        self._log_last = None
        self._drawn = {}
        self.query_one("#log", RichLog).clear()

    # ---------------------------------------------------------------- drawing

    def _show(self, selector: str, key: Any, make: Any, layout: bool = True) -> None:
        """Update a Static only when what it shows has changed (rendering rich tables is not free).
        ``layout=False`` for widgets of fixed height (no new layout of the screen needed)."""
        if self._drawn.get(selector) == key:
            return
        self._drawn[selector] = key
        self.query_one(selector, Static).update(make(), layout=layout)

    def refresh_board(self) -> None:
        """Redraw the board from the viewer's observation (only the parts that changed)."""
        s = self.session
        L = s.L
        obs = s.view()
        g = s.game
        turn = g.turn_no if g.over else g.turn_no + 1
        if g.over:
            state = L.t("game over", "Spielende")
        else:
            who = L.seat(g.to_move)
            state = L.t(f"{who} to choose", f"{who} wählt")
        watch = "" if s.humans else L.t(" · watching bots", " · Bots spielen")
        last = ""
        if obs["end_triggered"] and not g.over:
            last = " · [bold]" + L.t("25 VP reached: last round", "25 SP erreicht: letzte Runde") + "[/]"
        title = (f"[bold]Kashgar[/] · {L.t('turn', 'Zug')} {turn} · {state}{watch} · "
                 f"{L.t('start player', 'Startspieler')} {L.tag(g.start_player)} · "
                 f"{L.t('seed', 'Startwert')} {s.seed}{last}")
        self._show("#title", title, lambda: Text.from_markup(title), layout=False)
        mover = obs["pending"]["player"]
        narrow = self.size.width < 90
        self._show("#table", (narrow, mover, [(x["resources"], x["points"], x["contracts"]) for x in obs["seats"]]),
                   lambda: render.resource_table(s, obs, narrow=narrow), layout=False)
        for p in range(g.n):
            if not self.query(f"#p{p}"):
                continue
            seat = obs["seats"][p]
            self._show(f"#p{p}", (seat["caravans"], seat["contracts"]), lambda p=p: render.player_block(s, obs, p))
            self.query_one(f"#p{p}", Static).set_class(mover == p, "tomove")  # an outline: no new layout
        viewer_res = obs["seats"][obs["player"]]["resources"]
        self._show("#contracts", (obs["display"], viewer_res), lambda: render.contracts_text(s, obs))
        self._show("#decks", (narrow, obs["decks"], obs["discard"]), lambda: render.decks_text(s, obs, narrow))
        self.refresh_log()

    def refresh_log(self) -> None:
        """The last moves, newest at the bottom (written incrementally; rewritten after an undo or a load)."""
        s = self.session
        log = self.query_one("#log", RichLog)
        entries = s.log
        shown = self._log_shown
        if shown > len(entries) or (shown and entries[shown - 1] is not self._log_last):
            log.clear()
            shown = 0
            entries_to_write = entries[-LOG_LINES:]
        else:
            entries_to_write = entries[shown:]
        for e in entries_to_write:
            log.write(render.log_line(s, e))
        self._log_shown = len(entries)
        self._log_last = entries[-1] if entries else None

    def message(self, text: str, kind: str = "info") -> None:
        style = {"error": "bold red", "info": "green", "plain": ""}[kind]
        self.query_one("#message", Static).update(Text.from_markup(f"[{style}]{text}[/]" if style else text),
                                                  layout=False)

    # ---------------------------------------------------------------- the game loop

    def advance(self) -> None:
        """Whatever comes next: the end screen, a bot move, a forced move, or a question to a human."""
        s = self.session
        g = s.game
        self.refresh_board()
        if g.over:
            self.clear_choices()
            self.query_one("#question", Static).update(Text.from_markup(s.L.t(
                "[bold]Game over.[/] F4 shows the result, Ctrl+Q quits, Ctrl+Z undoes.",
                "[bold]Spielende.[/] F4 zeigt das Ergebnis, Strg+Q beendet, Strg+Z macht rückgängig.")), layout=False)
            if self._end_shown != s.version:
                self._end_shown = s.version
                self.kapp.game_over()
            return
        p = g.to_move
        if not s.is_human(p):
            self.start_bot()
            return
        if s.forced():
            entry = s.apply(g.legal()[0])
            self.kapp.autosave()
            self.message(s.L.t("Only one choice: ", "Nur eine Möglichkeit: ") + entry.text, "plain")
            self.call_later(self.advance)
            return
        if s.hotseat and self._last_prompted is not None and p != self._last_prompted and s.has_private(p):
            self._last_prompted = p
            self.kapp.push_screen(CurtainScreen(s.L.t(
                f"\n\n  [bold]{s.L.seat(p)}[/], it is your decision.\n\n"
                "  The board shows cards only you may know. Make sure the others are not looking,\n"
                "  then press [bold]Enter[/].",
                f"\n\n  [bold]{s.L.seat(p)}[/], du bist an der Reihe.\n\n"
                "  Das Spielbrett zeigt Karten, die nur du kennen darfst. Die anderen schauen weg;\n"
                "  dann drücke [bold]Enter[/].")), lambda _: self.ask())
            return
        self._last_prompted = p
        self.ask()

    def ask(self) -> None:
        """Show the question and the numbered choices to the human to move."""
        s = self.session
        if self._prompted == s.version:
            return
        self._prompted = s.version
        self._choices = s.choices()
        ol = self.query_one("#choices", OptionList)
        ol.clear_options()
        width = max(len(c.notation) for c in self._choices)
        ol.add_options([Option(self.option_text(c, width), id=str(c.number)) for c in self._choices])
        ol.highlighted = 0
        self.query_one("#question", Static).update(Text.from_markup(self.question_text()), layout=False)
        self.show_detail()
        inp = self.query_one("#command", Input)
        inp.placeholder = s.L.t(f"1-{len(self._choices)} or an action (e.g. {self._choices[0].notation}); F1 help",
                                f"1-{len(self._choices)} oder eine Aktion (z. B. {self._choices[0].notation}); F1 Hilfe")
        inp.focus()
        players = self.query(f"#p{s.game.to_move}")
        if players:
            self.query_one("#players", VerticalScroll).scroll_to_widget(players.first(), animate=False)

    def option_text(self, c: Choice, width: int = 12) -> Text:
        t = Text.from_markup(f"[bold]{c.number:>2}[/] [cyan]{c.notation:<{width}}[/] {c.label}")
        if c.preview:
            t.append_text(Text.from_markup(f"  [dim]→[/] {c.preview}"))
        t.no_wrap = True
        t.overflow = "ellipsis"
        return t

    def question_text(self) -> str:
        s = self.session
        L = s.L
        g = s.game
        obs = g.observation(g.to_move)
        pend = obs["pending"]
        kind = pend["kind"]
        who = f"{L.tag(g.to_move)} {L.seat(g.to_move)}"
        ctx = ""
        if "card" in pend:
            person = s.cards.person(pend["card"])
            slot = {"caravan": "A", "caravan2": "B", "parting": L.t("parting", "Abschied")}[pend["action"]]
            ctx = f" [dim]({L.name(person)}, {slot})[/]"
        mode = pend.get("mode", "")
        amount = pend.get("amount", "")
        q = {
            "turn": L.t("your turn: choose a caravan and what its front card does",
                        "du bist am Zug: wähle eine Karawane und was ihre vorderste Karte tut"),
            "keep": L.t("keep which of the drawn cards?", "welche der gezogenen Karten behältst du?"),
            "take": L.t("take which card from the discard pile?", "welche Karte nimmst du vom Ablagestapel?"),
            "contract": L.t("fulfil which contract?", "welchen Auftrag erfüllst du?"),
            "card": L.t("remove which card?", "welche Karte entfernst du?"),
            "caravan": L.t("move the front card of which caravan to its back?",
                           "die vorderste Karte welcher Karawane nach hinten?"),
            "herd": L.t("move a front card to the back of another of your caravans",
                        "eine vorderste Karte ans Ende einer anderen deiner Karawanen"),
            "player": L.t("choose an opponent", "wähle einen Mitspieler"),
            "amount": L.t("pay how much gold?", "wie viel Gold zahlst du?"),
        }.get(kind, kind)
        if kind == "resource":
            q = {
                "pay": L.t("pay with which spice?", "mit welchem Gewürz zahlst du?"),
                "inc": L.t(f"increase which by {amount}?", f"was erhöhst du um {amount}?"),
                "set": L.t(f"set which to {amount}?", f"was setzt du auf {amount}?"),
                "raise": L.t("raise which spice to the highest opponent value?",
                             "welches Gewürz erhöhst du auf den höchsten Wert der Mitspieler?"),
                "swap": L.t("swap which spice?", "welches Gewürz tauscht ihr?"),
                "gain": L.t("increase which?", "was erhöhst du?"),
            }.get(mode, L.t("choose a resource", "wähle einen Rohstoff"))
        if kind == "contract":
            how = {
                "free_small": L.t("a Small contract, for free", "einen Kleinauftrag, kostenlos"),
                "gold_for_spice": L.t("missing spices may be paid with gold", "fehlende Gewürze mit Gold bezahlbar"),
                "cinnamon_for_spice": L.t("missing spices may be paid with cinnamon",
                                          "fehlende Gewürze mit Zimt bezahlbar"),
                "wheat": L.t("one Wheat Field among the drawn ones, for free",
                             "ein Getreidefeld unter den gezogenen, kostenlos"),
                "pay": L.t("among the drawn ones, paying their costs", "unter den gezogenen, mit Bezahlen der Kosten"),
            }.get(mode)
            if how:
                q += f" [dim]({how})[/]"
        return f"{who}: [bold]{q}[/]{ctx}"

    def show_detail(self) -> None:
        ol = self.query_one("#choices", OptionList)
        detail = self.query_one("#detail", Static)
        i = ol.highlighted
        if i is None or not 0 <= i < len(self._choices):
            detail.update("", layout=False)
            return
        c = self._choices[i]
        L = self.session.L
        parts: list[RenderableType] = []
        if c.person is not None:
            parts.append(render.card_detail(L, c.person))
        elif c.contract is not None:
            parts.append(render.contract_detail(L, c.contract))
        if c.preview:
            parts.append(Text.from_markup(L.t("Result: ", "Ergebnis: ") + c.preview))
        detail.update(Group(*parts) if parts else "", layout=False)

    def on_option_list_option_highlighted(self, event: OptionList.OptionHighlighted) -> None:
        self.show_detail()

    def clear_choices(self) -> None:
        self._choices = []
        self._prompted = None
        self.query_one("#choices", OptionList).clear_options()
        self.query_one("#detail", Static).update("", layout=False)
        self.query_one("#command", Input).placeholder = ""

    # ---------------------------------------------------------------- bots

    def start_bot(self) -> None:
        s = self.session
        if self._thinking == s.version:
            return
        self._thinking = s.version
        self.clear_choices()
        p = s.game.to_move
        self.query_one("#question", Static).update(Text.from_markup(s.L.t(
            f"{s.L.tag(p)} {s.L.seat(p)} (bot: {escape(s.seats[p] or '')}) is thinking …",
            f"{s.L.tag(p)} {s.L.seat(p)} (Bot: {escape(s.seats[p] or '')}) überlegt …")), layout=False)
        bot = s.bots[p]
        game = s.game.copy()
        version = s.version
        # A daemon thread rather than a Textual worker: quitting never waits for a bot to finish thinking.
        threading.Thread(target=self._think, args=(self.app, bot, game, version), daemon=True,
                         name=f"kashgar-bot-{p + 1}").start()

    def _think(self, app: App, bot: Any, game: Any, version: int) -> None:
        """Runs in the bot's thread: ask the bot (on a copy of the game), hand the answer to the UI thread."""
        try:
            action, error = bot.act(game), None
        except Exception as exc:  # a bot bug must not end the game: fall back to a random move
            action, error = None, exc
        try:
            app.call_from_thread(self._bot_answer, version, action, error)
        except RuntimeError:
            pass  # the app has closed meanwhile

    def _bot_answer(self, version: int, action: int | None, error: Exception | None) -> None:
        s = self.session
        if self._thinking == version:
            self._thinking = None
        if version != s.version or s.game.over:
            return  # the game changed meanwhile (undo, load): forget this answer
        legal = s.game.legal()
        if action not in legal:
            why = f"{type(error).__name__}: {error}" if error else f"illegal action {action!r}"
            s.note(s.L.t(f"bot error ({why}); a random legal move is played instead",
                         f"Bot-Fehler ({why}); stattdessen ein zufälliger erlaubter Zug"))
            action = random.choice(legal)
        entry = s.apply(action, bot=True)
        self.kapp.autosave()
        self.message(entry.text, "plain")
        delay = self.kapp.bot_delay
        if delay > 0:
            self.refresh_board()  # show this move, wait, then go on
            self.set_timer(delay, self.advance)
        else:
            self.advance()

    # ---------------------------------------------------------------- input

    def on_input_submitted(self, event: Input.Submitted) -> None:
        event.stop()
        text = event.value.strip()
        head, _, rest = text.partition(" ")
        command = COMMANDS.get(head.lower())
        inp = self.query_one("#command", Input)
        if command is not None:
            inp.value = ""
            self.run_command(command, rest.strip())
            return
        s = self.session
        if not s.human_to_move or self._prompted != s.version:
            self.message(s.L.t("Please wait: it is not your decision now.", "Bitte warten: du bist gerade nicht dran."),
                         "error")
            return
        if not text:
            i = self.query_one("#choices", OptionList).highlighted
            if i is None or not self._choices:
                return
            action = self._choices[i].action
        else:
            try:
                action = s.resolve(text, self._choices)
            except InputProblem as exc:
                self.message(str(exc), "error")
                return  # the typed text stays for correction
        try:
            entry = s.apply(action)
        except ValueError as exc:  # cannot happen with the current choices; never lose the game over it
            self.message(str(exc), "error")
            return
        inp.value = ""
        self.kapp.autosave()
        self.message(entry.text, "plain")
        self.advance()

    def run_command(self, command: str, arg: str) -> None:
        if command == "help":
            self.action_help()
        elif command == "undo":
            self.action_undo()
        elif command == "save":
            if arg:
                self.kapp.save_to(arg)
            else:
                self.action_save()
        elif command == "load":
            self.kapp.load_from(arg)
        elif command == "discard":
            self.action_discard()
        elif command == "log":
            self.action_log()
        elif command == "quit":
            self.kapp.action_request_quit()
        elif command == "result":
            self.action_result()

    # ---------------------------------------------------------------- actions (keys)

    def action_cursor(self, d: int) -> None:
        ol = self.query_one("#choices", OptionList)
        if d < 0:
            ol.action_cursor_up()
        else:
            ol.action_cursor_down()

    def action_scroll_players(self, d: int) -> None:
        box = self.query_one("#players", VerticalScroll)
        box.scroll_page_down() if d > 0 else box.scroll_page_up()

    def action_clear(self) -> None:
        self.query_one("#command", Input).value = ""
        self.message("", "plain")

    def action_undo(self) -> None:
        s = self.session
        taken = s.undo()
        if not taken:
            self.message(s.undo_problem(), "error")
            return
        self.kapp.autosave()
        self.message(s.log[-1].text, "info")
        self.advance()

    def action_save(self) -> None:
        L = self.session.L
        self.kapp.push_screen(
            AskScreen(L.t("[bold]Save the game record[/] to this file (Enter saves, Esc cancels):",
                          "[bold]Spielbericht speichern[/] in diese Datei (Enter speichert, Esc bricht ab):"),
                      self.kapp.save_path),
            lambda path: self.kapp.save_to(path) if path else None,
        )

    def action_help(self) -> None:
        s = self.session
        L = s.L
        obs = s.view()
        parts: list[RenderableType] = [
            keys_help(s), Text(""),
            Text.from_markup(f"[bold]{L.t('Undo', 'Rückgängig')}[/]: {undo_help(s)}"), Text(""),
            Text.from_markup(NOTATION_HELP[L.lang]), Text(""),
            Text.from_markup(L.t(
                "Seats: the bots take the last seats. The front card of each caravan (reversed) is the one that "
                "can act. A ✓ marks a contract you can pay now. Cards marked ! must act when they can.",
                "Plätze: die Bots sitzen auf den letzten Plätzen. Die vorderste Karte jeder Karawane (invers) "
                "kann handeln. Ein ✓ markiert einen Auftrag, den du jetzt bezahlen kannst. Mit ! markierte "
                "Karten müssen handeln, wenn sie können.")),
            Text(""),
            render.cards_help(L, render.cards_in_play(s, obs), L.t("Cards in play", "Karten im Spiel")),
            render.contracts_help(L, [s.cards.contract(c) for c in obs["display"]],
                                  L.t("Contracts on display", "Offene Aufträge")),
            Text(""),
            render.cards_help(L, render.cards_of_game(s.cards, s), L.t("All cards of this game", "Alle Karten dieser Partie")),
        ]
        self.kapp.push_screen(TextScreen(L.t("Help", "Hilfe"), parts))

    def action_discard(self) -> None:
        s = self.session
        L = s.L
        disc = s.view()["discard"]
        if not disc:
            parts: list[RenderableType] = [Text(L.t("The discard pile is empty.", "Der Ablagestapel ist leer."))]
        else:
            parts = [Text.from_markup(L.t(f"{len(disc)} cards, newest first:", f"{len(disc)} Karten, neueste zuerst:"))]
            for i, cid in enumerate(reversed(disc), 1):
                parts.append(render.card_detail(L, s.cards.person(cid), prefix=f"[dim]{i:>3}.[/] "))
        self.kapp.push_screen(TextScreen(L.t("Discard pile", "Ablagestapel"), parts))

    def action_log(self) -> None:
        s = self.session
        L = s.L
        parts: list[RenderableType] = [render.log_line(s, e) for e in s.log] or [Text(L.t("No moves yet.", "Noch keine Züge."))]
        screen = TextScreen(L.t("Move log", "Zugprotokoll"), parts)
        self.kapp.push_screen(screen)
        screen.call_after_refresh(screen.action_end)

    def action_result(self) -> None:
        if self.session.game.over:
            self.kapp.show_end()


class KashgarApp(App[int]):
    """Kashgar in the terminal. ``bot_delay``: seconds between two bot moves (0 in tests)."""

    TITLE = "Kashgar"
    ENABLE_COMMAND_PALETTE = False
    CSS = """
    #title { height: 1; background: $primary-background; padding: 0 1; }
    #main { height: 1fr; }
    #left { width: 1fr; }
    #table { padding: 0 1; }
    #players { height: 1fr; padding: 0 1; scrollbar-size-vertical: 1; }
    .player { height: auto; padding-left: 1; }
    .player.tomove { outline-left: thick $accent; }
    #side { width: 42%; min-width: 34; max-width: 60; border-left: solid $primary-darken-2; padding: 0 1; }
    #contracts { height: auto; }
    #decks { height: auto; margin-top: 1; }
    #log { height: 1fr; margin-top: 1; scrollbar-size-vertical: 1; background: $surface; }
    #prompt { height: auto; border-top: solid $primary-darken-2; padding: 0 1; }
    #question { height: 1; text-wrap: nowrap; text-overflow: ellipsis; }
    #choices { height: 6; border: none; padding: 0; text-wrap: nowrap; text-overflow: ellipsis; }
    #detail { height: 3; color: $text-muted; }
    #command { height: 1; border: none; padding: 0 1; background: $boost; }
    #message { height: 1; text-wrap: nowrap; text-overflow: ellipsis; }
    #page { width: 100%; height: 100%; background: $surface; padding: 0 1; }
    #page-title { height: 1; }
    #dialog { width: 80%; max-width: 90; height: auto; background: $panel; border: thick $accent; padding: 1 2; }
    AskScreen, ChoiceScreen, EndScreen { align: center middle; }
    #end { width: 90%; max-width: 100; height: auto; max-height: 95vh; background: $panel; border: thick $accent;
           padding: 0 1; }
    #curtain { width: 100%; height: 100%; content-align: center middle; }
    """
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("ctrl+c", "request_quit", "Quit", show=False, priority=True),
        Binding("ctrl+q", "request_quit", "Quit", priority=True),
    ]

    def __init__(self, session: Session, save_path: str, autosave: bool = False, bot_delay: float = 0.7) -> None:
        super().__init__()
        self.session = session
        self.save_path = save_path
        self.autosave_on = autosave
        self.bot_delay = bot_delay
        self.saved_to: str | None = None
        self.saved_version: int | None = None
        self.end_saved: str = ""

    def get_default_screen(self) -> Screen:
        return localised(BoardScreen, self.session.L.lang)()

    @property
    def board(self) -> BoardScreen:
        screen = self.screen_stack[0]
        assert isinstance(screen, BoardScreen)
        return screen

    # ---------------------------------------------------------------- saving and loading

    def save_to(self, path: str) -> bool:
        """Save the record to ``path`` and say so; an error message instead on a file problem."""
        L = self.session.L
        try:
            p = self.session.save(path)
        except OSError as exc:
            self.board.message(L.t(f"Could not save to {path}: {exc.strerror or exc}",
                                   f"Speichern nach {path} fehlgeschlagen: {exc.strerror or exc}"), "error")
            return False
        self.save_path = path
        self.saved_to = str(p)
        self.saved_version = self.session.version
        self.board.message(L.t(f"Saved to {p}", f"Gespeichert in {p}"), "info")
        return True

    def autosave(self) -> None:
        """With ``--save FILE``: write the record after every move (a dropped connection loses nothing)."""
        if self.autosave_on:
            try:
                self.session.save(self.save_path)
                self.saved_to = self.save_path
                self.saved_version = self.session.version
            except OSError as exc:
                self.board.message(f"autosave: {exc.strerror or exc}", "error")

    def load_from(self, path: str) -> None:
        s = self.session
        L = s.L
        if not path:
            self.board.message(L.t("Type: load FILE", "Eingabe: load DATEI"), "error")
            return
        try:
            new = Session.load(path, s.cards, s.L.lang)
        except (RecordError, SetupError, ValueError) as exc:
            self.board.message(L.t(f"Cannot load: {exc}", f"Laden nicht möglich: {exc}"), "error")
            return
        new.version = s.version + 1000  # never equal to a version a pending bot answer refers to
        self.session = new
        self.save_path = path
        board = self.board
        board._prompted = None
        board._last_prompted = None

        async def restart() -> None:
            await board.rebuild_players()
            board.message(L.t(f"Loaded {path}", f"{path} geladen"), "info")
            board.advance()

        board.call_later(restart)

    # ---------------------------------------------------------------- end and quit

    def game_over(self) -> None:
        """Save the record (always) and show the result."""
        L = self.session.L
        path = self.save_path
        try:
            p = self.session.save(path)
            self.saved_to = str(p)
            self.saved_version = self.session.version
            self.end_saved = L.t(f"The game record was saved to [bold]{p}[/].",
                                 f"Der Spielbericht wurde in [bold]{p}[/] gespeichert.")
        except OSError as exc:
            self.end_saved = L.t(f"[red]Could not save the record to {path}: {exc.strerror or exc}[/] (Ctrl+S to retry)",
                                 f"[red]Speichern nach {path} fehlgeschlagen: {exc.strerror or exc}[/] (Strg+S)")
        self.show_end()

    def show_end(self) -> None:
        def after(answer: str | None) -> None:
            if answer == "quit":
                self.exit(0)
            elif answer == "undo":
                self.board.action_undo()

        self.push_screen(EndScreen(self.session, self.end_saved), after)

    def action_request_quit(self) -> None:
        """Ctrl+C / Ctrl+Q: offer to save, then quit."""
        if isinstance(self.screen, ChoiceScreen):
            return
        s = self.session
        L = s.L
        if self.saved_version == s.version or not s.actions:
            self.exit(0)
            return

        def after(answer: str | None) -> None:
            if answer == "save":
                if self.save_to(self.save_path):
                    self.exit(0)
            elif answer == "quit":
                self.exit(0)

        self.push_screen(ChoiceScreen(
            L.t("[bold]Quit Kashgar?[/] The game can be resumed later with [bold]kashgar play --load FILE[/].",
                "[bold]Kashgar beenden?[/] Die Partie lässt sich mit [bold]kashgar play --load DATEI[/] fortsetzen."),
            {"s": "save", "y": "save", "j": "save", "n": "quit", "q": "quit"},
            [L.t(f"[bold]s[/]  save to {self.save_path} and quit", f"[bold]s[/]  in {self.save_path} speichern und beenden"),
             L.t("[bold]n[/]  quit without saving", "[bold]n[/]  ohne Speichern beenden"),
             L.t("[bold]Esc[/] keep playing", "[bold]Esc[/] weiterspielen")],
        ), after)


_BINDING_WORDS_DE = {
    "Help": "Hilfe", "Discard": "Ablage", "Log": "Protokoll", "Undo": "Zurück", "Save": "Speichern",
    "Quit": "Beenden", "Result": "Ergebnis", "Close": "Schließen", "Cancel": "Abbrechen", "Ready": "Bereit",
    "Board": "Spielbrett",
}


def localised(cls: type, lang: str) -> type:
    """``cls`` with the key descriptions of the footer in ``lang`` (a subclass; ``cls`` itself for English)."""
    if lang != "de":
        return cls
    bindings = [replace(b, description=_BINDING_WORDS_DE.get(b.description, b.description))
                for b in cls.__dict__.get("BINDINGS", []) if isinstance(b, Binding)]
    return type(cls.__name__, (cls,), {"BINDINGS": bindings, "__doc__": cls.__doc__})


def make_app(session: Session, save_path: str, autosave: bool = False, bot_delay: float = 0.7) -> KashgarApp:
    """The application for ``session``, its footer in the session's language."""
    app_cls = localised(KashgarApp, session.L.lang)
    return app_cls(session, save_path, autosave=autosave, bot_delay=bot_delay)


def saved_message(app: KashgarApp) -> str:
    """What to print on the terminal after the app has closed."""
    s = app.session
    L = s.L
    lines = []
    if s.game.over:
        res = s.result()
        lines.append(res["why"])
        lines.append(", ".join(f"{L.seat(r['player'])}: {r['points']} {L.vp()}" for r in res["ranking"]))
    if app.saved_to and app.saved_version == s.version:
        lines.append(L.t(f"Game record saved to {app.saved_to}", f"Spielbericht gespeichert in {app.saved_to}"))
        if not s.game.over:
            lines.append(L.t(f"Resume with: kashgar play --load {app.saved_to}",
                             f"Fortsetzen mit: kashgar play --load {app.saved_to}"))
    return "\n".join(Text.from_markup(x).plain for x in lines)


__all__ = ["BoardScreen", "KashgarApp", "localised", "make_app", "saved_message"]
