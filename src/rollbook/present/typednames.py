"""Names typed in any of the table's languages -> the canonical ids: a trait ("Furtivité", "Presencia",
"Sciences" -> ``stealth``, ``presence``, ``science``; a homebrew one made an id and its spelling kept
beside it), a Discipline power by its name in English, French or Spanish, and the folding that makes
them meet (case, accents, blanks, dashes). ``labels`` goes the other way: an id in the reader's words."""

from __future__ import annotations

import unicodedata

from rollbook.i18n import LANGUAGES, translate
from rollbook.interop import names
from rollbook.play import powers
from rollbook.present.labels import TRAITS


def _folded(text: str) -> str:
    """Case, accents, spaces and dashes folded: "Furtivité" and "furtivite" meet."""
    plain = unicodedata.normalize("NFKD", str(text)).encode("ascii", "ignore").decode("ascii")
    return " ".join(plain.lower().replace("-", " ").replace("_", " ").split())


def sort_key(text: str) -> str:
    return _folded(text)


def _singular(folded: str) -> str:
    """A folded name with each word's plural ending dropped ("sciences" -> "science", "ciencias" ->
    "ciencia", "armes a feu" -> "arme a feu"): players say a trait in the singular or the plural."""
    return " ".join(
        word[:-1] if len(word) > 3 and word.endswith(("s", "x")) else word for word in folded.split()
    )


_BY_NAME: dict[str, str] = {}
_BY_SINGULAR: dict[str, str] = {}


def _names() -> dict[str, str]:
    if not _BY_NAME:
        for identifier, msgid in TRAITS.items():
            _BY_NAME.setdefault(_folded(identifier), identifier)
            for lang in LANGUAGES:
                _BY_NAME.setdefault(_folded(translate(msgid, lang)), identifier)
        for folded, identifier in _BY_NAME.items():
            _BY_SINGULAR.setdefault(_singular(folded), identifier)
    return _BY_NAME


def trait_from_text(text: str) -> str:
    """A trait name as typed, in English, French or Spanish, any case, accents or not, singular or plural
    ("Furtivité", "Presencia", "Animal Ken", "animal_ken", "Sciences") -> its canonical id ("stealth", "presence", "animal_ken"); a name the catalogues do
    not know (homebrew) -> an id made from it, accents folded ("Égouts" -> "egouts")."""
    folded = _folded(text)
    # the name as written, else as said in the singular or the plural ("Sciences" is Science)
    known = _names().get(folded) or _BY_SINGULAR.get(_singular(folded))
    if known:
        return known
    return names.slug(text)  # the one way a homebrew name becomes an id, as a sheet import makes it


def typed_name(text: str) -> tuple[str, str | None]:
    """A trait name as typed -> (its id, the name to keep beside it): a name the catalogues know has
    none to keep (it is shown translated); a homebrew one keeps its spelling, blanks collapsed, when
    it is not the id itself ("Égouts" -> ("egouts", "Égouts"); "egouts" -> ("egouts", None))."""
    identifier = trait_from_text(text)
    typed = " ".join(str(text).split())
    if not identifier or identifier in TRAITS or typed == identifier:
        return identifier, None
    return identifier, typed[:100]


def power_from_text(system: str, discipline: str, text: str) -> str | None:
    """A power's name typed in English, French or Spanish (or its id), among the game's powers of
    ``discipline`` -> its id; None when the list has no such power (a homebrew one)."""
    folded = _folded(text)
    for power_id, (_level, name) in powers.known(system).get(discipline, {}).items():
        if folded == _folded(power_id) or any(folded == _folded(translate(name, lang)) for lang in LANGUAGES):
            return power_id
    return None
