"""Playing alone on the web (SPEC S-1 … S-6): "Play alone" on the home page, a scenario
chosen, its pregenerated character taken, and the solo table, made for a phone.

Every step is the solo use cases' (``server.usecases.solo``): the pages start a solo chronicle, read
its state and send the option the player pressed; the engine (the scenario as Storyteller) rolls,
runs the fight and moves the story. The pages only draw that state in the reader's language: the
passage, the options as buttons with their odds, the character's health, blood and Willpower, each
foe's health, and the receipts since the last choice as the table's own cards (``web.table``).
Progress is the log (S-5): ``/solo/{chronicle}`` reopens at the passage reached.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from fastapi import Request
from fastapi.responses import HTMLResponse, Response

from rollbook import interop
from rollbook.i18n import N_, translate
from rollbook.present import labels
from rollbook.present.present import Card
from rollbook.present.preview import percent
from rollbook.present.sheetview import v20_health
from rollbook.rules.base import RuleError
from rollbook.server import tx
from rollbook.server.models import Caller
from rollbook.server.usecases import solo
from rollbook.solo import text as solo_text
from rollbook.web import keychain, table
from rollbook.web.deps import Db, Dice, Posted, Signed, VisitorLang, page_router
from rollbook.web.errors import alert_into
from rollbook.web.respond import lang_of, page, see_other
from rollbook.web.routes.interop import posted_source  # the import form's reading: a file, else pasted JSON

router = page_router()

RECEIPT_KINDS = (
    "roll",
    "reroll",
    "adjust",
)  # what the dice and the player's spends did; not the story's own entries
HEALTHY = N_("Healthy")  # the track with no damage marked


@dataclass
class Status:
    """The player's character, always in view: the health track (most severe first), blood, Willpower."""

    name: str
    health_marks: list[str]
    level: str
    wound: str
    blood: int
    blood_max: int
    per_turn: int
    willpower: int
    willpower_max: int


@dataclass
class Option:
    """One button: ``value`` is the option's id, then ``|`` and the id of the same roll with a
    Willpower point (V20-9) when the state offers one: the "Willpower on this roll" box picks it."""

    value: str
    kind: str
    label: str
    odds: str = ""
    odds_willpower: str = ""
    primary: bool = False


@dataclass
class Foe:
    name: str
    marks: list[str]
    level: str
    down: bool


@dataclass
class SoloView:
    chronicle_id: int
    chronicle: dict
    title: str
    passage_id: str
    kind: str
    paragraphs: list[str]
    status: Status
    options: list[Option] = field(default_factory=list)
    fight: dict | None = None
    extended: dict | None = None
    ending: dict | None = None
    cards: list[Card] = field(default_factory=list)
    willpower: bool = False  # a roll on offer may take a Willpower point (the box is shown)


def health_words(health: dict, lang: str) -> tuple[list[str], str, str]:
    """(the track's marks, the level reached, "Hurt −1" or "" when unhurt) of a V20 health dict."""
    levels = v20_health(health or {}, lang)
    hurt = [(label, penalty) for label, penalty, mark in levels if mark != "empty"]
    if not hurt:
        return [mark for _l, _p, mark in levels], translate(HEALTHY, lang), ""
    label, penalty = hurt[-1]
    return [mark for _l, _p, mark in levels], label, f"{label} {penalty}".strip()


def status_of(sheet: dict, name: str, lang: str) -> Status:
    marks, level, wound = health_words(sheet.get("health") or {}, lang)
    blood, willpower = sheet.get("blood") or {}, sheet.get("willpower") or {}
    return Status(
        name=name,
        health_marks=marks,
        level=level,
        wound=wound,
        blood=blood.get("current") or 0,
        blood_max=blood.get("max") or 0,
        per_turn=blood.get("per_turn") or 0,
        willpower=willpower.get("current") or 0,
        willpower_max=willpower.get("permanent") or 0,
    )


def paragraphs(words: str) -> list[str]:
    return [part.strip() for part in words.split("\n\n") if part.strip()]


def odds_words(odds: dict | None, lang: str) -> str:
    """ "Chance of success: 74.0 % (botch: 6.1 %)" from the state's exact odds (``rollbook.odds``)."""
    floats = (odds or {}).get("floats") or {}
    if "success" not in floats:
        return ""
    return solo_text.label(
        "state.odds",
        lang,
        success=percent(floats["success"], lang),
        botch=percent(floats.get("botch", 0.0), lang),
    )


def option_label(option: dict, lang: str, foes: dict[str, str]) -> str:
    """An option in words: the state's own label, with the traits and the damage in the reader's
    language (a roll's traits are ids in the state: ``labels.trait`` names them)."""
    kind = option["kind"]
    traits = " + ".join(labels.trait(name, lang) for name in option.get("traits") or ())
    if kind in ("check", "extended"):
        return solo_text.label("option.roll", lang, traits=traits, difficulty=option["difficulty"])
    if kind == "attack":  # the weapon is the ability's (Melee: the sheet's weapon); the receipt names it
        return solo_text.label(
            "option.attack",
            lang,
            target=foes.get(option["target"], option["target"]),
            traits=traits,
            difficulty=option["difficulty"],
        )
    if kind == "heal":
        return solo_text.heal_label(option["amount"], option["damage_type"], lang)
    return str(option.get("label") or option["id"])


def success_words(odds: dict | None, lang: str) -> str:
    """The chance of success alone (the Willpower twin's: its success is automatic, no botch)."""
    floats = (odds or {}).get("floats") or {}
    return percent(floats["success"], lang) if "success" in floats else ""


def _twin(option: dict) -> tuple:
    """What an option and its Willpower twin share (everything but the id and the Willpower point)."""
    return tuple(
        sorted(
            (key, str(value))
            for key, value in option.items()
            if key not in ("id", "willpower", "label", "odds")
        )
    )


def options_of(choices: list[dict], lang: str, foes: dict[str, str]) -> list[Option]:
    """The state's options as buttons: a roll and the same roll with a Willpower point are one button."""
    with_willpower = {_twin(c): c for c in choices if c.get("willpower")}
    out = []
    for choice in choices:
        if choice.get("willpower"):
            continue
        twin = with_willpower.get(_twin(choice))
        value = choice["id"] if twin is None else f"{choice['id']}|{twin['id']}"
        out.append(
            Option(
                value=value,
                kind=choice["kind"],
                label=option_label(choice, lang, foes),
                odds=odds_words(choice.get("odds"), lang),
                odds_willpower=success_words(twin.get("odds"), lang) if twin else "",
            )
        )
    rolls = [o for o in out if o.kind in ("check", "extended", "attack")]
    if rolls or out:
        (rolls or out)[0].primary = True
    return out


def chosen(form: dict) -> str:
    """The option pressed: the Willpower twin when the box is ticked and the roll has one."""
    plain, _, twin = str(form.get("option", "")).partition("|")
    ticked = str(form.get("willpower", "")).lower() in ("on", "true", "1")
    return twin if ticked and twin else plain


def receipts(db, member: Caller, lang: str, entries: list[dict]) -> tuple[dict, list[Card]]:
    """The chronicle, and the receipts among ``entries`` (the state's, since the last choice) as the
    table's cards, newest first: an exchange's steps inside its first step's card."""
    shown = [e for e in entries if e.get("kind") in RECEIPT_KINDS]
    state = table.load(db, member, lang, feed=False)
    with db.read() as session:
        followed = table.followed_up(session, member, [e["seq"] for e in shown])
        revealed = table.revealed_seeds(session, member)
    viewer = table.viewer_of(member, state.chronicle, lang)
    cards = table.cards_for(
        shown, viewer, state.characters, followed, state.chronicle["system"], revealed=revealed
    )
    return state.chronicle, list(reversed(cards))


def view_of(db, member: Caller, lang: str, state: dict) -> SoloView:
    character = state["character"]
    passage = state["passage"]
    chronicle, cards = receipts(db, member, lang, state.get("recent") or [])
    view = SoloView(
        chronicle_id=state["chronicle"],
        chronicle=chronicle,
        title=state["scenario"]["title"],
        passage_id=passage["id"],
        kind=passage.get("kind") or "",
        paragraphs=paragraphs(passage["text"]),
        status=status_of(character.get("sheet") or {}, character["name"], lang),
        cards=cards,
    )
    foes = {npc["id"]: npc["name"] for npc in state.get("npcs") or ()}
    view.options = options_of(state.get("choices") or [], lang, foes)
    view.willpower = any(o.odds_willpower or "|" in o.value for o in view.options)
    if state.get("npcs"):
        standing: list[Foe] = []
        for npc in state["npcs"]:
            marks, level, _wound = health_words(npc.get("health") or {}, lang)
            standing.append(Foe(name=npc["name"], marks=marks, level=level, down=bool(npc.get("down"))))
        view.fight = {"turn": state.get("turn") or 1, "foes": standing}
    progress = state.get("extended")
    if progress:
        view.extended = {
            "total": progress.get("total", 0),
            "target": progress["target"],
            "roll": progress.get("rolls", 0),
            "max_rolls": progress["max_rolls"],
        }
    if state.get("ending"):
        view.ending = {"kind": state["ending"], "label": solo_text.label(f"ending.{state['ending']}", lang)}
    return view


def table_page(
    request: Request, db, member: Caller, lang: str, *, errors=None, status: int = 200
) -> HTMLResponse:
    """The solo table, drawn from one read transaction."""
    with db.one_read() as db:
        with db.read() as session:
            state = solo.state(session, member, lang)
        view = view_of(db, member, lang, state)
    return page(request, "solo_table.html", lang, status=status, v=view, errors=errors or {})


# --- the shelf: the scenarios, and the stories this browser has begun ------------------------------


def in_progress(db, request: Request) -> list[tuple[Caller, dict]]:
    """The solo chronicles among those this browser holds (``keychain``): a solo chronicle's log begins
    with its ``solo_start`` entry (``server.usecases.solo``)."""
    held = keychain.members(db, request)
    with db.read() as session:
        alone = solo.solo_chronicles(session, [member.chronicle_id for member, _ in held])
    return [(member, chronicle) for member, chronicle in held if member.chronicle_id in alone]


@dataclass
class Shelved:
    id: str
    title: str
    summary: str
    character: str
    character_words: str


def shelf(lang: str) -> list[Shelved]:
    out = []
    for found in solo.scenario_list(lang):
        sheet = found.get("pregenerated") or {}
        words = translate(
            "{clan}, generation {generation}",
            lang,
            clan=sheet.get("clan") or "—",
            generation=sheet.get("generation") or 13,
        )
        out.append(
            Shelved(
                id=found["id"],
                title=found["title"],
                summary=found.get("summary") or "",
                character=str(sheet.get("name") or ""),
                character_words=words,
            )
        )
    return out


def shelf_page(request: Request, db, lang: str, *, errors=None, status: int = 200) -> HTMLResponse:
    return page(
        request,
        "solo_home.html",
        lang,
        status=status,
        shelf=shelf(lang),
        errors=errors or {},
        going=in_progress(db, request),
    )


@router.get("/solo", response_class=HTMLResponse)
def solo_home(request: Request, db: Db, lang: VisitorLang) -> Response:
    """ "Play alone": the scenarios that ship, and the stories this browser has begun (one read)."""
    with db.one_read() as db:
        return shelf_page(request, db, lang)


def own_sheet(form: dict) -> dict | None:
    """The player's own character, when the form brings one (a file or pasted JSON): another tool's
    V20 sheet read by ``rollbook.interop`` (Foundry's WoD20 actor), else a rollbook V20 sheet as the
    API takes it; ``usecases.solo.start`` validates it as any sheet. None: the pregenerated one."""
    if str(form.get("character", "pregenerated")) != "own":
        return None
    data, _text = posted_source(form)
    if not isinstance(data, dict):
        raise RuleError("import_not_json")
    if interop.detect(data) is not None:
        return dict(interop.import_sheet(data, system="v20").sheet)
    return data


@router.post("/solo")
def start(request: Request, db: Db, form: Posted, lang: VisitorLang, dice: Dice) -> Response:
    """A new solo chronicle with the scenario's pregenerated character or the player's own; this
    browser keeps its session (the keychain, as for any chronicle) and the key is shown once on the
    chronicle's page."""
    scenario = str(form.get("scenario", ""))
    alert_into(
        request, f"start-{scenario}", lang, lambda errors: shelf_page(request, db, lang, errors=errors)
    )
    sheet = own_sheet(form)

    def work(session):
        started = solo.start(
            session,
            scenario=scenario,
            language=lang,
            player=translate("Player", lang),
            sheet=sheet,
            source=dice,
        )
        member, opened = keychain.session_for(session, started["token"])
        return {"chronicle_id": member.chronicle_id, "key": started["token"], "session": opened}

    started = tx.run(db, work)
    cid = started["chronicle_id"]
    response = see_other(f"/solo/{cid}")
    keychain.show_new_key(request, response, cid, started["key"])
    return keychain.add(request, response, cid, started["session"])


# --- the table ---------------------------------------------------------------------------------


@router.get("/solo/{chronicle_id}", response_class=HTMLResponse)
def solo_table(request: Request, chronicle_id: int, db: Db, signed: Signed) -> Response:
    """The solo table at the passage reached (S-5: the state is replayed from the log), drawn from one
    read that finds its reader first (``read_in``)."""
    with db.one_read() as db:
        member, lang, _row = signed.read_in(db)
        return table_page(request, db, member, lang)


@router.post("/solo/{chronicle_id}/act")
def act(request: Request, chronicle_id: int, db: Db, signed: Signed, form: Posted, dice: Dice) -> Response:
    """The option pressed, performed by the engine in one transaction (the member found in it); then
    the table again (303)."""
    signed.refused_into(
        "act", lambda member, lang, errors: table_page(request, db, member, lang, errors=errors)
    )
    option = chosen(form)
    shown = str(form.get("passage") or "") or None  # the passage the page showed: a stale page is refused

    def work(session, member):  # the state it answers is not drawn here: the table is, after the 303
        return solo.act(session, member, option, lang=lang_of(request), source=dice, passage=shown)

    signed.write(db, work, form)
    return see_other(f"/solo/{chronicle_id}#passage-title")
