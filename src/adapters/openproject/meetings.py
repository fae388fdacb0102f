"""The meeting port over OpenProject's API v3, speaking each version's dialect.

The application asks for an intent (:class:`MeetingQuery`: upcoming or past, newest or earliest
first); this module turns it into what the instance accepts, which differs between versions:

- the ``time`` filter is a list filter (``=`` with ``future``/``past``) in older code and two
  operators (``upcoming``/``past``, no value) in 18.0 (``endpoints.MEETINGS_TIME_FILTER``);
- the registered sort keys differ, and an unregistered one answers 400, so only ``startTime``
  (registered everywhere) is sent, and ties are ordered here.

What the instance accepted is learned from its answers: on a 400 InvalidQuery the other form is
tried once (then the list without a sort key), and the form that worked is remembered per
instance in the :class:`CapabilityCache`, never a form that failed. Agenda items are told apart
from backlog items by their section; outcomes are read where embedded and followed (a bounded
number of requests) where only linked.
"""

from __future__ import annotations

import asyncio
import dataclasses
import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import datetime
from urllib.parse import parse_qs, urlsplit

from openproject_mcp.adapters.openproject import endpoints, hal, mapping
from openproject_mcp.adapters.openproject.capabilities import CapabilityCache
from openproject_mcp.adapters.openproject.client import OpenProjectClient
from openproject_mcp.adapters.openproject.concurrency import together
from openproject_mcp.adapters.openproject.endpoints import filters_param, page_params, sort_param
from openproject_mcp.adapters.openproject.fetching import fetch, follow, reading
from openproject_mcp.domain.entities import AgendaItem, Meeting, MeetingDetails, NamedRef
from openproject_mcp.domain.errors import InvalidQueryError, NotFoundError, UnsupportedError
from openproject_mcp.domain.queries import Filter, MeetingQuery, Page, PageRequest, SortKey
from openproject_mcp.ports.repositories import MeetingRepository

TIME_FORM = "meetings.time_filter"
SORT_FORM = "meetings.sort"
TIME_REQUIRED = "meetings.time_required"
TIME_FORMS = ("list", "operator")
"""``list`` first: every release before 18.0 whose code was read uses it."""
SORT_FORMS = ("startTime", "none")

MAX_OUTCOME_FOLLOWS = 50
"""At most this many outcome requests per meeting where outcomes are linked but not embedded."""
MAX_SECTION_FOLLOWS = 10
"""At most this many section requests per meeting where sections are linked but not embedded."""
UNSORTED_READ_LIMIT = endpoints.MAX_PAGE_SIZE
"""Where an instance sorts meetings by nothing we can send, this many are read and ordered here."""


class AiohttpMeetingRepository(MeetingRepository):
    def __init__(self, client: OpenProjectClient, cache: CapabilityCache | None = None) -> None:
        self._client = client
        self._cache = cache if cache is not None else CapabilityCache()
        # Meetings this call already received (lists carry the participant links): details()
        # then needs one request, for the agenda, instead of two. Lives as long as the call.
        self._seen: dict[int, hal.MeetingHal] = {}
        self._unsorted_reads: dict[str, asyncio.Future[tuple[tuple[Meeting, ...], int]]] = {}
        self._halves_reads: dict[str, asyncio.Future[tuple[tuple[Meeting, ...], int]]] = {}

    # Lists -------------------------------------------------------------------------------------

    async def list(self, query: MeetingQuery, page: PageRequest) -> Page[Meeting]:
        key = self._client.base_url
        await self._cache.load(key)
        try:
            return await self._list(query, page, key)
        finally:
            await self._cache.publish(key)

    async def _list(self, query: MeetingQuery, page: PageRequest, key: str) -> Page[Meeting]:
        if query.time is None and self._cache.dialect(key, TIME_REQUIRED) == "yes":
            return await self._both_halves(query, page)
        attempts = _attempts(query, self._cache.dialect(key, TIME_FORM), self._cache.dialect(key, SORT_FORM))
        refused: InvalidQueryError | None = None
        for time_form, sort_form in attempts:

            def accepted(time_form: str = time_form, sort_form: str = sort_form) -> None:
                # Learned as soon as the instance accepts the request, before its answer is read: an
                # answer that cannot be read does not make the form a refused one.
                if query.time is not None:
                    self._cache.learn_dialect(key, TIME_FORM, time_form)
                self._cache.learn_dialect(key, SORT_FORM, sort_form)

            try:
                return await self._list_as(query, page, time_form, sort_form, accepted)
            except _TimeImposedError:
                self._cache.learn_dialect(key, TIME_REQUIRED, "yes")
                return await self._both_halves(query, page)
            except InvalidQueryError as exc:
                refused = refused or exc
                continue
        assert refused is not None  # there is always at least one attempt
        if query.time is None:
            # 18.0 marks the time filter `required? true` (opf/openproject@a27f373:modules/meeting/app/models/
            # queries/meetings/filters/time_filter.rb); whether the API then refuses a list without it is not
            # settled. If it does, the list is the upcoming and the past meetings together.
            try:
                result = await self._both_halves(query, page)
            except InvalidQueryError:
                raise refused from None
            self._cache.learn_dialect(key, TIME_REQUIRED, "yes")
            return result
        raise refused

    async def _both_halves(self, query: MeetingQuery, page: PageRequest) -> Page[Meeting]:
        """Upcoming and past meetings read apart (up to a bound each), ordered here, then one page cut."""
        key = filters_param(_filters(query, TIME_FORMS[0]))
        read = self._halves_reads.get(key)
        if read is None:
            read = self._halves_reads[key] = asyncio.ensure_future(self._read_halves(query))
        everything, total = await asyncio.shield(read)
        cut = mapping.slice_page(_ordered(everything, query), page)
        return Page(items=cut.items, total=total, offset=cut.offset, page_size=cut.page_size)

    async def _read_halves(self, query: MeetingQuery) -> tuple[tuple[Meeting, ...], int]:
        halves = await together(
            self._read_up_to_limit(dataclasses.replace(query, time=t)) for t in ("upcoming", "past")
        )
        return tuple(m for items, _ in halves for m in items), sum(total for _, total in halves)

    async def _read_up_to_limit(self, query: MeetingQuery) -> tuple[tuple[Meeting, ...], int]:
        first = await self.list(query, PageRequest(1, UNSORTED_READ_LIMIT))
        items = list(first.items)
        size = first.page_size or len(first.items) or 1
        pages = range(2, -(-min(first.total, UNSORTED_READ_LIMIT) // size) + 1)
        for more in await together(self.list(query, PageRequest(n, size)) for n in pages):
            items.extend(more.items)
        if first.total > UNSORTED_READ_LIMIT:
            self._client.warn(f"ordering only the first {UNSORTED_READ_LIMIT} of {first.total} meetings client-side")
        return tuple(items), max(first.total, len(items))

    async def _list_as(
        self, query: MeetingQuery, page: PageRequest, time_form: str, sort_form: str, accepted: Callable[[], None]
    ) -> Page[Meeting]:
        filters = _filters(query, time_form)
        if sort_form == "none":
            return await self._unsorted(query, filters, page, accepted)
        direction = "desc" if query.order == "newest_first" else "asc"
        sort_by = [SortKey(endpoints.MEETING_SORT_KEY, direction)]
        collection = await self._fetch_list(filters, sort_by, page, accepted)
        if query.time is None and _time_filter_applied(collection):
            raise _TimeImposedError
        items = _ordered(self._meetings_of(collection), query)
        return mapping.page_of(collection, items, page)

    async def _unsorted(
        self, query: MeetingQuery, filters: Sequence[Filter], page: PageRequest, accepted: Callable[[], None]
    ) -> Page[Meeting]:
        """The instance refuses every sort key we can send: read up to a bound, order here, cut the page.

        The read is shared by every page this call asks for with the same filters (a search window
        read in several pages costs one read)."""
        key = filters_param(filters)
        read = self._unsorted_reads.get(key)
        if read is None:
            read = self._unsorted_reads[key] = asyncio.ensure_future(self._read_unsorted(filters, accepted))
        everything, total = await asyncio.shield(read)
        cut = mapping.slice_page(_ordered(everything, query), page)
        return Page(items=cut.items, total=total, offset=cut.offset, page_size=cut.page_size)

    async def _read_unsorted(
        self, filters: Sequence[Filter], accepted: Callable[[], None]
    ) -> tuple[tuple[Meeting, ...], int]:
        first = await self._fetch_list(filters, [], PageRequest(1, UNSORTED_READ_LIMIT), accepted)
        if not any(f.name == "time" for f in filters) and _time_filter_applied(first):
            raise _TimeImposedError
        collections = [first]
        size = first.page_size or len(first.elements) or 1
        total = first.total if first.total is not None else len(first.elements)
        pages = range(2, -(-min(total, UNSORTED_READ_LIMIT) // size) + 1)
        collections += await together(self._fetch_list(filters, [], PageRequest(n, size)) for n in pages)
        if total > UNSORTED_READ_LIMIT:
            self._client.warn(f"ordering only the first {UNSORTED_READ_LIMIT} of {total} meetings client-side")
        everything = tuple(m for c in collections for m in self._meetings_of(c))
        return everything, max(total, len(everything))

    async def _fetch_list(
        self,
        filters: Sequence[Filter],
        sort_by: Sequence[SortKey],
        page: PageRequest,
        accepted: Callable[[], None] | None = None,
    ) -> hal.Collection[hal.MeetingHal]:
        params: dict[str, str | int] = dict(page_params(page))
        if filters:
            params["filters"] = filters_param(filters)
        if sort_by:
            params["sortBy"] = sort_param(sort_by)
        path = endpoints.MEETINGS.path()
        try:
            data = await self._client.get(path, params)
        except NotFoundError as exc:
            raise UnsupportedError(
                "This OpenProject instance has no meeting list (GET /api/v3/meetings answered 404): the "
                "meetings module is not active for this user. Single meetings can still be read by id.",
                status=exc.status,
            ) from exc
        if accepted is not None:
            accepted()
        with reading(self._client, path):
            collection = hal.decode(data, hal.Collection[hal.MeetingHal])
        self._seen.update((e.id, e) for e in collection.elements)
        return collection

    def _meetings_of(self, collection: hal.Collection[hal.MeetingHal]) -> tuple[Meeting, ...]:
        with reading(self._client, endpoints.MEETINGS.path()):
            return tuple(mapping.meeting(e) for e in collection.elements)

    # Single meetings ---------------------------------------------------------------------------

    async def get(self, meeting_id: int) -> Meeting:
        # A meeting this call already received (from a list or details()) is not asked for again.
        seen = self._seen.get(meeting_id)
        resource = seen if seen is not None else await self._resource(meeting_id)
        with reading(self._client, endpoints.MEETING.path(id=meeting_id)):
            return mapping.meeting(resource)

    async def participants(self, meeting_id: int) -> tuple[NamedRef, ...] | None:
        seen = self._seen.get(meeting_id)
        return mapping.participants(seen if seen is not None else await self._resource(meeting_id))

    async def details(self, meeting_id: int) -> MeetingDetails:
        seen = self._seen.get(meeting_id)
        if seen is not None:
            meeting: object = seen
            agenda: object = await self._agenda(meeting_id)
        else:
            meeting, agenda = await together([self._resource(meeting_id), self._agenda(meeting_id)])
        assert isinstance(meeting, hal.MeetingHal)
        read = agenda if isinstance(agenda, _Agenda) else None
        return MeetingDetails(
            meeting_id=meeting_id,
            participants=mapping.participants(meeting),
            agenda_items=read.items if read else None,
            backlog_items=(read.backlog or None) if read else None,
            outcomes_readable=read.outcomes_readable if read else True,
            outcomes_cut=read.outcomes_cut if read else False,
        )

    async def _resource(self, meeting_id: int) -> hal.MeetingHal:
        resource = await fetch(self._client, endpoints.MEETING.path(id=meeting_id), hal.MeetingHal)
        self._seen[resource.id] = self._seen[meeting_id] = resource
        return resource

    async def _agenda(self, meeting_id: int) -> _Agenda | None:
        """The agenda and backlog items, or ``None`` before 17.4 (or when the meeting is gone,
        which the meeting request reports)."""
        path = endpoints.MEETING_AGENDA_ITEMS.path(id=meeting_id)
        try:
            collection = await fetch(self._client, path, hal.Collection[hal.AgendaItemHal])
        except NotFoundError:
            return None
        elements = collection.elements
        # Sections and outcomes are embedded on the versions read: both usually cost no request.
        backlog_flags = await self._backlog_flags(elements)
        outcomes, outcomes_cut = await self._all_outcomes(elements)
        agenda: _Items = []
        backlog: _Items = []
        with reading(self._client, path):
            for element, in_backlog, found in zip(elements, backlog_flags, outcomes, strict=True):
                (backlog if in_backlog else agenda).append(mapping.agenda_item(element, found))
        # Items render `_links.outcomes` (a list, maybe empty) where the version has outcomes at all.
        readable = all(e.embedded.outcomes is not None or e.links.outcomes is not None for e in elements)
        return _Agenda(_by_position(agenda), _by_position(backlog), readable, outcomes_cut)

    async def _backlog_flags(self, elements: Sequence[hal.AgendaItemHal]) -> tuple[bool, ...]:
        """Whether each item sits in its meeting's backlog section (17.6+ lists those items too:
        opf/openproject@0170877:docs/release-notes/17-6-0/README.md). The collection embeds each
        item's section (``embed_links: %i[section outcomes]``, @f9bd779/@899685:.../
        meeting_agenda_item_collection_representer.rb), whose ``backlog`` says so; a section that is
        only linked is read once (a bounded number per meeting)."""
        known: dict[str, bool] = {}
        to_read: _Hrefs = []
        for element in elements:
            section = element.embedded.section
            link = element.links.section
            href = link.href if link is not None else None
            if section is not None and section.backlog is not None:
                if href:
                    known[href] = section.backlog
            elif href and href not in known and href not in to_read:
                to_read.append(href)
        paths = {href: follow(self._client, href, endpoints.MEETING_SECTION) for href in to_read[:MAX_SECTION_FOLLOWS]}
        wanted = [(href, path) for href, path in paths.items() if path]
        read = await together(self._section(path) for _, path in wanted)
        unreadable = [href for (href, _), found in zip(wanted, read, strict=True) if found is None]
        for (href, _), found in zip(wanted, read, strict=True):
            if found is not None and found.backlog is not None:
                known[href] = found.backlog
        if len(unreadable) < len(wanted):
            # Before 17.6 the sections endpoint serves a meeting's agenda sections but not its backlog
            # section (#75616, fixed in 17.6: opf/openproject@0170877:docs/release-notes/17-6-0/README.md):
            # where other sections can be read, one that cannot is the backlog, never the agenda.
            known.update(dict.fromkeys(unreadable, True))
        return tuple(_in_backlog(element, known) for element in elements)

    async def _section(self, path: str) -> hal.MeetingSectionHal | None:
        try:
            return await fetch(self._client, path, hal.MeetingSectionHal)
        except NotFoundError:
            return None

    async def _all_outcomes(
        self, elements: Sequence[hal.AgendaItemHal]
    ) -> tuple[tuple[Sequence[hal.OutcomeHal], ...], bool]:
        """Each item's outcomes, and whether the follow budget left some unread."""
        budget = _Budget(MAX_OUTCOME_FOLLOWS)
        found = tuple(await together(self._outcomes(item, budget) for item in elements))
        return found, budget.cut

    async def _outcomes(self, item: hal.AgendaItemHal, budget: _Budget) -> Sequence[hal.OutcomeHal]:
        """Embedded outcomes (17.6+ collections embed them), else the ones its links point at:
        one collection, or single flat ``/api/v3/meeting_outcomes/{id}`` resources, at most
        :data:`MAX_OUTCOME_FOLLOWS` requests per meeting."""
        if item.embedded.outcomes is not None:
            return item.embedded.outcomes
        links = item.links.outcomes
        if links is None:
            return []
        if isinstance(links, hal.Link):
            path = follow(self._client, links.href, endpoints.MEETING_AGENDA_ITEM_OUTCOMES)
            if path is None:
                return []
            if not budget.take(1):
                budget.cut = True
                return []
            try:
                collection = await fetch(self._client, path, hal.Collection[hal.OutcomeHal])
            except NotFoundError:
                return []
            return collection.elements
        paths = [p for p in (follow(self._client, link.href, endpoints.MEETING_OUTCOME) for link in links) if p]
        allowed = paths[: budget.take(len(paths))]
        if len(allowed) < len(paths):
            budget.cut = True
        found = await together(self._outcome(p) for p in allowed)
        return [o for o in found if o is not None]

    async def _outcome(self, path: str) -> hal.OutcomeHal | None:
        try:
            return await fetch(self._client, path, hal.OutcomeHal)
        except NotFoundError:
            return None  # deleted since the agenda was read, or no flat outcome resource here


class _TimeImposedError(Exception):
    """The instance answered a list without ``time`` with a ``time`` filter applied (its default)."""


def _time_filter_applied(collection: hal.Collection[hal.MeetingHal]) -> bool:
    """Whether the collection's self link says a ``time`` filter was applied. 18.0 gives the filter
    ``default_operator Upcoming`` and ``required? true`` (opf/openproject@a27f373:modules/meeting/app/
    models/queries/meetings/filters/time_filter.rb); should the API apply it to a list that names no
    time, the past meetings would be missing without a word, so this is checked on every such list."""
    href = collection.links.self_.href if collection.links.self_ is not None else None
    if not href or "filters=" not in href:
        return False
    raw = parse_qs(urlsplit(href).query).get("filters", [""])[0]
    try:
        applied = json.loads(raw)
    except ValueError:
        return False
    return isinstance(applied, list) and any(isinstance(f, dict) and "time" in f for f in applied)


_Items = list[AgendaItem]


@dataclass(frozen=True, slots=True)
class _Agenda:
    items: tuple[AgendaItem, ...]
    backlog: tuple[AgendaItem, ...]
    outcomes_readable: bool
    outcomes_cut: bool


_Hrefs = list[str]


class _Budget:
    """How many follow-up requests one meeting may still spend."""

    def __init__(self, remaining: int) -> None:
        self.remaining = remaining
        self.cut = False

    def take(self, wanted: int) -> int:
        granted = max(0, min(wanted, self.remaining))
        self.remaining -= granted
        return granted


def _in_backlog(element: hal.AgendaItemHal, known: dict[str, bool]) -> bool:
    section = element.embedded.section
    if section is not None and section.backlog is not None:
        return section.backlog
    link = element.links.section
    return known.get(link.href or "", False) if link is not None else False


def _attempts(query: MeetingQuery, time_known: str | None, sort_known: str | None) -> list[tuple[str, str]]:
    """(time form, sort form) pairs to try in order: what is known first, then one other form per part."""
    times = _preferred(TIME_FORMS, time_known) if query.time is not None else (time_known or TIME_FORMS[0],)
    sorts = _preferred(SORT_FORMS, sort_known)
    return [(t, s) for s in sorts for t in times]


def _preferred(forms: tuple[str, ...], known: str | None) -> tuple[str, ...]:
    if known not in forms:
        return forms
    return (known, *(f for f in forms if f != known))


def _filters(query: MeetingQuery, time_form: str) -> list[Filter]:
    filters: list[Filter] = []
    if query.project_id is not None:
        filters.append(Filter("project", "=", (str(query.project_id),)))
    if query.time is not None:
        operator, values = endpoints.MEETINGS_TIME_FILTER[time_form][query.time]
        filters.append(Filter("time", operator, values))
    if query.text is not None:
        filters.append(Filter("search", "**", (query.text,)))
    return filters


def _ordered(meetings: tuple[Meeting, ...], query: MeetingQuery) -> tuple[Meeting, ...]:
    """By start time in the query's direction, ties by ascending id (what no sort key we send says)."""
    if query.order == "newest_first":
        return tuple(sorted(meetings, key=lambda m: (-_seconds(m.start_time), m.id)))
    return tuple(sorted(meetings, key=lambda m: (m.start_time, m.id)))


def _seconds(moment: datetime) -> float:
    return moment.timestamp()


def _by_position(items: list[AgendaItem]) -> tuple[AgendaItem, ...]:
    return tuple(sorted(items, key=lambda item: (item.position, item.id)))
