"""Database operations of the server, synchronous (the hub runs them in a thread pool).

Every change of a game goes through :meth:`Store.change`: one transaction that first bumps
``games.version`` where it still has the version the change was made against, and only then
writes; if another change got there first nothing is written and ``False`` is returned.
"""

from __future__ import annotations

import json
from typing import Any

from sqlalchemy import delete, insert, select, update
from sqlalchemy.engine import Engine

from .db import actions, games, make_engine, seats


class Store:
    def __init__(self, url: str | None) -> None:
        self.engine: Engine = make_engine(url)
        self.dialect = self.engine.dialect.name

    def close(self) -> None:
        self.engine.dispose()

    # ---------------------------------------------------------------- reads

    def load(self, gid: str) -> tuple[dict, list[dict], list[tuple[int, str, bool, bool, float]]] | None:
        with self.engine.connect() as c:
            g = c.execute(select(games).where(games.c.id == gid)).mappings().first()
            if g is None:
                return None
            s = [dict(r) for r in c.execute(select(seats).where(seats.c.game_id == gid).order_by(seats.c.seat)).mappings()]
            a = [
                (r.seat, r.action, bool(r.auto), bool(r.bot), r.at)
                for r in c.execute(
                    select(actions.c.seat, actions.c.action, actions.c.auto, actions.c.bot, actions.c.at)
                    .where(actions.c.game_id == gid)
                    .order_by(actions.c.seq)
                )
            ]
            return dict(g), s, a

    def active_ids(self) -> list[str]:
        with self.engine.connect() as c:
            return [r[0] for r in c.execute(select(games.c.id).where(games.c.status == "active"))]

    def seat_by_secret(self, secret_hash: str) -> tuple[str, int] | None:
        with self.engine.connect() as c:
            r = c.execute(select(seats.c.game_id, seats.c.seat).where(seats.c.secret_hash == secret_hash)).first()
            return None if r is None else (r[0], r[1])

    def seat_by_invite(self, invite_hash: str) -> tuple[str, int] | None:
        with self.engine.connect() as c:
            r = c.execute(select(seats.c.game_id, seats.c.seat).where(seats.c.invite_hash == invite_hash)).first()
            return None if r is None else (r[0], r[1])

    # ---------------------------------------------------------------- writes

    def create(self, game: dict, seat_rows: list[dict], action_rows: list[dict]) -> None:
        with self.engine.begin() as c:
            c.execute(insert(games), [game])
            c.execute(insert(seats), seat_rows)
            if action_rows:
                c.execute(insert(actions), action_rows)

    def change(self, gid: str, version: int, game_values: dict[str, Any], *, bump: bool = True,
               add: list[dict] | None = None, drop_from: int | None = None,
               seat_values: dict[int, dict[str, Any]] | None = None) -> bool:
        """One transaction: the version check (and bump), then the writes. False: stale.

        Moves (the hot path: a version bump, maybe some inserted actions) go straight through the
        database driver; everything else through SQLAlchemy."""
        if drop_from is None and not seat_values:
            return self._fast_change(gid, version, game_values, bump, add or [])
        return self._change(gid, version, game_values, bump=bump, add=add, drop_from=drop_from,
                            seat_values=seat_values)

    def _ph(self, name: str) -> str:
        return f"%({name})s" if self.dialect == "postgresql" else f":{name}"

    def _json(self, value: Any) -> Any:
        if value is None:
            return None
        if self.dialect == "postgresql":
            from psycopg.types.json import Json

            return Json(value)
        return json.dumps(value)

    def _fast_change(self, gid: str, version: int, game_values: dict[str, Any], bump: bool, add: list[dict]) -> bool:
        values = dict(game_values)
        if bump:
            values["version"] = version + 1
        if "undo_request" in values:
            values["undo_request"] = self._json(values["undo_request"])
        params = {f"v_{k}": v for k, v in values.items()}
        params["k_id"] = gid
        params["k_version"] = version
        sets = ", ".join(f"{k} = {self._ph('v_' + k)}" for k in values)
        sql = f"UPDATE games SET {sets} WHERE id = {self._ph('k_id')} AND version = {self._ph('k_version')}"
        insert_sql = (
            "INSERT INTO actions (game_id, seq, seat, action, auto, bot, at) VALUES ("
            + ", ".join(self._ph(c) for c in ("game_id", "seq", "seat", "action", "auto", "bot", "at")) + ")"
        )
        conn = self.engine.raw_connection()
        try:
            cur = conn.cursor()
            cur.execute(sql, params)
            if cur.rowcount != 1:
                conn.rollback()
                return False
            if add:
                cur.executemany(insert_sql, add)
            conn.commit()
            return True
        except BaseException:
            conn.rollback()
            raise
        finally:
            conn.close()

    def _change(
        self,
        gid: str,
        version: int,
        game_values: dict[str, Any],
        *,
        bump: bool = True,
        add: list[dict] | None = None,
        drop_from: int | None = None,
        seat_values: dict[int, dict[str, Any]] | None = None,
    ) -> bool:
        values = dict(game_values)
        if bump:
            values["version"] = version + 1
        with self.engine.begin() as c:
            n = c.execute(update(games).where(games.c.id == gid, games.c.version == version).values(**values)).rowcount
            if n != 1:
                return False
            if drop_from is not None:
                c.execute(delete(actions).where(actions.c.game_id == gid, actions.c.seq >= drop_from))
            if add:
                c.execute(insert(actions), add)
            for seat, vals in (seat_values or {}).items():
                c.execute(update(seats).where(seats.c.game_id == gid, seats.c.seat == seat).values(**vals))
        return True

    def claim(self, invite_hash: str, secret_hash: str, name: str, now: float) -> bool:
        """Claim the seat of an invitation; False if it was claimed meanwhile."""
        with self.engine.begin() as c:
            n = c.execute(
                update(seats)
                .where(seats.c.invite_hash == invite_hash, seats.c.claimed.is_(None))
                .values(secret_hash=secret_hash, claimed=now, name=name, invite_hash=None, last_seen=now)
            ).rowcount
            return n == 1

    def set_seat(self, gid: str, seat: int, **values: Any) -> None:
        with self.engine.begin() as c:
            c.execute(update(seats).where(seats.c.game_id == gid, seats.c.seat == seat).values(**values))
