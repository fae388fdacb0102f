"""Peak memory of reading a hostile answer: a 256 MiB gzip bomb and a 100 MiB body.

Each case runs in a fresh process (so its peak RSS is its own) against a loopback server:
"unbounded" reads the body the way the client did before the response cap (aiohttp inflates
it, ``response.read()``), "bounded" reads it with the client and the default cap
(``OPENPROJECT_MAX_RESPONSE_BYTES``, 32 MiB), which refuses it. Printed: the growth of peak
RSS over the process's own baseline, the median of a few runs.
"""

from __future__ import annotations

import asyncio
import multiprocessing
import resource
import statistics
import zlib
from contextlib import AsyncExitStack, asynccontextmanager, suppress

from aiohttp import ClientSession, web

MIB = 1024 * 1024
RUNS = 3


def _bomb(inflated: int) -> bytes:
    compressor = zlib.compressobj(9, zlib.DEFLATED, 16 + zlib.MAX_WBITS)
    block = b"\0" * MIB
    return b"".join(compressor.compress(block) for _ in range(inflated // MIB)) + compressor.flush()


async def _serve(kind: str) -> tuple[web.AppRunner, str]:
    bomb = _bomb(256 * MIB) if kind == "gzip" else b""

    async def answer(request: web.Request) -> web.StreamResponse:
        if kind == "gzip":
            return web.Response(body=bomb, headers={"Content-Encoding": "gzip", "Content-Type": "application/json"})
        response = web.StreamResponse(headers={"Content-Type": "application/json"})
        await response.prepare(request)
        chunk = b" " * MIB
        try:
            for _ in range(100):
                await response.write(chunk)
        except (ConnectionError, RuntimeError):
            pass
        return response

    app = web.Application()
    app.router.add_get("/api/v3/projects/1", answer)
    runner = web.AppRunner(app, access_log=None)
    await runner.setup()
    site = web.TCPSite(runner, "127.0.0.1", 0)
    await site.start()
    return runner, f"http://127.0.0.1:{runner.addresses[0][1]}/"


async def _read(kind: str, bounded: bool) -> None:
    from openproject_mcp.adapters.openproject.client import ClientSettings, OpenProjectClient, open_session
    from openproject_mcp.domain.errors import UpstreamServerError

    runner, base = await _serve(kind)
    try:
        if not bounded:
            async with ClientSession() as session, session.get(f"{base}api/v3/projects/1") as response:
                await response.read()
            return
        settings = ClientSettings(base, max_retries=0)
        async with AsyncExitStack() as stack:
            session = await stack.enter_async_context(asynccontextmanager(open_session)(settings, "bench-token"))
            client = OpenProjectClient(session, settings, "bench-token", asyncio.Semaphore(8))
            with suppress(UpstreamServerError):
                await client.get("api/v3/projects/1")
    finally:
        await runner.cleanup()


def _child(kind: str, bounded: bool, out: multiprocessing.Queue[float]) -> None:
    asyncio.run(_serve_nothing())  # warm the imports and the loop before the baseline
    baseline = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    asyncio.run(_read(kind, bounded))
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    out.put((peak - baseline) / 1024)  # ru_maxrss is in KiB on Linux


async def _serve_nothing() -> None:
    import openproject_mcp.adapters.openproject.client  # noqa: F401

    runner, _ = await _serve("plain-empty")
    await runner.cleanup()


def _measure(kind: str, bounded: bool) -> float:
    context = multiprocessing.get_context("spawn")
    samples = []
    for _ in range(RUNS):
        queue: multiprocessing.Queue[float] = context.Queue()
        process = context.Process(target=_child, args=(kind, bounded, queue))
        process.start()
        samples.append(queue.get(timeout=120))
        process.join()
    return statistics.median(samples)


def main() -> None:
    print(f"peak RSS growth reading a hostile answer (median of {RUNS} fresh processes)")
    for kind, label in (("gzip", "256 MiB gzip bomb (255 KB on the wire)"), ("plain", "100 MiB plain body")):
        unbounded = _measure(kind, bounded=False)
        bounded = _measure(kind, bounded=True)
        print(f"  {label:<40} unbounded read: {unbounded:7.1f} MiB   client with 32 MiB cap: {bounded:6.1f} MiB")


if __name__ == "__main__":
    main()
