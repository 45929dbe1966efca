"""What a live entry redraws on the page that receives it, besides its own card: every view of a page
that is read from the log is redrawn by the live event that brings the entry it depends on, so an open
page never shows, or sends, what no longer stands.

A redraw is a part of the page drawn again for its reader: the live event carries, out of band, one
``div.redraw`` per part (``_live.html``) that asks for the part (``GET``) as soon as it lands and
replaces it; a part that holds a form being filled in (the roll form) sends that form along, and comes
back with the reader's choices kept and every edge from what now stands (A-1).

On a sheet's page (the feed's ``character``):

- the standing difficulty (A-5 ``settings``, the chronicle's or this character's): the header's tags
  and the roll form, whose difficulty is the Storyteller's (else the next roll would become an ask);
- a standing grant that starts or ends (A-1): the roll form;
- this character's compulsion called or ended (seed 001, V5-14): its panel and the roll form (the
  penalty in the odds);
- an edit of this character's sheet: the header's tags, the traits, the limits per turn, the roll form;
- a scene or turn opened or closed, this character's actions declared (A-3, A-4): the Storyteller's
  "Actions this turn" and the roll form (the actions' raised difficulty and split pool).

On the chronicle page:

- the standing difficulty, mode or language (``settings``): the header's tags and the quick roll;
- the players' quick rolls allowed or forbidden: the quick roll;
- a compulsion called or ended, a character or a member removed, a sheet imported: "At the table";
- a new seed committed, revealed or given up (F-1, F-5): the fair-dice panel.

(The resources of a sheet, the queue of asks, the scene bar and the standing grants come out of band
with the card itself: ``table.live_item``.)
"""

from __future__ import annotations

from dataclasses import dataclass

SETTINGS = "settings"  # usecases.chronicles.SETTINGS
QUICK_SETTING = "quick_setting"
STANDING = ("standing_grant", "standing_end")
SCENE = ("scene_open", "turn", "scene_close")
COMPULSION = ("compulsion", "compulsion_end")
SHEET_EDIT = "sheet_edit"
ACTIONS = "actions"
AT_THE_TABLE = (*COMPULSION, "removal", "member_removed", "sheet_import")
SEEDS = ("seed_commit", "seed_reveal", "seed_abandon")

SHEET_PARTS = {  # a sheet page's part -> its template (web.routes.characters.sheet_part)
    "sheet-tags": "_sheet_tags.html",
    "compulsion": "_compulsion.html",
    "traits": "_traits.html",
    "limits": "_limits.html",
    "turn-actions": "_turn_actions.html",
}
CHRONICLE_PARTS = {  # the chronicle page's part -> its template (web.routes.chronicle.chronicle_part)
    "chronicle-tags": "_chronicle_tags.html",
    "quick-panel": "_quick.html",
    "fair": "_fair_panel.html",
}


@dataclass(frozen=True)
class Redraw:
    target: str  # the id of the part on the page
    url: str  # GET: the part drawn again for its reader
    include: str = ""  # a form sent along, whose choices the part keeps


def for_entry(view: dict, chronicle_id: int, character_id: int | None) -> list[Redraw]:
    """The parts of the page (a sheet's when ``character_id``, else the chronicle's) the entry redraws
    (``view``: the entry as the API shows it; its kind and character, never its receipt)."""
    kind = view.get("kind")
    about = view.get("character")
    base = f"/chronicles/{chronicle_id}"
    if character_id is None:
        parts = []
        if kind == SETTINGS and about is None:
            parts += ["chronicle-tags", "quick-panel"]
        if kind == QUICK_SETTING:
            parts.append("quick-panel")
        out = [Redraw(part, f"{base}/parts/{part}") for part in parts]
        if kind in AT_THE_TABLE:
            out.append(Redraw("people-panel", f"{base}/people"))
        if kind in SEEDS:
            out.append(Redraw("fair", f"{base}/parts/fair"))
        return out
    mine = about == character_id
    parts, form = [], False
    if kind == SETTINGS and (about is None or mine):
        parts, form = ["sheet-tags"], True
    elif kind in STANDING:
        form = True
    elif kind in COMPULSION and mine:
        parts, form = ["compulsion"], True
    elif kind == SHEET_EDIT and mine:
        parts, form = ["sheet-tags", "traits", "limits"], True
    elif kind in SCENE or (kind == ACTIONS and mine):
        parts, form = ["turn-actions"], True
    sheet = f"{base}/characters/{character_id}"
    out = [Redraw(part, f"{sheet}/parts/{part}") for part in parts]
    if form:  # the roll form, on the tab it is on, from the new baseline
        out.append(Redraw("roll-panel", f"{sheet}/roll-form/redrawn", include="#roll"))
    return out
