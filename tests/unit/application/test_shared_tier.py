"""The caches' shared tier between two process graphs, over an in-process store that says it is shared.

The e2e suite runs the same through a real Redis; this keeps the tier's rules checked where no
``redis-server`` can be installed.
"""

from __future__ import annotations

import subprocess
import sys

import pytest

from openproject_mcp.adapters.openproject.capabilities import CAPABILITY_NAMES, CapabilityCache
from openproject_mcp.adapters.shared_state.codec import MsgpackCodecs
from openproject_mcp.adapters.shared_state.memory import MemoryStore
from openproject_mcp.application.caching import EnrichmentCache, SharedTier, TenantCaches, tenant_key
from openproject_mcp.application.wiki_knowledge import WikiReferences
from openproject_mcp.config import ConfigurationError, load_settings


class SharedMemoryStore(MemoryStore):
    """One store that two "replicas" in this process both hold, as two processes would hold one Redis."""

    @property
    def shared(self) -> bool:
        return True


def replica(store: SharedMemoryStore) -> TenantCaches:
    return TenantCaches(shared=SharedTier(store, MsgpackCodecs()))


async def test_deep_content_read_by_one_replica_is_loaded_by_the_other_for_the_same_tenant_only() -> None:
    store = SharedMemoryStore()
    a, b = replica(store), replica(store)
    alice, bob = tenant_key("https://op", "alice-token"), tenant_key("https://op", "bob-token")
    written = EnrichmentCache[tuple[str, ...]](a, alice, "comments", tuple[str, ...])
    written.put(7, "v1", ("a comment",))
    await written.flush()

    same = EnrichmentCache[tuple[str, ...]](b, alice, "comments", tuple[str, ...])
    assert same.get(7, "v1") is None, "nothing local yet"
    assert await same.preload([(7, "v1"), (8, "v1"), (7, "v2")]) == 1
    assert same.get(7, "v1") == ("a comment",)
    assert same.get(7, "v2") is None, "another version of the record is another entry"

    other = EnrichmentCache[tuple[str, ...]](b, bob, "comments", tuple[str, ...])
    assert await other.preload([(7, "v1")]) == 0
    assert other.get(7, "v1") is None
    assert not any("alice-token" in key or "bob-token" in key for key in store._entries)


async def test_without_a_shared_tier_preload_and_flush_do_nothing() -> None:
    caches = TenantCaches()
    cache = EnrichmentCache[tuple[str, ...]](caches, "tenant:x", "comments", tuple[str, ...])
    cache.put(1, "v", ("kept locally",))
    await cache.flush()
    assert await cache.preload([(2, "v")]) == 0
    assert cache.get(1, "v") == ("kept locally",)


async def test_wiki_ids_learned_by_one_replica_reach_the_other() -> None:
    store = SharedMemoryStore()
    first = WikiReferences(replica(store), "https://op")
    first.ids().confirm(12)
    first.ids().hint([40])
    await first.publish()
    second = WikiReferences(replica(store), "https://op")
    ids = await second.load()
    assert (ids.known, ids.hinted) == ({12}, {40})


async def test_capabilities_probed_by_one_replica_are_taken_by_the_other() -> None:
    store = SharedMemoryStore()
    first = CapabilityCache(store=store)
    first.remember("https://op", dict.fromkeys(CAPABILITY_NAMES, True))
    first.learn_dialect("https://op", "time", "form-a")
    await first.publish("https://op")
    second = CapabilityCache(store=store)
    await second.load("https://op")
    assert second.known("https://op") == dict.fromkeys(CAPABILITY_NAMES, True)
    assert second.dialect("https://op", "time") == "form-a"

    unshared = MemoryStore()  # an in-process store: each process keeps its own answers
    alone = CapabilityCache(store=unshared)
    alone.remember("https://op", dict.fromkeys(CAPABILITY_NAMES, True))
    await alone.publish("https://op")
    assert len(unshared) == 0
    stranger = CapabilityCache(store=unshared)
    await stranger.load("https://op")
    assert stranger.known("https://op") == {}


def test_the_redis_client_is_imported_only_where_a_redis_url_is_set() -> None:
    code = (
        "import sys, openproject_mcp.composition, openproject_mcp.entrypoint; "
        "print(any(m == 'redis' or m.startswith('redis.') for m in sys.modules))"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, timeout=120)
    assert done.stdout.strip() == "False"


def test_the_redis_url_is_checked_at_start_without_repeating_it() -> None:
    env = {"OPENPROJECT_BASE_URL": "https://op.example.com", "OPENPROJECT_API_KEY": "k"}
    assert load_settings(env).redis_url is None
    url = "rediss://:pw@cache.internal:6380/1"
    assert load_settings({**env, "OPENPROJECT_REDIS_URL": f"  {url} "}).redis_url == url
    assert "pw" not in repr(load_settings({**env, "OPENPROJECT_REDIS_URL": url}))
    with pytest.raises(ConfigurationError) as refused:
        load_settings({**env, "OPENPROJECT_REDIS_URL": "http://:secret-pw@cache:6379"})
    assert "OPENPROJECT_REDIS_URL" in str(refused.value)
    assert "redis://" in str(refused.value)
    assert "secret-pw" not in str(refused.value)


def test_the_shared_store_timeout_is_a_setting_checked_at_start() -> None:
    env = {"OPENPROJECT_BASE_URL": "https://op.example.com", "OPENPROJECT_API_KEY": "k"}
    assert load_settings(env).redis_timeout_seconds == 0.5
    assert load_settings({**env, "OPENPROJECT_REDIS_TIMEOUT": " 2.5 "}).redis_timeout_seconds == 2.5
    for bad, says in (("0", "between 0.05 and 10"), ("60", "between 0.05 and 10"), ("soon", "must be a number")):
        with pytest.raises(ConfigurationError) as refused:
            load_settings({**env, "OPENPROJECT_REDIS_TIMEOUT": bad})
        assert "OPENPROJECT_REDIS_TIMEOUT" in str(refused.value)
        assert says in str(refused.value)
