"""The server's problem sentences: its own table, translated, and no shared table changed on import."""

from __future__ import annotations

import string
import subprocess
import sys

import pytest

from rollbook.i18n import translations
from rollbook.server.problems import SERVER_MESSAGES, detail


def test_importing_the_server_leaves_the_engine_s_error_table_alone():
    code = (
        "from rollbook.i18n.messages import ERROR_MESSAGES\n"
        "before = dict(ERROR_MESSAGES)\n"
        "import rollbook.app.app\n"
        "print(before == ERROR_MESSAGES)"
    )
    assert (
        subprocess.run(
            [sys.executable, "-c", code], capture_output=True, text=True, check=True
        ).stdout.strip()
        == "True"
    )


@pytest.mark.parametrize("lang", ["fr", "es"])
def test_every_server_message_is_translated_with_its_placeholders(lang):
    for code, msgid in SERVER_MESSAGES.items():
        fields = {name for _, name, _, _ in string.Formatter().parse(msgid) if name}
        translated = translations(lang).gettext(msgid)
        assert translated != msgid, (code, lang, "untranslated")
        assert {name for _, name, _, _ in string.Formatter().parse(translated) if name} == fields, (
            code,
            lang,
        )


def test_detail_speaks_the_server_s_codes_and_the_engine_s():
    assert detail("busy", "en", {}) == "The chronicle is busy: try again."
    assert detail("entry_not_found", "fr", {"seq": 3}) != SERVER_MESSAGES["entry_not_found"].format(seq=3)
    assert "3" in detail("entry_not_found", "en", {"seq": 3})
    assert detail("out_of_range", "en", {"field": "dice", "value": 0, "low": 1, "high": None}).startswith(
        "dice"
    )
