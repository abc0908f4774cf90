"""Helpers to run a real server on 127.0.0.1 for tests and the load script: in a thread of this
process (:class:`ThreadServer`) or as a separate ``python -m kashgar.server`` process
(:class:`ServerProcess`, which a test can kill with SIGKILL)."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import threading
import time
from typing import Any

import httpx


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def wait_port(port: int, timeout: float = 30.0, proc: subprocess.Popen | None = None) -> None:
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        if proc is not None and proc.poll() is not None:
            raise RuntimeError(f"the server exited with status {proc.returncode}")
        try:
            socket.create_connection(("127.0.0.1", port), 0.2).close()
            return
        except OSError:
            time.sleep(0.05)
    raise TimeoutError(f"nothing listens on 127.0.0.1:{port} after {timeout} s")


class ThreadServer:
    """uvicorn serving ``create_app(db_url, **kw)`` in a background thread."""

    def __init__(self, db_url: str, **kw: Any) -> None:
        import uvicorn

        from .app import create_app

        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.app = create_app(db_url, public_url=self.url, **kw)
        config = uvicorn.Config(self.app, host="127.0.0.1", port=self.port, log_level="warning", lifespan="on")
        self.server = uvicorn.Server(config)
        self.thread = threading.Thread(target=self.server.run, daemon=True)

    @property
    def hub(self):
        return self.app.state.hub

    def __enter__(self) -> ThreadServer:
        self.thread.start()
        end = time.monotonic() + 30
        while not self.server.started:
            if not self.thread.is_alive() or time.monotonic() > end:
                raise RuntimeError("the server did not start")
            time.sleep(0.02)
        return self

    def __exit__(self, *exc: Any) -> None:
        self.server.should_exit = True
        self.thread.join(timeout=15)


class ServerProcess:
    """``python -m kashgar.server`` on a free port; :meth:`kill9` ends it without any clean-up."""

    def __init__(self, db_url: str, *, port: int | None = None, bot_delay: float = 0.0, extra: list[str] | None = None,
                 cwd: str | None = None) -> None:
        self.port = port or free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.db_url = db_url
        self.bot_delay = bot_delay
        self.extra = extra or []
        self.cwd = cwd
        self.proc: subprocess.Popen | None = None

    def start(self) -> ServerProcess:
        cmd = [sys.executable, "-m", "kashgar.server", "--host", "127.0.0.1", "--port", str(self.port),
               "--db", self.db_url, "--bot-delay", str(self.bot_delay), "--log-level", "warning", *self.extra]
        env = dict(os.environ, PYTHONUNBUFFERED="1")
        self.proc = subprocess.Popen(cmd, cwd=self.cwd, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        wait_port(self.port, proc=self.proc)
        return self

    def kill9(self) -> None:
        assert self.proc is not None
        self.proc.send_signal(signal.SIGKILL)
        self.proc.wait(timeout=10)
        self._reap_workers()

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.send_signal(signal.SIGINT)
            try:
                self.proc.wait(timeout=15)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        self._reap_workers()

    def _reap_workers(self) -> None:
        """Bot worker processes of a killed server notice that their parent is gone and exit; give
        them a moment so they do not compete with the next server for the CPU."""
        time.sleep(0.2)

    def __enter__(self) -> ServerProcess:
        return self.start()

    def __exit__(self, *exc: Any) -> None:
        self.stop()


class Api:
    """A small synchronous client of the JSON API."""

    def __init__(self, base: str, timeout: float = 30.0) -> None:
        self.http = httpx.Client(base_url=base, timeout=timeout)

    def close(self) -> None:
        self.http.close()

    def create(self, seats: list[dict], claim: int | None = 0, **kw: Any) -> dict:
        r = self.http.post("/api/games", json={"seats": seats, "claim": claim, **kw})
        r.raise_for_status()
        return r.json()

    def join(self, code: str, name: str | None = None) -> dict:
        r = self.http.post(f"/api/invites/{code}", json={"name": name})
        r.raise_for_status()
        return r.json()

    def state(self, gid: str, token: str) -> dict:
        r = self.http.get(f"/api/games/{gid}", headers={"authorization": f"Bearer {token}"})
        r.raise_for_status()
        return r.json()

    def move(self, gid: str, token: str, version: int, action: str) -> httpx.Response:
        return self.http.post(f"/api/games/{gid}/move", json={"version": version, "action": action},
                              headers={"authorization": f"Bearer {token}"})

    def post(self, path: str, token: str | None, body: Any) -> httpx.Response:
        headers = {"authorization": f"Bearer {token}"} if token else {}
        return self.http.post(path, json=body, headers=headers)

    def wait(self, gid: str, token: str, pred, timeout: float = 30.0) -> dict:
        """Poll the state until ``pred(state)`` holds."""
        end = time.monotonic() + timeout
        while True:
            s = self.state(gid, token)
            if pred(s):
                return s
            if time.monotonic() > end:
                raise TimeoutError(f"condition not reached; last state version {s['version']}, status {s['status']}")
            time.sleep(0.05)
