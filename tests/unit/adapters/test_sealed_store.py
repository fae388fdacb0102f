"""The sealed store: values unreadable and unforgeable without the key, keys rotatable."""

from __future__ import annotations

import os

import pytest

from openproject_mcp.adapters.shared_state.memory import MemoryStore
from openproject_mcp.adapters.shared_state.sealed import SealedStore

SECRET = b"upstream-access-token-5f1e9c"


async def test_a_value_round_trips_and_is_not_readable_in_the_store_below() -> None:
    below = MemoryStore()
    sealed = SealedStore(below, [os.urandom(32)])
    await sealed.put("signin:grant:g1", SECRET, 60)
    assert await sealed.get("signin:grant:g1") == SECRET
    held = await below.get("signin:grant:g1")
    assert held is not None and SECRET not in held
    assert await sealed.take("signin:grant:g1") == SECRET
    assert await sealed.get("signin:grant:g1") is None


async def test_a_value_moved_to_another_entry_or_read_with_another_key_reads_as_absent() -> None:
    below = MemoryStore()
    key = os.urandom(32)
    sealed = SealedStore(below, [key])
    await sealed.put("signin:access:aaaa", SECRET, 60)
    moved = await below.get("signin:access:aaaa")
    assert moved is not None
    await below.put("signin:access:bbbb", moved, 60)
    assert await sealed.get("signin:access:bbbb") is None
    assert await SealedStore(below, [os.urandom(32)]).get("signin:access:aaaa") is None
    await below.put("signin:access:cccc", b"not sealed at all", 60)
    assert await sealed.get("signin:access:cccc") is None


async def test_a_rotated_key_still_opens_what_the_old_one_sealed_and_new_values_use_the_new_one() -> None:
    below = MemoryStore()
    old, new = os.urandom(32), os.urandom(32)
    await SealedStore(below, [old]).put("k", SECRET, 60)
    rotated = SealedStore(below, [new, old])
    assert await rotated.get("k") == SECRET
    await rotated.put("k2", SECRET, 60)
    assert await SealedStore(below, [new]).get("k2") == SECRET
    assert await SealedStore(below, [old]).get("k2") is None


def test_keys_must_be_32_bytes() -> None:
    with pytest.raises(ValueError, match="32 bytes"):
        SealedStore(MemoryStore(), [b"short"])
    with pytest.raises(ValueError, match="32 bytes"):
        SealedStore(MemoryStore(), [])
