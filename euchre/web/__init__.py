"""The browser table: a thin, typed transport over the engine, with persistence.

``euchre.web.app`` is the Starlette application (HTTP API, websockets, static client);
``euchre.web.table`` holds one live table (a :class:`~euchre.Match` rebuilt from its action log);
``euchre.web.store`` is the database (SQLAlchemy 2, Alembic migrations) whose append-only action
log is the persisted truth; ``euchre.web.schemas`` declares every message with msgspec.
Nothing here decides a rule: every action goes through the engine.
"""
