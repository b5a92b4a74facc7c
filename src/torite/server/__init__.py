"""The web face: an ASGI server (Starlette + uvicorn) that hosts tables, bots and the front end.

Import :func:`torite.server.app.create_app` to embed it; ``torite serve`` runs it.
"""
