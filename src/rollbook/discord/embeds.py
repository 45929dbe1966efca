"""Log entries as Discord embeds, rendered by the same presentation the web table uses
(``present.present.card`` over ``rollbook.render``), in the reader's language, always within Discord's
limits (``LIMITS``; ``fit`` trims what is over, never refuses).

``entry_embeds(entry, locale)`` is the poster's (a public entry, as anyone at the table reads it);
``card_for(entry, viewer, …)`` and ``card_embed(card)`` are the interactions' (the member who acted
reads their own entry: a Storyteller's hidden roll in full, a player's V5 test with its reroll advice).
"""

from __future__ import annotations

from rollbook.entries import AdjustReceipt, Logged, RollReceipt
from rollbook.i18n import N_, labelled, normalize, translate, translations
from rollbook.play.common import Resource
from rollbook.play.systems import system_module
from rollbook.present.present import Card, Viewer, card
from rollbook.render import DieView, ReceiptView

# Discord's documented limits of a message's embeds
LIMITS = {
    "title": 256,
    "description": 4096,
    "fields": 25,
    "field_name": 256,
    "field_value": 1024,
    "footer": 2048,
    "author": 256,
    "total": 6000,
    "embeds": 10,
}
COLOURS = {
    "good": 0x2E7D32,
    "critical": 0xF9A825,
    "messy": 0xC62828,
    "bad": 0x616161,
    "bestial": 0x6A1B9A,
    "botch": 0x4E342E,
    "neutral": 0x37474F,
}
ELLIPSIS = "…"
HIDDEN = N_("Hidden")
GROUPS = {  # the dice's groups, as the web card names them
    "normal": N_("Dice"),
    "hunger": N_("Hunger dice"),
    "dropped": N_("Dropped"),
    "reroll": N_("Rerolls"),
}
EFFECTS = N_("Effects")


def discord_language(locale: str | None) -> str:
    """A Discord locale (``fr``, ``es-ES``, ``en-US``, ``en-GB``, …) as a rollbook language."""
    return normalize(locale)


def _cut(text: str, most: int) -> str:
    text = str(text)
    return text if len(text) <= most else text[: most - 1] + ELLIPSIS


def _die(die: DieView, numbered: bool) -> str:
    face = str(die.face)
    if "cancelled" in die.marks or "dropped" in die.marks or die.group == "dropped":
        face = f"~~{face}~~"
    elif any(mark in die.marks for mark in ("success", "ten", "crit_pair", "kept")):
        face = f"**{face}**"
    if numbered and die.index is not None:
        return f"`{die.index + 1}`:{face}"  # 1-based, as the reroll select names them
    return face


def dice_text(view: ReceiptView, numbered: bool = False, lang: str = "en") -> str:
    """The dice by group, each group named in ``lang`` ("Dés de Soif: 3"); ``numbered``: the normal
    dice numbered from 1 (``1:7 2:**10**``), as the V5 reroll select names them."""
    groups: dict[str, list[str]] = {}
    for die in view.dice:
        groups.setdefault(die.group, []).append(_die(die, numbered and die.group == "normal"))
    return "\n".join(
        labelled(translate(GROUPS.get(group, group), lang), " ".join(faces), lang)
        if len(groups) > 1
        else " ".join(faces)
        for group, faces in groups.items()
    )


def fit(embed: dict) -> dict:
    """``embed`` within Discord's limits of one embed (a copy; fields past 25 dropped, texts cut)."""
    out = dict(embed)
    if "title" in out:
        out["title"] = _cut(out["title"], LIMITS["title"])
    if "description" in out:
        out["description"] = _cut(out["description"], LIMITS["description"])
    if "author" in out:
        out["author"] = {**out["author"], "name": _cut(out["author"].get("name", ""), LIMITS["author"])}
    if "footer" in out:
        out["footer"] = {**out["footer"], "text": _cut(out["footer"].get("text", ""), LIMITS["footer"])}
    out["fields"] = [
        {
            "name": _cut(f.get("name") or "·", LIMITS["field_name"]),
            "value": _cut(f.get("value") or "·", LIMITS["field_value"]),
            "inline": bool(f.get("inline")),
        }
        for f in (out.get("fields") or [])
    ][: LIMITS["fields"]]
    return out


def size(embed: dict) -> int:
    """The characters Discord counts in an embed (title, description, field names and values, footer, author)."""
    return (
        len(embed.get("title", ""))
        + len(embed.get("description", ""))
        + len((embed.get("footer") or {}).get("text", ""))
        + len((embed.get("author") or {}).get("name", ""))
        + sum(len(f["name"]) + len(f["value"]) for f in embed.get("fields") or [])
    )


def _text(embed: dict, key: str) -> str:
    if key in ("footer", "author"):
        return (embed.get(key) or {}).get("text" if key == "footer" else "name", "")
    return embed.get(key, "")


def _set_text(embed: dict, key: str, text: str) -> None:
    if key in ("footer", "author"):
        embed[key] = {**embed[key], ("text" if key == "footer" else "name"): text}
    else:
        embed[key] = text


def fit_all(embeds: list[dict]) -> list[dict]:
    """The embeds of one message within the limits together: at most 10, 6,000 characters in all.
    What goes first: the last fields, then the texts (descriptions, footers, authors, titles, the
    last embed's first), then the last embeds. Each step shortens: it ends."""
    fitted = [fit(e) for e in embeds[: LIMITS["embeds"]]]

    def excess() -> int:
        return sum(size(e) for e in fitted) - LIMITS["total"]

    for embed in reversed(fitted):
        while excess() > 0 and embed["fields"]:
            embed["fields"].pop()
    for key in ("description", "footer", "author", "title"):
        for embed in reversed(fitted):
            over, text = excess(), _text(embed, key)
            if over > 0 and text:
                _set_text(embed, key, _cut(text, max(1, len(text) - over)))
    while excess() > 0 and len(fitted) > 1:
        fitted.pop()
    return fitted


def card_embed(c: Card, lang: str) -> dict:
    """One card (``present.present.card``) as one embed."""
    lines = []
    receipt = c.receipt
    if receipt is not None:
        lines.append(f"**{receipt.outcome_label}**")
        dice = dice_text(receipt, numbered=bool(c.normal), lang=lang)
        if dice:
            lines.append(dice)
    for text in (c.pool, c.settings, c.change, *c.notes):
        if text:
            lines.append(text)
    fields = []
    if receipt is not None:
        fields += [
            {"name": line.label, "value": f"{line.value} {line.note}".strip(), "inline": True}
            for line in receipt.lines
        ]
        fields += [
            {"name": line.label, "value": f"{line.value} {line.note}".strip()} for line in receipt.history
        ]
    for label, extra in c.extra:
        fields.append({"name": label, "value": f"**{extra.outcome_label}** {dice_text(extra, lang=lang)}"})
    if c.effects:
        fields.append({"name": translate(EFFECTS, lang), "value": "\n".join(c.effects)})
    who = c.by or c.character or c.actor
    footer = f"#{c.seq} · {c.time} UTC"
    if c.hidden and not c.redacted:  # a redacted card's title says it is hidden
        footer += " · " + translate(HIDDEN, lang)
    embed = {
        "title": c.title or c.kind,
        "description": "\n".join(lines),
        "fields": fields,
        "color": COLOURS.get(receipt.tone if receipt else "neutral", COLOURS["neutral"]),
        "footer": {"text": footer},
    }
    if who:
        embed["author"] = {"name": who}
    return fit(embed)


def card_for(
    entry: dict,
    viewer: Viewer,
    *,
    characters: dict[int, str] | None = None,
    owners: dict[int, int | None] | None = None,
    willpower: dict[int, int] | None = None,
    system: str = "",
) -> Card:
    # no chronicle's system given: the receipt's, when its kind names one (a rules receipt's)
    made = None if system else Logged.of(entry).read()
    return card(
        entry,
        viewer,
        characters=characters or {},
        followed={},
        willpower=willpower,
        owners=owners,
        chronicle_system=system
        or (made.system if isinstance(made, RollReceipt | AdjustReceipt) else None)
        or "",
    )


def entry_embeds(
    entry: dict, locale: str, *, characters: dict[int, str] | None = None, system: str = ""
) -> list[dict]:
    """One log entry (the export/API shape) as the embeds of one message, as any member of the table
    reads it (a hidden entry redacted), in ``locale``."""
    lang = discord_language(locale)
    viewer = Viewer(
        member_id=0, role="player", chronicle_id=Logged.of(entry).chronicle or 0, mode="strict", lang=lang
    )
    return fit_all([card_embed(card_for(entry, viewer, characters=characters, system=system), lang)])


RESOURCES = {  # a play module's resources (``resources(sheet)``) by their codes
    "hunger": N_("Hunger"),
    "willpower": N_("Willpower"),
    "health": N_("Health"),
    "blood_potency": N_("Blood Potency"),
    "experience": N_("Experience"),
    "humanity": N_("Humanity"),
    "blood_pool": N_("Blood pool"),
}


def resource_fields(system: str, sheet: dict, locale: str | None) -> list[dict]:
    """The tracks a player checks between rolls (``/sheet``), as short inline fields in the reader's
    language: those the system's play module reads off the sheet (``resources``: V5 Hunger, Willpower,
    Health and Humanity; V20 Willpower, blood and the health track). The web sheet draws the same
    values (``_resources.html``); other systems show their ratings only."""
    lang = discord_language(locale)
    return [
        {
            "name": translate(RESOURCES[resource.name], lang),
            "value": _resource_value(resource, lang),
            "inline": True,
        }
        for resource in system_module(system).resources(sheet)
    ]


def _resource_value(resource: Resource, lang: str) -> str:
    """A resource's numbers in the reader's words, as its shape reads them."""
    words = translations(lang)
    numbers = ["?" if n is None else str(n) for n in resource.numbers]
    if resource.shape == "experience":
        available, total = numbers
        return f"{available} {words.gettext('available of %(t)s earned') % {'t': total}}"
    if resource.shape == "humanity":
        rating, stains = resource.numbers
        return f"{rating}" + (f" ({translate('Stains', lang)} {stains})" if stains else "")
    if resource.shape == "blood_pool":
        current, most, per_turn = numbers
        return f"{current}/{most} · {words.gettext('%(n)s per turn') % {'n': per_turn}}"
    if resource.shape == "damage":
        *counts, penalty = resource.numbers
        damage = [
            words.ngettext("{n} level of bashing damage", "{n} levels of bashing damage", counts[0] or 0),
            words.ngettext("{n} level of lethal damage", "{n} levels of lethal damage", counts[1] or 0),
            words.ngettext(
                "{n} level of aggravated damage",
                "{n} levels of aggravated damage",
                counts[2] or 0,
            ),
        ]
        taken = [text.format(n=n) for text, n in zip(damage, counts, strict=True) if n]
        health_text = ", ".join(taken) if taken else translate("Unhurt", lang)
        if penalty is None:  # V20-16: the dice every pool loses
            health_text += " · " + translate("Incapacitated", lang)
        elif penalty:
            health_text += " · " + translate("wound penalty {n}", lang, n=str(penalty).replace("-", "−"))
        return health_text
    return "/".join(numbers)  # a ratio ("a/b") or a rating ("a")
