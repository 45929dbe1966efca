"""Discord's documented limits of a message, checked independently of ``rollbook.discord.embeds``
(a helper module: the tests import it)."""

from __future__ import annotations


def problems(data: dict) -> list[str]:
    """What in an interaction response's ``data`` (or a webhook body) Discord would refuse."""
    found = []
    if len(data.get("content") or "") > 2000:
        found.append("content over 2000")
    embeds = data.get("embeds") or []
    if len(embeds) > 10:
        found.append("more than 10 embeds")
    total = 0
    for embed in embeds:
        title, description = embed.get("title", ""), embed.get("description", "")
        footer = (embed.get("footer") or {}).get("text", "")
        author = (embed.get("author") or {}).get("name", "")
        fields = embed.get("fields") or []
        total += len(title) + len(description) + len(footer) + len(author)
        if len(title) > 256:
            found.append("title over 256")
        if len(description) > 4096:
            found.append("description over 4096")
        if len(footer) > 2048:
            found.append("footer over 2048")
        if len(author) > 256:
            found.append("author over 256")
        if len(fields) > 25:
            found.append("more than 25 fields")
        for field in fields:
            total += len(field["name"]) + len(field["value"])
            if not field["name"] or len(field["name"]) > 256:
                found.append(f"field name of {len(field['name'])}")
            if not field["value"] or len(field["value"]) > 1024:
                found.append(f"field value of {len(field['value'])}")
    if total > 6000:
        found.append(f"embeds total {total} over 6000")
    rows = data.get("components") or []
    if len(rows) > 5:
        found.append("more than 5 action rows")
    for row in rows:
        items = row.get("components") or []
        if not 1 <= len(items) <= 5:
            found.append("an action row of {len(items)}")
        for item in items:
            if len(item.get("label", "")) > 80 or len(item.get("custom_id", "")) > 100:
                found.append("a component's label or custom_id too long")
            if item.get("type") == 3 and not 1 <= len(item.get("options") or []) <= 25:
                found.append("a select of too many options")
            for option in item.get("options") or []:
                if len(option["label"]) > 100 or len(option["value"]) > 100:
                    found.append("a select option too long")
    return found
