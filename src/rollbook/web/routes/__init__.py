"""The web table's routes, one module per area (each an ``APIRouter`` of ``PageRoute``s):
``home`` (create, join, sign in and out), ``chronicle`` (the table, its settings), ``characters``
(new character, the sheet, its forms and odds, edits), ``rolls`` (rolls, adjustments, follow-ups,
reveals, one receipt's page). The live feed is ``rollbook.web.live``.
"""
