"""The game server's JSON API and WebSocket, against a real uvicorn on 127.0.0.1 (issue 5)."""

from __future__ import annotations

import asyncio
import json
import os
import random
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from http.server import BaseHTTPRequestHandler, HTTPServer
from pathlib import Path
from typing import ClassVar

import pytest

pytest.importorskip("starlette")
pytest.importorskip("uvicorn")
pytest.importorskip("sqlalchemy")
httpx = pytest.importorskip("httpx")

from kashgar import Game, Options  # noqa: E402
from kashgar.records import make_record, replay, state_digest  # noqa: E402
from kashgar.server.testing import Api, ThreadServer  # noqa: E402

HUMAN = {"kind": "human"}


@pytest.fixture(scope="module", params=["sqlite", "postgresql"])
def server(request, tmp_path_factory):
    """The server on SQLite, and again on PostgreSQL when KASHGAR_TEST_PG_URL names a throwaway
    database (``eval "$(bash scripts/services.sh)"``)."""
    if request.param == "sqlite":
        url = f"sqlite:///{tmp_path_factory.mktemp('server') / 'kashgar.sqlite3'}"
    else:
        url = os.environ.get("KASHGAR_TEST_PG_URL")
        if not url:
            pytest.skip("PostgreSQL tests need KASHGAR_TEST_PG_URL (run: eval \"$(bash scripts/services.sh)\")")
        from sqlalchemy import create_engine

        from kashgar.server.db import metadata, normalise_url

        try:
            eng = create_engine(normalise_url(url))
            metadata.drop_all(eng)
            eng.dispose()
        except Exception as exc:
            pytest.skip(f"PostgreSQL at KASHGAR_TEST_PG_URL does not answer: {exc}")
    with ThreadServer(url, bot_workers=0, bot_delay=0, min_clock=1) as srv:
        yield srv


@pytest.fixture
def api(server):
    a = Api(server.url)
    yield a
    a.close()


def auth(token: str) -> dict:
    return {"authorization": f"Bearer {token}"}


def two_people(api: Api) -> tuple[str, list[str]]:
    """A game of two people; returns its id and both seats' secrets (seat order)."""
    d = api.create([{"kind": "human", "name": "Ann"}, {"kind": "human", "name": "Ben"}], claim=0)
    other = api.join(d["invites"][0]["code"], "Ben")
    return d["game"], [d["token"], other["token"]]


def play_random(api: Api, gid: str, tokens: list[str], moves: int, rng: random.Random) -> dict:
    """Make ``moves`` random legal moves for whichever person is to move."""
    s = None
    for _ in range(moves):
        s = api.state(gid, tokens[0])
        if s["status"] != "active":
            break
        seat = s["view"]["pending"]["player"]
        me = api.state(gid, tokens[seat])
        r = api.move(gid, tokens[seat], me["version"], rng.choice(me["view"]["legal"]))
        assert r.status_code == 200, r.text
    return api.state(gid, tokens[0])


def stored_seed(server, gid: str) -> int:
    from sqlalchemy import select

    from kashgar.server.db import games

    with server.hub.store.engine.connect() as c:
        return c.execute(select(games.c.seed).where(games.c.id == gid)).scalar_one()


def two_people_with_a_choice(server, api: Api) -> tuple[str, list[str]]:
    """Like :func:`two_people`, but the first player's Patriarch (1A) draws two different cards,
    so keeping one is a real decision (two copies of one card are kept automatically, which
    happens in about one deal in sixteen)."""
    for _ in range(100):
        gid, toks = two_people(api)
        g = Game.new(Options(players=2), stored_seed(server, gid))
        g.apply("1A")
        if len(g.legal()) > 1:
            return gid, toks
    raise AssertionError("no deal with two different cards in 100 games")


# ------------------------------------------------------------------------------------------ games


def test_play_against_a_bot_to_the_end_and_download_the_record(server, api):
    d = api.create([{"kind": "human", "name": "Ann"}, {"kind": "bot", "bot": "random"}], claim=0)
    gid, tok = d["game"], d["token"]
    assert d["invites"] == []
    r = api.http.get(f"/api/games/{gid}/record", headers=auth(tok))
    assert r.status_code == 403 and "once the game is over" in r.json()["error"]
    rng = random.Random(3)
    moves = 0
    s = api.state(gid, tok)
    while s["status"] == "active":
        if s["your_turn"]:
            r = api.move(gid, tok, s["version"], rng.choice(s["view"]["legal"]))
            assert r.status_code == 200, r.text
            moves += 1
            s = api.state(gid, tok)
        else:
            s = api.wait(gid, tok, lambda x: x["your_turn"] or x["status"] != "active")
    assert moves > 20
    assert s["status"] == "finished" and s["view"]["over"]
    assert s["undo"]["can"] is False
    rec = api.http.get(f"/api/games/{gid}/record", headers=auth(tok))
    assert rec.status_code == 200 and "attachment" in rec.headers["content-disposition"]
    record = rec.json()
    game = replay(record)
    assert game.over and record["meta"]["seats"][0]["name"] == "Ann"
    assert [e["a"] for e in s["log"]] == record["actions"]
    assert any(e["bot"] for e in s["log"]) and any(not e["bot"] and not e["auto"] for e in s["log"])
    # The finished game can be replayed step by step, from any seat.
    v = api.http.get(f"/api/games/{gid}/view", params={"at": 5, "as": 1}, headers=auth(tok)).json()
    assert v["at"] == 5 and v["view"]["player"] == 1 and v["total"] == len(record["actions"])
    summary = api.post("/api/my-games", None, {"tokens": [tok]}).json()["games"][0]
    assert summary["status"] == "finished" and summary["ranking"] is not None


def test_game_options_and_validation(api):
    d = api.create(
        [HUMAN, {"kind": "bot", "bot": "ismcts:easy"}, {"kind": "bot", "bot": "heuristic"}],
        expansion=["beggar", "herder"], house=["min-caravan", "farrier"], clock=3600,
    )
    s = api.state(d["game"], d["token"])
    opts = s["view"]["options"]
    assert opts["players"] == 3 and opts["expansion"] == {"beggar": 2, "herder": 2}
    assert opts["min_caravan_two"] and opts["farrier_two_mules"] and not opts["spice_merchants_in_discard"]
    assert s["clock"]["seconds"] == 3600
    assert [x["bot"] for x in s["seats"]] == [None, "ismcts:easy", "heuristic"]
    d = api.create([HUMAN, HUMAN, HUMAN, HUMAN], expansion="all", house=["spice-merchants"])
    s = api.state(d["game"], d["token"])
    assert sum(s["view"]["options"]["expansion"].values()) == 12 and len(d["invites"]) == 3
    assert s["view"]["discard"].count("spice-merchant") == 4
    bad = [
        ({"seats": [HUMAN]}, "2 to 4 seats"),
        ({"seats": [HUMAN] * 5}, "2 to 4 seats"),
        ({"seats": [HUMAN, {"kind": "robot"}]}, "kind"),
        ({"seats": [HUMAN, {"kind": "bot", "bot": "alphazero"}]}, "bot"),
        ({"seats": [HUMAN, {"kind": "bot", "bot": "ismcts:iterations=500,prior=5"}]}, "without search options"),
        ({"seats": [HUMAN, {"kind": "bot", "bot": "ismcts:iterations=99999"}]}, "N from 1 to 20000"),
        ({"seats": [{"kind": "bot"}, {"kind": "bot"}]}, "at least one seat must be a person"),
        ({"seats": [HUMAN, HUMAN], "expansion": ["planter"]}, "not a Cut and Thrust card"),
        ({"seats": [HUMAN, HUMAN], "house": ["no-mules"]}, "unknown house rule"),
        ({"seats": [HUMAN, HUMAN], "clock": "soon"}, "clock"),
        ({"seats": [HUMAN, HUMAN], "clock": 0.5}, "clock"),
        ({"seats": [{"kind": "human", "name": "x" * 41}, HUMAN]}, "at most 40"),
        ({"seats": [{"kind": "human", "name": "a\u0000b"}, HUMAN]}, "control characters"),
        ({"seats": [HUMAN, {"kind": "bot"}], "claim": 1}, "not a person's seat"),
        ([1, 2], "JSON object"),
    ]
    for body, words in bad:
        r = api.http.post("/api/games", json=body)
        assert r.status_code == 400, (body, r.text)
        assert words in r.json()["error"], (body, r.json())
    r = api.http.post("/api/games", content=b"{not json", headers={"content-type": "application/json"})
    assert r.status_code == 400 and "not valid JSON" in r.json()["error"]


def test_invitations_claim_a_seat_once(api):
    d = api.create([{"kind": "human", "name": "Ann"}, {"kind": "human"}, {"kind": "bot", "bot": "random"}], claim=0)
    assert [i["seat"] for i in d["invites"]] == [1]
    code = d["invites"][0]["code"]
    info = api.http.get(f"/api/invites/{code}").json()
    assert info["seat"] == 1 and [s["name"] for s in info["seats"]] == ["Ann", "Player 2", "Bot 3"]
    assert not info["seats"][1]["claimed"]
    j = api.join(code, "  Ben   Smith ")
    assert j["seat"] == 1 and j["game"] == d["game"]
    s = api.state(d["game"], j["token"])
    assert s["you"] == 1 and s["seats"][1]["name"] == "Ben Smith" and s["seats"][1]["claimed"]
    for _ in range(2):  # the link is used up
        r = api.http.post(f"/api/invites/{code}", json={"name": "Eve"})
        assert r.status_code in (404, 409) and "already been used" in r.json()["error"]
    assert api.http.get(f"/api/invites/{code}").status_code == 404
    assert api.http.get("/api/invites/nonsense").status_code == 404


def test_concurrent_duplicate_and_stale_moves_exactly_one_wins(server, api):
    gid, toks = two_people(api)
    s = api.state(gid, toks[0])
    seat = s["view"]["pending"]["player"]
    tok = toks[seat]
    me = api.state(gid, tok)
    legal = me["view"]["legal"]
    version = me["version"]
    n0 = len(me["log"])

    def attempt(i):
        with httpx.Client(base_url=server.url, timeout=30) as c:
            return c.post(f"/api/games/{gid}/move", json={"version": version, "action": legal[i % len(legal)]},
                          headers=auth(tok))

    with ThreadPoolExecutor(12) as pool:
        results = list(pool.map(attempt, range(24)))
    codes = sorted(r.status_code for r in results)
    assert codes.count(200) == 1, codes
    assert all(c == 409 for c in codes if c != 200)
    assert all("stale" in r.json()["error"] for r in results if r.status_code == 409)
    after = api.state(gid, tok)
    assert after["version"] == version + 1
    winner = next(r for r in results if r.status_code == 200)
    assert after["log"][n0]["a"] == json.loads(winner.request.content)["action"]
    # The same request again (a duplicate, e.g. a double click) is refused and changes nothing.
    again = api.move(gid, tok, version, legal[0])
    assert again.status_code == 409
    assert api.state(gid, tok)["version"] == version + 1
    # The database agrees with the cache: one action more than before, plus forced ones.
    data = server.hub.store.load(gid)
    assert data[0]["version"] == version + 1 and len(data[2]) == len(after["log"])


def test_auth_and_bad_moves_change_nothing(server, api):
    gid, toks = two_people(api)
    _, other_toks = two_people(api)
    s = api.state(gid, toks[0])
    seat = s["view"]["pending"]["player"]
    tok, idle = toks[seat], toks[1 - seat]
    v = s["version"]
    before = server.hub.store.load(gid)
    r = api.http.post(f"/api/games/{gid}/move", json={"version": v, "action": "1A"})
    assert r.status_code == 401 and "secret" in r.json()["error"]
    r = api.move(gid, "not-a-secret", v, "1A")
    assert r.status_code == 403
    r = api.move(gid, other_toks[0], v, "1A")
    assert r.status_code == 403 and "does not belong" in r.json()["error"]
    r = api.move(gid, idle, v, "1A")
    assert r.status_code == 409 and "not your decision" in r.json()["error"]
    assert api.http.get(f"/api/games/{gid}", headers=auth(other_toks[0])).status_code == 403
    assert api.http.get("/api/games/nosuchgame", headers=auth(tok)).status_code == 403
    cases = [
        ({"version": v, "action": "9Z"}, 400, "not an action"),
        ({"version": v, "action": "keep unicorn"}, 400, "no person card"),
        ({"version": v, "action": "fulfil small-1"}, 422, "not legal now"),
        ({"version": v, "action": 12345}, 400, "outside the action space"),
        ({"version": v, "action": None}, 400, "action"),
        ({"version": v, "action": ["1A"]}, 400, "action"),
        ({"version": "1", "action": "1A"}, 400, "version"),
        ({"action": "1A"}, 400, "version"),
        ({"version": v - 1, "action": "1A"}, 409, "stale"),
        ({"version": v, "action": "x" * 100}, 400, "too long"),
    ]
    for body, status, words in cases:
        r = api.post(f"/api/games/{gid}/move", tok, body)
        assert r.status_code == status, (body, r.text)
        assert words in r.json()["error"], (body, r.json())
    r = api.http.post(f"/api/games/{gid}/move", content=b"[", headers={**auth(tok), "content-type": "application/json"})
    assert r.status_code == 400
    r = api.http.post(f"/api/games/{gid}/move", content=b"[]", headers=auth(tok))
    assert r.status_code == 400 and "JSON object" in r.json()["error"]
    r = api.http.post(f"/api/games/{gid}/move", content=b"x" * 2_100_000, headers=auth(tok))
    assert r.status_code == 413
    assert server.hub.store.load(gid)[0]["version"] == before[0]["version"]
    assert len(server.hub.store.load(gid)[2]) == len(before[2])
    assert api.state(gid, tok)["version"] == v
    assert api.http.get("/api/nothing").status_code == 404


def test_each_seat_sees_only_its_own_view(server, api):
    gid, toks = two_people_with_a_choice(server, api)
    seed = stored_seed(server, gid)
    s = api.state(gid, toks[0])
    seat = s["view"]["pending"]["player"]
    me = api.state(gid, toks[seat])
    r = api.move(gid, toks[seat], me["version"], "1A")  # the Patriarch draws 2 cards: a private choice
    assert r.status_code == 200
    mine = api.state(gid, toks[seat])
    theirs = api.state(gid, toks[1 - seat])
    assert mine["view"]["pending"]["kind"] == "keep" and len(mine["view"]["pending"]["drawn"]) == 2
    assert "drawn" not in theirs["view"]["pending"] and theirs["view"]["pending"]["drawn_count"] == 2
    assert theirs["view"]["legal"] == [] and mine["view"]["legal"]
    for st in (mine, theirs, r.json()):
        text = json.dumps(st)
        assert str(seed) not in text and '"seed"' not in text and '"pool"' not in text and '"rng"' not in text
    # The engine's full state has the deck order; no response carries it.
    full = server.hub.games[gid].game.to_dict()
    pool = full["decks"][0][1]
    assert "decks" in theirs["view"] and set(theirs["view"]["decks"]["standard"]) == {"size", "under"}
    assert len(pool) == theirs["view"]["decks"]["standard"]["size"]
    # Past positions: only one's own seat while the game runs.
    r = api.http.get(f"/api/games/{gid}/view", params={"at": 1, "as": seat}, headers=auth(toks[1 - seat]))
    assert r.status_code == 403
    r = api.http.get(f"/api/games/{gid}/view", params={"at": 1}, headers=auth(toks[1 - seat]))
    assert r.status_code == 200 and "drawn" not in r.json()["view"]["pending"]
    r = api.http.get(f"/api/games/{gid}/view", params={"at": 1}, headers=auth(toks[seat]))
    assert r.json()["view"]["pending"]["drawn"] == mine["view"]["pending"]["drawn"]
    assert api.http.get(f"/api/games/{gid}/view", params={"at": 99}, headers=auth(toks[seat])).status_code == 400
    assert api.http.get(f"/api/games/{gid}/view", params={"at": "x"}, headers=auth(toks[seat])).status_code == 400


# ------------------------------------------------------------------------------------------ undo


def test_undo_with_one_person_goes_back_to_any_decision(api):
    d = api.create([HUMAN, {"kind": "bot", "bot": "random"}], claim=0)
    gid, tok = d["game"], d["token"]
    rng = random.Random(5)
    snapshots = {}
    for _ in range(12):
        s = api.wait(gid, tok, lambda x: x["your_turn"] or x["status"] != "active")
        if s["status"] != "active":
            break
        snapshots[len(s["log"])] = s["view"]
        r = api.move(gid, tok, s["version"], rng.choice(s["view"]["legal"]))
        assert r.status_code == 200
    s = api.wait(gid, tok, lambda x: x["your_turn"])
    assert s["undo"]["can"] and not s["undo"]["consent"]
    targets = s["undo"]["targets"]
    assert len(targets) >= 10 and set(targets) <= set(snapshots)
    # Back to an early decision: the position is exactly the one seen then.
    to = targets[2]
    r = api.post(f"/api/games/{gid}/undo", tok, {"version": s["version"], "to": to})
    assert r.status_code == 200 and r.json()["undone"]
    after = api.state(gid, tok)
    assert after["version"] == s["version"] + 1 and len(after["log"]) == to
    assert after["view"] == snapshots[to] and after["your_turn"]
    # Undo the last decision (the default), twice in a row.
    for _ in range(2):
        s = api.state(gid, tok)
        r = api.post(f"/api/games/{gid}/undo", tok, {"version": s["version"]})
        assert r.status_code == 200
    s = api.state(gid, tok)
    assert len(s["log"]) == targets[0]
    r = api.post(f"/api/games/{gid}/undo", tok, {"version": s["version"], "to": 10_000})
    assert r.status_code == 409
    r = api.post(f"/api/games/{gid}/undo", tok, {"version": s["version"] - 1})
    assert r.status_code == 409 and "stale" in r.json()["error"]


def test_undo_with_several_people_needs_consent_after_a_draw(server, api):
    gid, toks = two_people_with_a_choice(server, api)
    s = api.state(gid, toks[0])
    p = s["view"]["pending"]["player"]
    tok, other = toks[p], toks[1 - p]
    # 1B turns the Patriarch over: no hidden card is drawn, so it can be undone freely.
    r = api.move(gid, tok, s["version"], "1B")
    assert r.status_code == 200
    s = api.state(gid, tok)
    assert s["undo"] == {"can": True, "targets": [0], "to": 0, "consent": False}
    assert api.state(gid, other)["undo"]["can"] is False
    r = api.post(f"/api/games/{gid}/undo", tok, {"version": s["version"]})
    assert r.status_code == 200 and r.json()["undone"]
    s = api.state(gid, tok)
    assert s["log"] == [] and s["your_turn"]
    # 1A draws two cards: undoing it needs the other person's consent.
    assert api.move(gid, tok, s["version"], "1A").status_code == 200
    s = api.state(gid, tok)
    assert s["undo"]["consent"] is True
    r = api.post(f"/api/games/{gid}/undo", tok, {"version": s["version"]})
    assert r.status_code == 200 and r.json()["requested"]
    o = api.state(gid, other)
    assert o["undo_request"]["by"] == p and o["undo_request"]["waiting"] == [1 - p]
    # The asker cannot answer; the other refuses; a new request is accepted.
    assert api.post(f"/api/games/{gid}/undo/answer", tok, {"version": o["version"], "accept": True}).status_code == 409
    assert api.post(f"/api/games/{gid}/undo/answer", other, {"version": o["version"], "accept": "yes"}).status_code == 400
    r = api.post(f"/api/games/{gid}/undo/answer", other, {"version": o["version"], "accept": False})
    assert r.status_code == 200 and r.json()["refused"]
    assert api.state(gid, other)["undo_request"] is None and len(api.state(gid, tok)["log"]) == 1
    assert api.post(f"/api/games/{gid}/undo", tok, {"version": o["version"]}).json()["requested"]
    r = api.post(f"/api/games/{gid}/undo/answer", other, {"version": o["version"], "accept": True})
    assert r.status_code == 200 and r.json()["undone"]
    s = api.state(gid, tok)
    assert s["log"] == [] and s["version"] == o["version"] + 1 and s["undo_request"] is None
    # A move in between makes an open request void.
    assert api.move(gid, tok, s["version"], "1A").status_code == 200
    s = api.state(gid, tok)
    assert api.post(f"/api/games/{gid}/undo", tok, {"version": s["version"]}).json()["requested"]
    assert api.move(gid, tok, s["version"], s["view"]["legal"][0]).status_code == 200
    o = api.state(gid, other)
    assert o["undo_request"] is None
    assert api.post(f"/api/games/{gid}/undo/answer", other, {"version": o["version"], "accept": True}).status_code == 409


# ------------------------------------------------------------------------------------------ takeover, clock, webhook


def test_resign_hands_the_seat_to_a_bot(api):
    gid, toks = two_people(api)
    s = api.state(gid, toks[0])
    p = s["view"]["pending"]["player"]
    r = api.post(f"/api/games/{gid}/resign", toks[p], {"version": s["version"]})
    assert r.status_code == 200
    s = api.wait(gid, toks[1 - p], lambda x: x["your_turn"])
    assert s["seats"][p]["taken_over"] == "resigned" and s["seats"][p]["bot"] == "heuristic"
    assert any(e["bot"] and e["seat"] == p for e in s["log"])
    assert api.move(gid, toks[p], s["version"], "1A").status_code == 409
    assert api.post(f"/api/games/{gid}/resign", toks[p], {"version": s["version"]}).status_code == 409
    # The resigned player still sees their seat's view.
    assert api.state(gid, toks[p])["you"] == p


def test_a_clock_that_runs_out_hands_the_seat_to_a_bot(api):
    d = api.create([{"kind": "human", "name": "Slow"}, {"kind": "human", "name": "Quick"}], claim=0, clock=1,
                   takeover_bot="random")
    gid = d["game"]
    other = api.join(d["invites"][0]["code"])["token"]
    s = api.state(gid, d["token"])
    assert s["clock"]["deadline"] is not None
    p = s["view"]["pending"]["player"]
    mover = d["token"] if p == 0 else other
    s = api.wait(gid, mover, lambda x: x["seats"][p]["taken_over"] == "timeout", timeout=10)
    assert s["seats"][p]["bot"] == "random"
    s = api.wait(gid, mover, lambda x: any(e["bot"] for e in x["log"]), timeout=10)


class _Hook(BaseHTTPRequestHandler):
    received: ClassVar[list] = []

    def do_POST(self):
        body = self.rfile.read(int(self.headers["content-length"]))
        _Hook.received.append(json.loads(body))
        self.send_response(204)
        self.end_headers()

    def log_message(self, *args):
        pass


def test_webhook_gets_your_turn(api):
    hook = HTTPServer(("127.0.0.1", 0), _Hook)
    threading.Thread(target=hook.serve_forever, daemon=True).start()
    try:
        gid, toks = two_people(api)
        s = api.state(gid, toks[0])
        p = s["view"]["pending"]["player"]
        url = f"http://127.0.0.1:{hook.server_address[1]}/kashgar"
        r = api.post(f"/api/games/{gid}/webhook", toks[1 - p], {"url": url})
        assert r.status_code == 200 and r.json()["webhook"] == url
        assert api.post(f"/api/games/{gid}/webhook", toks[1 - p], {"url": "ftp://x"}).status_code == 400
        assert api.state(gid, toks[1 - p])["webhook"] == url and api.state(gid, toks[p])["webhook"] is None
        _Hook.received.clear()
        s = api.state(gid, toks[p])
        while s["your_turn"]:  # finish the turn (with its sub-decisions)
            assert api.move(gid, toks[p], s["version"], s["view"]["legal"][0]).status_code == 200
            s = api.state(gid, toks[p])
        end = time.monotonic() + 10
        while not _Hook.received and time.monotonic() < end:
            time.sleep(0.05)
        assert len(_Hook.received) == 1
        msg = _Hook.received[0]
        assert msg["event"] == "your-turn" and msg["game"] == gid and msg["seat"] == 2 - p
        assert msg["url"].endswith(f"/game/{gid}")
    finally:
        hook.shutdown()


# ------------------------------------------------------------------------------------------ lists, live, records


def test_my_games_lists_the_ones_waiting_for_me_first(api):
    a = api.create([HUMAN, HUMAN], claim=0)
    b = api.create([HUMAN, HUMAN], claim=1)
    toks = [a["token"], b["token"]]
    sa, sb = api.state(a["game"], a["token"]), api.state(b["game"], b["token"])
    d = api.post("/api/my-games", None, {"tokens": [*toks, "bogus"]}).json()["games"]
    assert len(d) == 2
    mine = [g["game"] for g in d if g["your_turn"]]
    expect = [x["game"] for x in (sa, sb) if x["your_turn"]]
    assert sorted(mine) == sorted(expect)
    assert [g["your_turn"] for g in d] == sorted([g["your_turn"] for g in d], reverse=True)
    assert api.post("/api/my-games", None, {"tokens": "x"}).status_code == 400


def test_websocket_pushes_each_seat_its_own_view(server, api):
    websockets = pytest.importorskip("websockets")
    gid, toks = two_people_with_a_choice(server, api)
    s = api.state(gid, toks[0])
    p = s["view"]["pending"]["player"]
    ws_url = server.url.replace("http", "ws") + f"/ws/games/{gid}"

    async def scenario():
        async with websockets.connect(ws_url) as bad:
            await bad.send(json.dumps({"token": "wrong"}))
            msg = json.loads(await bad.recv())
            assert msg["type"] == "error"
        async with websockets.connect(ws_url) as watcher:
            await watcher.send(json.dumps({"token": toks[1 - p]}))
            first = json.loads(await watcher.recv())
            assert first["type"] == "state" and first["you"] == 1 - p and first["version"] == s["version"]
            assert first["seats"][1 - p]["online"]
            r = await asyncio.to_thread(api.move, gid, toks[p], s["version"], "1A")
            assert r.status_code == 200
            while True:
                msg = json.loads(await asyncio.wait_for(watcher.recv(), 10))
                if msg["version"] > s["version"]:
                    break
            assert msg["you"] == 1 - p and msg["view"]["player"] == 1 - p
            assert msg["view"]["pending"]["kind"] == "keep" and "drawn" not in msg["view"]["pending"]
            assert msg["log_from"] == 0 or msg["log"][-1]["a"] == "1A"

    asyncio.run(scenario())


def test_record_upload_is_replayed_for_viewing(api):
    g = Game.new(Options(players=3), seed=11)
    rng = random.Random(1)
    for _ in range(40):
        g.apply(rng.choice(g.legal_actions()))
    rec = make_record(g, meta={"seats": [{"name": "A"}, {"name": "B", "kind": "bot", "bot": "random"}, {"name": "C"}]})
    r = api.post("/api/records/view", None, {"record": rec, "at": 10, "as": 2})
    assert r.status_code == 200, r.text
    d = r.json()
    assert d["total"] == 40 and d["at"] == 10 and d["view"]["player"] == 2 and len(d["log"]) == 40
    assert [s["name"] for s in d["seats"]] == ["A", "B", "C"]
    h = Game.new(Options(players=3), seed=11)
    for a in g.history()[:10]:
        h.apply(a)
    assert d["view"] == json.loads(json.dumps(h.observation(2)))
    assert state_digest(replay(rec)) == rec["final"]
    broken = dict(rec, actions=[*rec["actions"][:5], "fulfil nothing"])
    r = api.post("/api/records/view", None, {"record": broken})
    assert r.status_code == 400 and "record" in r.json()["error"]
    assert api.post("/api/records/view", None, {"record": {"format": "nope"}}).status_code == 400
    assert api.post("/api/records/view", None, {"record": rec, "at": 41}).status_code == 400


def test_pages_static_files_and_security_headers(server, api):
    for path in ("/", "/game/abc", "/join/xyz", "/viewer"):
        r = api.http.get(path)
        assert r.status_code == 200 and "text/html" in r.headers["content-type"]
        csp = r.headers["content-security-policy"]
        assert "default-src 'self'" in csp and "script-src 'self'" in csp
        assert r.headers["x-content-type-options"] == "nosniff" and r.headers["referrer-policy"] == "no-referrer"
    static = Path(__file__).resolve().parent.parent / "src" / "kashgar" / "server" / "static"
    for f in static.iterdir():
        r = api.http.get(f"/static/{f.name}")
        assert r.status_code == 200, f.name
        text = f.read_text(encoding="utf-8")
        # Everything is served here: no external assets, and no HTML built from strings.
        assert "//cdn" not in text and "googleapis" not in text
        for bad in ("innerHTML", "outerHTML", "insertAdjacentHTML", "document.write", "eval("):
            assert bad not in text, (f.name, bad)
        if f.suffix == ".html":
            assert "<script>" not in text and "style=" not in text  # no inline code (CSP)
    meta = api.http.get("/api/meta").json()
    assert "ismcts:hard" in meta["bots"] and "value" in meta["bots"] and len(meta["expansion"]) == 6
    de = api.http.get("/api/cards", params={"lang": "de"}).json()
    assert any(c["name"] == "Kleinauftrag" for c in de["contracts"])
    assert api.http.get("/api/cards", params={"lang": "fr"}).status_code == 400


def test_restart_rebuilds_every_game_from_the_database(tmp_path):
    url = f"sqlite:///{tmp_path / 'k.sqlite3'}"
    with ThreadServer(url, bot_workers=0, bot_delay=0) as srv:
        api = Api(srv.url)
        gid, toks = two_people(api)
        d = api.create([HUMAN, {"kind": "bot", "bot": "random"}], claim=0)
        play_random(api, gid, toks, 25, random.Random(2))
        s1 = api.state(gid, toks[1])
        b1 = api.wait(d["game"], d["token"], lambda x: x["your_turn"])
        api.close()
    with ThreadServer(url, bot_workers=0, bot_delay=0) as srv:
        api = Api(srv.url)
        s2 = api.state(gid, toks[1])
        b2 = api.state(d["game"], d["token"])
        api.close()
    for a, b in ((s1, s2), (b1, b2)):
        for x in (a, b):
            x.pop("clock")
            x.pop("seats")
        assert a == b
