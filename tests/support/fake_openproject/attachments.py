"""Attachments as OpenProject serves them: the HAL representation, and the content endpoint.

``GET /api/v3/attachments/{id}/content`` sends the file itself when attachments are stored on the
instance, and redirects to a signed URL when they are kept in external storage (S3 and the like:
``opf/openproject@4911b8a:lib/api/helpers/attachment_renderer.rb``). The file is then sent with
``text/plain`` for any ``text/*`` file, its own type for what OpenProject shows inline (text,
images, videos, PDF) and ``application/octet-stream`` for everything else, with a
``Content-Disposition`` naming the file (the same helper, and ``inlineable?`` in
``@4911b8a:app/models/attachment.rb``). Every profile serves it the same way: the endpoint and
the helper are older than every version the fake plays.

The fake plays external storage on another origin than the instance (``localhost`` instead of
``127.0.0.1``, same port), under ``/external-storage/``: such a URL needs no token, only its
signature, as a presigned S3 URL does.
"""

from __future__ import annotations

import hashlib
import secrets
from dataclasses import dataclass
from typing import Literal

from aiohttp import web

from openproject_mcp.adapters.fixture.rows import AttachmentRow
from tests.support.fake_openproject.errors import not_found

Storage = Literal["local", "external"]
EXTERNAL_PREFIX = "/external-storage/"
_INLINE_PREFIXES = ("text/", "image/", "video/")


def served_content_type(declared: str) -> str:
    """The ``Content-Type`` OpenProject sends a file with (``attachment_content_type``)."""
    kind = declared.split(";")[0].strip().lower()
    if kind.startswith("text/"):
        return "text/plain"
    if kind.startswith(_INLINE_PREFIXES) or kind == "application/pdf":
        return kind
    return "application/octet-stream"


def disposition(row: AttachmentRow) -> str:
    kind = row.attachment.content_type.lower()
    inline = kind.startswith(_INLINE_PREFIXES) or kind == "application/pdf"
    return f"{'inline' if inline else 'attachment'}; filename={row.attachment.file_name}"


@dataclass(frozen=True, slots=True)
class _Signed:
    row: AttachmentRow


class ExternalStorage:
    """Signed URLs handed out by redirects, and the files behind them."""

    def __init__(self) -> None:
        self._signed: dict[str, _Signed] = {}
        self.origin = ""
        """``http://localhost:PORT``: set once the server runs."""

    def sign(self, row: AttachmentRow) -> str:
        signature = secrets.token_hex(16)
        self._signed[signature] = _Signed(row)
        key = hashlib.sha256(f"{row.attachment.id}".encode()).hexdigest()[:16]
        return f"{self.origin}{EXTERNAL_PREFIX}{key}/{row.attachment.file_name}?X-Amz-Signature={signature}"

    async def answer(self, request: web.Request) -> web.StreamResponse:
        signed = self._signed.get(request.query.get("X-Amz-Signature", ""))
        if signed is None or request.headers.get("Authorization"):
            # A signed URL refuses any other credentials, as S3 does ("only one auth mechanism allowed").
            return web.Response(
                status=403, text="<Error><Code>AccessDenied</Code></Error>", content_type="application/xml"
            )
        row = signed.row
        assert row.content is not None
        return web.Response(
            body=row.content,
            headers={"Content-Type": row.attachment.content_type, "Content-Disposition": disposition(row)},
        )


def attachment_hal(
    prefix: str, row: AttachmentRow, container: tuple[str, int, str], download: str
) -> dict[str, object]:
    """``AttachmentRepresenter`` (``@4911b8a:lib/api/v3/attachments/attachment_representer.rb``):
    ``staticDownloadLocation`` is always the content endpoint, ``downloadLocation`` the external URL
    where the file is kept outside the instance."""
    attachment = row.attachment
    kind, container_id, title = container
    content = f"{prefix}/api/v3/attachments/{attachment.id}/content"
    digest = hashlib.md5(row.content or b"", usedforsecurity=False).hexdigest()
    return {
        "_type": "Attachment",
        "id": attachment.id,
        "fileName": attachment.file_name,
        "fileSize": attachment.file_size,
        "description": {"format": "plain", "raw": "", "html": ""},
        "status": "uploaded",
        "contentType": attachment.content_type,
        "digest": {"algorithm": "md5", "hash": digest},
        "createdAt": "2026-09-01T09:00:00.000Z",
        "_links": {
            "self": {"href": f"{prefix}/api/v3/attachments/{attachment.id}", "title": attachment.file_name},
            "container": {"href": f"{prefix}/api/v3/{kind}/{container_id}", "title": title},
            "staticDownloadLocation": {"href": content},
            "downloadLocation": {"href": download or content},
        },
    }


def content_response(row: AttachmentRow | None, storage: Storage, external: ExternalStorage) -> web.StreamResponse:
    if row is None:
        raise not_found("The requested resource could not be found.")
    if row.content is None:
        raise not_found("The file of this attachment could not be found.")  # ``diskfile.nil?`` in newer versions
    if storage == "external":
        return web.Response(status=302, headers={"Location": external.sign(row)})
    return web.Response(
        body=row.content,
        headers={
            "Content-Type": served_content_type(row.attachment.content_type),
            "Content-Disposition": disposition(row),
        },
    )
