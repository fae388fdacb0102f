"""Use cases: get one wiki page, list a work package's wiki page links."""

from __future__ import annotations

import asyncio
from dataclasses import KW_ONLY, dataclass, replace

from openproject_mcp.application.arguments import page_request, positive_id
from openproject_mcp.application.concurrency import map_bounded
from openproject_mcp.application.presenters import derive
from openproject_mcp.application.views import WikiPageDetail, WikiPageLinkList, cut_text, envelope
from openproject_mcp.application.wiki_knowledge import WikiReferences, internal_page_id, page_ids_in
from openproject_mcp.application.work_packages import work_package_id, work_package_ref
from openproject_mcp.domain.entities import Attachment, WikiPage, WikiPageLink, WikiPageRef
from openproject_mcp.domain.errors import NotFoundError, OpenProjectMcpError
from openproject_mcp.ports import WikiPageLinkRepository, WikiPageRepository, WorkPackageRepository

WIKI_TEXT_UNAVAILABLE = (
    "No released OpenProject version exposes wiki page text through its API; "
    "only the title, project and attachments are available."
)
MAX_RESOLVED_LINKS = 30
"""Wiki pages opened per call to give links to OpenProject's own wiki their page title."""


@dataclass(frozen=True, slots=True)
class GetWikiPageRequest:
    page_id: int


class GetWikiPage:
    def __init__(self, pages: WikiPageRepository, references: WikiReferences | None = None) -> None:
        self._pages = pages
        self._references = references

    async def execute(self, request: GetWikiPageRequest) -> WikiPageDetail:
        page_id = positive_id(request.page_id, "id")
        page_task = asyncio.ensure_future(self._pages.get(page_id))
        attachments_task = asyncio.ensure_future(self._pages.attachments(page_id))
        try:
            page = await page_task
        except BaseException:
            attachments_task.cancel()
            attachments_task.add_done_callback(lambda task: task.cancelled() or task.exception())
            raise
        notes: list[str] = []
        attachments: tuple[Attachment, ...] = ()
        try:
            attachments = tuple(await attachments_task)
        except OpenProjectMcpError as error:
            if error.aborts_search:
                raise
            answer = "answered 404" if isinstance(error, NotFoundError) else "failed"
            notes.append(
                f"The page's attachments could not be read (OpenProject {answer}); the page is shown without them."
            )
        if self._references is not None:
            known = self._references.ids()
            known.confirm(page.id)
            known.hint(page_ids_in(page.text))
        text, truncated = cut_text(page.text)
        if page.text is None:
            notes.insert(0, WIKI_TEXT_UNAVAILABLE)
        return derive(
            WikiPageDetail,
            page,
            attachments=attachments,
            text=text,
            truncated=truncated or None,
            notes=tuple(notes) or None,
        )


@dataclass(frozen=True, slots=True)
class ListWikiPageLinksRequest:
    work_package_id: int | str
    _: KW_ONLY
    offset: int = 1
    page_size: int = 30


class ListWikiPageLinks:
    """A work package's wiki page links; those to OpenProject's own wiki get their page's title.

    OpenProject (17.6+) names the page of a link by ``identifier`` only, and for its own wiki that
    is the page id; which provider is its own wiki is not in the API. A link is resolved when its
    identifier is a number, its provider has not shown a non-numeric identifier before, and
    ``/api/v3/wiki_pages/{identifier}`` answers (at most :data:`MAX_RESOLVED_LINKS` per call).

    A display id (``DEMO-38``) is looked up through ``work_packages`` first, as
    ``openproject_get_work_package`` looks it up.
    """

    def __init__(
        self,
        links: WikiPageLinkRepository,
        pages: WikiPageRepository,
        references: WikiReferences,
        work_packages: WorkPackageRepository,
    ) -> None:
        self._links = links
        self._pages = pages
        self._references = references
        self._work_packages = work_packages

    async def execute(self, request: ListWikiPageLinksRequest) -> WikiPageLinkList:
        work_package_ref(request.work_package_id)  # a malformed id is refused before any request
        page = page_request(request.offset, request.page_size)
        numeric_id = await work_package_id(request.work_package_id, self._work_packages)
        result = await self._links.list(numeric_id, page)
        known = self._references.ids()
        known.note_links(result.items)
        wanted = [
            link
            for link in result.items
            if link.wiki_page is None and internal_page_id(link) is not None and not known.is_external(link)
        ]
        resolved: dict[int, WikiPage] = {}
        unresolved = 0
        failed = 0

        async def open_page(link: WikiPageLink) -> None:
            nonlocal unresolved, failed
            page_id = internal_page_id(link)
            if page_id is None:
                return
            try:
                resolved[link.id] = await self._pages.get(page_id)
            except NotFoundError:
                unresolved += 1
            except OpenProjectMcpError as error:
                if error.aborts_search:
                    raise
                failed += 1

        await map_bounded(wanted[:MAX_RESOLVED_LINKS], 8, open_page)
        links: list[WikiPageLink] = []
        for link in result.items:
            found = resolved.get(link.id)
            if found is not None:
                link = replace(link, wiki_page=WikiPageRef(found.id, found.title))
                known.confirm(found.id)
                known.learn_provider(link, internal=True)
            links.append(link)
        notes: list[str] = []
        if unresolved:
            notes.append(
                f"{unresolved} links name a page that does not open as a page of OpenProject's own wiki visible to "
                "you (another wiki provider, or a page deleted or hidden from you); their identifier is shown as given."
            )
        if failed:
            notes.append(f"The pages of {failed} links could not be read; their identifier is shown as given.")
        if len(wanted) > MAX_RESOLVED_LINKS:
            notes.append(
                f"Only the first {MAX_RESOLVED_LINKS} links were matched to their wiki pages; ask for a smaller page "
                "to see the titles of the others."
            )
        return WikiPageLinkList(links=tuple(links), notes=tuple(notes) or None, **envelope(page, result))
