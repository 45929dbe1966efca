"""A roll's title, shared by the log's cards (``present``) and the Storyteller's asks (``authority``)."""

from __future__ import annotations

from rollbook.present import exchange, labels


def roll_title(
    system: str,
    kind: str | None,
    action: dict | None,
    lang: str,
    names: dict | None = None,
    power: object = None,
) -> str:
    """A roll in a few words: the traits rolled (attribute + ability, the skill, the level checked),
    else its kind (the receipt's, else its action's); ``names``: the sheet's homebrew traits as typed;
    ``power``: the power a power's roll noted (V5-9), else its action names it."""
    action = action or {}
    kind = kind or action.get("kind", "")
    if kind == "test":
        traits = [
            action.get("attribute"),
            action.get("skill")
            or action.get("ability")
            or action.get("discipline")
            or action.get("second_attribute"),
        ]
        return " + ".join(labels.trait(n, lang, names) for n in traits if n)
    if kind == "skill" and action.get("skill"):
        return labels.trait(action["skill"], lang, names)
    if kind == "check" and (action.get("skill") or action.get("attribute")):  # roll-under: the level rolled
        return labels.trait(action.get("skill") or action["attribute"], lang, names)
    if kind == "power":  # a power's roll is titled with the power: "Heightened Senses (Auspex)"
        used: dict = power if isinstance(power, dict) else action
        discipline, power = str(used.get("discipline") or ""), str(used.get("power") or "")
        if power:
            named = labels.power(system, discipline, power, lang)
            return f"{named} ({labels.trait(discipline, lang, names)})" if discipline else named
    return exchange.roll_kind(system, kind, lang)
