"""`rollbook solo FILE`: a solo chronicle in the terminal (SPEC S-1 … S-5). The passage, the
health track, blood and Willpower, each receipt as a panel, the choices with the odds of each roll;
the player types a choice's number. The chronicle is an ordinary one of the local store (the server's
SQLite file by default), played through the same use cases as the API (``server.usecases.solo``), so
leaving (Ctrl-D, ``q``) and running the command again resumes where the story was (S-5), and
``rollbook log export`` / ``rollbook log verify`` check it."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

import typer
from rich.console import Console
from rich.markup import escape
from rich.panel import Panel
from rich.table import Table

from rollbook.cli.base import app, fail
from rollbook.cli.scenario import language, read_file
from rollbook.i18n import languages_text

if TYPE_CHECKING:
    from sqlalchemy.orm import Session

    from rollbook.server.models import Member

DICE_VARIABLE = "ROLLBOOK_SOLO_DICE"


class RollFaces:
    """Fixed dice for tests and demonstrations (``--dice 1,10,10``): every die of the n-th roll shows
    the n-th face; once the list is spent, its last face. Never used unless asked for."""

    name = "given"

    def __init__(self, faces: list[int]) -> None:
        self.faces, self.last = list(faces), faces[-1]

    def draw(self, n: int, sides: int) -> tuple[int, ...]:
        face = self.faces.pop(0) if self.faces else self.last
        if not 1 <= face <= sides:
            fail(f"--dice: {face} is not a face of a d{sides}")
        return (face,) * n


def _dice(text: str | None) -> RollFaces | None:
    if not text:
        return None
    try:
        faces = [int(part) for part in text.replace(" ", "").split(",") if part]
    except ValueError:
        fail(f"--dice takes faces separated by commas (e.g. 10,10,1), not {text!r}")
    if not faces:
        fail("--dice takes at least one face")
    return RollFaces(faces)


def _track_line(track: dict, lang: str) -> str:
    from rollbook.i18n import translate
    from rollbook.solo.text import label

    health = track["health"]
    marks = "".join("A" * health["aggravated"] + "X" * health["lethal"] + "/" * health["bashing"]).ljust(
        7, "."
    )
    blood = track.get("blood") or {}
    willpower = track.get("willpower") or {}
    parts = [
        f"{translate('Health', lang)} [{marks}]"
        + (f" {track['wound_penalty']:+d}" if track.get("wound_penalty") else "")
        + (f" ({label('state.down', lang)})" if track.get("down") else "")
    ]
    if blood.get("max"):
        parts.append(
            f"{translate('Blood', lang)} {blood.get('current')}/{blood.get('max')} ({blood.get('per_turn')}/⟳)"
        )
    parts.append(f"{translate('Willpower', lang)} {willpower.get('current')}/{willpower.get('permanent')}")
    return "   ".join(parts)


def _odds(option: dict, lang: str) -> str:
    from rollbook.solo.text import label

    odds = option.get("odds") or {}
    floats = odds.get("floats") or {}
    if "success" not in floats:
        return ""
    return label(
        "state.odds", lang, success=f"{floats['success']:.1%}", botch=f"{floats.get('botch', 0):.1%}"
    )


def show(console: Console, state: dict, lang: str) -> None:
    """One screen of the story: the receipts since the last choice, the passage, the tracks, the choices."""
    from rollbook.entries import Logged, RollReceipt
    from rollbook.render.rich import receipt_panel
    from rollbook.solo.text import label, paragraphs, traits_label

    names = {int(key): name for key, name in (state.get("cast") or {}).items()}
    for line in state.get("recent") or []:
        entry = Logged.of(line)
        roll = entry.read() if entry.kind == "roll" else None
        result = roll.result if isinstance(roll, RollReceipt) else None
        if isinstance(roll, RollReceipt) and isinstance(result, dict) and result.get("system"):
            traits = traits_label(
                [str(part.get("trait")) for part in (roll.pool or {}).get("parts", [])], lang
            )
            who = names.get(entry.character, "") if entry.character is not None else ""
            console.print(f"[dim]#{entry.seq} {escape(who)} — {escape(traits)}[/dim]")
            console.print(receipt_panel(result, lang))
    title = state["scenario"]["title"]
    if state.get("turn"):
        title = f"{title} — {label('state.turn', lang, turn=state['turn'])}"
    console.print(
        Panel(
            escape("\n\n".join(paragraphs(state["passage"]["text"]))), title=escape(title), title_align="left"
        )
    )
    console.print(escape(_track_line(state["track"], lang)))
    for npc in state.get("npcs") or []:
        console.print(escape(f"  {npc['name']}: {_track_line(npc, lang)}"))
    progress = state.get("extended")
    if progress:
        console.print(
            escape(
                label(
                    "state.extended",
                    lang,
                    **{k: progress[k] for k in ("total", "target", "rolls", "max_rolls")},
                )
            )
        )
    if state.get("finished"):
        console.print(Panel(escape(label(f"ending.{state['ending']}", lang)), style="bold"))
        return
    table = Table(show_header=False, box=None)
    for number, option in enumerate(state["choices"], start=1):
        table.add_row(f"[bold]{number}[/bold]", escape(option["label"]), escape(_odds(option, lang)))
    console.print(table)


def _player(database, raw: bytes, new: bool, lang: str, source) -> tuple[Member, dict | None]:
    """The player of the chronicle to play (resumed, or a new one), and the first state when new."""
    from rollbook.server import tx
    from rollbook.server.models import Member
    from rollbook.server.usecases import solo

    if not new:
        with database.read() as session:
            found = solo.resumable(session, raw)
            if found is not None:
                return found, None
    made = tx.run(database, lambda session: solo.start(session, raw=raw, language=lang, source=source))
    with database.read() as session:
        member = session.get(Member, made["member"]["id"])
    if member is None:  # just made in the committed transaction above
        fail("the solo chronicle just begun is not in the store")
    return member, made["state"]


@app.command("solo")
def solo_command(
    file: Path = typer.Argument(
        ..., help="The scenario's YAML file (rollbook/solo/scenarios/ has the sample)."
    ),
    lang: str | None = typer.Option(None, "--lang", help=f"{languages_text()} (default: the environment's)."),
    database_url: str | None = typer.Option(
        None, "--database-url", help="The store (default $ROLLBOOK_DATABASE_URL, as `rollbook serve`)."
    ),
    new: bool = typer.Option(False, "--new", help="Begin again instead of resuming."),
    dice: str | None = typer.Option(
        None,
        "--dice",
        envvar=DICE_VARIABLE,
        help="Fixed dice, for tests: the face every die of each roll shows, "
        "in order (e.g. 1,10,10); the last one repeats.",
    ),
) -> None:
    """Play a solo chronicle: the scenario is the Storyteller; every roll is a receipt of the log."""
    from rollbook import settings
    from rollbook.server import tx
    from rollbook.server.db import Database
    from rollbook.server.problems import ProblemError, detail
    from rollbook.server.usecases import solo
    from rollbook.solo.check import check_text
    from rollbook.solo.text import fault_line, label

    lang = language(lang)
    raw = read_file(file)
    report = check_text(raw)  # S-4: refused before play, every fault shown
    if report.faults:
        for fault in report.faults:
            typer.echo(fault_line(fault, lang), err=True)
        raise typer.Exit(2)
    source = _dice(dice)
    console = Console(soft_wrap=False)
    database = Database(database_url or settings.current().database_url)
    try:
        database.upgrade()
        try:
            member, current = _player(database, raw, new, lang, source)
            if current is None:
                with database.read() as session:
                    current = solo.state(session, member, lang, raw=raw)
                console.print(f"[dim]{label('state.resumed', lang)}[/dim]")
            while True:
                show(console, current, lang)
                if current["finished"]:
                    return
                if not current["choices"]:  # S-9 refuses such a file; never ask "[1-0]" for ever
                    fail(detail("solo_no_choice", lang, {"passage": current["passage"]["id"]}))
                answer = _ask(console, lang, len(current["choices"]))
                if answer is None:
                    return
                option: str = current["choices"][answer]["id"]

                def choose(session: Session, option: str = option) -> dict:
                    return solo.act(session, member, option, lang=lang, source=source, raw=raw)

                current = tx.run(database, choose)
        except ProblemError as refused:  # a RuleError is cli.main's: one line, exit 2
            fail(detail(refused.code, lang, refused.params))
    finally:
        database.dispose()


def _ask(console: Console, lang: str, count: int) -> int | None:
    """The number typed (1 … count); None at the end of the input or on ``q`` (the story waits in the log)."""
    from rollbook.solo.text import label

    while True:
        try:
            typed = console.input(escape(f"{label('state.choose', lang)} [1-{count}]: ")).strip()
        except EOFError:
            return None
        if typed.lower() in ("q", "quit"):
            return None
        if typed.isdigit() and 1 <= int(typed) <= count:
            return int(typed) - 1
