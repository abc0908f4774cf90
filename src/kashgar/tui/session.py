"""One game in the terminal, without any screen code: seats, moves, the log, undo and records.

:class:`Session` owns the live :class:`~kashgar.game.Game` and the list of actions applied since
the start. Undo rebuilds the game by replaying that list from the starting position (the engine is
deterministic), so an undone game is exactly the game that would have been played.

Undo rules (issue 4):

* against bots (exactly one human seat): back to any earlier decision of the human, as far as the
  start of the game;
* hotseat (two or more human seats): back to the previous decision of a human, but never past the
  last draw of a hidden card (a card drawn from a deck, including a new contract laid out) -
  otherwise a player could look at a draw, undo, and play differently.

Decisions with a single legal action are applied automatically and are not undo points.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import Any

from .. import actions as A
from ..bots import Bot, make_bot
from ..cards import RESOURCES, CardSet, Contract, Person
from ..game import DECK_NAMES, Game, IllegalAction, Options
from ..records import RecordError, load_record, make_record, replay, save_record
from ..text import action_text, contract_cost_text
from .words import Lang

LEVELS = {"easy": "ismcts:easy", "normal": "ismcts:normal", "hard": "ismcts:hard"}
SLOT_LETTERS = "ABP"


class InputProblem(ValueError):
    """Typed input that is not one of the choices; the message says why and what to type."""


class SetupError(ValueError):
    """Seats or a bot level that cannot be used; the message names the problem."""


def bot_spec(level: str) -> str:
    """The bot spec of a ``--level`` value: easy/normal/hard are the ISMCTS levels, anything else is a spec."""
    return LEVELS.get(level.strip().lower(), level.strip())


def make_seats(players: int, bots: int, level: str) -> list[str | None]:
    """Seat kinds: ``None`` for a human, a bot spec for a bot. The bots take the last seats."""
    if not 0 <= bots <= players:
        raise SetupError(f"--bots must be between 0 and the number of players ({players}), got {bots}")
    spec = bot_spec(level)
    return [None] * (players - bots) + [spec] * bots


def _bot_seed(seed: int, seat: int) -> int:
    return (seed * 1_000_003 + 7919 * (seat + 1)) % (1 << 62)


def new_bot(spec: str, seed: int, seat: int) -> Bot:
    """A bot for ``seat``; SetupError (naming the spec) when it is unknown or not available."""
    try:
        return make_bot(spec, _bot_seed(seed, seat))
    except ImportError as exc:
        raise SetupError(f"bot {spec!r} is not available in this installation ({exc})") from None
    except ValueError as exc:  # BotError
        raise SetupError(str(exc)) from None


def default_save_path(now: datetime | None = None) -> str:
    """``kashgar-YYYY-MM-DD-HHMM.json`` in the current directory."""
    now = now or datetime.now()
    return f"kashgar-{now:%Y-%m-%d-%H%M}.json"


@dataclass(frozen=True)
class LogEntry:
    """One line of the move log. ``step`` = number of actions applied once this line was written."""

    step: int
    turn: int
    player: int  # -1 for a note (undo, load)
    text: str  # rich markup
    bot: bool = False


@dataclass(frozen=True)
class Choice:
    """One legal action as the human sees it in the numbered list."""

    number: int
    action: int
    notation: str
    label: str  # rich markup, one line
    preview: str  # rich markup: what the choice changes ('' if it draws hidden cards or changes nothing)
    person: Person | None = None
    contract: Contract | None = None


class Session:
    """A game with its seats (humans and bots), the applied actions, a log, undo and records."""

    def __init__(
        self,
        cards: CardSet,
        options: Options,
        seed: int,
        seats: Sequence[str | None],
        lang: str = "en",
        start: Game | None = None,
        actions: Sequence[str] = (),
    ) -> None:
        if len(seats) != options.players:
            raise SetupError(f"{len(seats)} seats for a {options.players}-player game")
        self.cards = cards
        self.options = options
        self.seed = seed
        self.seats: list[str | None] = list(seats)
        self.L = Lang(lang)
        self.scenario = start is not None
        self.start = start.copy() if start is not None else Game.new(options, seed, cards)
        self.bots: dict[int, Bot] = {p: new_bot(spec, seed, p) for p, spec in enumerate(self.seats) if spec}
        self.version = 0  # changes with every move, undo and load
        self.game = self.start.copy()
        self.actions: list[int] = []
        self._who: list[int] = []  # decider before action k
        self._nlegal: list[int] = []  # number of legal actions before action k
        self._drew: list[bool] = []  # action k drew a card from a deck
        self.log: list[LogEntry] = []
        self._last_viewer = self.humans[0] if self.humans else 0
        for text in actions:
            try:
                self.apply(text)
            except ValueError as exc:
                raise RecordError(f"action {len(self.actions) + 1} ({text!r}): {exc}") from None

    # ---------------------------------------------------------------- seats and views

    @property
    def humans(self) -> list[int]:
        return [p for p, s in enumerate(self.seats) if s is None]

    @property
    def hotseat(self) -> bool:
        """Two or more people share the terminal."""
        return len(self.humans) >= 2

    def is_human(self, p: int) -> bool:
        return 0 <= p < len(self.seats) and self.seats[p] is None

    @property
    def to_move(self) -> int:
        return self.game.to_move

    @property
    def human_to_move(self) -> bool:
        return not self.game.over and self.is_human(self.game.to_move)

    @property
    def viewer(self) -> int:
        """Whose view the board shows: the human to move, else the last human who decided."""
        p = self.game.to_move
        if self.is_human(p):
            return p
        return self._last_viewer

    def view(self) -> dict[str, Any]:
        """The observation the board shows. In hotseat (and when only bots play) while a bot decides, only
        public information."""
        obs = self.game.observation(self.viewer)
        if (self.hotseat or not self.humans) and not self.human_to_move:
            obs = public_view(obs)
        return obs

    def has_private(self, p: int) -> bool:
        """Does player ``p`` see something the others do not (cards under a deck, cards drawn)?"""
        obs = self.game.observation(p)
        if obs["pending"].get("drawn"):
            return True
        return any(x is not None for d in obs["decks"].values() for x in d["under"])

    # ---------------------------------------------------------------- moves

    def forced(self) -> bool:
        """The player to move has a single legal action (front ends apply it without asking)."""
        return not self.game.over and len(self.game.legal()) == 1

    def apply(self, action: int | str, bot: bool = False) -> LogEntry:
        """Apply one action (id or notation); IllegalAction/NotationError leave everything unchanged."""
        g = self.game
        aid = A.parse(action, self.cards) if isinstance(action, str) else action
        before = g.copy()
        obs_before = g.observation(0)  # only public parts are described
        who, nlegal = g.to_move, len(g.legal())
        g.draw_log = []  # the engine notes every card drawn from a deck here
        g.apply(aid)
        self.actions.append(aid)
        self._who.append(who)
        self._nlegal.append(nlegal)
        self._drew.append(bool(g.draw_log))
        text = describe(self.L, before, aid, obs_before, g.observation(0))
        entry = LogEntry(len(self.actions), before.turn_no, who, text, bot)
        self.log.append(entry)
        self.version += 1
        if self.is_human(g.to_move):
            self._last_viewer = g.to_move
        return entry

    def note(self, text: str) -> None:
        """Add a line to the log that is not a move (undo, load, bot trouble)."""
        self.log.append(LogEntry(len(self.actions), self.game.turn_no, -1, text))

    # ---------------------------------------------------------------- choices for the human

    def choices(self) -> list[Choice]:
        """The legal actions of the player to move, numbered from 1, with labels and previews."""
        g = self.game
        if g.over:
            return []
        out = []
        mode = g.observation(g.to_move)["pending"].get("mode", "")
        for i, a in enumerate(g.legal(), 1):
            label, person, contract = choice_label(self.L, g, a, mode)
            out.append(Choice(i, a, g.action_text(a), label, preview(self.L, g, a), person, contract))
        return out

    def resolve(self, text: str, choices: Sequence[Choice] | None = None) -> int:
        """The action id a typed choice means: a number from the list or an action in notation."""
        L = self.L
        choices = self.choices() if choices is None else choices
        s = text.strip()
        if not s:
            raise InputProblem(L.t("Type a number or an action.", "Gib eine Nummer oder eine Aktion ein."))
        n = len(choices)
        if s.isdigit():
            k = int(s)
            if 1 <= k <= n:
                return choices[k - 1].action
            raise InputProblem(
                L.t(f"There is no choice {k}: type a number from 1 to {n}, or an action such as {choices[0].notation}.",
                    f"Es gibt keine Wahl {k}: gib eine Nummer von 1 bis {n} ein oder eine Aktion wie {choices[0].notation}.")
            )
        s = self._localised_resource(s)
        try:
            aid = A.parse(s, self.cards)
        except A.NotationError as exc:
            raise InputProblem(
                L.t(f"Not understood: {exc}. Type a number from 1 to {n}, or F1 for help.",
                    f"Nicht verstanden: {exc}. Gib eine Nummer von 1 bis {n} ein, oder F1 für Hilfe.")
            ) from None
        if aid not in {c.action for c in choices}:
            legal = ", ".join(c.notation for c in choices[:12]) + (", …" if n > 12 else "")
            raise InputProblem(
                L.t(f"{self.game.action_text(aid)!r} is not possible now. Possible: {legal} (or 1 to {n}).",
                    f"{self.game.action_text(aid)!r} ist jetzt nicht möglich. Möglich: {legal} (oder 1 bis {n}).")
            )
        return aid

    def _localised_resource(self, s: str) -> str:
        low = s.strip().lower()
        for r, name in enumerate(RESOURCES):
            for lang in ("en", "de"):
                if low == Lang(lang).res_plain(r).lower():
                    return name
        return s

    # ---------------------------------------------------------------- undo

    def _undo_scan(self) -> tuple[int | None, str]:
        n = len(self.actions)
        L = self.L
        if not self.humans:
            return None, L.t("Nothing to undo: only bots play.", "Nichts rückgängig zu machen: es spielen nur Bots.")
        for i in range(n - 1, -1, -1):
            if self.hotseat and self._drew[i]:
                return None, L.t(
                    "Cannot undo: with several people at the keyboard, undo never goes back past the draw of a "
                    "hidden card.",
                    "Nicht möglich: mit mehreren Personen an der Tastatur geht Rückgängig nie hinter das Ziehen "
                    "einer verdeckten Karte zurück.",
                )
            if self.is_human(self._who[i]) and self._nlegal[i] > 1:
                return i, ""
        return None, L.t("Nothing to undo yet.", "Noch nichts rückgängig zu machen.")

    def undo_target(self) -> int | None:
        """How many actions to keep when undoing now, or None when undo is not possible."""
        return self._undo_scan()[0]

    def undo_problem(self) -> str:
        """Why undo is not possible now (for the message line); '' if it is."""
        return self._undo_scan()[1]

    def undo(self) -> int:
        """Go back to the previous decision of a human (see the module docstring). Returns how many
        actions were taken back (0: nothing possible; see :meth:`undo_problem`)."""
        keep = self.undo_target()
        if keep is None:
            return 0
        taken = len(self.actions) - keep
        self._rebuild(keep)
        L = self.L
        self.note(L.t(f"↶ undo: {taken} action(s) taken back; {L.seat(self.game.to_move)} to choose again.",
                      f"↶ rückgängig: {taken} Aktion(en) zurückgenommen; {L.seat(self.game.to_move)} wählt erneut."))
        return taken

    def _rebuild(self, keep: int) -> None:
        g = self.start.copy()
        for a in self.actions[:keep]:
            g.apply_unchecked(a)
        self.game = g
        del self.actions[keep:], self._who[keep:], self._nlegal[keep:], self._drew[keep:]
        self.log = [e for e in self.log if e.step <= keep]
        self.version += 1
        if self.is_human(g.to_move):
            self._last_viewer = g.to_move

    # ---------------------------------------------------------------- records

    def record(self) -> dict:
        """The game record (``kashgar-record``), with the seats in ``meta``."""
        meta = {"app": "kashgar play", "seats": ["human" if s is None else s for s in self.seats], "lang": self.L.lang}
        return make_record(self.game, start=self.start if self.scenario else None, meta=meta)

    def save(self, path: str | Path) -> Path:
        """Save the record; OSError on a file problem."""
        p = Path(path).expanduser()
        save_record(p, self.record())
        return p

    @classmethod
    def from_record(
        cls, rec: Any, cards: CardSet, lang: str = "en", seats: Sequence[str | None] | None = None
    ) -> Session:
        """Resume a recorded game. Seats: ``seats`` if given, else those stored in the record, else
        one human and bots ("ismcts:normal") in the other seats. RecordError names a problem."""
        replay(rec, cards)  # validates the whole record with clear messages
        empty = dict(rec, actions=[])
        empty.pop("final", None)
        start = replay(empty, cards)
        players = start.n
        if seats is None:
            seats = seats_from_meta(rec, players)
        if len(seats) != players:
            raise SetupError(f"the record is a {players}-player game, but {len(seats)} seats were given")
        s = cls(cards, start.options, start.seed, seats, lang, start=start if "start" in rec else None,
                actions=rec["actions"])
        s.note(s.L.t(f"game loaded: {len(s.actions)} actions replayed", f"Partie geladen: {len(s.actions)} Aktionen nachgespielt"))
        return s

    @classmethod
    def load(cls, path: str | Path, cards: CardSet, lang: str = "en",
             seats: Sequence[str | None] | None = None) -> Session:
        return cls.from_record(load_record(path), cards, lang, seats)

    # ---------------------------------------------------------------- end of game

    def turn_of_step(self, step: int) -> int | None:
        """The turn (counted from 1, as on the screen) of the action that made the game's step ``step``."""
        i = step - self.start.step  # 1-based index into self.actions
        if not 1 <= i <= len(self.actions):
            return None
        for e in self.log:
            if e.step == i and e.player >= 0:
                return e.turn + 1
        return None

    def result(self) -> dict[str, Any]:
        """Final ranking, the winner, and the tie-break and the end explained in words.

        ``last_gain`` of a ranking row is the turn in which that player last gained points (None: never,
        or before the position the game started from).
        """
        g = self.game
        L = self.L
        ranking = g.ranking()
        w = ranking[0]
        rows = []
        for place, p in enumerate(ranking, 1):
            rows.append({"place": place, "player": p, "points": g.points[p], "contracts": len(g.fulfilled[p]),
                         "last_gain": self.turn_of_step(g.last_gain[p])})
        tied = [p for p in ranking if g.points[p] == g.points[w]]
        vp = L.vp()
        if len(tied) == 1:
            why = L.t(f"{L.seat(w)} wins with {g.points[w]} {vp}.", f"{L.seat(w)} gewinnt mit {g.points[w]} {vp}.")
        else:
            names = _and(L, [L.seat(p) for p in sorted(tied)])
            turns = {p: self.turn_of_step(g.last_gain[p]) for p in tied}
            same_turn = len({turns[p] for p in tied}) < len(tied)

            def when(p: int) -> str:
                t = turns[p]
                if t is None:
                    return L.t(f"{L.seat(p)}: not in this game", f"{L.seat(p)}: nicht in dieser Partie")
                extra = L.t(f", action {g.last_gain[p]}", f", Aktion {g.last_gain[p]}") if same_turn else ""
                return L.t(f"{L.seat(p)} in turn {t}{extra}", f"{L.seat(p)} in Zug {t}{extra}")

            gains = ", ".join(when(p) for p in tied)
            why = L.t(
                f"{names} are tied with {g.points[w]} {vp}. The tie goes to the player who gained points "
                f"last: {L.seat(w)} ({gains}).",
                f"{names} haben gleich viele {vp} ({g.points[w]}). Bei Gleichstand gewinnt, wer zuletzt "
                f"Punkte hinzugewonnen hat: {L.seat(w)} ({gains}).",
            )
            if sum(1 for p in tied if g.last_gain[p] == g.last_gain[w]) > 1:
                why += L.t(" They last gained points with the same action, so the lower seat number is ranked first.",
                           " Sie haben mit derselben Aktion zuletzt Punkte gewonnen; daher zählt die kleinere "
                           "Platznummer.")
        if any(pt >= 25 for pt in g.points) or g.end_triggered:
            end = L.t("A player reached 25 points; the round was played to the end.",
                      "Ein Spieler hat 25 Punkte erreicht; die Runde wurde zu Ende gespielt.")
        elif g.turn_no >= g.options.turn_limit:
            end = L.t(f"The turn limit ({g.options.turn_limit}) was reached.",
                      f"Das Zuglimit ({g.options.turn_limit}) wurde erreicht.")
        else:
            end = L.t("No player has a card left.", "Kein Spieler hat noch Karten.")
        rule = L.t("Tie-break: among the players with the most points, the one who gained points last wins.",
                   "Gleichstand: unter den Spielern mit den meisten Punkten gewinnt, wer zuletzt Punkte hinzugewonnen "
                   "hat.")
        return {"ranking": rows, "winner": w, "why": why, "end": end, "rule": rule, "turns": g.turn_no}


def seats_from_meta(rec: Any, players: int) -> list[str | None]:
    """The seats stored by :meth:`Session.record`, or one human and normal bots if absent."""
    meta = rec.get("meta") if isinstance(rec, dict) else None
    seats = meta.get("seats") if isinstance(meta, dict) else None
    if isinstance(seats, list) and len(seats) == players and all(isinstance(s, str) and s for s in seats):
        return [None if s == "human" else s for s in seats]
    return [None] + [LEVELS["normal"]] * (players - 1)


def public_view(obs: dict[str, Any]) -> dict[str, Any]:
    """An observation with everything private to its player removed (known cards under decks, drawn cards)."""
    out = dict(obs)
    out["decks"] = {k: {"size": d["size"], "under": [None] * len(d["under"])} for k, d in obs["decks"].items()}
    pending = dict(obs["pending"])
    pending.pop("drawn", None)
    out["pending"] = pending
    out["legal"] = []
    return out


def _and(L: Lang, items: list[str]) -> str:
    if len(items) <= 1:
        return "".join(items)
    return f"{', '.join(items[:-1])} {L.t('and', 'und')} {items[-1]}"


# --------------------------------------------------------------------------------------------
# Words for moves: the log and the choice list


def _slot_text(L: Lang, person: Person, slot: int) -> str:
    act = person.caravan[slot] if slot < 2 else person.parting[0]
    return action_text(act, L.lang, markup=True)


def _slot_name(L: Lang, slot: int) -> str:
    return ("A", "B", L.t("parting", "Abschied"))[slot]


def choice_label(L: Lang, g: Game, a: int, mode: str = "") -> tuple[str, Person | None, Contract | None]:
    """A one-line description of legal action ``a`` for the player to move, and the card it concerns.

    ``mode`` is the pending decision's mode (observation ``pending.mode``): free contracts say so.
    """
    cards = g.cards
    P, C = cards.persons, cards.contracts
    fam = A.family(a)
    p = g.to_move
    if fam == "turn":
        c, o = divmod(a, 4)
        person = P[g.caravans(g.turn_player)[c][0]]
        where = L.t(f"caravan {c + 1}", f"Karawane {c + 1}")
        if o == 3:
            return (f"{L.name(person)} ({where}) — {L.t('pass: the card goes to the back', 'passen: die Karte kommt nach hinten')}",
                    person, None)
        return f"{L.name(person)} ({where}) · {_slot_name(L, o)}: {_slot_text(L, person, o)}", person, None
    if fam == "pass":
        return L.t("no card in any caravan: pass", "keine Karte in den Karawanen: passen"), None, None
    if fam == "done":
        return L.t("done: stop here", "fertig: hier aufhören"), None, None
    if fam == "resource":
        r = a - A.RES
        return f"{L.res(r)} ({L.t('you have', 'du hast')} {g.res[p * 7 + r]})", None, None
    if fam == "player":
        q = a - A.PLAYER
        have = ", ".join(f"{L.res_short(r)} {g.res[q * 7 + r]}" for r in range(5))
        return f"{L.seat(q)} ({have})", None, None
    if fam == "caravan":
        c = a - A.CARAVAN
        person = P[g.caravans(p)[c][0]]
        return L.t(f"caravan {c + 1}: move {L.name(person)} from the front to the back",
                   f"Karawane {c + 1}: {L.name(person)} von vorne nach hinten"), person, None
    if fam == "amount":
        n = a - A.AMOUNT
        return L.t(f"pay {n} {L.res('gold')}", f"{n} {L.res('gold')} zahlen"), None, None
    if fam == "herd":
        s, d = divmod(a - A.HERD, 4)
        person = P[g.caravans(p)[s][0]]
        return L.t(f"move {L.name(person)} from caravan {s + 1} to the back of caravan {d + 1}",
                   f"{L.name(person)} von Karawane {s + 1} ans Ende von Karawane {d + 1}"), person, None
    if fam == "card":
        c, pos = divmod(a - A.CARD, A.MAX_POSITION)
        person = P[g.caravans(p)[c][pos]]
        return L.t(f"remove {L.name(person)} (caravan {c + 1}, position {pos + 1})",
                   f"{L.name(person)} entfernen (Karawane {c + 1}, Platz {pos + 1})"), person, None
    if fam in ("keep", "take"):
        person = P[a - (A.KEEP if fam == "keep" else A.TAKE)]
        return f"{L.name(person)} ({person_points(L, person)})", person, None
    contract = C[a - A.CONTRACT]
    if mode in ("wheat", "free_small"):
        return f"{L.contract_label(contract)} · {L.t('for free', 'kostenlos')}", None, contract
    cost = contract_cost_text(contract, L.lang, markup=True) or L.t("free", "kostenlos")
    return (f"{L.contract_label(contract)} · {L.t('needs', 'braucht')} {L.mules(contract.mules)} · "
            f"{L.t('costs', 'kostet')} {cost}"), None, contract


def person_points(L: Lang, person: Person) -> str:
    if person.per_wheat:
        return L.t("1 VP per Wheat Field", "1 SP je Getreidefeld")
    return f"{person.points} {L.vp()}"


def preview(L: Lang, g: Game, a: int) -> str:
    """What choosing ``a`` changes right away, unless that involves drawing hidden cards."""
    copy = g.copy()
    copy.draw_log = []
    p = g.to_move
    obs0 = g.observation(p)
    copy.apply_unchecked(a)
    if copy.draw_log:
        return ""
    return changes(L, obs0, copy.observation(p), g.cards)


def changes(L: Lang, before: dict, after: dict, cards: CardSet) -> str:
    """The public differences between two observations, in words (rich markup)."""
    parts: list[str] = []
    for p, (s0, s1) in enumerate(zip(before["seats"], after["seats"])):
        mine: list[str] = []
        for r in RESOURCES:
            v0, v1 = s0["resources"][r], s1["resources"][r]
            if v0 != v1:
                mine.append(f"{L.res(r)} {v0}→{v1}")
        if s0["points"] != s1["points"]:
            mine.append(f"{L.vp()} {s0['points']}→{s1['points']}")
        if len(s1["caravans"]) > len(s0["caravans"]):
            mine.append(L.t("new caravan", "neue Karawane"))
        if mine:
            parts.append(f"{L.tag(p)} " + ", ".join(mine))
    disc0, disc1 = before["discard"], after["discard"]
    if len(disc1) > len(disc0) and disc1[: len(disc0)] == disc0:
        added = ", ".join(L.person(cards, x) for x in disc1[len(disc0):])
        parts.append(L.t(f"discarded: {added}", f"abgelegt: {added}"))
    new_display = [c for c in after["display"] if c not in before["display"]]
    if new_display:
        shown = ", ".join(L.contract_label(cards.contract(c)) + f" [dim]{c}[/]" for c in new_display)
        parts.append(L.t(f"new contract: {shown}", f"neuer Auftrag: {shown}"))
    for name in DECK_NAMES:
        n0, n1 = before["decks"][name]["size"], after["decks"][name]["size"]
        drawn = n0 - n1 - (len(new_display) if name == "contracts" else 0)
        if drawn > 0:
            deck = {
                "standard": L.t("Standard", "Standard"),
                "special": L.t("Special", "Sonder"),
                "contracts": L.t("contract", "Auftrags"),
            }[name]
            parts.append(L.t(f"drew {drawn} {deck} card{'s' if drawn > 1 else ''}",
                             f"{drawn} {deck}karte{'n' if drawn > 1 else ''} gezogen"))
    return "; ".join(parts)


def describe(L: Lang, g: Game, a: int, obs0: dict, obs1: dict) -> str:
    """A log line for action ``a`` taken in position ``g`` (before), with its visible consequences."""
    cards = g.cards
    P, C = cards.persons, cards.contracts
    fam = A.family(a)
    p = g.to_move
    pending = obs0["pending"]
    if fam == "turn":
        c, o = divmod(a, 4)
        person = P[g.caravans(g.turn_player)[c][0]]
        if o == 3:
            what = L.t(f"passes with {L.name(person)} (caravan {c + 1}): it goes to the back",
                       f"passt mit {L.name(person)} (Karawane {c + 1}): sie kommt nach hinten")
        else:
            what = L.t(f"plays {L.name(person)} (caravan {c + 1}), {_slot_name(L, o)}",
                       f"spielt {L.name(person)} (Karawane {c + 1}), {_slot_name(L, o)}")
            what += f": [dim]{_slot_text(L, person, o)}[/]"
    elif fam == "pass":
        what = L.t("has no cards and passes", "hat keine Karten und passt")
    elif fam == "done":
        what = L.t("is done", "ist fertig")
    elif fam == "resource":
        r = a - A.RES
        mode = pending.get("mode", "")
        what = {
            "pay": L.t(f"pays with {L.res(r)}", f"zahlt mit {L.res(r)}"),
            "raise": L.t(f"raises {L.res(r)}", f"erhöht {L.res(r)}"),
            "swap": L.t(f"swaps {L.res(r)}", f"tauscht {L.res(r)}"),
        }.get(mode, L.t(f"chooses {L.res(r)}", f"wählt {L.res(r)}"))
    elif fam == "player":
        what = L.t(f"chooses {L.seat(a - A.PLAYER)}", f"wählt {L.seat(a - A.PLAYER)}")
    elif fam == "caravan":
        c = a - A.CARAVAN
        person = P[g.caravans(p)[c][0]]
        what = L.t(f"moves {L.name(person)} to the back of caravan {c + 1}",
                   f"reiht {L.name(person)} am Ende von Karawane {c + 1} ein")
    elif fam == "amount":
        what = L.t(f"pays {a - A.AMOUNT} {L.res('gold')}", f"zahlt {a - A.AMOUNT} {L.res('gold')}")
    elif fam == "herd":
        s, d = divmod(a - A.HERD, 4)
        person = P[g.caravans(p)[s][0]]
        what = L.t(f"moves {L.name(person)} from caravan {s + 1} to the back of caravan {d + 1}",
                   f"reiht {L.name(person)} von Karawane {s + 1} am Ende von Karawane {d + 1} ein")
    elif fam == "card":
        c, pos = divmod(a - A.CARD, A.MAX_POSITION)
        person = P[g.caravans(p)[c][pos]]
        what = L.t(f"removes {L.name(person)} (caravan {c + 1}, position {pos + 1})",
                   f"entfernt {L.name(person)} (Karawane {c + 1}, Platz {pos + 1})")
    elif fam == "keep":
        what = L.t(f"keeps {L.name(P[a - A.KEEP])}", f"behält {L.name(P[a - A.KEEP])}")
    elif fam == "take":
        what = L.t(f"takes {L.name(P[a - A.TAKE])} from the discard pile",
                   f"nimmt {L.name(P[a - A.TAKE])} vom Ablagestapel")
    else:
        contract = C[a - A.CONTRACT]
        what = L.t(f"fulfils {L.contract_label(contract)} [dim]({contract.id})[/]",
                   f"erfüllt {L.contract_label(contract)} [dim]({contract.id})[/]")
    effects = changes(L, obs0, obs1, cards)
    line = f"{L.tag(p)} {what}"
    return f"{line} — {effects}" if effects else line


def random_seed() -> int:
    """A fresh seed for a new game (shown on screen and stored in the record)."""
    return random.SystemRandom().randrange(1, 10**9)


__all__ = [
    "LEVELS", "Choice", "IllegalAction", "InputProblem", "LogEntry", "Session", "SetupError", "bot_spec",
    "default_save_path", "make_seats", "public_view", "random_seed", "seats_from_meta",
]
