"""Vampire: the Masquerade 5th edition (V5): the system's package, a module per room (``rollbook.systems``'s
``ROOMS``)."""
