"""A real ``redis-server`` for the tests and benchmarks: a free loopback port, a temporary directory,
no persistence, killed at the end.

``make setup`` installs ``redis-server`` where it is missing and the machine allows it (root
with ``apt-get``); where it still is not on the ``PATH``, the tests that need it are skipped
with that reason.
"""

from __future__ import annotations

import contextlib
import shutil
import signal
import socket
import subprocess
import tempfile
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

MISSING = (
    "redis-server is not installed and could not be installed here "
    "(make setup installs it with apt-get where it runs as root); the shared-state tests need a real one"
)


def redis_server_binary() -> str | None:
    return shutil.which("redis-server")


def _free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


def _answers(port: int) -> bool:
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=0.5) as sock:
            sock.sendall(b"PING\r\n")
            return sock.recv(16).startswith(b"+PONG")
    except OSError:
        return False


@dataclass
class RedisServer:
    """One ``redis-server`` process; ``stop`` and ``start`` again keep its port (an outage and its end)."""

    binary: str
    directory: Path
    port: int
    max_memory: str = "64mb"
    process: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def start(self) -> None:
        if self.process is not None and self.process.poll() is None:
            return
        log = (self.directory / "redis.log").open("ab")
        self.process = subprocess.Popen(
            [
                self.binary,
                "--port",
                str(self.port),
                "--bind",
                "127.0.0.1",
                "--dir",
                str(self.directory),
                "--save",
                "",
                "--appendonly",
                "no",
                "--maxmemory",
                self.max_memory,
                "--maxmemory-policy",
                "allkeys-lru",
                "--protected-mode",
                "yes",
            ],
            stdin=subprocess.DEVNULL,
            stdout=log,
            stderr=subprocess.STDOUT,
        )
        log.close()
        deadline = time.monotonic() + 20
        while not _answers(self.port):
            if self.process.poll() is not None:
                raise RuntimeError(f"redis-server exited with {self.process.returncode}; see {self.directory}")
            if time.monotonic() > deadline:
                raise RuntimeError("redis-server did not answer within 20 s")
            time.sleep(0.02)

    def stop(self) -> None:
        """Kill the server at once (an outage, not a clean shutdown) and wait for it to be gone."""
        if self.process is None:
            return
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGKILL)
            self.process.wait(timeout=20)
        self.process = None


@contextlib.contextmanager
def running_redis(max_memory: str = "64mb") -> Iterator[RedisServer]:
    """A started server, killed when the block ends, its directory removed."""
    binary = redis_server_binary()
    if binary is None:
        raise RuntimeError(MISSING)
    with tempfile.TemporaryDirectory(prefix="openproject-mcp-redis-") as directory:
        server = RedisServer(binary, Path(directory), _free_port(), max_memory)
        server.start()
        try:
            yield server
        finally:
            server.stop()
