"""Starting and stopping the studio: the workspace's first build, its watching thread, and uvicorn
serving the application on 127.0.0.1 at a port of its own (a free one unless asked for).

The socket is bound here, before uvicorn starts, so that the port is known for the address printed
and for the Host check (studio/guard.py). Only the loopback interface is ever bound: there is no
option to listen elsewhere.
"""
from __future__ import annotations

import socket
import threading
from dataclasses import dataclass, field
from pathlib import Path

from .guard import new_token
from .workspace import Workspace

HOST = "127.0.0.1"


@dataclass
class Studio:
    data_root: Path
    port: int = 0  # 0: a free port
    token: str = field(default_factory=new_token)
    workspace: Workspace | None = None
    _server: object = None
    _stop_watch: threading.Event | None = None
    _thread: threading.Thread | None = None

    @property
    def url(self) -> str:
        return f"http://{HOST}:{self.port}/{self.token}/"

    def _prepare(self):
        import uvicorn

        from .app import make_app

        sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind((HOST, self.port))  # OSError when the port is taken: the command words it
        self.port = sock.getsockname()[1]
        sock.listen(128)  # from now on a browser's connection waits for uvicorn instead of being refused
        self.workspace = Workspace(self.data_root)
        self._stop_watch = self.workspace.start()
        app = make_app(self.workspace, self.token, {f"{HOST}:{self.port}", f"localhost:{self.port}"})
        config = uvicorn.Config(app, log_level="warning", access_log=False, lifespan="off",
                                timeout_graceful_shutdown=1, ws="none")
        self._server = uvicorn.Server(config)
        return sock

    def serve(self, ready=None) -> None:
        """Serve until interrupted (the command): ``ready(url)`` is called once the first build is done."""
        sock = self._prepare()
        if ready is not None:
            ready(self.url)
        try:
            self._server.run(sockets=[sock])
        finally:
            self._stop_watch.set()

    def start_in_thread(self) -> str:
        """Serve from a thread of its own (tests, benchmarks); returns the address once it answers."""
        sock = self._prepare()
        self._thread = threading.Thread(target=self._server.run, kwargs={"sockets": [sock]}, name="studio-http",
                                        daemon=True)
        self._thread.start()
        import time

        for _ in range(200):
            if getattr(self._server, "started", False):
                break
            time.sleep(0.05)
        return self.url

    def stop(self) -> None:
        if self._server is not None:
            self._server.should_exit = True
        if self._stop_watch is not None:
            self._stop_watch.set()
        if self._thread is not None:
            self._thread.join(timeout=10)
