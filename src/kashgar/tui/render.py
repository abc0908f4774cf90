"""Rich renderables for the board: players, contracts, decks, discard pile, card texts, results.

Everything here draws from an observation (:meth:`kashgar.game.Game.observation`), so the board
can only show what the viewing player may see.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from rich import box
from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

from ..cards import RESOURCES, CardSet, Contract, Person
from ..text import action_text, card_text, contract_text
from .session import LogEntry, Session, person_points
from .words import Lang


def _can_fulfil(res: dict[str, int], c: Contract) -> bool:
    if res["mules"] < c.mules:
        return False
    return all(res[RESOURCES[r]] >= n for r, n in c.cost)


def player_block(s: Session, obs: dict[str, Any], p: int) -> Table:
    """One player's caravans, front to back (the front card, the one that can act, marked), and contracts.

    A grid, so that a long caravan wraps under its own cards rather than under the player tag.
    """
    L = s.L
    cards = s.cards
    seat = obs["seats"][p]
    t = Table.grid(padding=(0, 1, 0, 0))
    t.add_column(no_wrap=True)
    t.add_column(no_wrap=True, justify="right")
    t.add_column(ratio=1)
    for c, caravan in enumerate(seat["caravans"]):
        head = Text.from_markup(L.tag(p) if c == 0 else "")
        if not caravan:
            t.add_row(head, Text.from_markup(f"[bold]{c + 1}[/]"), Text.from_markup(f"[dim]{L.t('(empty)', '(leer)')}[/]"))
            continue
        shown = []
        for i, cid in enumerate(caravan):
            person = cards.person(cid)
            name = L.name(person)
            pts = "" if not person.points and not person.per_wheat else (
                f"[dim]{person.points:+d}[/]" if not person.per_wheat else "[dim]+W[/]")
            shown.append(f"▶[bold reverse] {name} [/]{pts}" if i == 0 else f"{name}{pts}")
        t.add_row(head, Text.from_markup(f"[bold]{c + 1}[/]"), Text.from_markup(" · ".join(shown)))
    if not seat["caravans"]:
        t.add_row(Text.from_markup(L.tag(p)), "", Text.from_markup(f"[dim]{L.t('(no caravans)', '(keine Karawanen)')}[/]"))
    if seat["contracts"]:
        labels = ", ".join(L.contract_label(cards.contract(k)) for k in seat["contracts"])
        t.add_row("", "", Text.from_markup(f"[dim]{L.t('Contracts', 'Aufträge')}:[/] {labels}"))
    return t


def resource_table(s: Session, obs: dict[str, Any], narrow: bool = False) -> Table:
    """Every player's resources, points and number of fulfilled contracts, one row each (◀ = to choose).

    ``narrow`` (a terminal under 90 columns) leaves out the "you"/"bot" labels and shortens a header.
    """
    L = s.L
    t = Table(box=None, show_edge=False, pad_edge=False, padding=(0, 0, 0, 1), expand=False,
              header_style="bold")
    t.add_column("", no_wrap=True)
    for r in RESOURCES:
        t.add_column(Text.from_markup(L.res_short(r)), justify="right", no_wrap=True, min_width=3)
    t.add_column(L.vp(), justify="right", no_wrap=True, min_width=3)
    t.add_column(L.t("Ctr", "Auf") if narrow else L.t("Contr.", "Auftr."), justify="right", no_wrap=True)
    t.add_column("", no_wrap=True)
    for p, seat in enumerate(obs["seats"]):
        res = seat["resources"]
        who = s.seats[p]
        kind = L.t("you", "du") if who is None and len(s.humans) == 1 else ("bot" if who else "")
        if narrow:
            kind = ""
        mover = obs["pending"]["player"] == p
        mark = "◀" if mover else ""
        t.add_row(Text.from_markup(f"{L.tag(p)} [dim]{kind}[/]" if kind else L.tag(p)), *(str(res[r]) for r in RESOURCES),
                  Text(str(seat["points"]), style="bold"), str(len(seat["contracts"])), mark,
                  style="bold" if mover else "")
    return t


def contracts_text(s: Session, obs: dict[str, Any]) -> RenderableType:
    """The face-up contracts: points, mule requirement, cost, payout; ✓ marks those the viewer can pay."""
    L = s.L
    res = obs["seats"][obs["player"]]["resources"]
    t = Table(box=None, padding=(0, 0, 0, 1), pad_edge=False, show_edge=False, header_style="bold")
    t.add_column(L.vp(), justify="right", no_wrap=True)
    t.add_column(Text.from_markup("≥" + L.res_short("mules")), justify="right", no_wrap=True)
    t.add_column(L.t("Contracts: cost", "Aufträge: Kosten"), ratio=1)
    for cid in obs["display"]:
        c = s.cards.contract(cid)
        cost = " ".join(f"{n} {L.res_short(r)}" for r, n in c.cost) or L.t("free", "frei")
        if c.payout:
            cost += " → " + " ".join(f"+{n} {L.res_short(r)}" for r, n in c.payout)
        ok = " [bold green]✓[/]" if _can_fulfil(res, c) else ""
        t.add_row(Text(str(c.points), style="bold"), str(c.mules), Text.from_markup(cost + ok))
    if not obs["display"]:
        t.add_row("", "", L.t("(none left)", "(keine mehr)"))
    return t


def decks_text(s: Session, obs: dict[str, Any], narrow: bool = False) -> RenderableType:
    """Deck sizes, the discard pile (newest first) and cards the viewer knows under a deck.

    ``narrow``: short deck names and one line per item (a small terminal).
    """
    L = s.L
    d = obs["decks"]
    std, spc, con = (d[k]["size"] for k in ("standard", "special", "contracts"))
    if narrow:
        line = L.t(f"Std [bold]{std}[/] · Spec [bold]{spc}[/] · Contr [bold]{con}[/]",
                   f"Std [bold]{std}[/] · Sonder [bold]{spc}[/] · Auftr [bold]{con}[/]")
    else:
        line = L.t(f"Standard [bold]{std}[/] · Special [bold]{spc}[/] · Contracts [bold]{con}[/]",
                   f"Standard [bold]{std}[/] · Sonder [bold]{spc}[/] · Aufträge [bold]{con}[/]")
    lines = [Text.from_markup(line)]
    for name, label in (("special", L.t("Special", "Sonder")), ("contracts", L.t("Contracts", "Aufträge")),
                        ("standard", "Standard")):
        known = [x for x in d[name]["under"] if x is not None]
        if known:
            names = [L.person(s.cards, x) if name != "contracts" else L.contract_label(s.cards.contract(x))
                     for x in known[:4]]
            text = ", ".join(names) + (f" (+{len(known) - 4})" if len(known) > 4 else "")
            lines.append(Text.from_markup(L.t(f"[dim]You know under {label}: {text}[/]",
                                              f"[dim]Du kennst unter {label}: {text}[/]")))
    disc = obs["discard"]
    if disc:
        newest = [L.person(s.cards, x) for x in reversed(disc[-4:])]
        more = " …" if len(disc) > 4 else ""
        lines.append(Text.from_markup(L.t(f"Discard ({len(disc)}, F2): ", f"Ablage ({len(disc)}, F2): ")
                                      + ", ".join(newest) + more))
    else:
        lines.append(Text(L.t("Discard: empty", "Ablage: leer")))
    if narrow:
        for t in lines:
            t.no_wrap = True
            t.overflow = "ellipsis"
        return Group(*lines)
    return Text("\n").join(lines)


def log_line(s: Session, e: LogEntry) -> Text:
    """One log entry with its turn number."""
    turn = f"[dim]{e.turn + 1:>3}[/] "
    if e.player < 0:
        return Text.from_markup(f"{turn}[italic]{e.text}[/]")
    return Text.from_markup(turn + e.text)


def card_detail(L: Lang, person: Person, prefix: str = "") -> Text:
    """A person card: name, points, the "must act" flag, and every action with its cost."""
    info = card_text(person, L.lang, markup=True)
    head = f"{prefix}[bold]{L.name(person)}[/] · {person_points(L, person)} · {info['deck_name']}"
    if person.must:
        head += L.t(" · [bold]must act[/]", " · [bold]muss handeln[/]")
    head += f" [dim]{person.id}[/]"
    lines = [head]
    for i, a in enumerate(person.caravan):
        lines.append(f"  [bold]{'AB'[i]}[/]: {action_text(a, L.lang, markup=True)}")
    for a in person.parting:
        lines.append(f"  [bold]P[/] ({L.t('parting, card leaves the game', 'Abschied, Karte verlässt das Spiel')}): "
                     f"{action_text(a, L.lang, markup=True)}")
    return Text.from_markup("\n".join(lines))


def contract_detail(L: Lang, c: Contract) -> Text:
    info = contract_text(c, L.lang, markup=True)
    cost = info["cost"] or L.t("nothing", "nichts")
    line = L.t(f"[bold]{info['kind_name']}[/] · {c.points} VP · needs {c.mules} mules (kept) · pays {cost}",
               f"[bold]{info['kind_name']}[/] · {c.points} SP · braucht {c.mules} Mulis (bleiben) · kostet {cost}")
    if info["payout"]:
        line += L.t(f" · immediately {info['payout']}", f" · sofort {info['payout']}")
    return Text.from_markup(line + f" [dim]{c.id}[/]")


def cards_help(L: Lang, persons: Iterable[Person], title: str) -> Table:
    """A table of person cards with all their texts (the help screen)."""
    t = Table(title=title, title_justify="left", title_style="bold", box=box.SIMPLE_HEAD, expand=True, show_lines=True)
    t.add_column(L.t("Card", "Karte"), ratio=1, style="bold")
    t.add_column(L.vp(), width=7)
    t.add_column(L.t("Actions (A, B: caravan actions; P: parting)", "Aktionen (A, B: Karawane; P: Abschied)"), ratio=4)
    for person in persons:
        info = card_text(person, L.lang, markup=True)
        acts = [f"[bold]{'AB'[i]}[/]: {x}" for i, x in enumerate(info["caravan"])]
        acts += [f"[bold]P[/]: {x}" for x in info["parting"]]
        name = L.name(person) + (" [dim]![/]" if person.must else "")
        t.add_row(Text.from_markup(name + f"\n[dim]{person.id}[/]"), person_points(L, person),
                  Text.from_markup("\n".join(acts) or "—"))
    return t


def contracts_help(L: Lang, contracts: Sequence[Contract], title: str) -> RenderableType:
    if not contracts:
        return Text("")
    return Group(Text.from_markup(f"[bold]{title}[/]"), *(contract_detail(L, c) for c in contracts))


def result_table(s: Session) -> Table:
    """Final scores, best first."""
    L = s.L
    res = s.result()
    t = Table(box=box.SIMPLE_HEAD, title=L.t("Final scores", "Endstand"), title_style="bold")
    t.add_column("#", justify="right")
    t.add_column(L.t("Player", "Spieler"))
    t.add_column(L.vp(), justify="right")
    t.add_column(L.t("Contracts", "Aufträge"), justify="right")
    t.add_column(L.t("Last gain (turn)", "Zuletzt + (Zug)"), justify="right")
    for row in res["ranking"]:
        p = row["player"]
        kind = "bot" if s.seats[p] else (L.t("you", "du") if len(s.humans) == 1 else "")
        t.add_row(str(row["place"]), Text.from_markup(f"{L.tag(p)} {L.seat(p)} [dim]{kind}[/]"), str(row["points"]),
                  str(row["contracts"]), "—" if row["last_gain"] is None else str(row["last_gain"]))
    return t


def cards_in_play(s: Session, obs: dict[str, Any]) -> list[Person]:
    """Every person card the viewer can see now (caravans, discard pile, drawn cards), sorted by name."""
    ids: set[str] = set()
    for seat in obs["seats"]:
        for caravan in seat["caravans"]:
            ids.update(caravan)
    ids.update(obs["discard"])
    if obs["pending"].get("deck") in ("standard", "special"):
        ids.update(obs["pending"].get("drawn", []))
    persons = [s.cards.person(x) for x in ids]
    return sorted(persons, key=lambda p: s.L.name(p))


def cards_of_game(cards: CardSet, s: Session) -> list[Person]:
    """The person cards this game uses (Cut and Thrust only those shuffled in)."""
    exp = dict(s.options.expansion)
    return [p for p in cards.persons if p.deck != "expansion" or exp.get(p.id)]
