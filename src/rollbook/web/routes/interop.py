"""Bring your character on the pages: the chronicle's "Import a sheet" form (a JSON file
or the JSON pasted; a plain multipart form, fit for a phone), the report after the import, and a
character's export for Foundry from its sheet page. Plain route functions over
``server.usecases.interop``."""

from __future__ import annotations

import json
from typing import Any

from fastapi import Request
from fastapi.responses import HTMLResponse, Response
from starlette.datastructures import UploadFile

from rollbook.interop import EXPORTS, MAX_DEPTH
from rollbook.present import labels
from rollbook.render import interop as render_interop
from rollbook.rules.base import RuleError
from rollbook.server import tx
from rollbook.server.access import STORYTELLER
from rollbook.server.hygiene import json_depth
from rollbook.server.models import Chronicle
from rollbook.server.problems import ProblemError
from rollbook.server.problems import detail as problem_detail
from rollbook.server.usecases import interop
from rollbook.web import table
from rollbook.web.deps import Db, PostedUpload, Signed, body_too_large, page_router
from rollbook.web.errors import error_detail, on_refusal
from rollbook.web.respond import page

router = page_router()

MAX_FILE = 1024 * 1024  # as the server's InputGuard: the whole request is at most 1 MiB


def _import_page(
    request: Request,
    db,
    member,
    lang: str,
    *,
    result: dict | None = None,
    error: Exception | None = None,
    pasted: str = "",
    status: int = 200,
    row: Chronicle | None = None,
) -> HTMLResponse:
    """The import page (``row``: the chronicle's, when the caller read it in the same read)."""
    state = table.load(db, member, lang, feed=False, row=row)
    problems, message, choices = [], "", []
    if error is not None:
        status, message = error_detail(error, lang)
        if isinstance(error, RuleError) and error.code.startswith("import_"):
            # the API's and the CLI's sentence: its field is a place in the file ($.system…), no form's label
            message = problem_detail(error.code, lang, error.params)
        if isinstance(error, RuleError) and error.code == "import_pick_character":
            choices = list(enumerate(error.params.get("names", [])))
        if isinstance(error, RuleError) and error.code == "import_refused":
            problems = [
                render_interop.Line(p["source"], render_interop.problem(p, lang))
                for p in error.params.get("problems", [])
            ]
    report = result["report"] if result else None
    return page(
        request,
        "import.html",
        lang,
        status=status,
        t=state,
        me=state.me,
        result=result,
        problems=problems,
        message=message,
        pasted=pasted,
        choices=choices,
        report_lines=render_interop.lines(report, lang) if report else None,
        titles=render_interop.TITLES,
        format_names=render_interop.FORMAT_NAMES,
        system_name=labels.system_name(state.chronicle["system"], lang),
    )


@router.get("/chronicles/{chronicle_id}/import", response_class=HTMLResponse)
def import_form(request: Request, db: Db, signed: Signed) -> Response:
    """The import page, drawn from one read that finds its reader first (``read_in``)."""
    with db.one_read() as db:
        member, lang, row = signed.read_in(db)
        return _import_page(request, db, member, lang, row=row)


def posted_source(form: dict[str, Any], shown: dict[str, str] | None = None) -> tuple[Any, str]:
    """The posted file's JSON, else the pasted text's: (parsed, the text to show again). A text nested
    deeper than ``interop.MAX_DEPTH`` is refused before parsing (``import_too_deep``: the parser
    would recurse), as the API's body is (``server/hygiene.py``). ``shown`` receives the text read,
    for the page to offer it again (a file holding several characters: choose one, import again)."""
    upload = form.get("file")
    text = ""
    if isinstance(upload, UploadFile) and upload.filename:
        raw = upload.file.read(MAX_FILE + 1)
        if len(raw) > MAX_FILE:
            raise ProblemError(413, "import_file_too_large", limit=MAX_FILE // (1024 * 1024))
        text = raw.decode("utf-8-sig", errors="replace")
    elif isinstance(form.get("pasted"), str):
        text = form["pasted"].strip()
    if not text:
        raise RuleError("missing_field", field="file")
    if shown is not None:
        shown["text"] = text
    if json_depth(text.encode("utf-8", errors="replace")) > MAX_DEPTH:
        raise RuleError("import_too_deep", most=MAX_DEPTH)
    try:
        return json.loads(text), text if len(text) <= 20000 else ""
    except (ValueError, RecursionError):
        raise RuleError("import_not_json") from None


def posted_pick(form: dict[str, Any]) -> int | None:
    """The character chosen in a file holding several (``pick``: its index), None when not asked."""
    given = str(form.get("pick", "")).strip()
    if not given:
        return None
    if not given.isdigit() or len(given) > 9:
        raise RuleError("out_of_range", field="pick", value=given[:20], low=0, high=999999999)
    return int(given)


@router.post("/chronicles/{chronicle_id}/import", response_class=HTMLResponse)
def import_sheet(request: Request, db: Db, signed: Signed, form: PostedUpload) -> Response:
    """A sheet imported: its one write (the member found in it; the names a file gives as keys in the
    reader's language, the chronicle's the default), then the report's page drawn from one read."""
    given = form.get("pasted")
    pasted = given if isinstance(given, str) else ""
    shown = {"text": pasted}

    def refused(error: Exception) -> Response:  # a file of several characters: its text kept to choose
        picking = isinstance(error, RuleError) and error.code == "import_pick_character"
        return _import_page(
            request,
            db,
            signed.member,
            signed.lang(),
            error=error,
            pasted=shown["text"] if picking else pasted,
        )

    on_refusal(request, refused)
    too_large = body_too_large(request)
    if too_large is not None:  # the server's InputGuard kept the body from every route (server/hygiene.py)
        raise ProblemError(413, "import_file_too_large", limit=too_large // (1024 * 1024))
    source, text = posted_source(form, shown)
    pick = posted_pick(form)

    def lang(chronicle: Chronicle) -> str:
        signed.knows(chronicle)
        return signed.lang()

    def work(s, member) -> dict:
        fields: dict[str, Any] = {"source": source, "lang": lang, "pick": pick}
        if member.role == STORYTELLER:
            owner = str(form.get("owner", "")).strip()
            fields["owner"] = int(owner) if owner.isdigit() else None
        return interop.import_character(s, member, **fields)

    plain_form = {key: value for key, value in form.items() if isinstance(value, str)} | {"source": text}
    result = signed.write(db, work, plain_form)
    with db.one_read() as db:
        member, lang_, row = signed.answer_in(db)
        return _import_page(request, db, member, lang_, result=result, status=201, row=row)


@router.get("/chronicles/{chronicle_id}/characters/{character_id}/export")
def export_character(request: Request, character_id: int, db: Db, signed: Signed) -> Response:
    """A character's sheet as another tool's file: one write (logged), its reader found in it
    (``member_in``), as the API's signed writes find theirs."""

    def refused(error: Exception) -> Response:
        lang = signed.lang()  # read only for a refusal: the export itself is JSON
        return page(
            request,
            "error.html",
            lang,
            status=error_detail(error, lang)[0],
            message=error_detail(error, lang)[1],
        )

    on_refusal(request, refused)
    fmt = request.query_params.get("format", "")

    def work(session) -> dict:
        member = signed.member_in(session)
        if fmt not in EXPORTS:
            raise RuleError("bad_choice", field="format", value=fmt, choices=list(EXPORTS))
        return interop.export_character(session, member, character_id, fmt)

    exported = tx.run(db, work)
    body = json.dumps(exported, ensure_ascii=False, indent=1)
    return Response(
        body,
        media_type="application/json",
        headers={"Content-Disposition": f'attachment; filename="character-{character_id}-{fmt}.json"'},
    )
