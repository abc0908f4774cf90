"""The hub: live games in memory, every change committed to the database first, then told.

One :class:`Live` per game holds the rebuilt :class:`~kashgar.game.Game`, its log and its seats. A
change (move, undo, seat taken over) runs under the game's lock: it is checked against the version
the client saw, computed on a copy of the game, committed in one transaction that re-checks the
version in the database, and only then becomes the cached state and is pushed to the connected
seats (each receives only its own seat's view), the webhooks and the bots.

Bots think in a worker process pool; a bot's move is an ordinary move against the version it
thought about, so a bot that was overtaken (undo, takeover) is simply refused. After a restart the
active games are rebuilt by replay and the bots whose turn it is, and the clocks, resume.
"""

from __future__ import annotations

import asyncio
import concurrent.futures as cf
import hashlib
import logging
import multiprocessing
import os
import secrets
import time
from dataclasses import dataclass, field
from typing import Any

from .. import actions as A
from ..cards import load_cards
from ..game import Game, IllegalAction, Options
from ..records import make_record
from . import botworker
from .db import DB_THREADS
from .play import (
    MAX_CLOCK,
    MIN_CLOCK,
    BadRequest,
    check_bot_spec,
    check_name,
    forced_steps,
    parse_options,
    rebuild,
    step,
    undo_options,
)
from .store import Store

log = logging.getLogger("kashgar.server")


def hash_secret(secret: str) -> str:
    return hashlib.sha256(secret.encode()).hexdigest()


@dataclass
class SeatState:
    seat: int
    kind: str  # human | bot
    bot_spec: str | None
    name: str
    secret_hash: str | None
    claimed: float | None
    webhook_url: str | None
    taken_over: str | None
    last_seen: float | None = None
    persisted_seen: float = 0.0

    @property
    def bot(self) -> bool:
        """Played by a bot (a bot seat, or a person's seat taken over)."""
        return self.kind == "bot" or self.taken_over is not None


@dataclass
class Subscriber:
    seat: int
    send: Any  # async callable(str)
    sent: int = 0  # log entries the client has
    wake: asyncio.Event = field(default_factory=asyncio.Event)
    task: asyncio.Task | None = None


@dataclass
class Live:
    id: str
    options: Options
    seed: int
    version: int
    status: str
    clock: int | None
    turn_started: float
    takeover_bot: str
    created: float
    seats: list[SeatState]
    game: Game
    rows: list[tuple[int, str, bool, bool, float]]
    log: list[dict]
    undo_request: dict | None = None
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    subs: list[Subscriber] = field(default_factory=list)
    bot_version: int = -1
    timer: asyncio.TimerHandle | None = None

    def humans(self) -> list[int]:
        return [s.seat for s in self.seats if not s.bot]


class Hub:
    def __init__(
        self,
        db_url: str | None,
        *,
        bot_workers: int = 1,
        bot_delay: float = 0.4,
        public_url: str = "",
        webhook_timeout: float = 5.0,
        min_clock: int = MIN_CLOCK,
    ) -> None:
        self.min_clock = min_clock
        self.store = Store(db_url)
        self.cards = load_cards()
        self.bot_delay = bot_delay
        self.public_url = public_url.rstrip("/")
        self.webhook_timeout = webhook_timeout
        self.games: dict[str, Live] = {}
        self.secrets: dict[str, tuple[str, int]] = {}
        self._loading: dict[str, asyncio.Future] = {}
        n_db = 1 if self.store.dialect == "sqlite" else DB_THREADS
        # SQLite commits in WAL mode take tens of microseconds (no network, no fsync per commit):
        # cheaper in the event loop than a hop to a thread. PostgreSQL goes through the pool.
        self.inline_db = self.store.dialect == "sqlite" and os.environ.get("KASHGAR_DB_THREAD") != "1"
        self.db_pool = cf.ThreadPoolExecutor(max_workers=n_db, thread_name_prefix="kashgar-db")
        self.bot_workers = bot_workers
        self.bot_pool: cf.Executor | None = None
        self.tasks: set[asyncio.Task] = set()
        self.http = None
        self.closed = False

    # ---------------------------------------------------------------- life cycle

    def _make_bot_pool(self) -> cf.Executor:
        if self.bot_workers <= 0:
            self.cards = load_cards()
            return cf.ThreadPoolExecutor(max_workers=1, thread_name_prefix="kashgar-bot")
        ctx = multiprocessing.get_context("spawn")
        return cf.ProcessPoolExecutor(max_workers=self.bot_workers, mp_context=ctx, initializer=botworker.init_worker)

    async def start(self) -> None:
        """Rebuild every active game, then resume its bot and its clock."""
        self.bot_pool = self._make_bot_pool()
        ids = await self.db(self.store.active_ids)
        for gid in ids:
            try:
                live = await self.get(gid)
            except Exception:  # pragma: no cover - a corrupt game must not stop the server
                log.exception("cannot rebuild game %s", gid)
                continue
            self._schedule(live)
        self._spawn(self._sweep())

    async def _sweep(self, every: float = 60.0, idle: float = 600.0) -> None:
        """Drop finished games nobody watches from memory (they are rebuilt on demand). Active
        games stay: their bots and clocks run from here."""
        while not self.closed:
            await asyncio.sleep(every)
            now = time.time()
            for gid, live in list(self.games.items()):
                last = live.rows[-1][4] if live.rows else live.created
                if live.status == "finished" and not live.subs and not live.lock.locked() and now - last > idle:
                    del self.games[gid]

    async def stop(self) -> None:
        self.closed = True
        for live in self.games.values():
            if live.timer:
                live.timer.cancel()
            for sub in live.subs:
                if sub.task:
                    sub.task.cancel()
        for t in list(self.tasks):
            t.cancel()
        if self.http is not None:
            await self.http.aclose()
        if self.bot_pool is not None:
            self.bot_pool.shutdown(wait=False, cancel_futures=True)
        self.db_pool.shutdown(wait=True)
        self.store.close()

    async def db(self, fn, *args, **kw):
        if self.inline_db:
            return fn(*args, **kw)
        loop = asyncio.get_running_loop()
        if kw:
            return await loop.run_in_executor(self.db_pool, lambda: fn(*args, **kw))
        return await loop.run_in_executor(self.db_pool, fn, *args)

    def _spawn(self, coro) -> asyncio.Task:
        t = asyncio.get_running_loop().create_task(coro)
        self.tasks.add(t)
        t.add_done_callback(self.tasks.discard)
        return t

    # ---------------------------------------------------------------- loading

    async def get(self, gid: str) -> Live:
        live = self.games.get(gid)
        if live is not None:
            return live
        if not isinstance(gid, str) or not 1 <= len(gid) <= 32:
            raise BadRequest("no such game", 404)
        fut = self._loading.get(gid)
        if fut is None:
            fut = asyncio.get_running_loop().create_future()
            self._loading[gid] = fut
            try:
                data = await self.db(self.store.load, gid)
                live = None if data is None else self._build(*data)
                if live is not None:
                    self.games[gid] = live
                    for s in live.seats:
                        if s.secret_hash:
                            self.secrets[s.secret_hash] = (gid, s.seat)
                fut.set_result(live)
            except BaseException as exc:
                fut.set_exception(exc)
                raise
            finally:
                del self._loading[gid]
        else:
            live = await asyncio.shield(fut)
        if live is None:
            raise BadRequest("no such game", 404)
        return live

    def _build(self, g: dict, seat_rows: list[dict], rows: list) -> Live:
        options = Options.from_dict(g["options"])
        r = rebuild(options, g["seed"], [x[:4] for x in rows])
        seats = [
            SeatState(
                seat=s["seat"], kind=s["kind"], bot_spec=s["bot_spec"], name=s["name"], secret_hash=s["secret_hash"],
                claimed=s["claimed"], webhook_url=s["webhook_url"], taken_over=s["taken_over"],
                last_seen=s["last_seen"], persisted_seen=s["last_seen"] or 0.0,
            )
            for s in seat_rows
        ]
        for e, row in zip(r.log, rows):
            e["at"] = row[4]
        return Live(
            id=g["id"], options=options, seed=g["seed"], version=g["version"], status=g["status"], clock=g["clock"],
            turn_started=g["turn_started"], takeover_bot=g["takeover_bot"], created=g["created"], seats=seats,
            game=r.game, rows=list(rows), log=r.log, undo_request=g["undo_request"],
        )

    # ---------------------------------------------------------------- auth

    async def auth(self, gid: str, token: str | None) -> tuple[Live, int]:
        """The game and the seat a secret belongs to (401 without one, 403 for a wrong one)."""
        if not token:
            raise BadRequest("this needs your seat's secret (header Authorization: Bearer SECRET)", 401)
        if len(token) > 200:
            raise BadRequest("unknown seat secret", 403)
        h = hash_secret(token)
        hit = self.secrets.get(h)
        if hit is None:
            hit = await self.db(self.store.seat_by_secret, h)
            if hit is not None:
                self.secrets[h] = hit
        if hit is None or hit[0] != gid:
            raise BadRequest("this secret does not belong to a seat of this game", 403)
        live = await self.get(gid)
        seat = hit[1]
        st = live.seats[seat]
        now = time.time()
        st.last_seen = now
        if now - st.persisted_seen > 60:
            st.persisted_seen = now
            self._spawn(self.db(self.store.set_seat, gid, seat, last_seen=now))
        return live, seat

    async def seat_of(self, token: str) -> tuple[str, int] | None:
        if not isinstance(token, str) or not token or len(token) > 200:
            return None
        h = hash_secret(token)
        hit = self.secrets.get(h)
        if hit is None:
            hit = await self.db(self.store.seat_by_secret, h)
            if hit is not None:
                self.secrets[h] = hit
        return hit

    # ---------------------------------------------------------------- creating and joining

    async def create(self, body: Any) -> dict:
        if not isinstance(body, dict):
            raise BadRequest("expected a JSON object")
        seats_in = body.get("seats")
        if not isinstance(seats_in, list) or not 2 <= len(seats_in) <= 4:
            raise BadRequest("seats: expected a list of 2 to 4 seats")
        options = parse_options(body, len(seats_in))
        clock = body.get("clock")
        if clock in (None, 0, ""):
            clock = None
        elif not isinstance(clock, int) or isinstance(clock, bool) or not self.min_clock <= clock <= MAX_CLOCK:
            raise BadRequest(f"clock: expected seconds per decision from {self.min_clock} to {MAX_CLOCK}, or null")
        takeover = check_bot_spec(body.get("takeover_bot", "heuristic"))
        claim = body.get("claim")
        if claim is not None and (not isinstance(claim, int) or isinstance(claim, bool)):
            raise BadRequest("claim: expected the number of the seat you take (0-based) or null")
        seat_rows = []
        invites = []
        token = None
        now = time.time()
        gid = secrets.token_urlsafe(9)
        for i, s in enumerate(seats_in):
            if not isinstance(s, dict):
                raise BadRequest(f"seats[{i}]: expected an object")
            kind = s.get("kind")
            if kind not in ("human", "bot"):
                raise BadRequest(f"seats[{i}].kind: expected \"human\" or \"bot\", got {kind!r}")
            row = {
                "game_id": gid, "seat": i, "kind": kind, "bot_spec": None, "secret_hash": None, "invite_hash": None,
                "claimed": None, "webhook_url": None, "last_seen": None, "taken_over": None,
            }
            if kind == "bot":
                row["bot_spec"] = check_bot_spec(s.get("bot", "heuristic"))
                row["name"] = check_name(s.get("name"), f"Bot {i + 1}")
            else:
                row["name"] = check_name(s.get("name"), f"Player {i + 1}")
                if claim == i:
                    token = secrets.token_urlsafe(24)
                    row["secret_hash"] = hash_secret(token)
                    row["claimed"] = now
                    row["last_seen"] = now
                    row["webhook_url"] = check_webhook(s.get("webhook"))
                else:
                    code = secrets.token_urlsafe(12)
                    row["invite_hash"] = hash_secret(code)
                    invites.append({"seat": i, "code": code, "url": f"/join/{code}"})
            seat_rows.append(row)
        if claim is not None and token is None:
            raise BadRequest(f"claim: seat {claim} is not a person's seat of this game")
        if not any(r["kind"] == "human" for r in seat_rows):
            raise BadRequest("seats: at least one seat must be a person")
        seed = secrets.randbits(62)
        game = Game.new(options, seed)
        entries = forced_steps(game, 0)
        game_row = {
            "id": gid, "created": now, "updated": now, "options": options.to_dict(), "seed": seed,
            "status": "finished" if game.over else "active", "version": 1, "clock": clock, "turn_started": now,
            "takeover_bot": takeover, "creator_hash": None, "undo_request": None,
        }
        action_rows = [
            {"game_id": gid, "seq": e["seq"], "seat": e["seat"], "action": e["a"], "auto": True, "bot": False, "at": now}
            for e in entries
        ]
        await self.db(self.store.create, game_row, seat_rows, action_rows)
        live = await self.get(gid)
        self._schedule(live)
        out: dict[str, Any] = {"game": gid, "invites": invites, "version": live.version}
        if token is not None:
            out["token"] = token
            out["seat"] = claim
        return out

    async def invite_info(self, code: str) -> dict:
        hit = await self.db(self.store.seat_by_invite, hash_secret(code)) if isinstance(code, str) and code else None
        if hit is None:
            raise BadRequest("this invitation is unknown or has already been used", 404)
        live = await self.get(hit[0])
        return {"game": live.id, "seat": hit[1], "seats": self.public_seats(live), "options": live.options.to_dict(),
                "clock": live.clock, "status": live.status}

    async def join(self, code: Any, body: dict) -> dict:
        if not isinstance(code, str) or not code or len(code) > 100:
            raise BadRequest("this invitation is unknown or has already been used", 404)
        ih = hash_secret(code)
        hit = await self.db(self.store.seat_by_invite, ih)
        if hit is None:
            raise BadRequest("this invitation is unknown or has already been used", 404)
        gid, seat = hit
        live = await self.get(gid)
        name = check_name(body.get("name"), live.seats[seat].name)
        webhook = check_webhook(body.get("webhook"))
        token = secrets.token_urlsafe(24)
        sh = hash_secret(token)
        now = time.time()
        async with live.lock:
            ok = await self.db(self.store.claim, ih, sh, name, now)
            if not ok:
                raise BadRequest("this invitation has already been used", 409)
            if webhook:
                await self.db(self.store.set_seat, gid, seat, webhook_url=webhook)
            st = live.seats[seat]
            st.name, st.secret_hash, st.claimed, st.last_seen, st.webhook_url = name, sh, now, now, webhook
            self.secrets[sh] = (gid, seat)
        self._notify(live)
        return {"game": gid, "seat": seat, "token": token}

    async def set_webhook(self, live: Live, seat: int, url: Any) -> dict:
        url = check_webhook(url)
        await self.db(self.store.set_seat, live.id, seat, webhook_url=url)
        live.seats[seat].webhook_url = url
        return {"webhook": url}

    # ---------------------------------------------------------------- changes

    def _check_version(self, live: Live, version: Any) -> None:
        if not isinstance(version, int) or isinstance(version, bool):
            raise BadRequest("version: expected the integer version of the game your move was made against")
        if version != live.version:
            raise BadRequest(
                f"stale: the game is at version {live.version}, this request was made against version {version}; "
                "reload and try again", 409,
            )

    async def move(self, gid: str, seat: int, version: Any, action: Any, *, bot: bool = False) -> Live:
        """Apply ``action`` for ``seat`` against ``version``: exactly one of concurrent moves wins."""
        if isinstance(action, bool) or not isinstance(action, (str, int)):
            raise BadRequest("action: expected an action in notation (e.g. \"1A\", \"keep planter\")")
        if isinstance(action, str) and len(action) > 60:
            raise BadRequest("action: too long to be an action")
        if isinstance(action, int):
            try:
                A.to_text(action, self.cards)
            except A.NotationError as exc:
                raise BadRequest(str(exc)) from None
        live = await self.get(gid)
        async with live.lock:
            self._check_version(live, version)
            if live.status != "active":
                raise BadRequest("the game is over", 409)
            g = live.game
            if g.to_move != seat:
                raise BadRequest(f"it is not your decision: seat {g.to_move + 1} is to choose", 409)
            if live.seats[seat].bot != bot:
                raise BadRequest("your seat is played by a bot now (you resigned or your clock ran out)", 409)
            g = g.copy()
            seq = len(live.rows)
            try:
                entries = [step(g, action, seq, bot=bot)]
            except (IllegalAction, A.NotationError) as exc:
                raise BadRequest(str(exc), 422 if isinstance(exc, IllegalAction) else 400) from None
            entries += forced_steps(g, seq + 1)
            now = time.time()
            add = [
                {"game_id": gid, "seq": e["seq"], "seat": e["seat"], "action": e["a"], "auto": e["auto"],
                 "bot": e["bot"], "at": now}
                for e in entries
            ]
            status = "finished" if g.over else "active"
            ok = await self.db(
                self.store.change, gid, live.version,
                {"updated": now, "turn_started": now, "status": status, "undo_request": None}, add=add,
            )
            if not ok:
                await self._reload(live)
                raise BadRequest("stale: another change was made to this game at the same time; reload and try again", 409)
            prev = live.game.to_move
            for e in entries:
                e["at"] = now
            live.game = g
            live.rows += [(e["seat"], e["a"], e["auto"], e["bot"], now) for e in entries]
            live.log += entries
            live.version += 1
            live.turn_started = now
            live.status = status
            live.undo_request = None
        self._after_change(live, prev)
        return live

    async def _reload(self, live: Live) -> None:
        """The database moved on without us (another server process): rebuild from it."""
        data = await self.db(self.store.load, live.id)
        if data is None:  # pragma: no cover
            return
        fresh = self._build(*data)
        for name in ("version", "status", "clock", "turn_started", "seats", "game", "rows", "log", "undo_request"):
            setattr(live, name, getattr(fresh, name))

    async def resign(self, live: Live, seat: int, version: Any) -> None:
        await self.takeover(live, seat, "resigned", version)

    async def takeover(self, live: Live, seat: int, why: str, version: Any) -> None:
        async with live.lock:
            self._check_version(live, version)
            if live.status != "active":
                raise BadRequest("the game is over", 409)
            st = live.seats[seat]
            if st.bot:
                raise BadRequest("this seat is already played by a bot", 409)
            now = time.time()
            ok = await self.db(
                self.store.change, live.id, live.version, {"updated": now, "turn_started": now, "undo_request": None},
                seat_values={seat: {"taken_over": why, "bot_spec": live.takeover_bot}},
            )
            if not ok:
                await self._reload(live)
                raise BadRequest("stale: another change was made to this game at the same time", 409)
            st.taken_over = why
            st.bot_spec = live.takeover_bot
            live.version += 1
            live.turn_started = now
            live.undo_request = None
        self._after_change(live, live.game.to_move)

    async def undo(self, live: Live, seat: int, version: Any, to: Any = None) -> dict:
        """Undo back to before decision ``to`` of ``seat`` (default: its last one). With several
        people, an undo that needs consent becomes a request the others answer."""
        async with live.lock:
            self._check_version(live, version)
            if live.status != "active":
                raise BadRequest("the game is over: nothing can be undone", 409)
            opts = undo_options(live.log, seat, live.humans())
            if not opts["can"]:
                raise BadRequest("there is no decision of yours to undo", 409)
            target = opts["to"] if to is None else to
            if not isinstance(target, int) or isinstance(target, bool) or target not in opts["targets"]:
                raise BadRequest(f"to: you can undo back to before your decision(s) {opts['targets']}", 409)
            if opts["consent"]:
                others = [h for h in live.humans() if h != seat]
                req = {"by": seat, "to": target, "version": live.version, "accepted": [seat], "waiting": others,
                       "at": time.time()}
                ok = await self.db(self.store.change, live.id, live.version, {"undo_request": req}, bump=False)
                if not ok:
                    await self._reload(live)
                    raise BadRequest("stale: another change was made to this game at the same time", 409)
                live.undo_request = req
                result = {"requested": True}
            else:
                await self._truncate(live, target)
                result = {"undone": True}
        self._after_change(live, live.game.to_move)
        return result

    async def answer_undo(self, live: Live, seat: int, version: Any, accept: Any) -> dict:
        if not isinstance(accept, bool):
            raise BadRequest("accept: expected true or false")
        async with live.lock:
            self._check_version(live, version)
            req = live.undo_request
            if not req or req.get("version") != live.version:
                raise BadRequest("there is no open undo request", 409)
            if seat not in req["waiting"]:
                raise BadRequest("this undo request does not wait for you", 409)
            if not accept:
                ok = await self.db(self.store.change, live.id, live.version, {"undo_request": None}, bump=False)
                if ok:
                    live.undo_request = None
                result = {"refused": True}
            else:
                req = dict(req, accepted=req["accepted"] + [seat], waiting=[s for s in req["waiting"] if s != seat])
                if req["waiting"]:
                    ok = await self.db(self.store.change, live.id, live.version, {"undo_request": req}, bump=False)
                    if ok:
                        live.undo_request = req
                    result = {"accepted": True}
                else:
                    await self._truncate(live, req["to"])
                    result = {"undone": True}
        self._after_change(live, live.game.to_move)
        return result

    async def _truncate(self, live: Live, keep: int) -> None:
        """Go back to the position after the first ``keep`` actions (lock held)."""
        now = time.time()
        r = rebuild(live.options, live.seed, [x[:4] for x in live.rows[:keep]])
        ok = await self.db(
            self.store.change, live.id, live.version,
            {"updated": now, "turn_started": now, "status": "active", "undo_request": None}, drop_from=keep,
        )
        if not ok:
            await self._reload(live)
            raise BadRequest("stale: another change was made to this game at the same time", 409)
        for e, row in zip(r.log, live.rows):
            e["at"] = row[4]
        live.game = r.game
        live.rows = live.rows[:keep]
        live.log = r.log
        live.version += 1
        live.turn_started = now
        live.undo_request = None
        for sub in live.subs:
            sub.sent = min(sub.sent, keep)

    # ---------------------------------------------------------------- after a change

    def _after_change(self, live: Live, prev_to_move: int) -> None:
        self._notify(live)
        self._schedule(live)
        s = live.game.to_move
        if live.status == "active" and s >= 0 and s != prev_to_move:
            st = live.seats[s]
            if not st.bot and st.webhook_url:
                self._spawn(self._webhook(live, s, st.webhook_url, live.version))

    def _schedule(self, live: Live) -> None:
        """Start the bot whose turn it is, and the clock of the person whose turn it is."""
        if self.closed:
            return
        if live.timer is not None:
            live.timer.cancel()
            live.timer = None
        if live.status != "active":
            return
        s = live.game.to_move
        if s < 0:
            return
        st = live.seats[s]
        if st.bot:
            if live.bot_version != live.version:
                live.bot_version = live.version
                self._spawn(self._bot_turn(live, live.version, s))
        elif live.clock:
            delay = max(0.0, live.turn_started + live.clock - time.time())
            version = live.version
            loop = asyncio.get_running_loop()
            live.timer = loop.call_later(delay, lambda: self._spawn(self._timeout(live, version, s)))

    async def _timeout(self, live: Live, version: int, seat: int) -> None:
        if live.version != version or live.game.to_move != seat or live.seats[seat].bot:
            return
        try:
            await self.takeover(live, seat, "timeout", version)
        except BadRequest:
            pass

    async def _bot_turn(self, live: Live, version: int, seat: int) -> None:
        if self.bot_delay:
            await asyncio.sleep(self.bot_delay)
        for attempt in range(3):
            if live.version != version or self.closed:
                return
            st = live.seats[seat]
            spec = st.bot_spec or live.takeover_bot
            state = live.game.to_dict()
            seed = (live.seed * 31 + seat * 1_000_003 + live.game.step) & ((1 << 62) - 1)
            loop = asyncio.get_running_loop()
            try:
                aid = await loop.run_in_executor(self.bot_pool, botworker.choose, state, spec, seed)
            except cf.BrokenExecutor:
                log.warning("bot worker died; restarting it")
                self.bot_pool = self._make_bot_pool()
                continue
            except Exception:
                log.exception("bot %s failed in game %s", spec, live.id)
                await asyncio.sleep(1 + attempt)
                continue
            try:
                await self.move(live.id, seat, version, aid, bot=True)
            except BadRequest as exc:
                log.debug("bot move in %s refused: %s", live.id, exc)
            return

    async def _webhook(self, live: Live, seat: int, url: str, version: int) -> None:
        import httpx

        if self.http is None:
            self.http = httpx.AsyncClient(timeout=self.webhook_timeout, follow_redirects=False)
        payload = {
            "event": "your-turn",
            "game": live.id,
            "seat": seat + 1,
            "name": live.seats[seat].name,
            "version": version,
            "url": f"{self.public_url}/game/{live.id}",
        }
        try:
            await self.http.post(url, json=payload)
        except Exception as exc:  # a dead webhook must never disturb the game
            log.info("webhook %s failed: %s", url, exc)

    # ---------------------------------------------------------------- views

    def public_seats(self, live: Live) -> list[dict]:
        online = {sub.seat for sub in live.subs}
        return [
            {
                "seat": s.seat, "name": s.name, "kind": s.kind, "bot": s.bot_spec if s.bot else None,
                "claimed": s.kind == "bot" or s.claimed is not None, "taken_over": s.taken_over,
                "online": s.seat in online,
            }
            for s in live.seats
        ]

    def state(self, live: Live, seat: int, log_from: int = 0) -> dict:
        """Everything seat ``seat`` may know, as sent to its clients."""
        g = live.game
        deadline = None
        s = g.to_move
        if live.status == "active" and live.clock and s >= 0 and not live.seats[s].bot:
            deadline = live.turn_started + live.clock
        req = live.undo_request
        if req and req.get("version") != live.version:
            req = None
        return {
            "type": "state",
            "game": live.id,
            "version": live.version,
            "status": live.status,
            "you": seat,
            "view": g.observation(seat),
            "seats": self.public_seats(live),
            "clock": {"seconds": live.clock, "deadline": deadline, "now": time.time()},
            "log_from": log_from,
            "log": live.log[log_from:],
            "undo": undo_options(live.log, seat, live.humans()) if live.status == "active" else {"can": False},
            "undo_request": req,
            "webhook": live.seats[seat].webhook_url,
            "takeover_bot": live.takeover_bot,
            "your_turn": live.status == "active" and s == seat and not live.seats[seat].bot,
        }

    def summary(self, live: Live, seat: int) -> dict:
        g = live.game
        s = g.to_move
        return {
            "game": live.id,
            "seat": seat,
            "status": live.status,
            "version": live.version,
            "players": [{"name": x.name, "bot": x.bot_spec if x.bot else None, "points": g.points[x.seat],
                         "claimed": x.kind == "bot" or x.claimed is not None} for x in live.seats],
            "to_move": s,
            "your_turn": live.status == "active" and s == seat and not live.seats[seat].bot,
            "turn": g.turn_no,
            "created": live.created,
            "updated": live.rows[-1][4] if live.rows else live.created,
            "ranking": g.ranking() if g.over else None,
        }

    def view_at(self, live: Live, seat: int, at: Any) -> dict:
        """The table as seat ``seat`` saw it after the first ``at`` actions."""
        if not isinstance(at, int) or not 0 <= at <= len(live.rows):
            raise BadRequest(f"at: expected a step from 0 to {len(live.rows)}")
        r = rebuild(live.options, live.seed, [x[:4] for x in live.rows], upto=at)
        return {"at": at, "total": len(live.rows), "view": r.game.observation(seat)}

    def record(self, live: Live) -> dict:
        meta = {
            "server_game": live.id,
            "seats": [{"name": s.name, "kind": s.kind, "bot": s.bot_spec, "taken_over": s.taken_over}
                      for s in live.seats],
        }
        return make_record(live.game, meta=meta)

    # ---------------------------------------------------------------- live updates

    def subscribe(self, live: Live, seat: int, send) -> Subscriber:
        sub = Subscriber(seat=seat, send=send)
        live.subs.append(sub)
        sub.task = asyncio.get_running_loop().create_task(self._pump(live, sub))
        sub.wake.set()
        self._notify(live)
        return sub

    def unsubscribe(self, live: Live, sub: Subscriber) -> None:
        if sub in live.subs:
            live.subs.remove(sub)
        if sub.task is not None:
            sub.task.cancel()
        self._notify(live)

    def _notify(self, live: Live) -> None:
        for sub in live.subs:
            sub.wake.set()

    async def _pump(self, live: Live, sub: Subscriber) -> None:
        """Send the latest state whenever it changed (updates in between coalesce)."""
        import json

        try:
            while True:
                await sub.wake.wait()
                sub.wake.clear()
                msg = self.state(live, sub.seat, sub.sent)
                sub.sent = len(live.log)
                await sub.send(json.dumps(msg))
        except asyncio.CancelledError:
            pass
        except Exception:  # the socket went away; the endpoint unsubscribes
            pass


def check_webhook(url: Any) -> str | None:
    if url in (None, ""):
        return None
    if not isinstance(url, str) or len(url) > 500 or not (url.startswith("http://") or url.startswith("https://")):
        raise BadRequest("webhook: expected an http:// or https:// URL (at most 500 characters)")
    if any(ord(ch) <= 32 for ch in url):
        raise BadRequest("webhook: the URL must not contain spaces or control characters")
    return url
