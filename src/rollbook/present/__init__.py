"""Presentation, below the faces: what the web pages and Discord both show, in the reader's words.

Log entries as cards (``present``), a sheet read-only (``sheetview``), the odds before a roll
(``preview``), the names of traits, fields and choices (``labels``), the forms built from the play
layer's schemas (``forms``), and the cards and panels of the table's authority, contests, the combat
chain, fair dice and V5. The web table (``rollbook.web``) and Discord (``rollbook.discord``) import
this package; it imports neither of them, nor the HTTP shell: only the rules, play, odds, render,
i18n and the server's reads and use cases.
"""
