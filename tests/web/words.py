"""The words check the generated words test applies to every card, page and Discord embed in French and
Spanish, built from the catalogues and the CLDR's rules through Babel rather than from a hand-made list:

- plural agreement: a count the CLDR says is singular ("one": 0 and 1 in French, 1 in Spanish) before a
  plural word of the catalogues' own plural forms ("1 dés", "1 dados"), and hand-made plurals ("champ(s)");
- decimal signs: a decimal number written with the English point where the locale's sign is a comma;
- French colon and percent spacing: a colon or a percent sign glued to what it follows ("Repris: 67",
  "4,2%"; the catalogues' space, a no-break one or the narrow one all pass);
- French elision: "de", "que", "le", "la" before a word that starts with a vowel ("de Inès")."""

from __future__ import annotations

import re
from functools import cache

from babel import Locale
from babel.messages.pofile import read_po
from babel.numbers import get_decimal_symbol

from .helpers import LOCALE

COUNT = re.compile(r"^(?:\{n\}|\{count\}|%\(num\)s|%\(n\)s|\{dice\}) (\w+)")
VOWEL = "AEIOUÀÂÄÉÈÊËÎÏÔÖÙÛÜaeiouàâäéèêëîïôöùûü"
ELISION = re.compile(rf"(?<![\w’'-])(?:[Dd]e|[Qq]ue|[Ll]e|[Ll]a|[Jj]usque) (?=[{VOWEL}]\w)")
HAND_MADE_PLURAL = re.compile(r"\w\((?:s|es|x)\)")
GLUED_COLON = re.compile(r"(?<=[^\s\d/:])[:;!?](?=\s|$)")
GLUED_PERCENT = re.compile(r"\d%")


@cache
def plural_words(lang: str) -> frozenset[str]:
    """The words the catalogues put after a count in a plural form only ("dés", not "dé")."""
    words = set()
    for po in (LOCALE / lang / "LC_MESSAGES").glob("*.po"):
        with po.open("rb") as handle:
            for message in read_po(handle):
                if not isinstance(message.string, tuple) or not message.string[0]:
                    continue
                one = COUNT.match(message.string[0])
                for form in message.string[1:]:
                    other = COUNT.match(form or "")
                    if other and (not one or one.group(1) != other.group(1)):
                        words.add(other.group(1))
    return frozenset(words)


@cache
def singular_counts(lang: str) -> tuple[int, ...]:
    """The small whole counts the CLDR's plural rule of ``lang`` calls "one"."""
    rule = Locale.parse(lang).plural_form
    return tuple(n for n in range(0, 3) if rule(n) == "one")


def word_problems(text: str, lang: str) -> list[str]:
    """What reads wrong in ``text`` (a page's visible text or an embed's) in ``lang``."""
    found = []
    counts = "|".join(str(n) for n in singular_counts(lang))
    plurals = "|".join(sorted(map(re.escape, plural_words(lang)), key=len, reverse=True))
    for match in re.finditer(rf"(?<![\d.,\w−-])(?:{counts})\s(?:{plurals})\b", text):
        found.append(
            f"plural after a singular count: {text[max(0, match.start() - 25) : match.end() + 15]!r}"
        )
    for match in HAND_MADE_PLURAL.finditer(text):
        found.append(f"hand-made plural: {text[max(0, match.start() - 12) : match.end()]!r}")
    if get_decimal_symbol(lang) != ".":
        for match in re.finditer(r"(?<![\w.:/#-])\d+\.\d+(?![\w.:/-])", text):
            found.append(f"decimal point: {text[max(0, match.start() - 20) : match.end() + 5]!r}")
    for match in GLUED_PERCENT.finditer(text):
        found.append(f"percent glued to its number: {text[max(0, match.start() - 20) : match.end()]!r}")
    if lang == "fr":
        for match in GLUED_COLON.finditer(text):
            found.append(f"colon without its space: {text[max(0, match.start() - 20) : match.end() + 8]!r}")
        for match in ELISION.finditer(text):
            found.append(f"no elision: {text[match.start() : match.end() + 12]!r}")
    return found


def play_the_other_kinds(client, app, t, player: dict, first: dict) -> None:
    """The log's kinds besides the rolls, changes, asks and reveals ``play_everything`` plays, on the
    chronicle ``t`` (its player ``player``, ``first`` a roll of its system): the Storyteller's settings,
    a scene with a turn and declared actions, a standing grant, a withdrawn ask, a compulsion (V5), a
    client seed, a contest and an extended action, the fair seeds revealed and one abandoned, quick
    rolls, a sheet exported and imported, a character and a member removed."""
    import secrets

    from sqlalchemy import select

    from rollbook.server import seal
    from rollbook.server.models import FairSeed
    from rollbook.server.usecases import characters, rolls
    from tests.server.helpers import as_member
    from tests.server.receipts import ok, players_own, sheet

    def sealed_elsewhere(session, _member) -> None:  # F-1: the key file replaced, the seed unreadable
        row = session.scalars(
            select(FairSeed).where(
                FairSeed.chronicle_id == t.id, FairSeed.stream == "public", FairSeed.revealed_seq.is_(None)
            )
        ).one()
        row.sealed = seal.seal(secrets.token_bytes(32), t.id, row.commitment, secret="another secret")

    base = t.base
    mine = players_own(t, player, sheet(t.system, "Inès"))
    foe = t.character(t.st, sheet(t.system, "Ulrich"))
    pools = t.system in ("v5", "v20")  # a standing difficulty, contests, extended actions (A-5, TR-3, TR-4)
    if pools:
        ok(client.patch(base, headers=t.st, json={"difficulty": 3}), 200)  # settings
    ok(client.post(f"{base}/scenes", headers=t.st, json={"name": "Les quais"}))  # scene_open
    ok(client.post(f"{base}/scene/turns", headers=t.st, json={}))  # turn
    ok(client.post(f"{base}/characters/{mine['id']}/actions", headers=t.st, json={"actions": 2}))
    if pools:
        edges = {"edges": {"difficulty": 2}}
        standing = ok(client.post(f"{base}/standing-grants", headers=t.st, json=edges))
        ok(client.delete(f"{base}/standing-grants/{standing['standing']['id']}", headers=t.st), 200)
    asked = ok(t.roll(player, mine["id"], first, hidden=True, ask=True), 202)
    ok(client.post(f"{base}/asks/{asked['ask']['id']}/withdraw", headers=player), 200)  # withdrawal
    if t.system == "v5":
        called = {"compulsion": "hunger"}
        ok(client.post(f"{base}/characters/{mine['id']}/compulsion", headers=t.st, json=called))
        ok(client.delete(f"{base}/characters/{mine['id']}/compulsion", headers=t.st), 200)
    ok(client.put(f"{base}/members/me/client-seed", headers=player, json={"client_seed": "à moi"}), 200)
    if pools:
        # a V5 side has no difficulty: its successes count against the other side's (TR-3)
        side = {k: v for k, v in first.items() if not (t.system == "v5" and k == "difficulty")}
        sides = {"attacker": {"character": mine["id"], "action": side}}
        sides["defender"] = {"character": foe["id"], "action": side}
        contest = ok(client.post(f"{base}/contests", headers=t.st, json=sides))
        for side in ("attacker", "defender"):  # the second logs the contest_result
            rolled = {"side": side}
            ok(client.post(f"{base}/contests/{contest['entry']['seq']}/rolls", headers=t.st, json=rolled))
        extended = {"character": mine["id"], "action": first, "target": 1, "max_rolls": 3}
        begun = ok(client.post(f"{base}/extended", headers=t.st, json=extended))
        for _ in range(3):  # rolled until it is over (reached, or out of rolls)
            step = client.post(f"{base}/extended/{begun['entry']['seq']}/rolls", headers=t.st)
            if step.status_code != 201:
                break
    ok(client.post(f"{base}/scene/close", headers=t.st), 200)  # scene_close, seed_reveal, seed_commit
    if pools:  # the seed committed when the scene closed: given up unreadable
        as_member(app, t.st, sealed_elsewhere)
        ok(client.post(f"{base}/fair/abandon", headers=t.st))  # seed_abandon
    as_member(app, t.st, lambda s, m: rolls.set_quick_rolls(s, m, True))  # quick_setting
    if pools:
        as_member(app, player, lambda s, m: rolls.quick_roll(s, m, {"pool": 3}))  # quick_roll
    if pools:  # the V5 and V20 sheets' formats (docs/import.md)
        exported = ok(client.get(f"{base}/characters/{mine['id']}/export", headers=player), 200)
        ok(client.post(f"{base}/characters/import", headers=t.st, json={"source": exported}))
    as_member(app, t.st, lambda s, m: characters.remove_character(s, m, foe["id"]))  # removal
    gone = t.join("Théo")
    me = client.get("/api/me", headers=gone).json()["member"]["id"]
    ok(client.delete(f"{base}/members/{me}", headers=t.st), 200)  # member_removed
