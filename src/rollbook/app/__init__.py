"""The HTTP shell: the ASGI app and the JSON API, over the server's use cases.

- ``app.create_app(database_url=None)``: the ASGI app (JSON API under ``/api``, OpenAPI at
  ``/openapi.json``); mounts the web pages (``rollbook.web.mount``) and Discord's endpoint.
- ``api`` and ``api_*``: the JSON API's routers, one per area; ``api_models`` their request bodies;
  ``openapi`` the typed OpenAPI document.
- ``serving``: how ``rollbook serve`` runs the app under uvicorn.

The shell sits above everything it wires: ``server`` (storage and use cases), ``present``, ``web``
and ``discord``; none of them imports it. See ``docs/ARCHITECTURE.md``.
"""
