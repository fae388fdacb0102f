"""A shared store whose values are encrypted at rest: what sign-in keeps must be unreadable, and
unforgeable, to whoever can read or write the store but does not hold the key.

Values are sealed with Fernet from the ``cryptography`` package (AES-128-CBC with a random IV,
authenticated by HMAC-SHA256 over the version, timestamp, IV and ciphertext). The 32-byte key
from the settings is split by Fernet into its signing and encryption halves. Several keys may
be given: the first seals, every one opens, so a key can be rotated without signing everyone
out. Each value is bound to the entry it was stored under (the entry's name is sealed with it),
so a sealed value copied to another entry does not open there. A value that does not open reads
as absent. :meth:`SealedStore.strict` is the same, over the wrapped store's strict view (an
outage raises there rather than reading as absent).
"""

from __future__ import annotations

import base64
import copy
import logging
from collections.abc import Sequence

from cryptography.fernet import Fernet, InvalidToken, MultiFernet

from openproject_mcp.ports.shared_state import SharedStore

log = logging.getLogger("openproject_mcp.shared_state")


class SealedStore(SharedStore):
    """``store`` with every value encrypted and authenticated under ``keys`` (32 bytes each)."""

    def __init__(self, store: SharedStore, keys: Sequence[bytes]) -> None:
        if not keys or any(len(key) != 32 for key in keys):
            raise ValueError("SealedStore needs one or more keys of exactly 32 bytes")
        self._store = store
        self._fernet = MultiFernet([Fernet(base64.urlsafe_b64encode(key)) for key in keys])

    @staticmethod
    def _bound(key: str, value: bytes) -> bytes:
        encoded = key.encode()
        return len(encoded).to_bytes(4, "big") + encoded + value

    def _open(self, key: str, sealed: bytes | None) -> bytes | None:
        if sealed is None:
            return None
        try:
            plain = self._fernet.decrypt(sealed)
        except InvalidToken:
            log.warning("a sealed entry could not be opened with the configured keys; it is treated as absent")
            return None
        prefix = self._bound(key, b"")
        if not plain.startswith(prefix):
            log.warning("a sealed entry was stored under another key; it is treated as absent")
            return None
        return plain[len(prefix) :]

    async def get(self, key: str) -> bytes | None:
        return self._open(key, await self._store.get(key))

    async def put(self, key: str, value: bytes, ttl_seconds: float) -> None:
        await self._store.put(key, self._fernet.encrypt(self._bound(key, value)), ttl_seconds)

    async def delete(self, key: str) -> None:
        await self._store.delete(key)

    async def take(self, key: str) -> bytes | None:
        return self._open(key, await self._store.take(key))

    async def healthy(self) -> bool:
        return await self._store.healthy()

    def strict(self) -> SharedStore:
        view = copy.copy(self)
        view._store = self._store.strict()
        return view

    async def close(self) -> None:
        await self._store.close()
