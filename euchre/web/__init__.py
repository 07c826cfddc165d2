"""The browser table: a thin, typed transport over the engine, with persistence.

``euchre.web.app`` holds the HTTP routes and the wiring; ``euchre.web.server`` puts the table
server together from pieces with one job each: ``transport`` (a websocket's reader, writer and
limits), ``rooms`` (live tables, creating and joining), ``moves`` (acts, commits and computer
turns), ``runner`` (where computer players think), ``actionlog`` (the group commit), ``away``
(stand-ins for absent people), ``chat``, ``hints`` and ``limits``. ``euchre.web.table`` holds one
live table (a :class:`~euchre.Match` rebuilt from its action log); ``euchre.web.store`` is the
database (SQLAlchemy 2, Alembic migrations) whose append-only action log is the persisted
truth; ``euchre.web.schemas`` declares every message a browser may send and
``euchre.web.messages`` every message it is sent, built from a seat's view only.
``euchre.web.loadgen`` is the load generator of ``euchre bench server``.
Nothing here decides a rule: every action goes through the engine.
"""
