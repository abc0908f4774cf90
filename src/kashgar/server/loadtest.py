"""Load benchmark: many concurrent games against the server on loopback.

    python -m kashgar.server.loadtest [--games 200] [--url http://127.0.0.1:8000] [--db URL] [--seconds S]

Without ``--url`` it starts its own server (``python -m kashgar.server``, SQLite in a temporary
folder) on a free port of 127.0.0.1 and stops it at the end. Every game has two person seats, both
driven by this script with random legal moves; each move is one ``POST /api/games/ID/move`` with the
version it was made against (the timed request). The games together offer ``--rate`` moves per
second, each game at an even pace (an open workload, as people play); ``--rate 0`` lets every game
move as soon as its last move is answered (the server's saturation throughput). When the other seat is to move, its view is fetched
first (``GET /api/games/ID?log_from=...``, not timed). The client speaks HTTP/1.1 with keep-alive
over plain asyncio streams, one connection per game, so the client's own overhead stays small.

Reports moves/s, p50/p90/p99/max latency per move and the errors (any answer other than 200). Only
ever talks to the address given (loopback by default); stops after all games end or ``--seconds``.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import statistics
import sys
import tempfile
import time
from dataclasses import dataclass, field
from urllib.parse import urlsplit


class HttpError(Exception):
    pass


class Conn:
    """One keep-alive HTTP/1.1 connection."""

    def __init__(self, host: str, port: int) -> None:
        self.host, self.port = host, port
        self.reader: asyncio.StreamReader | None = None
        self.writer: asyncio.StreamWriter | None = None

    async def request(self, method: str, path: str, body: dict | None = None, token: str | None = None) -> tuple[int, dict]:
        if self.writer is None:
            self.reader, self.writer = await asyncio.open_connection(self.host, self.port)
        data = b"" if body is None else json.dumps(body).encode()
        head = [f"{method} {path} HTTP/1.1", f"Host: {self.host}:{self.port}", f"Content-Length: {len(data)}"]
        if body is not None:
            head.append("Content-Type: application/json")
        if token:
            head.append(f"Authorization: Bearer {token}")
        self.writer.write(("\r\n".join(head) + "\r\n\r\n").encode() + data)
        status_line = await self.reader.readline()
        if not status_line:
            raise HttpError("connection closed")
        status = int(status_line.split()[1])
        length = 0
        chunked = False
        while True:
            line = await self.reader.readline()
            if line in (b"\r\n", b"\n", b""):
                break
            k, _, v = line.decode("latin-1").partition(":")
            k = k.strip().lower()
            if k == "content-length":
                length = int(v)
            elif k == "transfer-encoding" and "chunked" in v:
                chunked = True
        if chunked:
            raw = b""
            while True:
                size = int((await self.reader.readline()).strip(), 16)
                if size == 0:
                    await self.reader.readline()
                    break
                raw += await self.reader.readexactly(size)
                await self.reader.readline()
        else:
            raw = await self.reader.readexactly(length)
        return status, (json.loads(raw) if raw else {})

    def close(self) -> None:
        if self.writer is not None:
            self.writer.close()


@dataclass
class Stats:
    latencies: list[float] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)
    gets: int = 0
    finished: int = 0


async def setup_game(conn: Conn) -> tuple[str, list[str]]:
    st, d = await conn.request("POST", "/api/games", {"seats": [{"kind": "human"}, {"kind": "human"}], "claim": 0})
    if st != 201:
        raise HttpError(f"create: {st} {d}")
    st, j = await conn.request("POST", f"/api/invites/{d['invites'][0]['code']}", {"name": "Load"})
    if st != 200:
        raise HttpError(f"join: {st} {j}")
    return d["game"], [d["token"], j["token"]]


async def play(conn: Conn, gid: str, tokens: list[str], seed: int, stats: Stats, deadline: float,
               interval: float) -> None:
    """Play one game: a move every ``interval`` seconds (0: as fast as the answers come)."""
    rng = random.Random(seed)
    loop = asyncio.get_running_loop()
    due = loop.time() + rng.random() * interval
    st, s = await conn.request("GET", f"/api/games/{gid}?log_from=100000", token=tokens[0])
    stats.gets += 1
    seat = s["view"]["pending"]["player"]
    if seat != 0:
        st, s = await conn.request("GET", f"/api/games/{gid}?log_from=100000", token=tokens[seat])
        stats.gets += 1
    version, view = s["version"], s["view"]
    while time.monotonic() < deadline:
        if interval:
            due += interval
            wait = due - loop.time()
            if wait > 0:
                await asyncio.sleep(wait)
        action = rng.choice(view["legal"])
        t0 = time.perf_counter()
        st, r = await conn.request("POST", f"/api/games/{gid}/move", {"version": version, "action": action}, tokens[seat])
        stats.latencies.append(time.perf_counter() - t0)
        if st != 200:
            stats.errors.append(f"{gid} {action!r}: {st} {r.get('error')}")
            return
        if r["status"] != "active":
            stats.finished += 1
            return
        version = r["version"]
        if r["to_move"] == seat:
            view = r["view"]
        else:
            seat = r["to_move"]
            st, s = await conn.request("GET", f"/api/games/{gid}?log_from=100000", token=tokens[seat])
            stats.gets += 1
            if st != 200:
                stats.errors.append(f"{gid} state: {st} {s.get('error')}")
                return
            version, view = s["version"], s["view"]


async def run(url: str, games: int, seconds: float, rate: float) -> dict:
    u = urlsplit(url)
    host, port = u.hostname or "127.0.0.1", u.port or 80
    conns = [Conn(host, port) for _ in range(games)]
    setups = await asyncio.gather(*(setup_game(c) for c in conns))
    stats = Stats()
    t0 = time.perf_counter()
    deadline = time.monotonic() + seconds
    interval = games / rate if rate else 0.0
    await asyncio.gather(*(play(c, gid, toks, i, stats, deadline, interval)
                           for i, (c, (gid, toks)) in enumerate(zip(conns, setups))))
    elapsed = time.perf_counter() - t0
    for c in conns:
        c.close()
    lat = sorted(stats.latencies)
    n = len(lat)

    def pct(p: float) -> float:
        return lat[min(n - 1, int(p * n))] * 1000 if n else 0.0

    return {
        "games": games,
        "target_moves_per_s": rate or None,
        "finished_games": stats.finished,
        "moves": n,
        "seconds": round(elapsed, 2),
        "moves_per_s": round(n / elapsed, 1) if elapsed else 0.0,
        "requests_per_s": round((n + stats.gets) / elapsed, 1) if elapsed else 0.0,
        "latency_ms": {"p50": round(pct(0.50), 2), "p90": round(pct(0.90), 2), "p99": round(pct(0.99), 2),
                       "max": round(lat[-1] * 1000, 2) if n else 0.0,
                       "mean": round(statistics.fmean(lat) * 1000, 2) if n else 0.0},
        "errors": len(stats.errors),
        "first_errors": stats.errors[:5],
    }


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m kashgar.server.loadtest", description=__doc__.split("\n\n")[0])
    ap.add_argument("--games", type=int, default=200, help="concurrent games (default 200)")
    ap.add_argument("--url", default=None, help="a running server (default: start one on 127.0.0.1)")
    ap.add_argument("--db", default=None, help="database of the server this script starts (default: SQLite in a temp dir)")
    ap.add_argument("--seconds", type=float, default=60.0, help="stop after this long (default 60)")
    ap.add_argument("--rate", type=float, default=600.0,
                    help="moves per second offered by all games together, each game at an even pace "
                         "(default 600; 0: every game moves as soon as its last move is answered)")
    ap.add_argument("--json", action="store_true", help="print the result as JSON")
    args = ap.parse_args(argv)
    host = urlsplit(args.url).hostname if args.url else "127.0.0.1"
    if host not in ("127.0.0.1", "localhost", "::1"):
        print("loadtest: only loopback targets are allowed (127.0.0.1, localhost, ::1)", file=sys.stderr)
        return 2
    server = None
    tmp = None
    try:
        if args.url is None:
            from .testing import ServerProcess

            tmp = tempfile.TemporaryDirectory(prefix="kashgar-load-")
            db = args.db or f"sqlite:///{tmp.name}/load.sqlite3"
            server = ServerProcess(db, cwd=tmp.name, extra=["--bot-workers", "0"]).start()
            url = server.url
        else:
            url = args.url
        try:
            import uvloop

            uvloop.install()
        except ImportError:  # pragma: no cover
            pass
        res = asyncio.run(run(url, args.games, args.seconds, args.rate))
    finally:
        if server is not None:
            server.stop()
        if tmp is not None:
            tmp.cleanup()
    if args.json:
        print(json.dumps(res, indent=1))
    else:
        lat = res["latency_ms"]
        pace = f"offered {res['target_moves_per_s']:g} moves/s" if res["target_moves_per_s"] else "unthrottled"
        print(f"{res['games']} concurrent games ({res['finished_games']} played to the end), {res['moves']} moves "
              f"in {res['seconds']} s, {pace}")
        print(f"moves/s: {res['moves_per_s']}  (all requests/s: {res['requests_per_s']})")
        print(f"latency per move: p50 {lat['p50']} ms, p90 {lat['p90']} ms, p99 {lat['p99']} ms, max {lat['max']} ms")
        print(f"errors: {res['errors']}")
        for e in res["first_errors"]:
            print("  ", e)
    return 0 if res["errors"] == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
