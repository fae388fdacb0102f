"""``completion/complete``: suggestions for resource template and prompt arguments.

Each suggestion is something the caller can see, found with one bounded read through the same use
cases as the tools (at most one page of projects, meetings or work packages, one wiki search, one
list of attachments), and at most :data:`MAX_VALUES` values are returned, with ``hasMore`` when
more matched. Values are what the argument takes: project identifiers, work package display ids
(or ids where the instance has none), meeting, wiki page and attachment ids.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Iterable, Mapping
from typing import Final

from mcp.types import Completion

from openproject_mcp.adapters.mcp.catalog import UseCaseScope
from openproject_mcp.application.attachments import AttachmentContainer, ListAttachments, ListAttachmentsRequest
from openproject_mcp.application.meetings import ListMeetings, ListMeetingsRequest
from openproject_mcp.application.projects import ListProjects, ListProjectsRequest
from openproject_mcp.application.search_wiki_pages import SearchWikiPages, SearchWikiPagesRequest
from openproject_mcp.application.work_packages import ListWorkPackages, ListWorkPackagesRequest
from openproject_mcp.domain.errors import InvalidArgumentError

MAX_VALUES: Final = 20
"""Values per answer (the protocol allows 100; a person picks from far fewer)."""
READ_AT_MOST: Final = 100
"""Records read to find them: one page."""

Completer = Callable[[str, Mapping[str, str], UseCaseScope], Awaitable[Completion]]


def _ranked(candidates: Iterable[tuple[str, tuple[str, ...]]], value: str) -> list[str]:
    """Candidate values whose own text or labels start with (first) or contain ``value``, case-blind."""
    wanted = value.strip().casefold()
    starts: list[str] = []
    contains: list[str] = []
    for candidate, labels in candidates:
        texts = (candidate.casefold(), *(label.casefold() for label in labels))
        if not wanted or any(text.startswith(wanted) for text in texts):
            starts.append(candidate)
        elif any(wanted in text for text in texts):
            contains.append(candidate)
    seen: dict[str, None] = dict.fromkeys([*starts, *contains])
    return list(seen)


def _completion(values: list[str], *, more_unread: bool = False) -> Completion:
    return Completion(values=values[:MAX_VALUES], total=len(values), has_more=len(values) > MAX_VALUES or more_unread)


async def complete_project(value: str, context: Mapping[str, str], scope: UseCaseScope) -> Completion:
    found = await (await scope.resolve(ListProjects)).execute(
        ListProjectsRequest(page_size=READ_AT_MOST, sort_by="name")
    )
    values = _ranked(((p.identifier, (p.name, str(p.id))) for p in found.projects), value)
    return _completion(values, more_unread=found.has_more)


async def complete_work_package(value: str, context: Mapping[str, str], scope: UseCaseScope) -> Completion:
    text = value.strip()
    looks_like_id = not text or (text.replace("-", "").replace("_", "").isalnum() and any(c.isdigit() for c in text))
    use_case = await scope.resolve(ListWorkPackages)
    if text and not looks_like_id:
        found = await use_case.execute(
            ListWorkPackagesRequest(subject=text, page_size=READ_AT_MOST, sort_by="updatedAt:desc")
        )
        values = [w.display_id or str(w.id) for w in found.work_packages]
    else:
        found = await use_case.execute(ListWorkPackagesRequest(page_size=READ_AT_MOST, sort_by="updatedAt:desc"))
        values = _ranked(((w.display_id or str(w.id), (str(w.id),)) for w in found.work_packages), text)
    return _completion(values, more_unread=found.has_more)


async def complete_meeting(value: str, context: Mapping[str, str], scope: UseCaseScope) -> Completion:
    project = context.get("project") or None
    found = await (await scope.resolve(ListMeetings)).execute(ListMeetingsRequest(project, page_size=READ_AT_MOST))
    values = _ranked(((str(m.id), (m.title,)) for m in found.meetings), value)
    return _completion(values, more_unread=found.has_more)


async def complete_wiki_page(value: str, context: Mapping[str, str], scope: UseCaseScope) -> Completion:
    # Always the same search (no query, every discovered page), ranked here: a repeated wiki search
    # costs at most a couple of requests once pages are known, where a new query per keystroke
    # would start a discovery each time (ADR 0012).
    found = await (await scope.resolve(SearchWikiPages)).execute(
        SearchWikiPagesRequest(None, project_id=context.get("project") or None, limit=READ_AT_MOST)
    )
    values = _ranked(((str(hit.id), (hit.title,)) for hit in found.elements), value)
    complete = found.coverage.complete if found.coverage is not None else True
    return _completion(values, more_unread=not complete)


async def complete_attachment(value: str, context: Mapping[str, str], scope: UseCaseScope) -> Completion:
    if context.get("workPackage"):
        container = AttachmentContainer("work_package", context["workPackage"].strip())
    elif context.get("wikiPage"):
        container = AttachmentContainer("wiki_page", context["wikiPage"].strip())
    else:
        return _completion([])  # nothing to list yet: the container's argument comes first
    listing = await (await scope.resolve(ListAttachments)).execute(ListAttachmentsRequest(container))
    return _completion(_ranked(((str(a.id), (a.file_name,)) for a in listing.attachments), value))


async def no_completion(value: str, context: Mapping[str, str], scope: UseCaseScope) -> Completion:
    return _completion([])


COMPLETERS: Final[Mapping[str, Completer]] = {
    "project": complete_project,
    "workPackage": complete_work_package,
    "meeting": complete_meeting,
    "wikiPage": complete_wiki_page,
    "attachment": complete_attachment,
}


def completer_for(argument: str, known: Iterable[str], where: str) -> Completer:
    """The completer of an argument ``where`` (a template or prompt) declares; else a clear error."""
    names = tuple(known)
    if argument not in names:
        raise InvalidArgumentError(
            f"{where} has no argument {argument[:50]!r}; its arguments are {', '.join(names) or 'none'}."
        )
    return COMPLETERS.get(argument, no_completion)
