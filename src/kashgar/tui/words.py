"""Small language helper for the terminal front end: English or German words and coloured resources.

Card texts themselves come from :mod:`kashgar.text`; this module only holds the words of the
interface (prompts, log phrases, labels).
"""

from __future__ import annotations

from rich.markup import escape

from ..cards import RESOURCES, CardSet, Contract, Person
from ..text import LANGS, card_name, resource_colour, resource_name

# Short resource labels for the compact player lines (same order as kashgar.cards.RESOURCES).
_SHORT = {
    "en": ("Gin", "Clo", "Pep", "Ani", "Cin", "Gold", "Mule"),
    "de": ("Ing", "Nel", "Pfe", "Ste", "Zim", "Gold", "Muli"),
}
# Seat colours (never a spice colour, so a player tag is not mistaken for a resource).
SEAT_COLOURS = ("bright_cyan", "bright_green", "bright_magenta", "bright_blue")


class Lang:
    """The words of one interface language (``en`` or ``de``)."""

    def __init__(self, lang: str = "en") -> None:
        if lang not in LANGS:
            raise ValueError(f"unknown language {lang!r} (expected one of {', '.join(LANGS)})")
        self.lang = lang
        self.de = lang == "de"

    def t(self, en: str, de: str) -> str:
        """Pick the English or the German text."""
        return de if self.de else en

    # ---------------------------------------------------------------- resources

    def res(self, r: int | str) -> str:
        """The coloured (rich markup) name of a resource, by index or by notation name."""
        i = RESOURCES.index(r) if isinstance(r, str) else r
        return f"[{resource_colour(i)}]{resource_name(i, self.lang)}[/]"

    def mules(self, n: int) -> str:
        """ "1 mule", "3 mules" / "1 Muli", "3 Mulis", coloured."""
        word = self.t("mule", "Muli") if n == 1 else self.res_plain("mules")
        return f"{n} [{resource_colour(RESOURCES.index('mules'))}]{word}[/]"

    def res_plain(self, r: int | str) -> str:
        i = RESOURCES.index(r) if isinstance(r, str) else r
        return resource_name(i, self.lang)

    def res_short(self, r: int | str) -> str:
        """A short coloured label ("Pep") for the compact resource line."""
        i = RESOURCES.index(r) if isinstance(r, str) else r
        return f"[{resource_colour(i)}]{_SHORT[self.lang][i]}[/]"

    def colour(self, r: int | str) -> str:
        i = RESOURCES.index(r) if isinstance(r, str) else r
        return resource_colour(i)

    # ---------------------------------------------------------------- players and cards

    def seat(self, p: int) -> str:
        """A player's full name: "Player 2" / "Spieler 2"."""
        return self.t(f"Player {p + 1}", f"Spieler {p + 1}")

    def tag(self, p: int) -> str:
        """A player's short coloured tag ("P2" / "S2") in rich markup."""
        return f"[bold {SEAT_COLOURS[p % 4]}]{self.t('P', 'S')}{p + 1}[/]"

    def name(self, card: Person | Contract) -> str:
        return escape(card_name(card, self.lang))

    def person(self, cards: CardSet, pid: str | int) -> str:
        """The (escaped) name of a person card by id or index."""
        return self.name(cards.person(pid))

    def vp(self) -> str:
        return self.t("VP", "SP")

    def contract_label(self, c: Contract) -> str:
        """A short contract label: "Large 4 VP" / "Groß 4 SP"."""
        kind = {
            "small": self.t("Small", "Klein"),
            "large": self.t("Large", "Groß"),
            "wheat": self.t("Wheat", "Getreide"),
            "pepper": self.t("Imm. pepper", "Sof. Pfeffer"),
            "gold": self.t("Imm. gold", "Sof. Gold"),
        }.get(c.kind, c.kind)
        return f"{kind} {c.points} {self.vp()}"
