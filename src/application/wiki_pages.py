"""Use cases: get one wiki page, list a work package's wiki page links."""

from __future__ import annotations

import asyncio
from dataclasses import KW_ONLY, dataclass

from openproject_mcp.application.arguments import page_request, positive_id
from openproject_mcp.application.views import WikiPageDetail, WikiPageLinkList, cut_text, envelope
from openproject_mcp.ports import WikiPageLinkRepository, WikiPageRepository

WIKI_TEXT_UNAVAILABLE = (
    "This OpenProject version does not expose wiki page text through its API; "
    "only the title, project and attachments are available."
)


@dataclass(frozen=True, slots=True)
class GetWikiPageRequest:
    page_id: int


class GetWikiPage:
    def __init__(self, pages: WikiPageRepository) -> None:
        self._pages = pages

    async def execute(self, request: GetWikiPageRequest) -> WikiPageDetail:
        page_id = positive_id(request.page_id, "id")
        page, attachments = await asyncio.gather(self._pages.get(page_id), self._pages.attachments(page_id))
        text, truncated = cut_text(page.text)
        return WikiPageDetail(
            id=page.id,
            title=page.title,
            project=page.project,
            attachments=tuple(attachments),
            text=text,
            updated_at=page.updated_at,
            truncated=truncated or None,
            notes=(WIKI_TEXT_UNAVAILABLE,) if page.text is None else None,
        )


@dataclass(frozen=True, slots=True)
class ListWikiPageLinksRequest:
    work_package_id: int
    _: KW_ONLY
    offset: int = 1
    page_size: int = 30


class ListWikiPageLinks:
    def __init__(self, links: WikiPageLinkRepository) -> None:
        self._links = links

    async def execute(self, request: ListWikiPageLinksRequest) -> WikiPageLinkList:
        work_package_id = positive_id(request.work_package_id, "workPackageId")
        page = page_request(request.offset, request.page_size)
        result = await self._links.list(work_package_id, page)
        return WikiPageLinkList(
            links=tuple(result.items),
            **envelope(page, result),
        )
