"""Cached values as MessagePack, typed on the way back (msgspec)."""

from __future__ import annotations

from typing import Any

import msgspec

from openproject_mcp.ports.shared_state import Codec, Codecs


class MsgpackCodec(Codec[Any]):
    """One type's encoder and typed decoder: a value that does not fit the type is a ``ValueError``."""

    def __init__(self, tp: Any) -> None:
        self._encoder = msgspec.msgpack.Encoder()
        self._decoder: msgspec.msgpack.Decoder[Any] = msgspec.msgpack.Decoder(tp)

    def encode(self, value: Any) -> bytes:
        return self._encoder.encode(value)

    def decode(self, data: bytes) -> Any:
        try:
            return self._decoder.decode(data)
        except msgspec.DecodeError as error:  # ValidationError is one too
            raise ValueError(str(error)) from None


class MsgpackCodecs(Codecs):
    def codec(self, tp: Any) -> Codec[Any]:
        return MsgpackCodec(tp)
