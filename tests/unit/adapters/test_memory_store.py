from __future__ import annotations

from openproject_mcp.adapters.shared_state.memory import MemoryStore


class Clock:
    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


async def test_values_expire_after_their_ttl() -> None:
    clock = Clock()
    store = MemoryStore(clock=clock)
    await store.put("a", b"1", ttl_seconds=10)
    clock.now = 9.9
    assert await store.get("a") == b"1"
    clock.now = 10.0
    assert await store.get("a") is None


async def test_take_returns_the_value_once() -> None:
    store = MemoryStore()
    await store.put("code", b"x", ttl_seconds=60)
    assert await store.take("code") == b"x"
    assert await store.take("code") is None
    assert await store.get("code") is None


async def test_the_least_recently_used_entry_goes_first() -> None:
    store = MemoryStore(max_entries=2)
    await store.put("a", b"1", 60)
    await store.put("b", b"2", 60)
    assert await store.get("a") == b"1"
    await store.put("c", b"3", 60)
    assert await store.get("b") is None
    assert await store.get("a") == b"1"
    assert len(store) == 2


async def test_delete_and_a_non_positive_ttl_remove_the_key() -> None:
    store = MemoryStore()
    await store.put("a", b"1", 60)
    await store.delete("a")
    await store.delete("a")
    assert await store.get("a") is None
    await store.put("b", b"1", 60)
    await store.put("b", b"2", 0)
    assert await store.get("b") is None


def test_the_in_process_store_is_its_own_strict_view() -> None:
    store = MemoryStore()
    assert store.strict() is store, "it is never unreachable, so nothing there raises"
