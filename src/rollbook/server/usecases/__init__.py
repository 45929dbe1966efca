"""The use cases of the chronicle server, grouped by area. Each is a plain function taking a
SQLAlchemy ``Session`` (and, for a member, the ``Member`` their token opened) and returning plain
JSON (``rollbook.server.views``). The JSON API (``app/api.py``) and the web pages
(``rollbook.web``) both call these, and neither queries the models itself.

No use case commits: the caller owns the transaction (``tx.run`` / ``tx.idempotent`` to change,
``Database.read()`` to read). No use case knows HTTP (no FastAPI or Starlette import; a test
checks it): refusals are ``ProblemError(status, code)`` or the rules' ``RuleError``.

- ``chronicles``: create, join, invitations, settings, members, who am I
- ``characters``: add, list, read, edit sheets; adjustments (resources, experience)
- ``rolls``: rolls named by traits, follow-ups (V5 Willpower reroll), standing difficulty
- ``log``: reading (pages, entries, the live feed's reads), reveals, export

Every state change follows one pattern, in one transaction:

1. lock the chronicle row, then the character row (``access``);
2. call the pure game logic (``rollbook.play``) on the stored sheet, with the dice source the caller
   passes (``source=``; ``SecureDice()`` when none is given);
3. write the new sheet under its version guard (``store.save_sheet``);
4. append the receipt to the chronicle's hash-chained log (``store.append_entry``).
"""
