"""The application commands, as Discord's bulk overwrite takes them:
``command_definitions() -> list[dict]`` (``rollbook discord register`` uploads exactly this list).

Each name, option name and choice has its French and Spanish form (``name_localizations`` for
``fr`` and ``es-ES``; the default, English, is ``en-US``'s and what Discord sends back in an
interaction, whatever the user's language), each description its catalogue translation
(``description_localizations``). Names follow Discord's rule (``valid_name``: 1-32 characters,
lowercase, letters, digits, ``-`` and ``_`` only); descriptions are 1-100 characters.
"""

from __future__ import annotations

import functools
import re
import unicodedata
from collections.abc import Callable, Collection

from rollbook.i18n import DEFAULT_LANGUAGE, LANGUAGES, N_, language, translate
from rollbook.play import catalogue, quick, systems
from rollbook.play.common import MODES
from rollbook.play.systems import SYSTEM_IDS, system_module
from rollbook.present import labels
from rollbook.present.words import own_words
from rollbook.server.usecases.checks import NAME_MAX

SUB_COMMAND, STRING, INTEGER, BOOLEAN, ATTACHMENT = 1, 3, 4, 5, 11
GUILD = 0  # the interaction context: a server's channel
MANAGE_WEBHOOKS = str(1 << 29)  # Discord's permission bit, as a command's default_member_permissions
# Discord's locales (its API reference, "Locales"): a language's is its code, else its likely region's
DISCORD_LOCALES = frozenset(
    ("id", "da", "de", "en-GB", "en-US", "es-ES", "es-419", "fr", "hr", "it", "lt", "hu", "nl", "no", "pl")
    + ("pt-BR", "ro", "fi", "sv-SE", "vi", "tr", "cs", "el", "bg", "ru", "uk", "hi", "th", "zh-CN", "ja")
    + ("zh-TW", "ko")
)


def discord_locale(lang: str) -> str | None:
    """A language's Discord locale: its code ("fr"), else its form in CLDR's likely region ("es-ES");
    None when Discord has neither (its users read the English names)."""
    return next((tag for tag in (lang, language(lang).regional_tag) if tag in DISCORD_LOCALES), None)


# Discord's locale -> rollbook's language, each language but English (the default names, en-US's)
LOCALES = {
    locale: lang for lang in LANGUAGES if lang != DEFAULT_LANGUAGE and (locale := discord_locale(lang))
}
SYSTEMS = SYSTEM_IDS  # the shipped systems (``play.systems``), a choice of ``/roll``'s and ``/odds``'
# the kind of a plain test (``/roll`` with traits): the action a system's quick roll stands for
TEST_KINDS = {system: system_module(system).QUICK.KIND for system in SYSTEMS}

# Names are identifiers, not sentences: each with its French and Spanish form (a language not here:
# Discord shows its users the English names, the descriptions in their catalogues' words).
NAMED = ("fr", "es")  # the languages of NAMES' forms, in order
NAMES: dict[str, tuple[str, str]] = {
    "link": ("lier", "vincular"),
    "unlink": ("délier", "desvincular"),
    "chronicle": ("chronique", "crónica"),
    "bind": ("associer", "asociar"),
    "unbind": ("dissocier", "desasociar"),
    "roll": ("jet", "tirada"),
    "ask": ("demander", "pedir"),
    "rouse": ("réveil", "despertar"),
    "remorse": ("remords", "remordimiento"),
    "frenzy": ("frénésie", "frenesí"),
    "odds": ("chances", "probabilidades"),
    "sheet": ("fiche", "hoja"),
    "scene": ("scène", "escena"),
    "turn": ("tour", "turno"),
    "verify": ("vérifier", "verificar"),
    "code": ("code", "código"),
    "character": ("personnage", "personaje"),
    "trait": ("trait", "rasgo"),
    "trait2": ("trait2", "rasgo2"),
    "difficulty": ("difficulté", "dificultad"),
    "specialty": ("spécialité", "especialidad"),
    "hidden": ("caché", "oculto"),
    "pool": ("réserve", "reserva"),
    "hunger": ("faim", "hambre"),
    "system": ("système", "sistema"),
    "skill": ("compétence", "habilidad"),
    "bonus": ("bonus", "bonificación"),
    "level": ("niveau", "nivel"),
    "action": ("action", "acción"),
    "name": ("nom", "nombre"),
    "target": ("cible", "objetivo"),
    "weapon": ("arme", "arma"),
    "bullets": ("balles", "balas"),
    "open": ("ouvrir", "abrir"),
    "willpower": ("volonté", "fuerza_de_voluntad"),
    "blood_surge": ("sursaut_de_sang", "oleada_de_sangre"),
    "queue": ("file", "cola"),
    "import": ("importer", "importar"),
    "new": ("nouveau", "nuevo"),
    "file": ("fichier", "archivo"),
    "contest": ("opposition", "enfrentamiento"),
    "extended": ("prolongée", "prolongada"),
    "attacker": ("attaquant", "atacante"),
    "defender": ("défenseur", "defensor"),
    "defender_trait": ("défenseur_trait", "defensor_rasgo"),
    "defender_trait2": ("défenseur_trait2", "defensor_rasgo2"),
    "defender_difficulty": ("défenseur_difficulté", "defensor_dificultad"),
    "successes": ("réussites", "éxitos"),
    "rolls": ("jets", "tiradas"),
    "close": ("clore", "cerrar"),
    "power": ("pouvoir", "poder"),
    "virtue": ("vertu", "virtud"),
    "spell": ("sort", "hechizo"),
    "attribute": ("attribut", "atributo"),
    "discipline_level": ("niveau_discipline", "nivel_disciplina"),
    "mend": ("soigner", "curar"),
    "spend": ("dépenser", "gastar"),
    "resource": ("ressource", "recurso"),
    "amount": ("quantité", "cantidad"),
    "heal": ("guérir", "sanar"),
    "feed": ("nourrir", "alimentar"),
    "kill": ("tuer", "matar"),
    "compulsion": ("compulsion", "compulsión"),
    "call": ("appeler", "invocar"),
    "end": ("finir", "terminar"),
    "until": ("jusqu_à", "hasta"),
    "language": ("langue", "idioma"),
    "mode": ("mode", "modo"),
    "opposed": ("opposé", "enfrentado"),
    "dice": ("dés", "dados"),
    "threshold": ("seuil", "umbral"),
    "task": ("tâche", "tarea"),
}

DESCRIPTIONS = {
    "link": N_("Act as your member of a chronicle here: an invitation code or your member key"),
    "unlink": N_("Stop acting as your member in this channel"),
    "chronicle": N_("The chronicle of this channel"),
    "bind": N_("Storyteller: make this channel your chronicle's table"),
    "unbind": N_("Storyteller: this channel is no longer your chronicle's table"),
    "roll": N_("Roll traits of your character's sheet, or a pool of dice"),
    "ask": N_("Ask the Storyteller for a roll with an edge (another difficulty, more dice…)"),
    "rouse": N_("A Rouse check for your character"),
    "remorse": N_("A Remorse roll for your character"),
    "frenzy": N_("A roll to resist frenzy"),
    "odds": N_("The exact odds of a roll, and the best Willpower reroll"),
    "sheet": N_("Your character's sheet, shown to you alone"),
    "scene": N_("Storyteller: open or close a scene"),
    "turn": N_("Storyteller: start the next turn of the scene"),
    "verify": N_("The chronicle's fair dice and the log to verify"),
    "code": N_("An invitation code or a member key"),
    "character": N_("Which character (yours by default)"),
    "trait": N_("A trait of the sheet"),
    "trait2": N_("A second trait of the sheet"),
    "difficulty": N_("The difficulty (the Storyteller's unless asked)"),
    "specialty": N_("A specialty of the trait"),
    "hidden": N_("A hidden roll (the Storyteller's)"),
    "pool": N_("Dice in the pool (a roll without a sheet)"),
    "hunger": N_("Hunger dice among them (V5)"),
    "system": N_("The game, for dice without a chronicle"),
    "skill": N_("The skill's rating (Tiers, without a sheet)"),
    "bonus": N_("A bonus"),
    "level": N_("The level to roll under (roll-under)"),
    "action": N_("What the character does"),
    "name": N_("The scene's name"),
    "target": N_("The character an attack is aimed at"),
    "weapon": N_("A weapon of the sheet"),
    "bullets": N_("Bullets fired (Tiers)"),
    "open": N_("Open a scene"),
    "close": N_("Close the scene"),
    "import": N_("A sheet of another tool (Progeny, Foundry, Inconnu), attached as its JSON file"),
    "new": N_("A new character, its traits typed in a form"),
    "file": N_("The sheet's JSON file"),
    "willpower": N_("V20: spend a Willpower point for one automatic success"),
    "blood_surge": N_("V5: a Blood Surge, more dice by Blood Potency for a Rouse check"),
    "queue": N_("Storyteller: the asks waiting for you, hidden ones included, to grant or refuse"),
    "contest": N_("Storyteller: a contest, each side's roll offered to that side"),
    "extended": N_("Storyteller: an extended action, its rolls offered until it is over"),
    "attacker": N_("The side that acts"),
    "defender": N_("The side that resists"),
    "defender_trait": N_("A trait of the resisting side's sheet"),
    "defender_trait2": N_("A second trait of the resisting side's sheet"),
    "defender_difficulty": N_("The resisting side's difficulty (V20)"),
    "successes": N_("The successes to gather"),
    "rolls": N_("The most rolls (none: no limit)"),
    "power": N_("V5: a Discipline power of your character's sheet, its Rouse checks paid"),
    "virtue": N_("V20: a Virtue roll for your character"),
    "spell": N_("Tiers: cast a spell, one Essence"),
    "attribute": N_("The Attribute the power rolls with, where the book offers a choice"),
    "discipline_level": N_("The Discipline's level the Rouse check is for (Blood Potency may reroll it)"),
    "mend": N_("The Rouse check mends superficial Health damage"),
    "spend": N_("Spend blood or Willpower from your character's sheet"),
    "resource": N_("What is spent"),
    "amount": N_("How much"),
    "heal": N_("V20: the blood spent heals this damage, a level a point"),
    "feed": N_("Storyteller: a character feeds (V5: Hunger slaked; V20: blood regained)"),
    "kill": N_("V5: the vessel is drained to death (only a kill slakes the last Hunger)"),
    "compulsion": N_("Storyteller: call a compulsion for a V5 character, or end it"),
    "call": N_("Call a compulsion (the clan's unless named)"),
    "end": N_("End the compulsion in force"),
    "until": N_("Until the scene ends, or until you end it"),
    "language": N_("The chronicle's language"),
    "mode": N_("Strict (the rules as written) or casual"),
    "opposed": N_("Storyteller: an opposed roll of any dice against a threshold (Roll-under)"),
    "dice": N_("The dice, as 3d6 or 2d8+1d4+2"),
    "threshold": N_("A total at or under it succeeds"),
    "task": N_("Normal, absurd or trivial"),
}
CHRONICLE_NAME = N_("The chronicle's name")
COMPULSION_OPTION = N_("Which compulsion (the clan's by default)")
# a compulsion's ``until`` (``play.systems.CompulsionRules.UNTIL``), in words
UNTIL_WORDS = {"scene": N_("Until the scene ends"), "ended": N_("Until the Storyteller ends it")}
# an option named as a command is says what it holds
OPTION_TEXTS = {
    "power": N_("A power of the sheet (its Discipline and level)"),
    "virtue": N_("Which Virtue"),
    "spell": N_("The spell's name"),
}
# a command named as an option is (``willpower``) says what the command does
COMMAND_DESCRIPTIONS = {
    "willpower": N_("A Willpower roll for your character"),
    "new": N_("A new chronicle: you are its Storyteller and this channel its table"),
}
CHARACTER_COMMAND = N_("Your character: a new one, or one imported from another tool")


def valid_name(name: str) -> bool:
    """Discord's rule for a command or option name: ``^[-_\\p{L}\\p{N}]{1,32}$``, lowercase."""
    return (
        1 <= len(name) <= 32
        and name == name.lower()
        and all(ch in "-_" or unicodedata.category(ch)[0] in "LN" for ch in name)
    )


def name_in(key: str, lang: str) -> str:
    """A command's or an option's name as a reader of ``lang`` types it (the English id otherwise)."""
    return NAMES[key][NAMED.index(lang)] if key in NAMES and lang in NAMED else key


def _localized_names(key: str) -> dict[str, str]:
    """A name's forms by Discord locale, in each language that has one (a field's option derived from a
    registered system's model has its words' instead: ``_said``)."""
    if key not in NAMES:
        return {}
    return {locale: NAMES[key][NAMED.index(lang)] for locale, lang in LOCALES.items() if lang in NAMED}


def _named(key: str, text: str | None = None) -> dict:
    text = text or DESCRIPTIONS[key]
    return {
        "name": key,
        "name_localizations": _localized_names(key),
        "description": text,
        "description_localizations": {locale: translate(text, lang) for locale, lang in LOCALES.items()},
    }


def _option(
    key: str,
    kind: int,
    *,
    required: bool = False,
    autocomplete: bool = False,
    low: int | None = None,
    high: int | None = None,
    choices: list[dict] | None = None,
    longest: int | None = None,
    text: str | None = None,
    said: Callable[[str], str] | None = None,
) -> dict:
    given = {
        "autocomplete": autocomplete or None,
        "min_value": low,
        "max_value": high,
        "choices": choices or None,
        "max_length": longest,
    }
    return {
        **(_named(key, text) if said is None else _said(key, said)),
        "type": kind,
        "required": required,
        **{name: value for name, value in given.items() if value is not None},
    }


def _systems(among: Collection[str] | None = None) -> list[dict]:
    """The registered systems as choices (``play.systems.system_ids``: the shipped ones, then those
    registered from outside), each by its short name; ``among``: those in it only."""
    return [{"name": _short_name(s), "value": s} for s in systems.system_ids() if among is None or s in among]


def _short_name(system: str) -> str:
    """The game's name where room is short, as its words say it (``present.words``: ``SHORT_NAME``)."""
    own = own_words(system)
    return own.SHORT_NAME if own is not None else system


def _choices(values, words) -> list[dict]:
    """Choices named in each language by ``words(value, lang)`` (the game's own words)."""
    return [
        {
            "name": words(value, "en")[:100],
            "value": value,
            "name_localizations": {locale: words(value, lang)[:100] for locale, lang in LOCALES.items()},
        }
        for value in values
    ]


# The options that name a field of a roll's request, for a command of its own kind (``kind_commands``);
# ``discipline`` and ``power`` are the one ``power`` option (a power of the sheet: "auspex/premonition").
FIELD_OPTIONS = {
    "power": lambda: _option("power", STRING, required=True, autocomplete=True, text=OPTION_TEXTS["power"]),
    "attribute": lambda: _option("attribute", STRING, autocomplete=True),
    "virtue": lambda: _option(
        "virtue",
        STRING,
        required=True,
        choices=_choices(_field_values("virtue"), lambda v, lang: labels.trait(v, lang)),
        text=OPTION_TEXTS["virtue"],
    ),
    "spell": lambda: _option("spell", STRING, longest=100, text=OPTION_TEXTS["spell"]),
    "discipline_level": lambda: _option("discipline_level", INTEGER, low=1, high=10),
    "mend": lambda: _option("mend", BOOLEAN),
    # the Storyteller's opposed roll; the dice are the notation the API takes, parsed by the rules
    "action": lambda: _option("action", STRING, required=True, longest=1000),
    "dice": lambda: _option("dice", STRING, required=True, longest=200),
    "threshold": lambda: _option("threshold", INTEGER, required=True, low=0, high=100_000),
    "task": lambda: _option(
        "task",
        STRING,
        choices=_choices(("normal", "absurd", "trivial"), lambda t, lang: labels.choice(t, lang)),
    ),
}
JOINED = {"discipline": "power"}  # a field asked through another's option


def _field_values(name: str) -> tuple[str, ...]:
    """The values named of a field of the catalogue's rolls (its model's ``enum``, in order: V20's
    Virtues for ``virtue``), the first roll's that names them; none when no roll does."""
    for action in catalogue.ACTIONS:
        if action.model is not None and name in action.model.model_fields:
            spec = action.model.model_json_schema()["properties"][name]
            if "enum" in spec:
                return tuple(str(value) for value in spec["enum"])
    return ()


def _compulsion_until() -> tuple[str, ...]:
    """How long a compulsion may last, as the registered systems' compulsions say (V5's, seed 001)."""
    found: list[str] = []
    for system in systems.system_ids():
        rules = systems.compulsion_rules(system)
        found += [until for until in (rules.UNTIL if rules is not None else ()) if until not in found]
    return tuple(found)


def kind_commands() -> dict[str, tuple[str, ...]]:
    """The roll kinds of the catalogue (``play.catalogue``) a player makes with a command of the kind's
    name (``/power``, ``/willpower``, ``/virtue``, ``/rouse``…): every kind of the shipped systems made
    on its own (not a plain test, which ``/roll`` names by traits; not a step of the combat chain, which
    a button offers), each with the options of its player's fields, in order. A Storyteller-only kind
    (``/opposed``, R-7) has its edges' options too: the whole request is the Storyteller's, and A-1
    (``rolls.roll``) refuses a player who sends it."""
    found: dict[str, list[str]] = {}
    for action in catalogue.ACTIONS:
        if action.way != "roll" or action.follows:
            continue
        if action.kind == TEST_KINDS.get(action.system):
            continue
        fields = found.setdefault(action.kind, [])
        model_fields = list(action.model.model_fields) if action.model is not None else []
        asked = action.player | set(action.edges) if action.storyteller_only else action.player
        for name in model_fields:
            option_name = JOINED.get(name, name)
            if name in asked and option_name in FIELD_OPTIONS and option_name not in fields:
                fields.append(option_name)
        if "difficulty" in action.edges and "difficulty" not in fields:
            fields.append("difficulty")
    return {kind: tuple(fields) for kind, fields in found.items()}


def _kind_command(kind: str, fields: tuple[str, ...]) -> dict:
    options = [_character()] + [
        _difficulty() if name == "difficulty" else FIELD_OPTIONS[name]() for name in fields
    ]
    options.sort(key=lambda option: not option.get("required"))  # Discord: required options first
    command = _command(kind, [*options, _option("hidden", BOOLEAN)])
    if kind in COMMAND_DESCRIPTIONS:
        command.update(_named(kind, COMMAND_DESCRIPTIONS[kind]))
    return command


def spend_kinds() -> tuple[str, ...]:
    """What a player spends from the sheet without a roll (``/spend``): each ``spend_<resource>`` change
    of the shipped systems but experience (the sheet page's)."""
    found: list[str] = []
    for system in SYSTEMS:
        changes = system_module(system).CHANGES
        for kind in changes:
            resource = kind.removeprefix("spend_")
            if kind.startswith("spend_") and resource != "experience" and resource not in found:
                found.append(resource)
    return tuple(found)


def _scene_actions() -> list[dict]:
    return [
        {"name": key, "value": key, "name_localizations": _localized_names(key)} for key in ("open", "close")
    ]


def _character() -> dict:
    return _option("character", STRING, autocomplete=True)


def _target() -> dict:
    return _option("target", STRING, autocomplete=True)


def _weapon() -> dict:
    return _option("weapon", STRING, autocomplete=True)


def _traits() -> list[dict]:
    return [_option("trait", STRING, autocomplete=True), _option("trait2", STRING, autocomplete=True)]


def _difficulty() -> dict:
    return _option("difficulty", INTEGER, low=1, high=10)


def _raw_pool() -> list[dict]:
    return [
        _option("pool", INTEGER, low=0, high=30),
        _option("hunger", INTEGER, low=0, high=5),
        _option("system", STRING, choices=_systems(quick.QUICK_FIELDS)),  # dice without a chronicle
        _option("skill", INTEGER, low=0, high=200),
        _option("bonus", INTEGER, low=-100, high=100),
        _option("level", INTEGER, low=1, high=30),
    ]


KIND_OF_ROLL = N_("Kind of roll")  # the derived ``kind`` option's words: the web form's tabs'


def derived_kinds(system: str, *, sheetless: bool = True) -> tuple[str, ...]:
    """The kinds of roll of a system registered from outside that ``/roll`` and ``/odds`` name (their
    derived option ``kind``), when it declares more than one: each roll of its catalogue
    (``play.catalogue``) that follows none (``CHAINS``: a step after another roll is not made on its
    own), those that take a trait of the sheet (``TRAIT_FIELDS``) and those that take none (a plain pool,
    its fields its options), in its ``ACTIONS``' order; ``sheetless=False``: those that take a trait
    only (``/ask``'s: an ask names its traits). None for a shipped system (a kind of its own has its
    command, ``kind_commands``) nor for a system of one kind (its plain test, ``/roll`` with traits)."""
    if systems.declared(system) is None:
        return ()
    filled = {field for _section, field in system_module(system).TRAIT_FIELDS}
    kinds = tuple(
        action.kind
        for action in catalogue.of(system, "roll")
        if not action.follows
        and action.model is not None
        and (sheetless or filled & set(action.model.model_fields))
    )
    return kinds if len(kinds) > 1 else ()


def kind_fields(system: str, kind: str) -> tuple[str, ...]:
    """The fields of one kind of roll of a system registered from outside that a command's options fill,
    in its model's order: its player's fields and its edges (A-1: ``ACTION_PLAYER_FIELDS``,
    ``EDGE_FIELDS``), but those a trait of the sheet fills (``TRAIT_FIELDS``), ``kind`` and the one
    declared in words (``DECLARED_FIELD``). None for a shipped system (its options are the package's)."""
    if systems.declared(system) is None:
        return ()
    module = system_module(system)
    filled = {field for _section, field in module.TRAIT_FIELDS} | {"kind", module.DECLARED_FIELD}
    model = module.ACTIONS.get(kind)
    taken = module.ACTION_PLAYER_FIELDS.get(kind, frozenset()) | module.EDGE_FIELDS.get(kind, frozenset())
    fields = list(model.model_fields) if model is not None else []
    return tuple(field for field in fields if field in taken and field not in filled)


def derived_fields(system: str, *, sheetless: bool = True) -> tuple[str, ...]:
    """The fields of the kinds of roll of a system registered from outside (``play.systems.register``;
    its plain test's, its quick roll's kind, when it names no other: ``derived_kinds``) that ``/roll``,
    ``/ask`` and ``/odds`` take as options of their own, each once (``kind_fields``), but those an option
    of the package names already (a plain pool's ``pool`` is ``/roll``'s and ``/odds``' own option). A
    player's edge among them is asked (``/ask``), as on every face (A-1, ``rolls.roll``); ``/odds``
    answers the odds of the request the roll would make with it (an ask's as asked). A shipped system's
    test options are the package's own: none."""
    if systems.declared(system) is None:
        return ()
    own = roll_option_names()
    found: list[str] = []
    for kind in derived_kinds(system, sheetless=sheetless) or (system_module(system).QUICK.KIND,):
        found += [f for f in kind_fields(system, kind) if f not in own and f not in found]
    return tuple(found)


def _said(key: str, said: Callable[[str], str]) -> dict:
    """A derived option's name and description in each language: ``said(lang)``, the words the web
    form labels its field with; its name's forms made of them (``name_of``), its id where it has one of
    its own (``NAMES``)."""
    forms = _localized_names(key) or {
        locale: form for locale, lang in LOCALES.items() if (form := name_of(said(lang))) is not None
    }
    return {
        "name": key,
        "name_localizations": forms,
        "description": said(DEFAULT_LANGUAGE)[:100],
        "description_localizations": {locale: said(lang)[:100] for locale, lang in LOCALES.items()},
    }


def name_of(words: str) -> str | None:
    """Words as a name Discord takes (``valid_name``): lowercase, each run of spaces, apostrophes and
    hyphens one ``_``, anything else but letters and digits left out; None when nothing valid is left."""
    joined = re.sub(r"[\s'’\-]+", "_", unicodedata.normalize("NFC", words).lower())
    kept = "".join(ch for ch in joined if ch == "_" or unicodedata.category(ch)[0] in "LN")
    name = kept.strip("_")[:32].rstrip("_")
    return name if valid_name(name) else None


def _field_option(system: str, name: str) -> dict:
    """A test's field as an option, typed as its model's JSON schema says (the web's form reads the
    same): a boolean a BOOLEAN, an integer an INTEGER within its bounds, values named (``enum``) a
    STRING of them, anything else a STRING; named and described in each language by the words the web
    form labels the field with (``labels.field``: the package's word for it, else its model's title, a
    msgid of the catalogues where the system brings one), each value by the form's (``labels.choice``)."""
    module = system_module(system)
    kinds = derived_kinds(system) or (module.QUICK.KIND,)
    model = next(module.ACTIONS[k] for k in kinds if name in module.ACTIONS[k].model_fields)
    spec = model.model_json_schema()["properties"][name]
    title = spec.get("title")

    def said(lang: str) -> str:
        return labels.field(name, lang, title)

    kind = spec.get("type")
    if kind == "boolean":
        return _option(name, BOOLEAN, said=said)
    if kind == "integer":
        return _option(name, INTEGER, low=spec.get("minimum"), high=spec.get("maximum"), said=said)
    if "enum" in spec:
        named = _choices(spec["enum"], lambda value, lang: labels.choice(str(value), lang, name))
        return _option(name, STRING, choices=named, said=said)
    return _option(name, STRING, said=said)


def _derived_options(own: list[dict], *, sheetless: bool = True) -> list[dict]:
    """The options of the registered systems' roll fields (``derived_fields``) and their kinds
    (``derived_kinds``; ``sheetless``: with the rolls that take no trait, ``/roll``'s and ``/odds``'),
    each once, after a command's ``own``; a form of a derived name that another option of the command
    has in the same locale is left out (Discord: one name an option in each locale), its id shown there
    instead."""
    found: dict[str, dict] = {}
    kinds: dict[str, str] = {}  # each kind a registered system's command names, its system
    for system in systems.system_ids():
        for name in derived_fields(system, sheetless=sheetless):
            found.setdefault(name, _field_option(system, name))
        for kind in derived_kinds(system, sheetless=sheetless):
            kinds.setdefault(kind, system)
    if kinds:
        found["kind"] = _option(
            "kind",
            STRING,
            choices=_choices(kinds, lambda kind, lang: labels.kind(kinds[kind], kind, lang)),
            said=lambda lang: translate(KIND_OF_ROLL, lang),
        )
    taken = {locale: {_name_in(option, locale) for option in own} for locale in LOCALES}
    for option in found.values():
        forms = option["name_localizations"]
        for locale in LOCALES:
            if forms.get(locale) in taken[locale]:
                del forms[locale]
            taken[locale].add(_name_in(option, locale))
    return list(found.values())


def _name_in(option: dict, locale: str) -> str:
    return option["name_localizations"].get(locale, option["name"])


def _with_derived(own: list[dict], *, sheetless: bool = True) -> list[dict]:
    return [*own, *_derived_options(own, sheetless=sheetless)]


def _roll_options(*, ask: bool = False) -> list[dict]:
    """``/roll``'s own options, the package's: traits of the sheet, the shipped systems' fields, a raw
    pool; ``ask``: ``/ask``'s, the same less a shot's bullets, the raw pool and the declared action
    (an ask names its traits: a roll of the sheet)."""

    def rolled_only() -> list[dict]:
        return [_option("bullets", INTEGER, low=1, high=100), *_raw_pool(), _option("action", STRING)]

    return [
        _character(),
        *_traits(),
        _difficulty(),
        _option("specialty", STRING, autocomplete=True),
        _option("hidden", BOOLEAN),
        _target(),
        _weapon(),
        *([] if ask else rolled_only()),
        _option("willpower", BOOLEAN),
        _option("blood_surge", BOOLEAN),
    ]


@functools.cache
def roll_option_names() -> frozenset[str]:
    """The names of ``/roll``'s own options (``/ask``'s and ``/odds``' are among them): a derived field
    never takes one. Built when first asked, not at import."""
    return frozenset(option["name"] for option in _roll_options())


def _command(key: str, options: list[dict] | None = None) -> dict:
    return {**_named(key), "type": 1, "contexts": [GUILD], "options": options or []}


def command_definitions() -> list[dict]:
    """Every command, in the shape ``PUT /applications/{id}/commands`` takes."""
    return [
        _command("link", [_option("code", STRING, required=True)]),
        _command("unlink"),
        {
            **_command(
                "chronicle",
                [
                    {**_named("bind"), "type": SUB_COMMAND, "options": []},
                    {**_named("unbind"), "type": SUB_COMMAND, "options": []},
                    {
                        **_named("new", COMMAND_DESCRIPTIONS["new"]),
                        "type": SUB_COMMAND,
                        "options": [
                            _option("name", STRING, required=True, longest=NAME_MAX, text=CHRONICLE_NAME),
                            _option("system", STRING, required=True, choices=_systems()),
                            _option(
                                "language",
                                STRING,
                                choices=[{"name": language(lang).name, "value": lang} for lang in LANGUAGES],
                            ),
                            _option(
                                "mode",
                                STRING,
                                choices=_choices(MODES, lambda m, lang: labels.choice(m, lang)),
                            ),
                        ],
                    },
                ],
            ),
            # a server's administrators (and whom they allow) see it by default: binding makes a
            # webhook in the channel, as managing webhooks does
            "default_member_permissions": MANAGE_WEBHOOKS,
        },
        _command("roll", _with_derived(_roll_options())),
        _command("ask", _with_derived(_roll_options(ask=True), sheetless=False)),
        *[_kind_command(kind, fields) for kind, fields in kind_commands().items()],
        _command(
            "spend",
            [
                _option(
                    "resource",
                    STRING,
                    required=True,
                    choices=_choices(spend_kinds(), lambda r, lang: labels.resource(r, lang)),
                ),
                _option("amount", INTEGER, low=1, high=50),
                _character(),
                _option(
                    "heal",
                    STRING,
                    choices=_choices(("bashing", "lethal"), lambda d, lang: labels.choice(d, lang)),
                ),
            ],
        ),
        _command(
            "feed",
            [
                _option("character", STRING, required=True, autocomplete=True),
                _option("amount", INTEGER, low=1, high=50),
                _option("kill", BOOLEAN),
            ],
        ),
        _command(
            "compulsion",
            [
                {
                    **_named("call"),
                    "type": SUB_COMMAND,
                    "options": [
                        _option("character", STRING, required=True, autocomplete=True),
                        _option("compulsion", STRING, autocomplete=True, text=COMPULSION_OPTION),
                        _option(
                            "until",
                            STRING,
                            choices=_choices(
                                _compulsion_until(), lambda u, lang: translate(UNTIL_WORDS[u], lang)
                            ),
                        ),
                    ],
                },
                {
                    **_named("end"),
                    "type": SUB_COMMAND,
                    "options": [_option("character", STRING, required=True, autocomplete=True)],
                },
            ],
        ),
        _command(
            "odds",
            _with_derived(
                [
                    _character(),
                    *_traits(),
                    _difficulty(),
                    *_raw_pool(),
                    _option("willpower", BOOLEAN),
                    _option("blood_surge", BOOLEAN),
                    _weapon(),
                    _option("bullets", INTEGER, low=1, high=100),
                ]
            ),
        ),
        _command("sheet", [_character()]),
        _command(
            "scene",
            [_option("action", STRING, choices=_scene_actions()), _option("name", STRING, longest=NAME_MAX)],
        ),
        _command("turn"),
        _command("verify"),
        _command("queue"),
        {
            **_command(
                "character",
                [
                    {
                        **_named("import"),
                        "type": SUB_COMMAND,
                        "options": [_option("file", ATTACHMENT, required=True)],
                    },
                    {**_named("new"), "type": SUB_COMMAND, "options": []},
                ],
            ),
            "description": CHARACTER_COMMAND,
            "description_localizations": {
                locale: translate(CHARACTER_COMMAND, lang) for locale, lang in LOCALES.items()
            },
        },
        _command(
            "contest",
            [
                _option("attacker", STRING, required=True, autocomplete=True),
                _option("trait", STRING, required=True, autocomplete=True),
                _option("defender", STRING, required=True, autocomplete=True),
                _option("defender_trait", STRING, required=True, autocomplete=True),
                _option("trait2", STRING, autocomplete=True),
                _difficulty(),
                _option("defender_trait2", STRING, autocomplete=True),
                _option("defender_difficulty", INTEGER, low=1, high=10),
            ],
        ),
        _command(
            "extended",
            [
                _option("character", STRING, required=True, autocomplete=True),
                _option("trait", STRING, required=True, autocomplete=True),
                _option("successes", INTEGER, required=True, low=1, high=100),
                _option("trait2", STRING, autocomplete=True),
                _difficulty(),
                _option("rolls", INTEGER, low=1, high=100),
            ],
        ),
    ]
