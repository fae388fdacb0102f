"""The Redis shared store against a real ``redis-server`` started for each test."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import AsyncIterator

import pytest
import redis

from openproject_mcp.adapters.shared_state.codec import MsgpackCodecs
from openproject_mcp.adapters.shared_state.redis import PREFIX, RedisStore, describe
from openproject_mcp.adapters.shared_state.sealed import SealedStore
from openproject_mcp.application.caching import SharedTier
from openproject_mcp.domain.entities import AgendaItem, MeetingDetails, NamedRef
from openproject_mcp.ports.shared_state import StoreUnavailableError
from tests.support.redis_server import RedisServer


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture
async def store(redis_server: RedisServer) -> AsyncIterator[RedisStore]:
    opened = RedisStore(redis_server.url)
    try:
        yield opened
    finally:
        await opened.close()


def raw(server: RedisServer) -> redis.Redis:
    return redis.Redis.from_url(server.url)


async def test_values_round_trip_with_their_ttl_and_the_prefix(store: RedisStore, redis_server: RedisServer) -> None:
    assert store.shared
    await store.put("a", b"1", ttl_seconds=60)
    await store.put_many({"b": b"2", "c": b"\x00\xff"}, ttl_seconds=30)
    assert await store.get("a") == b"1"
    assert await store.get_many(["c", "missing", "b"]) == [b"\x00\xff", None, b"2"]
    client = raw(redis_server)
    assert sorted(client.keys("*")) == sorted(f"{PREFIX}{key}".encode() for key in "abc")
    assert 59_000 < client.pttl(f"{PREFIX}a") <= 60_000
    assert 29_000 < client.pttl(f"{PREFIX}b") <= 30_000
    await store.delete("a")
    assert await store.get("a") is None
    await store.put("b", b"gone", ttl_seconds=0)
    assert await store.get("b") is None, "a TTL of zero removes the entry"


async def test_an_entry_is_gone_once_its_ttl_has_passed(store: RedisStore) -> None:
    await store.put("short", b"x", ttl_seconds=0.05)
    for _ in range(200):  # Redis expires it; wait for that, without timing anything
        if await store.get("short") is None:
            break
        await asyncio.sleep(0.02)
    assert await store.get("short") is None


async def test_take_hands_a_value_to_one_caller_only(store: RedisStore) -> None:
    await store.put("code", b"once", ttl_seconds=60)
    taken = await asyncio.gather(*(store.take("code") for _ in range(20)))
    assert [value for value in taken if value is not None] == [b"once"]
    assert await store.get("code") is None


async def test_an_outage_reads_as_empty_drops_writes_and_logs_once_then_recovers(
    redis_server: RedisServer, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO, logger="openproject_mcp.shared_state")
    clock = Clock()
    store = RedisStore(redis_server.url, clock=clock, retry_seconds=5.0)
    try:
        await store.put("kept", b"1", ttl_seconds=60)
        assert await store.healthy()
        redis_server.stop()
        for _ in range(50):
            assert await store.get("kept") is None
            assert await store.get_many(["kept", "other"]) == [None, None]
            await store.put("lost", b"2", ttl_seconds=60)
            assert await store.take("kept") is None
        assert not await store.healthy()
        down = [r for r in caplog.records if "cannot be reached" in r.getMessage()]
        assert len(down) == 1, "one line for the outage, not one per call"

        redis_server.start()  # same port, empty (no persistence)
        assert not await store.healthy(), "within the retry window the store is not asked"
        clock.now += 5.0
        assert await store.healthy()
        await store.put("again", b"3", ttl_seconds=60)
        assert await store.get("again") == b"3"
        back = [r for r in caplog.records if "the shared cache is back" in r.getMessage()]
        assert len(back) == 1
    finally:
        await store.close()


async def test_the_strict_view_raises_through_an_outage_where_the_store_reads_as_empty(
    redis_server: RedisServer, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO, logger="openproject_mcp.shared_state")
    clock = Clock()
    store = RedisStore(redis_server.url, clock=clock, retry_seconds=5.0)
    strict = store.strict()
    sealed = SealedStore(store, [b"k" * 32]).strict()
    try:
        assert strict.shared and strict.strict() is strict
        await strict.put("kept", b"1", ttl_seconds=60)
        await sealed.put("sealed", b"2", ttl_seconds=60)
        assert await strict.get("kept") == b"1" and await sealed.get("sealed") == b"2"
        assert await strict.get("missing") is None, "absent is still absent"
        redis_server.stop()
        with pytest.raises(StoreUnavailableError) as first:
            await strict.get("kept")
        assert first.value.retry_after == 5.0
        clock.now += 2.0
        operations = (
            strict.get("kept"),
            strict.get_many(["kept"]),
            strict.put("x", b"1", ttl_seconds=60),
            strict.put_many({"x": b"1"}, ttl_seconds=60),
            strict.delete("kept"),
            strict.take("kept"),
            sealed.get("sealed"),
            sealed.take("sealed"),
        )
        for operation in operations:
            with pytest.raises(StoreUnavailableError) as skipped:
                await operation
            assert skipped.value.retry_after == pytest.approx(3.0), "the rest of the window, without the network"
        assert await store.get("kept") is None, "the store itself still reads an outage as a miss"
        assert len([r for r in caplog.records if "cannot be reached" in r.getMessage()]) == 1
        assert str(first.value) == "the shared store cannot be reached just now"
        redis_server.start()  # same port, empty (no persistence)
        clock.now += 5.0
        await strict.put("again", b"3", ttl_seconds=60)
        assert await strict.get("again") == b"3"
    finally:
        await store.close()


async def test_an_unreachable_store_at_start_serves_as_empty(caplog: pytest.LogCaptureFixture) -> None:
    from tests.unit.adapters.mcp_http.serving import free_port

    store = RedisStore(f"redis://:s3cret-password@127.0.0.1:{free_port()}/2")
    try:
        assert await store.get("x") is None
        assert not await store.healthy()
    finally:
        await store.close()
    assert "s3cret-password" not in caplog.text
    assert "cannot be reached" in caplog.text


def test_the_logged_location_never_carries_a_password() -> None:
    assert describe("redis://user:pw@cache.internal:6380/3") == "redis://cache.internal:6380/3"
    assert describe("rediss://:pw@cache.internal") == "rediss://cache.internal"
    assert describe("unix:///run/redis.sock") == "unix:///run/redis.sock"


async def test_the_shared_tier_keeps_typed_values_and_bounds_their_size(store: RedisStore) -> None:
    tier = SharedTier(store, MsgpackCodecs(), max_value_bytes=2_000)
    codec = tier.codec("meeting-details", MeetingDetails)
    details = MeetingDetails(
        meeting_id=7,
        participants=(NamedRef(1, "Ada"),),
        agenda_items=(AgendaItem(id=3, title="Budget", position=1, notes="approve", outcomes=("approved",)),),
    )
    big_items = tuple(AgendaItem(id=n, title="x" * 200, position=n) for n in range(50))
    big = MeetingDetails(meeting_id=8, participants=None, agenda_items=big_items)
    await tier.save({"m:7": details, "m:8": big}, codec, ttl_seconds=60)
    assert await tier.load(["m:7", "m:8", "m:9"], codec) == [details, None, None], "over the bound: not shared"

    await store.put("m:bad", b"\x93not what a meeting is", ttl_seconds=60)
    assert await tier.load(["m:bad"], codec) == [None], "an entry another version wrote is a miss"


async def test_a_store_that_stops_answering_is_given_up_after_the_configured_timeout(
    caplog: pytest.LogCaptureFixture,
) -> None:
    """``OPENPROJECT_REDIS_TIMEOUT`` reaches the client: a server that accepts and never answers
    is a miss after the configured time, not after the default's."""
    from openproject_mcp.composition import new_shared_store
    from openproject_mcp.config import load_settings

    held: list[asyncio.StreamWriter] = []

    async def silent(_: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        held.append(writer)  # read nothing, answer nothing

    server = await asyncio.start_server(silent, "127.0.0.1", 0)
    port = server.sockets[0].getsockname()[1]
    env = {"OPENPROJECT_BASE_URL": "https://op.example.com", "OPENPROJECT_REDIS_URL": f"redis://127.0.0.1:{port}/0"}
    patient = new_shared_store(load_settings({**env, "OPENPROJECT_REDIS_TIMEOUT": "8"}, require_api_key=False))
    quick = new_shared_store(load_settings({**env, "OPENPROJECT_REDIS_TIMEOUT": "0.1"}, require_api_key=False))
    try:
        with pytest.raises(TimeoutError):
            await asyncio.wait_for(patient.get("x"), timeout=1.5)
        assert await asyncio.wait_for(quick.get("x"), timeout=1.5) is None
        assert "cannot be reached (TimeoutError)" in caplog.text
    finally:
        await patient.close()
        await quick.close()
        for writer in held:
            writer.close()
        server.close()
        await server.wait_closed()
