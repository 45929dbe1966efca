"""Jinja2 for the web table: one environment per language, gettext installed from the catalogues.

Every page text goes through ``_()`` / ``gettext`` in the templates (``jinja2.ext.i18n``, new-style
so ``_("{n} dice", n=3)`` formats and escapes). The translations are
``rollbook.i18n.translations(lang)``: all domains of a language chained, the ``web`` domain
included. A separate environment per language keeps requests in different languages apart.
"""

from __future__ import annotations

from functools import cache
from pathlib import Path
from typing import Any

from jinja2 import Environment, FileSystemLoader, pass_context, select_autoescape
from jinja2.runtime import Context
from markupsafe import Markup

from rollbook.i18n import (
    LANGUAGES,
    GameMasterTranslations,
    colon,
    elided,
    game_master_words,
    language,
    normalize,
    translate,
    translations,
)

TEMPLATES = Path(__file__).parent / "templates"
STATIC = Path(__file__).parent / "static"


def _static_version() -> str:
    """A cache-busting token for the static files: their newest modification time."""
    newest = max((p.stat().st_mtime_ns for p in STATIC.rglob("*") if p.is_file()), default=0)
    return format(newest // 1_000_000, "x")


@cache
def environment(lang: str, game_master: bool = False) -> Environment:
    """``game_master``: the pages of a Tiers or roll-under chronicle, whose texts say the seeds' "MJ" / "DJ"
    where the catalogues say the Storyteller (``rollbook.i18n.game_master_words``)."""
    lang = normalize(lang)
    env = Environment(
        loader=FileSystemLoader(str(TEMPLATES)),
        autoescape=select_autoescape(("html", "xml"), default_for_string=True),
        extensions=["jinja2.ext.i18n"],
        trim_blocks=True,
        lstrip_blocks=True,
    )
    # newstyle: _("... %(x)s", x=...) and _("...") autoescape-safe; we use str.format-style
    # placeholders elsewhere, so the templates call ``tr`` for "{name}" templates.
    catalogues = GameMasterTranslations(lang) if game_master else translations(lang)
    # (attr-defined: the jinja2.ext.i18n extension adds this method to the Environment at run time)
    env.install_gettext_translations(catalogues, newstyle=True)  # type: ignore[attr-defined]
    if lang == "fr":  # the French elision once the placeholders' values are known ("d’Inès")
        env.globals.update(gettext=_elided_gettext(catalogues), ngettext=_elided_ngettext(catalogues))
    env.globals.update(
        lang=lang,
        languages=LANGUAGES,
        language_names={code: language(code).name for code in LANGUAGES},
        tr=(lambda text, **params: game_master_words(translate(text, lang, **params), lang))
        if game_master
        else (lambda text, **params: translate(text, lang, **params)),
        static_version=_static_version(),
        colon=colon(lang),
        colon_mark=colon(lang).rstrip(" "),
    )
    from rollbook.present.sheetview import v5_track, v20_health

    env.globals["v5_track"] = v5_track
    env.globals["v20_health"] = lambda health: v20_health(health or {}, lang)
    from rollbook.present.forms import card_label

    env.globals["card_label"] = lambda card: card_label(card or {}, lang)
    from rollbook.present.authority import offer_words

    env.globals["offer_words"] = lambda offer: offer_words(offer, lang)
    from rollbook.web.once import new_key

    env.globals["form_key"] = new_key
    env.filters["dice_groups"] = dice_groups
    env.filters["signed"] = lambda n: f"{n:+d}" if isinstance(n, int) else n
    return env


def _elided_gettext(catalogues):
    """jinja2.ext.i18n's new-style ``gettext``, the French elision made before the values go in."""

    @pass_context
    def gettext(__context: Context, __string: str, **variables: Any) -> str:
        rv = elided(str(__context.call(catalogues.gettext, __string)), variables, "fr")
        if __context.eval_ctx.autoescape:
            rv = Markup(rv)
        return rv % variables

    return gettext


def _elided_ngettext(catalogues):
    @pass_context
    def ngettext(__context: Context, __singular: str, __plural: str, __num: int, **variables: Any) -> str:
        variables.setdefault("num", __num)
        rv = elided(str(__context.call(catalogues.ngettext, __singular, __plural, __num)), variables, "fr")
        if __context.eval_ctx.autoescape:
            rv = Markup(rv)
        return rv % variables

    return ngettext


def dice_groups(dice) -> list[tuple[str, list]]:
    """Dice by group, in the order the receipt lists them (normal dice before Hunger dice)."""
    out: list[tuple[str, list]] = []
    for die in dice:
        if out and out[-1][0] == die.group:
            out[-1][1].append(die)
        else:
            found = next((items for group, items in out if group == die.group), None)
            if found is not None:
                found.append(die)
            else:
                out.append((die.group, [die]))
    return out


def render(name: str, lang: str, game_master: bool = False, **context: Any) -> str:
    return environment(lang, game_master).get_template(name).render(**context)
