"""The receipt as a Rich panel for the terminal (Hunger dice visibly apart, every number shown)."""

from __future__ import annotations

from rich.console import Group
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from rollbook.i18n import N_
from rollbook.render import DieView, ReceiptView, t, view

TONE_STYLES = {
    "good": "bold green",
    "bad": "bold yellow",
    "critical": "bold cyan",
    "messy": "bold magenta",
    "bestial": "bold red",
    "botch": "bold red",
    "neutral": "bold",
}
GROUP_LABELS = {
    "normal": N_("Dice"),
    "hunger": N_("Hunger dice"),
    "dropped": N_("Dropped"),
    "reroll": N_("Rerolls"),
}


def _die(die: DieView) -> Text:
    style = "green" if "success" in die.marks else "dim"
    if die.group == "hunger":
        style = "bold white on red"
    if "cancelled" in die.marks:
        style += " strike"
    if "one" in die.marks and die.group != "hunger":
        style = "yellow"
    if die.group == "dropped":
        style = "dim strike"
    label = f"[{die.face}]"
    pair = next((m.split(":")[1] for m in die.marks if m.startswith("pair:")), None)
    if pair:
        label = f"[{die.face}]⁽{pair}⁾"
    return Text(label, style=style)


def dice_line(receipt_view: ReceiptView, lang: str) -> Table:
    table = Table.grid(padding=(0, 1))
    groups: dict[str, list[DieView]] = {}
    for die in receipt_view.dice:
        groups.setdefault(die.group, []).append(die)
    for group, dice in groups.items():
        row = Text(" ").join(_die(d) for d in dice)
        table.add_row(Text(t(GROUP_LABELS.get(group, group.capitalize()), lang), style="bold"), row)
    return table


def receipt_panel(receipt: dict, lang: str) -> Panel:
    receipt_view = view(receipt, lang)
    numbers = Table(show_header=False, box=None, padding=(0, 1))
    numbers.add_column(style="bold")
    numbers.add_column(justify="right")
    numbers.add_column(style="dim")
    for line in receipt_view.lines + receipt_view.history:
        numbers.add_row(line.label, line.value, line.note)
    title = Text(f"{receipt_view.title} — ") + Text(
        receipt_view.outcome_label, style=TONE_STYLES[receipt_view.tone]
    )
    parts = [dice_line(receipt_view, lang)] if receipt_view.dice else []
    parts.append(numbers)
    return Panel(Group(*parts), title=title, title_align="left", expand=False)
