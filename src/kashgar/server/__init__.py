"""Kashgar in the browser: the game server (``kashgar serve``).

:func:`create_app` builds the ASGI application; :func:`serve` runs it with uvicorn. See
``docs/web.md`` for the API, the storage and the security model.
"""

from __future__ import annotations

from typing import Any

__all__ = ["create_app", "serve"]


def create_app(*args: Any, **kwargs: Any) -> Any:
    """Build the ASGI application (see :func:`kashgar.server.app.create_app`).

    Imported lazily, so that ``kashgar`` commands other than ``serve`` do not load the web stack.
    """
    from .app import create_app as _create_app

    return _create_app(*args, **kwargs)


def serve(
    host: str = "127.0.0.1",
    port: int = 8000,
    db_url: str | None = None,
    *,
    bot_workers: int = 1,
    bot_delay: float = 0.4,
    public_url: str | None = None,
    log_level: str = "info",
) -> None:
    """Run the server until interrupted. ``db_url`` defaults to SQLite in ``data/kashgar.sqlite3``."""
    import uvicorn

    from .db import DEFAULT_DB

    db_url = db_url or DEFAULT_DB
    shown = "localhost" if host in ("0.0.0.0", "::", "127.0.0.1") else host
    url = public_url or f"http://{shown}:{port}"
    app = create_app(db_url, bot_workers=bot_workers, bot_delay=bot_delay, public_url=url)
    print(f"Kashgar: open {url}/ in your browser (database {_safe(db_url)})", flush=True)
    uvicorn.run(app, host=host, port=port, log_level=log_level, lifespan="on",
                access_log=log_level in ("debug", "info"))


def _safe(url: str) -> str:
    """The database URL without its password."""
    from sqlalchemy.engine import make_url

    try:
        return make_url(url).render_as_string(hide_password=True)
    except Exception:  # pragma: no cover
        return "?"
