"""The web application: JSON API, WebSocket live updates and the pages (Starlette on uvicorn).

Every request that acts for a seat carries the seat's secret (``Authorization: Bearer SECRET``;
on the WebSocket, the first message). The database keeps only its SHA-256. A client only ever
receives its own seat's :meth:`~kashgar.game.Game.observation`; the seed and the deck order never
leave the server while a game runs (a record, which holds the seed, is available once it is over).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
from functools import lru_cache
from pathlib import Path
from typing import Any

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, Response
from starlette.routing import Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles
from starlette.websockets import WebSocket, WebSocketDisconnect

from ..cards import RESOURCES, load_cards
from ..game import Game
from ..records import RecordError, replay
from ..text import LANGS, cards_json
from .hub import Hub
from .play import BOT_LEVELS, HOUSE_RULES, MIN_CLOCK, BadRequest, rebuild

STATIC = Path(__file__).resolve().parent / "static"
MAX_BODY = 2_000_000

SECURITY_HEADERS = [
    (b"content-security-policy",
     b"default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; "
     b"object-src 'none'; base-uri 'none'; frame-ancestors 'none'; form-action 'self'"),
    (b"x-content-type-options", b"nosniff"),
    (b"referrer-policy", b"no-referrer"),
    (b"x-frame-options", b"DENY"),
]


class SecurityHeaders:
    """Adds the content security policy and friends to every HTTP response."""

    def __init__(self, app) -> None:
        self.app = app

    async def __call__(self, scope, receive, send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        async def send_with_headers(message) -> None:
            if message["type"] == "http.response.start":
                message["headers"] = list(message.get("headers", [])) + SECURITY_HEADERS
            await send(message)

        await self.app(scope, receive, send_with_headers)


def error(message: str, status: int) -> JSONResponse:
    return JSONResponse({"error": message}, status_code=status)


async def read_json(request: Request) -> Any:
    length = request.headers.get("content-length")
    if length is not None and (not length.isdigit() or int(length) > MAX_BODY):
        raise BadRequest(f"request body too large (at most {MAX_BODY} bytes)", 413)
    body = await request.body()
    if len(body) > MAX_BODY:
        raise BadRequest(f"request body too large (at most {MAX_BODY} bytes)", 413)
    try:
        return json.loads(body)
    except (json.JSONDecodeError, UnicodeDecodeError) as exc:
        raise BadRequest(f"the request body is not valid JSON: {exc}") from None


async def read_object(request: Request) -> dict:
    body = await read_json(request)
    if not isinstance(body, dict):
        raise BadRequest("expected a JSON object")
    return body


def bearer(request: Request) -> str | None:
    h = request.headers.get("authorization", "")
    if h[:7].lower() == "bearer ":
        return h[7:].strip()
    return None


def int_param(request: Request, name: str, default: int | None = None) -> int | None:
    v = request.query_params.get(name)
    if v is None:
        return default
    try:
        return int(v)
    except ValueError:
        raise BadRequest(f"{name}: expected an integer, got {v!r}") from None


@lru_cache(maxsize=4)
def _cards_payload(lang: str) -> bytes:
    """Every card text in ``lang``, plus the contracts' costs and payouts as data (for icons)."""
    cards = load_cards()
    data = cards_json(cards, lang)
    for c, out in zip(cards.contracts, data["contracts"]):
        out["costs"] = [[RESOURCES[r], n] for r, n in c.cost]
        out["cost_spice"] = c.cost_spice
        out["payouts"] = [[RESOURCES[r], n] for r, n in c.payout]
    for p, out in zip(cards.persons, data["persons"]):
        out["per_wheat"] = p.per_wheat
    return json.dumps(data, ensure_ascii=False).encode()


def _meta() -> dict:
    cards = load_cards()
    return {
        "bots": list(BOT_LEVELS),
        "house": list(HOUSE_RULES),
        "expansion": [{"id": p.id, "en": p.en, "de": p.de, "copies": p.copies}
                      for p in cards.persons if p.deck == "expansion"],
        "languages": list(LANGS),
    }


def create_app(
    db_url: str | None = None,
    *,
    bot_workers: int = 1,
    bot_delay: float = 0.4,
    public_url: str = "",
    min_clock: int = MIN_CLOCK,
) -> Starlette:
    """The server application. ``db_url``: ``sqlite:///FILE`` (default ``data/kashgar.sqlite3``)
    or ``postgresql://...``. ``bot_workers``: bot processes (0 = a thread, for tests).
    ``bot_delay``: seconds a bot waits before moving, so people can follow."""
    hub = Hub(db_url, bot_workers=bot_workers, bot_delay=bot_delay, public_url=public_url, min_clock=min_clock)

    @contextlib.asynccontextmanager
    async def lifespan(app):
        await hub.start()
        try:
            yield
        finally:
            await hub.stop()

    def page(name: str):
        async def handler(request: Request) -> Response:
            return FileResponse(STATIC / name, headers={"cache-control": "no-cache"})

        return handler

    async def meta(request: Request) -> Response:
        return JSONResponse(_meta())

    async def cards(request: Request) -> Response:
        lang = request.query_params.get("lang", "en")
        if lang not in LANGS:
            raise BadRequest(f"lang: expected one of {', '.join(LANGS)}")
        return Response(_cards_payload(lang), media_type="application/json",
                        headers={"cache-control": "public, max-age=3600"})

    async def create_game(request: Request) -> Response:
        return JSONResponse(await hub.create(await read_json(request)), status_code=201)

    async def invite(request: Request) -> Response:
        return JSONResponse(await hub.invite_info(request.path_params["code"]))

    async def claim(request: Request) -> Response:
        body = await read_json(request) if (await request.body()) else {}
        if not isinstance(body, dict):
            raise BadRequest("expected a JSON object")
        return JSONResponse(await hub.join(request.path_params["code"], body))

    async def state(request: Request) -> Response:
        live, seat = await hub.auth(request.path_params["gid"], bearer(request))
        log_from = min(max(int_param(request, "log_from", 0), 0), len(live.log))
        return JSONResponse(hub.state(live, seat, log_from))

    async def move(request: Request) -> Response:
        gid = request.path_params["gid"]
        live, seat = await hub.auth(gid, bearer(request))
        body = await read_object(request)
        live = await hub.move(gid, seat, body.get("version"), body.get("action"))
        return JSONResponse({"version": live.version, "to_move": live.game.to_move, "status": live.status,
                             "view": live.game.observation(seat)})

    async def undo(request: Request) -> Response:
        live, seat = await hub.auth(request.path_params["gid"], bearer(request))
        body = await read_object(request)
        result = await hub.undo(live, seat, body.get("version"), body.get("to"))
        return JSONResponse(dict(result, version=live.version))

    async def undo_answer(request: Request) -> Response:
        live, seat = await hub.auth(request.path_params["gid"], bearer(request))
        body = await read_object(request)
        result = await hub.answer_undo(live, seat, body.get("version"), body.get("accept"))
        return JSONResponse(dict(result, version=live.version))

    async def resign(request: Request) -> Response:
        live, seat = await hub.auth(request.path_params["gid"], bearer(request))
        body = await read_object(request)
        await hub.resign(live, seat, body.get("version"))
        return JSONResponse({"version": live.version})

    async def webhook(request: Request) -> Response:
        live, seat = await hub.auth(request.path_params["gid"], bearer(request))
        body = await read_object(request)
        return JSONResponse(await hub.set_webhook(live, seat, body.get("url")))

    async def view_at(request: Request) -> Response:
        live, seat = await hub.auth(request.path_params["gid"], bearer(request))
        at = int_param(request, "at", len(live.rows))
        who = int_param(request, "as", seat)
        if who != seat:
            if live.status != "finished":
                raise BadRequest("as: you see other seats' views only once the game is over", 403)
            if not 0 <= who < len(live.seats):
                raise BadRequest(f"as: expected a seat from 0 to {len(live.seats) - 1}")
        return JSONResponse(hub.view_at(live, who, at))

    async def record(request: Request) -> Response:
        live, _ = await hub.auth(request.path_params["gid"], bearer(request))
        if live.status != "finished":
            raise BadRequest("the record (which contains the seed, and so every hidden card) is available once "
                             "the game is over", 403)
        body = json.dumps(hub.record(live), indent=1)
        return Response(body, media_type="application/json",
                        headers={"content-disposition": f'attachment; filename="kashgar-{live.id}.json"'})

    async def my_games(request: Request) -> Response:
        body = await read_object(request)
        tokens = body.get("tokens")
        if not isinstance(tokens, list) or len(tokens) > 500:
            raise BadRequest("tokens: expected a list of at most 500 seat secrets")
        out = []
        for t in tokens:
            hit = await hub.seat_of(t)
            if hit is None:
                continue
            try:
                live = await hub.get(hit[0])
            except BadRequest:
                continue
            out.append(dict(hub.summary(live, hit[1]), token_index=tokens.index(t)))
        out.sort(key=lambda s: (not s["your_turn"], s["status"] != "active", -s["updated"]))
        return JSONResponse({"games": out})

    async def record_view(request: Request) -> Response:
        body = await read_object(request)
        rec = body.get("record")
        try:
            game = replay(rec)
        except RecordError as exc:
            raise BadRequest(f"record: {exc}") from None
        total = len(game.history())
        at = body.get("at", total)
        who = body.get("as", 0)
        if not isinstance(at, int) or not 0 <= at <= total:
            raise BadRequest(f"at: expected a step from 0 to {total}")
        if not isinstance(who, int) or not 0 <= who < game.n:
            raise BadRequest(f"as: expected a seat from 0 to {game.n - 1}")
        if "start" in rec:
            raise BadRequest("record: records that start from a scenario position cannot be viewed here")
        g = Game.new(game.options, game.seed)
        rows = []
        for text in rec["actions"]:
            rows.append((g.to_move, text, False, False))
            g.apply(text)
        r = rebuild(game.options, game.seed, rows, upto=at)
        seats = (rec.get("meta") or {}).get("seats") if isinstance(rec.get("meta"), dict) else None
        names = []
        for i in range(game.n):
            s = seats[i] if isinstance(seats, list) and i < len(seats) and isinstance(seats[i], dict) else {}
            name = s.get("name") if isinstance(s.get("name"), str) else f"Player {i + 1}"
            names.append({"seat": i, "name": name[:40], "kind": "bot" if s.get("kind") == "bot" else "human",
                          "bot": s.get("bot") if isinstance(s.get("bot"), str) else None})
        full = rebuild(game.options, game.seed, rows)
        return JSONResponse({"at": at, "total": total, "view": r.game.observation(who), "log": full.log,
                             "seats": names})

    async def ws_game(websocket: WebSocket) -> None:
        gid = websocket.path_params["gid"]
        await websocket.accept()
        try:
            first = await asyncio.wait_for(websocket.receive_text(), timeout=20)
            token = json.loads(first).get("token")
            live, seat = await hub.auth(gid, token)
        except (TimeoutError, ValueError, AttributeError, WebSocketDisconnect, BadRequest) as exc:
            msg = str(exc) if isinstance(exc, BadRequest) else "send {\"token\": SECRET} first"
            with contextlib.suppress(Exception):
                await websocket.send_text(json.dumps({"type": "error", "error": msg}))
                await websocket.close(code=4403)
            return
        sub = hub.subscribe(live, seat, websocket.send_text)
        try:
            while True:
                msg = await websocket.receive_text()
                if msg == "ping":
                    await websocket.send_text('{"type":"pong"}')
        except (WebSocketDisconnect, RuntimeError):
            pass
        finally:
            hub.unsubscribe(live, sub)

    async def bad_request(request: Request, exc: BadRequest) -> Response:
        return error(str(exc), exc.status)

    async def not_found(request: Request, exc: Exception) -> Response:
        status = getattr(exc, "status_code", 404)
        detail = getattr(exc, "detail", "not found")
        return error(str(detail), status)

    routes = [
        Route("/", page("index.html")),
        Route("/join/{code}", page("join.html")),
        Route("/game/{gid}", page("table.html")),
        Route("/viewer", page("table.html")),
        Route("/api/meta", meta),
        Route("/api/cards", cards),
        Route("/api/games", create_game, methods=["POST"]),
        Route("/api/invites/{code}", invite, methods=["GET"]),
        Route("/api/invites/{code}", claim, methods=["POST"]),
        Route("/api/games/{gid}", state, methods=["GET"]),
        Route("/api/games/{gid}/move", move, methods=["POST"]),
        Route("/api/games/{gid}/undo", undo, methods=["POST"]),
        Route("/api/games/{gid}/undo/answer", undo_answer, methods=["POST"]),
        Route("/api/games/{gid}/resign", resign, methods=["POST"]),
        Route("/api/games/{gid}/webhook", webhook, methods=["POST"]),
        Route("/api/games/{gid}/view", view_at, methods=["GET"]),
        Route("/api/games/{gid}/record", record, methods=["GET"]),
        Route("/api/my-games", my_games, methods=["POST"]),
        Route("/api/records/view", record_view, methods=["POST"]),
        WebSocketRoute("/ws/games/{gid}", ws_game),
        Mount("/static", StaticFiles(directory=STATIC), name="static"),
    ]
    from starlette.exceptions import HTTPException
    from starlette.middleware import Middleware

    app = Starlette(
        routes=routes,
        lifespan=lifespan,
        exception_handlers={BadRequest: bad_request, HTTPException: not_found},
        middleware=[Middleware(SecurityHeaders)],
    )
    app.state.hub = hub
    return app
