"""The API v3 routes of the fake server, answered from one tenant's in-memory repositories.

Each route returns the HAL payload; the server turns it (or an :class:`ApiError`, or the
fixture backend's ``NotFoundError``/``InvalidQueryError``) into the HTTP answer. Routes a
profile does not have are not registered at all, so they answer 404 like any unknown path.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from aiohttp import web

from openproject_mcp.adapters.fixture.filtering import (
    Predicate,
    compile_filters,
    reference_filter,
    require_operator,
    unknown_filter,
)
from openproject_mcp.adapters.fixture.paging import paginate
from openproject_mcp.adapters.fixture.rows import AttachmentRow
from openproject_mcp.domain.entities import Project, SavedQuery, WikiPageLink
from openproject_mcp.domain.queries import Filter, PageRequest
from tests.support.fake_openproject.attachments import ExternalStorage, Storage, attachment_hal, content_response
from tests.support.fake_openproject.errors import ApiError, bad_request, forbidden, invalid_query, not_found
from tests.support.fake_openproject.meeting_query import meetings_for
from tests.support.fake_openproject.params import (
    Listing,
    filters_json,
    parse_filters,
    parse_listing,
    parse_page,
    sort_json,
)
from tests.support.fake_openproject.profiles import Profile
from tests.support.fake_openproject.render import (
    AGENDA_SECTION,
    API,
    BACKLOG_SECTION,
    JSON,
    SECTION_IDS_PER_MEETING,
    Renderer,
)
from tests.support.fake_openproject.tenant import OutcomeRef, Tenant

TENANT = web.RequestKey("fake_openproject_tenant", Tenant)

DEFAULT_WORK_PACKAGE_FILTERS = (Filter("status", "o"),)
"""What OpenProject applies to a work package list that carries no ``filters`` parameter."""


@dataclass(frozen=True, slots=True)
class Call:
    """One request, as a route sees it."""

    tenant: Tenant
    render: Renderer
    match: Mapping[str, str]
    query: Mapping[str, str]
    page_size_max: int

    def listing(self) -> Listing:
        return parse_listing(self.query, self.page_size_max)

    def page(self) -> PageRequest:
        return parse_page(self.query, self.page_size_max)


Route = Callable[[Call], Awaitable[Any]]


def _integer_id(text: str, what: str) -> int:
    if text.isascii() and text.isdigit():
        return int(text)
    raise bad_request(f"{what} id is invalid: '{text}' is not an integer.")


def _echo(filters: list[Filter] | None, listing: Listing) -> dict[str, str | int]:
    params: dict[str, str | int] = {}
    if filters is not None:
        params["filters"] = filters_json(filters)
    if listing.sort_by:
        params["sortBy"] = sort_json(listing.sort_by)
    return params


class Routes:
    def __init__(
        self,
        profile: Profile,
        spec: dict[str, object] | None,
        storage: Storage = "local",
        external: ExternalStorage | None = None,
    ) -> None:
        self.profile = profile
        self.spec = spec
        self.storage: Storage = storage
        self.external = external or ExternalStorage()

    def table(self) -> list[tuple[str, Route]]:
        """``(path under the prefix, route)``; aiohttp placeholders, most specific paths first."""
        p = self.profile
        routes: list[tuple[str, Route]] = [
            (API, self.root),
            (f"{API}/", self.root),
            (f"{API}/spec.json", self.api_spec),
            (f"{API}/projects", self.projects),
            (f"{API}/projects/{{id}}", self.project),
            (f"{API}/projects/{{id}}/types", self.project_types),
            (f"{API}/projects/{{id}}/work_packages", self.project_work_packages),
            (f"{API}/types", self.types),
            (f"{API}/types/{{id}}", self.type),
            (f"{API}/statuses", self.statuses),
            (f"{API}/statuses/{{id}}", self.status),
            (f"{API}/priorities", self.priorities),
            (f"{API}/priorities/{{id}}", self.priority),
            (f"{API}/work_packages", self.work_packages),
            (f"{API}/work_packages/{{id}}", self.work_package),
            (f"{API}/work_packages/{{id}}/activities", self.activities),
            (f"{API}/activities/{{id}}", self.activity),
            (f"{API}/queries", self.queries),
            (f"{API}/queries/{{id}}", self.saved_query),
            (f"{API}/users", self.users),
            (f"{API}/users/{{id}}", self.user),
            (f"{API}/principals", self.principals),
            (f"{API}/meetings/{{id}}", self.meeting),
            (f"{API}/meetings/{{id}}/attachments", self.meeting_attachments),
            (f"{API}/wiki_pages/{{id}}", self.wiki_page),
            (f"{API}/wiki_pages/{{id}}/attachments", self.wiki_page_attachments),
            (f"{API}/work_packages/{{id}}/attachments", self.work_package_attachments),
            (f"{API}/attachments/{{id}}/content", self.attachment_content),
        ]
        if p.meeting_list:
            routes.append((f"{API}/meetings", self.meetings))
        if p.agenda_items:
            # 17.4 "Meetings … APIv3 endpoints … agenda items, sections" (@deedf43:docs/release-notes/17-4-0/README.md).
            routes += [
                (f"{API}/meetings/{{id}}/agenda_items", self.agenda_items),
                (f"{API}/meeting_agenda_items/{{id}}", self.agenda_item),
                (f"{API}/meeting_sections/{{id}}", self.meeting_section),
            ]
        if p.meeting_outcomes_endpoint:
            routes += [
                (f"{API}/meetings/{{meeting_id}}/agenda_items/{{id}}/outcomes", self.agenda_item_outcomes),
                (f"{API}/meeting_outcomes/{{id}}", self.outcome),
            ]
        # No released version lists wiki pages in APIv3, so no profile serves such a list.
        if p.wiki_page_links:
            routes.append((f"{API}/work_packages/{{id}}/wiki_page_links", self.wiki_page_links))
        if p.wiki_page_links_global:
            routes.append((f"{API}/wiki_page_links", self.all_wiki_page_links))
        return routes

    # Root and spec ----------------------------------------------------------------------------

    async def root(self, call: Call) -> JSON:
        return call.render.root()

    async def api_spec(self, call: Call) -> dict[str, object]:
        if self.spec is None:
            raise not_found("The API specification is not available.")
        return self.spec

    # Projects ---------------------------------------------------------------------------------

    async def _project(self, call: Call) -> Project:
        ref = call.match["id"]
        return await call.tenant.projects.get(int(ref) if ref.isascii() and ref.isdigit() else ref)

    async def projects(self, call: Call) -> JSON:
        listing = call.listing()
        filters = listing.filters or []
        page = await call.tenant.projects.list(filters, listing.sort_by, listing.page)
        return call.render.project_collection(page, _echo(filters, listing))

    async def project(self, call: Call) -> JSON:
        return call.render.project(await self._project(call))

    async def project_types(self, call: Call) -> JSON:
        project = await self._project(call)
        types = await call.tenant.metadata.types(project.id)
        return call.render.collection([call.render.type(t) for t in types], path=f"{API}/projects/{project.id}/types")

    async def project_work_packages(self, call: Call) -> JSON:
        project = await self._project(call)
        scope = Filter("project", "=", (str(project.id),))
        return await self._work_package_list(call, f"{API}/projects/{project.id}/work_packages", scope)

    # Metadata ---------------------------------------------------------------------------------

    async def types(self, call: Call) -> JSON:
        types = await call.tenant.metadata.types(None)
        return call.render.collection([call.render.type(t) for t in types], path=f"{API}/types")

    async def type(self, call: Call) -> JSON:
        found = call.tenant.dataset.types.get(_integer_id(call.match["id"], "Type"))
        if found is None:
            raise not_found("The requested type does not exist.")
        return call.render.type(found)

    async def statuses(self, call: Call) -> JSON:
        statuses = await call.tenant.metadata.statuses()
        return call.render.collection([call.render.status(s) for s in statuses], path=f"{API}/statuses")

    async def status(self, call: Call) -> JSON:
        found = call.tenant.dataset.statuses.get(_integer_id(call.match["id"], "Status"))
        if found is None:
            raise not_found("The requested status does not exist.")
        return call.render.status(found)

    async def priorities(self, call: Call) -> JSON:
        priorities = await call.tenant.metadata.priorities()
        return call.render.collection([call.render.priority(p) for p in priorities], path=f"{API}/priorities")

    async def priority(self, call: Call) -> JSON:
        found = call.tenant.dataset.priorities.get(_integer_id(call.match["id"], "Priority"))
        if found is None:
            raise not_found("The requested priority does not exist.")
        return call.render.priority(found)

    # Work packages ----------------------------------------------------------------------------

    async def _work_package_list(self, call: Call, path: str, *scope: Filter) -> JSON:
        listing = call.listing()
        # Without a filters parameter OpenProject lists open work packages only.
        filters = list(DEFAULT_WORK_PACKAGE_FILTERS) if listing.filters is None else listing.filters
        page = await call.tenant.work_packages.list([*filters, *scope], listing.sort_by, listing.page)
        return call.render.collection(
            [call.render.work_package(wp) for wp in page.items],
            path=path,
            type_="WorkPackageCollection",
            page=page,
            params=_echo(filters, listing),
        )

    async def work_packages(self, call: Call) -> JSON:
        return await self._work_package_list(call, f"{API}/work_packages")

    async def _work_package_id(self, call: Call) -> int:
        """The numeric id, or (with display ids) the id behind a display id; 404 if none."""
        ref = call.match["id"]
        if not (ref.isascii() and ref.isdigit()) and not self.profile.display_id_lookup:
            raise bad_request(f"Work package id is invalid: '{ref}' is not an integer.")
        return (await call.tenant.work_packages.get(ref)).id

    async def work_package(self, call: Call) -> JSON:
        work_package_id = await self._work_package_id(call)
        return call.render.work_package(call.tenant.dataset.work_packages[work_package_id])

    async def activities(self, call: Call) -> JSON:
        work_package_id = await self._work_package_id(call)
        timeline = await call.tenant.work_packages.activities(work_package_id)
        return call.render.collection(
            [call.render.activity(work_package_id, a) for a in timeline],
            path=f"{API}/work_packages/{work_package_id}/activities",
        )

    async def activity(self, call: Call) -> JSON:
        found = call.tenant.activities.get(_integer_id(call.match["id"], "Activity"))
        if found is None:
            raise not_found("The requested activity does not exist.")
        work_package_id, activity = found
        return call.render.activity(work_package_id, activity, embed=True)

    async def wiki_page_links(self, call: Call) -> JSON:
        work_package_id = await self._work_package_id(call)
        page = await call.tenant.wiki_page_links.list(work_package_id, call.page())
        return call.render.collection(
            [call.render.wiki_page_link(link) for link in page.items],
            path=f"{API}/work_packages/{work_package_id}/wiki_page_links",
            type_="WikiPageLinkCollection",
            page=page,
        )

    # Saved queries ----------------------------------------------------------------------------

    async def _results(self, call: Call, query: SavedQuery, page: PageRequest) -> JSON:
        _, results = await call.tenant.queries.get(query.id, page)
        return call.render.collection(
            [call.render.work_package(wp) for wp in results.items],
            path=call.render.query_results_path(query),
            type_="WorkPackageCollection",
            page=results,
            params=call.render.query_results_params(query),
        )

    async def queries(self, call: Call) -> JSON:
        raw = call.query.get("filters")
        filters = parse_filters(raw) if raw else []
        predicate = compile_filters(filters, _query_filter)
        found = [q for q in call.tenant.dataset.queries.values() if predicate(q)]
        elements = [
            call.render.query(q, await self._results(call, q, PageRequest()), columns_as_links=True) for q in found
        ]
        params: dict[str, str | int] = {"filters": filters_json(filters)} if raw else {}
        return call.render.collection(elements, path=f"{API}/queries", params=params)

    async def saved_query(self, call: Call) -> JSON:
        query_id = _integer_id(call.match["id"], "Query")
        query = call.tenant.dataset.queries.get(query_id)
        if query is None:
            raise not_found("The requested query does not exist.")
        results = await self._results(call, query, call.page())
        return call.render.query(query, results, columns_as_links=False)

    # Users ------------------------------------------------------------------------------------

    async def users(self, call: Call) -> JSON:
        if not call.tenant.admin:
            raise forbidden("You are not allowed to see the users.")
        listing = call.listing()
        filters = listing.filters or []
        # The users `status` filter takes names (@054197f:app/models/queries/filters/shared/user_status_filter.rb).
        _check_status(filters, self.profile.user_status_values)
        page = await call.tenant.metadata.users(filters, listing.page)
        return call.render.collection(
            [call.render.user(u) for u in page.items], path=f"{API}/users", page=page, params=_echo(filters, listing)
        )

    async def principals(self, call: Call) -> JSON:
        listing = call.listing()
        filters = listing.filters or []
        only_users = True
        passed: list[Filter] = []
        # The principals `status` filter takes numbers (@cef85bf:app/models/queries/principals/filters/
        # status_filter.rb; 17.3 spec: "status number (active = 1, registered = 2, locked = 3, invited = 4)").
        _check_status(filters, self.profile.principal_status_values)
        for f in filters:
            if f.name == "status":
                names = tuple(STATUS_NAME_OF_NUMBER[v] for v in f.values)
                passed.append(Filter("status", f.operator, names))
            elif f.name == "type":
                require_operator(f, ("=", "!"))
                # Every principal of a dataset is a user (no groups, no placeholder users).
                only_users = only_users and (("User" in f.values) == (f.operator == "="))
            elif f.name == "member":
                require_operator(f, ("=",))  # memberships are not recorded: everyone is a member
            elif f.name == "any_name_attribute":
                passed.append(Filter("name", f.operator, f.values))
            else:
                passed.append(f)
        page = await call.tenant.metadata.principals(passed, listing.page)
        if not only_users:
            page = paginate([], listing.page)
        return call.render.collection(
            [call.render.user(u) for u in page.items],
            path=f"{API}/principals",
            page=page,
            params=_echo(filters, listing),
        )

    async def user(self, call: Call) -> JSON:
        ref = call.match["id"]
        tenant = call.tenant
        if ref == "me":
            if tenant.current_user is None:
                raise not_found("The requested user does not exist.")
            return call.render.user(tenant.current_user)
        found = tenant.dataset.users.get(_integer_id(ref, "User"))
        if found is None:
            raise not_found("The requested user does not exist.")
        return call.render.user(found)

    # Meetings ---------------------------------------------------------------------------------

    async def meetings(self, call: Call) -> JSON:
        listing = call.listing()
        filters = listing.filters or []
        found = meetings_for(self.profile, call.tenant, filters, listing.sort_by, call.tenant.now())
        page = paginate(found, listing.page)
        return call.render.collection(
            [call.render.meeting(m) for m in page.items],
            path=f"{API}/meetings",
            page=page,
            params={"filters": filters_json(filters), **_echo(None, listing)},
        )

    async def meeting(self, call: Call) -> JSON:
        return call.render.meeting(await call.tenant.meetings.get(_integer_id(call.match["id"], "Meeting")))

    async def meeting_attachments(self, call: Call) -> JSON:
        meeting = await call.tenant.meetings.get(_integer_id(call.match["id"], "Meeting"))
        return call.render.empty_collection(f"{API}/meetings/{meeting.id}/attachments")

    async def agenda_items(self, call: Call) -> JSON:
        meeting = await call.tenant.meetings.get(_integer_id(call.match["id"], "Meeting"))
        details = await call.tenant.meetings.details(meeting.id)
        items = list(details.agenda_items or ())
        if self.profile.agenda_backlog:
            # The backlog section's items come after the agenda's (file version 54737762499 of
            # modules/meeting/lib/api/v3/meeting_agenda_items/agenda_items_by_meeting_api.rb).
            items += details.backlog_items or ()
        return call.render.collection(
            [call.render.agenda_item(meeting, item) for item in items],
            path=f"{API}/meetings/{meeting.id}/agenda_items",
        )

    async def meeting_section(self, call: Call) -> JSON:
        section_id = _integer_id(call.match["id"], "Meeting section")
        meeting = call.tenant.dataset.meetings.get(section_id // SECTION_IDS_PER_MEETING)
        if meeting is None or section_id % SECTION_IDS_PER_MEETING not in (AGENDA_SECTION, BACKLOG_SECTION):
            raise not_found("The requested meeting section does not exist.")
        return call.render.meeting_section(meeting, backlog=section_id % SECTION_IDS_PER_MEETING == BACKLOG_SECTION)

    async def agenda_item_outcomes(self, call: Call) -> JSON:
        meeting_id = _integer_id(call.match["meeting_id"], "Meeting")
        found = call.tenant.agenda_items.get(_integer_id(call.match["id"], "Agenda item"))
        if found is None or found[0].id != meeting_id:
            raise not_found("The requested agenda item does not exist.")
        meeting, item = found
        outcomes = [ref for ref in call.tenant.outcomes.values() if ref.item.id == item.id]
        return call.render.collection(
            [call.render.outcome(ref) for ref in outcomes],
            path=f"{API}/meetings/{meeting.id}/agenda_items/{item.id}/outcomes",
        )

    async def agenda_item(self, call: Call) -> JSON:
        found = call.tenant.agenda_items.get(_integer_id(call.match["id"], "Agenda item"))
        if found is None:
            raise not_found("The requested agenda item does not exist.")
        return call.render.agenda_item(*found)

    async def all_wiki_page_links(self, call: Call) -> JSON:
        """``PageLinksAPI#get`` (17.6+): ``PageLinkQuery`` filters, links on visible work packages,
        ``per_page: params[:pageSize]`` only, so ``offset`` is not read
        (``@7522e89:modules/wikis/lib/api/v3/page_links/page_links_api.rb``)."""
        listing = call.listing()
        links = [row.link for row in call.tenant.dataset.wiki_page_links.values()]
        uids = sorted({link.provider_id or link.provider or "internal" for link in links})
        keep = compile_filters(listing.filters or [], lambda f: _page_link_filter(f, uids))
        matching = [link for link in links if keep(link)]
        page = paginate(matching, PageRequest(1, listing.page.page_size))
        return call.render.collection(
            [call.render.wiki_page_link(link) for link in page.items],
            path=f"{API}/wiki_page_links",
            type_="WikiPageLinkCollection",
            page=page,
        )

    async def outcome(self, call: Call) -> JSON:
        found: OutcomeRef | None = call.tenant.outcomes.get(_integer_id(call.match["id"], "Outcome"))
        if found is None:
            raise not_found("The requested outcome does not exist.")
        return call.render.outcome(found)

    # Wiki -------------------------------------------------------------------------------------

    async def wiki_page(self, call: Call) -> JSON:
        return call.render.wiki_page(await call.tenant.wiki_pages.get(_integer_id(call.match["id"], "Wiki page")))

    async def wiki_page_attachments(self, call: Call) -> JSON:
        page_id = _integer_id(call.match["id"], "Wiki page")
        page = await call.tenant.wiki_pages.get(page_id)  # 404 for an unknown page
        rows = [row for row in call.tenant.dataset.attachments.values() if row.wiki_page_id == page_id]
        return self._attachments(
            call, rows, ("wiki_pages", page_id, page.title), f"{API}/wiki_pages/{page_id}/attachments"
        )

    # Attachments ------------------------------------------------------------------------------

    async def work_package_attachments(self, call: Call) -> JSON:
        work_package = await call.tenant.work_packages.get(await self._work_package_id(call))
        rows = [row for row in call.tenant.dataset.attachments.values() if row.work_package_id == work_package.id]
        container = ("work_packages", work_package.id, work_package.subject)
        return self._attachments(call, rows, container, f"{API}/work_packages/{work_package.id}/attachments")

    def _attachments(
        self, call: Call, rows: Sequence[AttachmentRow], container: tuple[str, int, str], path: str
    ) -> JSON:
        elements = [
            attachment_hal(
                call.render.prefix,
                row,
                container,
                self.external.sign(row) if self.storage == "external" and row.content is not None else "",
            )
            for row in rows
        ]
        return call.render.collection(elements, path=path)

    async def attachment_content(self, call: Call) -> web.StreamResponse:
        row = call.tenant.dataset.attachments.get(_integer_id(call.match["id"], "Attachment"))
        return content_response(row, self.storage, self.external)


STATUS_NAME_OF_NUMBER = {"1": "active", "2": "registered", "3": "locked", "4": "invited"}
"""``Principal.statuses`` (17.3 spec on /api/v3/principals: active = 1, registered = 2, locked = 3, invited = 4)."""


def _check_status(filters: list[Filter], allowed: frozenset[str]) -> None:
    """A ``status`` value outside the filter's allowed values is an ``inclusion`` error, answered
    "Filters Status filter has invalid values." (@2dcdc17:app/models/queries/filters/strategies/list.rb)."""
    for f in filters:
        if f.name == "status" and (not f.values or any(v not in allowed for v in f.values)):
            raise invalid_query("Filters Status filter has invalid values.")


_LINK_TYPE_URNS = {
    "urn:openproject-org:api:v3:wikiPageLinks:Inline": "inline",
    "urn:openproject-org:api:v3:wikiPageLinks:Relation": "relation",
}


def _page_link_filter(f: Filter, provider_uids: Sequence[str]) -> Predicate[WikiPageLink]:
    """``PageLinkQuery`` filters: ``provider`` (list of enabled providers' universal identifiers),
    ``identifier`` (string), ``wiki_page_link_type`` (list of URNs)
    (``@45b991b:.../page_links/filter/provider_filter.rb``, ``@1ef26bf:.../wiki_page_link_type_filter.rb``,
    ``@9610091:.../identifier_filter.rb``)."""
    if f.name == "provider":
        require_operator(f, ("=", "!"))
        unknown = [v for v in f.values if v not in provider_uids]
        if unknown or not f.values:
            raise invalid_query(f"Filters Provider filter has invalid values: {', '.join(unknown) or '(none)'}.")
        wanted = set(f.values)
        return lambda link: ((link.provider_id or link.provider or "internal") in wanted) == (f.operator == "=")
    if f.name == "wiki_page_link_type":
        require_operator(f, ("=", "!"))
        kinds = {_LINK_TYPE_URNS.get(v) for v in f.values}
        if None in kinds or not f.values:
            raise invalid_query("Filters Type filter has invalid values.")
        return lambda link: ((link.link_type or "relation") in kinds) == (f.operator == "=")
    if f.name == "identifier":
        require_operator(f, ("=", "!", "~", "!~"))
        values = [v.lower() for v in f.values]
        if not values:
            raise invalid_query("Filters Identifier filter needs a value.")

        def holds(link: WikiPageLink) -> bool:
            text = (link.identifier or "").lower()
            hit = text in values if f.operator in ("=", "!") else any(v in text for v in values)
            return hit == (f.operator in ("=", "~"))

        return holds
    raise unknown_filter(f.name, "wiki page links")


def _query_filter(f: Filter) -> Predicate[SavedQuery]:
    """``GET /api/v3/queries`` filters: ``project`` (``!*``: global queries) and ``id``."""
    if f.name == "project":
        return reference_filter(f, lambda q: q.project.id if q.project else None, ("=", "!", "*", "!*"))
    if f.name == "id":
        return reference_filter(f, lambda q: q.id, ("=", "!"))
    raise unknown_filter(f.name, "queries")


__all__ = ["TENANT", "ApiError", "Call", "Route", "Routes"]
