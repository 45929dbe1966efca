"""Trait names between the formats and rollbook's ids: accents folded, an unknown name made an id
as the web's forms make one (``present.typednames.trait_from_text``: "Égouts" -> ``egouts``), the name kept
as typed beside it (the sheet's ``names``), known Discipline powers found by their English name."""

from __future__ import annotations

import re
import unicodedata
from html import unescape
from html.parser import HTMLParser

from rollbook.play.powers import known

MAX_ID = 40
MAX_NAME = 100


def folded(text: str) -> str:
    """Lower case, accents dropped, blanks collapsed."""
    plain = unicodedata.normalize("NFKD", str(text)).encode("ascii", "ignore").decode("ascii")
    return " ".join(plain.lower().split())


def squashed(text: str) -> str:
    """Letters and digits only ("Animal Ken", "animal_ken", "AnimalKen" -> "animalken")."""
    return re.sub(r"[^a-z0-9]+", "", folded(text))


def slug(text: str) -> str:
    """A name as typed -> a trait id (``^[a-z][a-z0-9_]*$``, at most 40 characters); "" when nothing is left."""
    made = re.sub(r"[^a-z0-9]+", "_", folded(text)).strip("_")
    if made and not made[0].isalpha():
        made = "t_" + made
    return made[:MAX_ID].rstrip("_")


def typed(text: str) -> str:
    """The name to keep as typed: blanks collapsed, at most 100 characters."""
    return " ".join(str(text).split())[:MAX_NAME]


def by_squash(ids: tuple[str, ...] | list[str], extra: dict[str, str] | None = None) -> dict[str, str]:
    """squashed name -> id for a list of ids (and ``extra`` source spellings)."""
    table = {squashed(identifier): identifier for identifier in ids}
    for spelled, identifier in (extra or {}).items():
        table[squashed(spelled)] = identifier
    return table


def known_power(system: str, discipline: str, name: str, level: int | None = None) -> tuple[str, int] | None:
    """A power of the game's list by its English name (any spelling of case, accents, blanks and
    punctuation): (its id, its level); at ``level`` when given."""
    wanted = squashed(name)
    for power_id, (power_level, english) in known(system).get(discipline, {}).items():
        if wanted in (squashed(english), squashed(power_id)) and level in (None, power_level):
            return power_id, power_level
    return None


def power_name(system: str, discipline: str, power_id: str) -> str:
    """A known power's English name (as the source formats write it)."""
    return known(system).get(discipline, {}).get(power_id, (0, power_id))[1]


class _Text(HTMLParser):
    """The text of an HTML fragment: paragraphs, line breaks and list items as lines."""

    BLOCKS = frozenset(
        {"p", "div", "br", "li", "ul", "ol", "h1", "h2", "h3", "h4", "h5", "h6", "tr", "blockquote"}
    )

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.parts: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in self.BLOCKS:
            self.parts.append("\n")
        if tag == "li":
            self.parts.append("- ")

    def handle_endtag(self, tag: str) -> None:
        if tag in self.BLOCKS:
            self.parts.append("\n")

    def handle_data(self, data: str) -> None:
        self.parts.append(data)


def html_text(value: str) -> str:
    """Foundry's HTML fields (``HTMLField``: notes, biography) as plain text: tags gone, entities
    decoded, one line per paragraph or list item. Text without a tag is returned as it is."""
    if "<" not in value:
        return value
    parser = _Text()
    parser.feed(value)
    parser.close()
    lines = [" ".join(line.split()) for line in "".join(parser.parts).split("\n")]
    return unescape("\n".join(line for line in lines if line))
