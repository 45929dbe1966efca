"""The application commands, as Discord's bulk overwrite takes them:
``command_definitions() -> list[dict]`` (``rollbook discord register`` uploads exactly this list).

Each name, option name and choice has its French and Spanish form (``name_localizations`` for
``fr`` and ``es-ES``; the default, English, is ``en-US``'s and what Discord sends back in an
interaction, whatever the user's language), each description its catalogue translation
(``description_localizations``). Names follow Discord's rule (``valid_name``: 1-32 characters,
lowercase, letters, digits, ``-`` and ``_`` only); descriptions are 1-100 characters.
"""

from __future__ import annotations

import unicodedata

from rollbook.i18n import DEFAULT_LANGUAGE, LANGUAGES, N_, language, translate
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
SYSTEMS = ("v5", "v20", "tiers", "rollunder")

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
}
CHARACTER_COMMAND = N_("Your character: a new one, or one imported from another tool")
SYSTEM_NAMES = {"v5": "V5", "v20": "V20", "tiers": "Tiers", "rollunder": "Roll-under"}


def valid_name(name: str) -> bool:
    """Discord's rule for a command or option name: ``^[-_\\p{L}\\p{N}]{1,32}$``, lowercase."""
    return (
        1 <= len(name) <= 32
        and name == name.lower()
        and all(ch in "-_" or unicodedata.category(ch)[0] in "LN" for ch in name)
    )


def _localized_names(key: str) -> dict[str, str]:
    """A name's forms by Discord locale, in each language that has one."""
    return {locale: NAMES[key][NAMED.index(lang)] for locale, lang in LOCALES.items() if lang in NAMED}


def _named(key: str) -> dict:
    text = DESCRIPTIONS[key]
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
) -> dict:
    given = {
        "autocomplete": autocomplete or None,
        "min_value": low,
        "max_value": high,
        "choices": choices or None,
        "max_length": longest,
    }
    return {
        **_named(key),
        "type": kind,
        "required": required,
        **{name: value for name, value in given.items() if value is not None},
    }


def _systems() -> list[dict]:
    return [{"name": SYSTEM_NAMES[s], "value": s} for s in SYSTEMS]


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
        _option("system", STRING, choices=_systems()),
        _option("skill", INTEGER, low=0, high=200),
        _option("bonus", INTEGER, low=-100, high=100),
        _option("level", INTEGER, low=1, high=30),
    ]


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
                ],
            ),
            # a server's administrators (and whom they allow) see it by default: binding makes a
            # webhook in the channel, as managing webhooks does
            "default_member_permissions": MANAGE_WEBHOOKS,
        },
        _command(
            "roll",
            [
                _character(),
                *_traits(),
                _difficulty(),
                _option("specialty", STRING, autocomplete=True),
                _option("hidden", BOOLEAN),
                _target(),
                _weapon(),
                _option("bullets", INTEGER, low=1, high=100),
                *_raw_pool(),
                _option("action", STRING),
                _option("willpower", BOOLEAN),
                _option("blood_surge", BOOLEAN),
            ],
        ),
        _command(
            "ask",
            [
                _character(),
                *_traits(),
                _difficulty(),
                _option("specialty", STRING, autocomplete=True),
                _option("hidden", BOOLEAN),
                _target(),
                _weapon(),
                _option("willpower", BOOLEAN),
                _option("blood_surge", BOOLEAN),
            ],
        ),
        _command("rouse", [_character()]),
        _command("remorse", [_character()]),
        _command("frenzy", [_character(), _difficulty()]),
        _command(
            "odds",
            [
                _character(),
                *_traits(),
                _difficulty(),
                *_raw_pool(),
                _option("willpower", BOOLEAN),
                _option("blood_surge", BOOLEAN),
            ],
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
