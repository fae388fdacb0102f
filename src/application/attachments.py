"""Use cases: list the attachments of a work package or a wiki page, and read one of them.

An attachment is read through its container: the container's list says which attachments the
caller may see and how large each one is, so a file above the size cap is refused before a
byte of it is requested, and an attachment id that belongs to another record is not found.
"""

from __future__ import annotations

import codecs
from dataclasses import dataclass
from typing import Literal

from openproject_mcp.application.arguments import positive_id
from openproject_mcp.application.work_packages import work_package_ref
from openproject_mcp.domain.entities import Attachment
from openproject_mcp.domain.errors import AuthenticationError, NotFoundError, UnsupportedError, attachment_too_large
from openproject_mcp.ports import AttachmentRepository, WikiPageRepository, WorkPackageRepository

ContainerKind = Literal["work_package", "wiki_page"]
DEFAULT_MAX_ATTACHMENT_BYTES = 5 * 1024 * 1024
LISTED_IN_ERRORS = 10
"""Attachments named in a "no such attachment" error, at most."""

TEXT_TYPES = frozenset(
    {
        "application/json",
        "application/ld+json",
        "application/xml",
        "application/javascript",
        "application/x-yaml",
        "application/yaml",
        "application/toml",
        "application/sql",
        "application/x-sh",
        "image/svg+xml",
    }
)
"""Media types outside ``text/*`` whose content is text (when it decodes as UTF-8)."""


@dataclass(frozen=True, slots=True)
class AttachmentContainer:
    """Whose attachments: a work package (id or display id) or a wiki page (id)."""

    kind: ContainerKind
    ref: int | str

    @property
    def label(self) -> str:
        return f"{'Work package' if self.kind == 'work_package' else 'Wiki page'} {self.ref}"


@dataclass(frozen=True, slots=True)
class AttachmentListing:
    """The attachments of one container, with the container's numeric id."""

    container: AttachmentContainer
    container_id: int
    attachments: tuple[Attachment, ...]


@dataclass(frozen=True, slots=True, repr=False)
class AttachmentFile:
    """One attachment's content: ``text`` when it is text (UTF-8), else only ``data``."""

    attachment: Attachment
    container_id: int
    media_type: str
    data: bytes
    text: str | None

    def __repr__(self) -> str:
        return f"AttachmentFile({self.attachment.id}, {len(self.data)} bytes)"


@dataclass(frozen=True, slots=True)
class ListAttachmentsRequest:
    container: AttachmentContainer


@dataclass(frozen=True, slots=True)
class ReadAttachmentRequest:
    container: AttachmentContainer
    attachment_id: int


class ListAttachments:
    def __init__(
        self, attachments: AttachmentRepository, work_packages: WorkPackageRepository, wiki_pages: WikiPageRepository
    ) -> None:
        self._attachments = attachments
        self._work_packages = work_packages
        self._wiki_pages = wiki_pages

    async def execute(self, request: ListAttachmentsRequest) -> AttachmentListing:
        container = request.container
        if container.kind == "work_package":
            found = await self._work_packages.get(work_package_ref(container.ref))
            return AttachmentListing(container, found.id, tuple(await self._attachments.of_work_package(found.id)))
        page_id = positive_id(container.ref, "wikiPage")
        return AttachmentListing(container, page_id, tuple(await self._wiki_pages.attachments(page_id)))


class ReadAttachment:
    def __init__(
        self,
        attachments: AttachmentRepository,
        work_packages: WorkPackageRepository,
        wiki_pages: WikiPageRepository,
        max_bytes: int = DEFAULT_MAX_ATTACHMENT_BYTES,
    ) -> None:
        self._attachments = attachments
        self._listing = ListAttachments(attachments, work_packages, wiki_pages)
        self._max_bytes = max_bytes

    async def execute(self, request: ReadAttachmentRequest) -> AttachmentFile:
        attachment_id = positive_id(request.attachment_id, "attachment")
        listing = await self._listing.execute(ListAttachmentsRequest(request.container))
        attachment = next((a for a in listing.attachments if a.id == attachment_id), None)
        if attachment is None:
            raise NotFoundError(_not_attached(request.container, attachment_id, listing.attachments), status=404)
        if attachment.file_size > self._max_bytes:
            raise attachment_too_large(attachment.id, self._max_bytes, attachment.file_name)
        try:
            content = await self._attachments.content(attachment.id, self._max_bytes)
        except AuthenticationError as exc:
            if exc.status != 401:
                raise
            # The token was accepted for the listing a moment ago: OpenProject refuses this one
            # file, which it does for a file its virus scanner quarantined or has not scanned yet.
            raise UnsupportedError(
                f"OpenProject refused the content of attachment {attachment.id} ({attachment.file_name}) "
                "although it accepted the token for the list of attachments: it does so for a file its virus "
                "scanner quarantined or has not scanned yet.",
                hint="Ask an OpenProject administrator about the file's virus scan.",
                status=401,
            ) from exc
        return AttachmentFile(
            attachment=attachment,
            container_id=listing.container_id,
            media_type=attachment.content_type,
            data=content.data,
            text=as_text(attachment.content_type, content.content_type, content.data),
        )


def is_text_type(media_type: str) -> bool:
    kind = media_type.split(";")[0].strip().lower()
    return kind.startswith("text/") or kind in TEXT_TYPES or kind.endswith(("+json", "+xml"))


def as_text(declared: str, served: str, data: bytes) -> str | None:
    """The content as text if either media type says text and it decodes as UTF-8 (a BOM is dropped)."""
    if not (is_text_type(declared) or is_text_type(served)):
        return None
    try:
        return codecs.decode(data, "utf-8-sig")
    except UnicodeDecodeError:
        return None


def _not_attached(container: AttachmentContainer, attachment_id: int, attachments: tuple[Attachment, ...]) -> str:
    if not attachments:
        return f"{container.label} has no attachments (attachment {attachment_id} is not one of them)."
    named = ", ".join(f"{a.id} ({a.file_name})" for a in attachments[:LISTED_IN_ERRORS])
    more = f" and {len(attachments) - LISTED_IN_ERRORS} more" if len(attachments) > LISTED_IN_ERRORS else ""
    return f"{container.label} has no attachment {attachment_id}; its attachments are {named}{more}."
