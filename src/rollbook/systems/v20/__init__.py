"""Vampire: the Masquerade 20th Anniversary (V20): the system's package, a module per room (``rollbook.systems``'s
``ROOMS``)."""
