"""Storage: the three tables of the server and the database connection (SQLAlchemy Core).

A game is stored as its options, its seed and the list of actions in notation; the engine is
deterministic, so replaying the actions rebuilds the exact position. Every change of a game (a
move, an undo, a seat taken over) bumps ``games.version`` in the same transaction that changes the
rows, guarded by ``WHERE version = <the version the change was made against>``: of two concurrent
changes exactly one matches.

SQLite (the default, one file in a data folder) and PostgreSQL (through psycopg 3) use the same
code. SQLite runs in WAL mode with ``synchronous=NORMAL``: a committed transaction survives the
server process being killed at any moment (it is in the write-ahead log before the commit returns);
only a crash of the whole machine can lose the last commits.
"""

from __future__ import annotations

from pathlib import Path

from sqlalchemy import (
    JSON,
    BigInteger,
    Boolean,
    Column,
    Float,
    ForeignKey,
    Index,
    Integer,
    MetaData,
    String,
    Table,
    create_engine,
    event,
)
from sqlalchemy.engine import Engine, make_url

DEFAULT_DB = "sqlite:///data/kashgar.sqlite3"
DB_THREADS = 6  # PostgreSQL: threads (and pooled connections) the hub runs transactions in

metadata = MetaData()

games = Table(
    "games",
    metadata,
    Column("id", String(32), primary_key=True),
    Column("created", Float, nullable=False),
    Column("updated", Float, nullable=False),
    Column("options", JSON, nullable=False),
    Column("seed", BigInteger, nullable=False),
    Column("status", String(16), nullable=False),  # active | finished
    Column("version", Integer, nullable=False),
    Column("clock", Integer, nullable=True),  # seconds per decision of a person, or NULL
    Column("turn_started", Float, nullable=False),  # when the pending decision began (for the clock)
    Column("takeover_bot", String(64), nullable=False),
    Column("creator_hash", String(64), nullable=True),
    Column("undo_request", JSON, nullable=True),
)

seats = Table(
    "seats",
    metadata,
    Column("game_id", String(32), ForeignKey("games.id", ondelete="CASCADE"), primary_key=True),
    Column("seat", Integer, primary_key=True),
    Column("kind", String(8), nullable=False),  # human | bot
    Column("bot_spec", String(64), nullable=True),
    Column("name", String(64), nullable=False),
    Column("secret_hash", String(64), nullable=True, unique=True),
    Column("invite_hash", String(64), nullable=True, unique=True),
    Column("claimed", Float, nullable=True),
    Column("webhook_url", String(500), nullable=True),
    Column("last_seen", Float, nullable=True),
    Column("taken_over", String(16), nullable=True),  # NULL | timeout | resigned
)

actions = Table(
    "actions",
    metadata,
    Column("game_id", String(32), ForeignKey("games.id", ondelete="CASCADE"), primary_key=True),
    Column("seq", Integer, primary_key=True),
    Column("seat", Integer, nullable=False),
    Column("action", String(40), nullable=False),
    Column("auto", Boolean, nullable=False, default=False),  # forced: the only legal action
    Column("bot", Boolean, nullable=False, default=False),  # chosen by a bot
    Column("at", Float, nullable=False),
)

Index("games_status", games.c.status)


def normalise_url(url: str | None) -> str:
    """A SQLAlchemy URL from what a user types: ``postgresql://`` uses psycopg 3; a SQLite file's
    folder is created."""
    url = (url or DEFAULT_DB).strip()
    if url.startswith("postgres://"):
        url = "postgresql://" + url[len("postgres://"):]
    if url.startswith("postgresql://"):
        url = "postgresql+psycopg://" + url[len("postgresql://"):]
    u = make_url(url)
    if u.get_backend_name() == "sqlite":
        db = u.database or ""
        if db and db != ":memory:" and not db.startswith("file:"):
            Path(db).expanduser().resolve().parent.mkdir(parents=True, exist_ok=True)
    elif u.get_backend_name() != "postgresql":
        raise ValueError(f"unsupported database {u.get_backend_name()!r}: use sqlite:///FILE or postgresql://...")
    return url


def make_engine(url: str | None) -> Engine:
    """The engine for ``url`` with the tables created."""
    url = normalise_url(url)
    u = make_url(url)
    if u.get_backend_name() == "sqlite":
        memory = (u.database or ":memory:") == ":memory:"
        kw: dict = {"connect_args": {"check_same_thread": False, "timeout": 30}}
        if memory:
            from sqlalchemy.pool import StaticPool

            kw["poolclass"] = StaticPool
        engine = create_engine(url, **kw)

        @event.listens_for(engine, "connect")
        def _pragmas(dbapi_conn, _record) -> None:  # pragma: no cover - trivial
            cur = dbapi_conn.cursor()
            if not memory:
                cur.execute("PRAGMA journal_mode=WAL")
                cur.execute("PRAGMA synchronous=NORMAL")
            cur.execute("PRAGMA foreign_keys=ON")
            cur.close()
    else:
        # One connection per database thread of the hub (see Hub); no pre-ping, which would cost a
        # round trip per transaction: a connection broken by a database restart fails one request.
        engine = create_engine(url, pool_size=DB_THREADS, max_overflow=4, pool_recycle=3600)
    metadata.create_all(engine)
    return engine


def is_sqlite(engine: Engine) -> bool:
    return engine.dialect.name == "sqlite"
