"""the roll-under game: the system's package, a module per room (``rollbook.systems``'s
``ROOMS``)."""
