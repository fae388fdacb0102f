"""HAL+JSON renderings of dataset records, shaped like OpenProject's own (see shared/openproject-examples).

Every href carries the server's sub-path prefix. Empty associations are ``{"href": null}``, as
OpenProject renders them. Timestamps carry milliseconds and a ``Z``; texts are formattables
``{"format", "raw", "html"}``. Where a real server renders something the dataset cannot say
(a user's creation time, a query's owner), the value is ``null`` or the token's own user.
"""

from __future__ import annotations

import html
import json
import re
from collections.abc import Mapping, Sequence
from datetime import UTC, date, datetime
from typing import Any
from urllib.parse import quote, urlencode

from openproject_mcp.adapters.fixture import Dataset
from openproject_mcp.domain.durations import iso_hours
from openproject_mcp.domain.entities import (
    Activity,
    AgendaItem,
    Meeting,
    NamedRef,
    Priority,
    Project,
    QueryFilter,
    SavedQuery,
    Status,
    User,
    WikiPage,
    WikiPageLink,
    WorkPackage,
    WorkPackageType,
)
from openproject_mcp.domain.queries import Page
from openproject_mcp.domain.writes import TimeEntry, TimeEntryActivity
from tests.support.fake_openproject.profiles import Profile
from tests.support.fake_openproject.tenant import OutcomeRef, Tenant, outcome_id

JSON = dict[str, Any]

API = "/api/v3"

NULL_LINK: Mapping[str, None] = {"href": None}

SECTION_IDS_PER_MEETING = 100
"""The dataset gives sections no ids: meeting ``m`` has section ``m * 100 + 1`` (its agenda) and
``m * 100 + 2`` (its backlog)."""
AGENDA_SECTION = 1
BACKLOG_SECTION = 2


def stamp(moment: datetime | None) -> str | None:
    """``2026-09-10T09:00:00.000Z``, as OpenProject renders its timestamps."""
    if moment is None:
        return None
    utc = moment.astimezone(UTC)
    return f"{utc:%Y-%m-%dT%H:%M:%S}.{utc.microsecond // 1000:03d}Z"


def day(value: date | None) -> str | None:
    return None if value is None else value.isoformat()


def to_html(raw: str) -> str:
    """A stand-in for OpenProject's markdown rendering: escaped paragraphs."""
    paragraphs = [p.strip() for p in re.split(r"\n\s*\n", raw) if p.strip()]
    return "".join(f'<p class="op-uc-p">{html.escape(p).replace(chr(10), "<br>")}</p>' for p in paragraphs)


def formattable(raw: str | None, text_format: str = "markdown") -> JSON:
    text = raw or ""
    rendered = html.escape(text) if text_format == "custom" else to_html(text)
    return {"format": text_format, "raw": text, "html": rendered}


def iso_duration(minutes: int) -> str:
    """``PT1H30M`` (``PT0S`` for nothing), as OpenProject 17.4+ renders a meeting's duration."""
    hours, rest = divmod(minutes, 60)
    parts = (f"{hours}H" if hours else "") + (f"{rest}M" if rest else "")
    return f"PT{parts}" if parts else "PT0S"


def query_string(params: Mapping[str, str | int]) -> str:
    return urlencode({k: str(v) for k, v in params.items()}, quote_via=quote, safe="")


_FILTER_LABELS: Mapping[str, str] = {
    "status": "Status",
    "type": "Type",
    "project": "Project",
    "assignee": "Assignee",
    "author": "Author",
    "responsible": "Accountable",
    "priority": "Priority",
    "subject": "Subject",
    "search": "Search",
    "id": "ID",
    "parent": "Parent",
    "updatedAt": "Updated on",
    "createdAt": "Created on",
    "startDate": "Start date",
    "dueDate": "Finish date",
}
_COLUMN_LABELS: Mapping[str, str] = {**_FILTER_LABELS, "percentageDone": "% Complete", "updated_at": "Updated on"}
_OPERATOR_TITLES: Mapping[str, str] = {
    "o": "open",
    "c": "closed",
    "=": "is",
    "!": "is not",
    "*": "all",
    "!*": "none",
    "~": "contains",
    "!~": "doesn't contain",
    "**": "search",
    "<>d": "between",
    ">t-": "less than days ago",
    "<t+": "in less than",
}
# Filters whose values OpenProject renders as links to resources (``_links.values``).
_LINKED_FILTERS: Mapping[str, str] = {
    "status": "statuses",
    "type": "types",
    "priority": "priorities",
    "project": "projects",
    "assignee": "users",
    "author": "users",
    "responsible": "users",
    "parent": "work_packages",
    "id": "work_packages",
}


def _label(name: str, labels: Mapping[str, str]) -> str:
    return labels.get(name) or re.sub(r"(?<=[a-z0-9])(?=[A-Z])|_", " ", name).capitalize()


def _pascal(name: str) -> str:
    words = re.split(r"_|(?<=[a-z0-9])(?=[A-Z])", name)
    return "".join(word[:1].upper() + word[1:] for word in words if word)


class Renderer:
    """Renders one tenant's records for one request (the prefix and the profile are the server's)."""

    def __init__(self, prefix: str, profile: Profile, tenant: Tenant) -> None:
        self.prefix = prefix
        self.profile = profile
        self.tenant = tenant
        self.dataset: Dataset = tenant.dataset

    # Links ------------------------------------------------------------------------------------

    def href(self, path: str) -> str:
        return f"{self.prefix}{path}"

    def link(self, path: str, title: str | None = None, **extra: Any) -> JSON:
        payload: JSON = {"href": self.href(path)}
        if title is not None:
            payload["title"] = title
        payload.update(extra)
        return payload

    def user_link(self, user: NamedRef | None) -> JSON:
        return dict(NULL_LINK) if user is None else self.link(f"{API}/users/{user.id}", user.name)

    def project_link(self, project_id: int | None) -> JSON:
        if project_id is None:
            return dict(NULL_LINK)
        return self.link(f"{API}/projects/{project_id}", self.dataset.projects[project_id].name)

    def work_package_link(self, work_package_id: int | None) -> JSON:
        if work_package_id is None:
            return dict(NULL_LINK)
        return self.link(f"{API}/work_packages/{work_package_id}", self.dataset.work_packages[work_package_id].subject)

    # Collections ------------------------------------------------------------------------------

    def collection(
        self,
        elements: Sequence[JSON],
        *,
        path: str,
        type_: str = "Collection",
        total: int | None = None,
        page: Page[Any] | None = None,
        params: Mapping[str, str | int] | None = None,
    ) -> JSON:
        """A collection; with ``page``, an offset-paginated one with OpenProject's paging links."""
        if total is None:
            total = len(elements) if page is None else page.total
        payload: JSON = {"_type": type_, "total": total, "count": len(elements)}
        base = dict(params or {})
        if page is None:
            self_href = f"{path}?{query_string(base)}" if base else path
            links: JSON = {"self": self.link(self_href)}
        else:
            payload["pageSize"] = page.page_size
            payload["offset"] = page.offset

            def at(offset: int | str, size: int | str) -> str:
                return f"{path}?{query_string({**base, 'offset': offset, 'pageSize': size})}"

            links = {
                "self": self.link(at(page.offset, page.page_size)),
                "jumpTo": self.link(at("{offset}", page.page_size), templated=True),
                "changeSize": self.link(at(page.offset, "{size}"), templated=True),
            }
            if page.offset > 1:
                links["previousByOffset"] = self.link(at(page.offset - 1, page.page_size))
            if page.page_size and page.offset * page.page_size < page.total:
                links["nextByOffset"] = self.link(at(page.offset + 1, page.page_size))
        payload["_embedded"] = {"elements": list(elements)}
        payload["_links"] = links
        return payload

    def project_collection(self, page: Page[Project], params: Mapping[str, str | int]) -> JSON:
        """Projects, with the CSV and XLS representations OpenProject links from the list."""
        payload = self.collection(
            [self.project(p) for p in page.items], path=f"{API}/projects", page=page, params=params
        )
        current = query_string({**params, "offset": page.offset, "pageSize": page.page_size})
        payload["_links"]["representations"] = [
            self.link(f"/projects.csv?{current}", "CSV", identifier="csv", type="text/csv"),
            self.link(f"/projects.xls?{current}", "XLS", identifier="xls", type="application/vnd.ms-excel"),
        ]
        return payload

    def empty_collection(self, path: str) -> JSON:
        return self.collection([], path=path)

    # Root -------------------------------------------------------------------------------------

    def root(self) -> JSON:
        payload: JSON = {"_type": "Root", "instanceName": self.dataset.instance_name}
        if self.tenant.admin:
            payload["coreVersion"] = self.profile.core_version  # admins only, as in OpenProject
        user = self.tenant.current_user
        payload["_links"] = {
            "self": self.link(API),
            "configuration": self.link(f"{API}/configuration"),
            "memberships": self.link(f"{API}/memberships"),
            "priorities": self.link(f"{API}/priorities"),
            "relations": self.link(f"{API}/relations"),
            "statuses": self.link(f"{API}/statuses"),
            "time_entries": self.link(f"{API}/time_entries"),
            "types": self.link(f"{API}/types"),
            "user": self.user_link(None if user is None else NamedRef(user.id, user.name)),
            "userPreferences": self.link(f"{API}/my_preferences"),
            "workPackages": self.link(f"{API}/work_packages"),
        }
        return payload

    # Projects ---------------------------------------------------------------------------------

    def _project_ancestors(self, project: Project) -> list[JSON]:
        chain: list[JSON] = []
        parent = project.parent
        while parent is not None:
            chain.insert(0, self.link(f"{API}/projects/{parent.id}", parent.name))
            parent = self.dataset.projects[parent.id].parent
        return chain

    def project(self, project: Project) -> JSON:
        path = f"{API}/projects/{project.id}"
        memberships = json.dumps([{"project": {"operator": "=", "values": [str(project.id)]}}], separators=(",", ":"))
        parent = project.parent
        return {
            "_type": "Project",
            "id": project.id,
            "identifier": project.identifier,
            "name": project.name,
            "active": project.active,
            "public": project.public,
            "statusExplanation": formattable(project.status_explanation),
            "description": formattable(project.description),
            "createdAt": stamp(project.created_at),
            "updatedAt": stamp(project.updated_at),
            "_links": {
                "self": self.link(path, project.name),
                "createWorkPackage": self.link(f"{path}/work_packages/form", method="post"),
                "createWorkPackageImmediate": self.link(f"{path}/work_packages", method="post"),
                "schema": self.link(f"{API}/projects/schema"),
                "categories": self.link(f"{path}/categories"),
                "types": self.link(f"{path}/types"),
                "versions": self.link(f"{path}/versions"),
                "workPackages": self.link(f"{path}/work_packages"),
                "memberships": self.link(f"{API}/memberships?filters={memberships}"),
                "parent": dict(NULL_LINK) if parent is None else self.link(f"{API}/projects/{parent.id}", parent.name),
                "ancestors": self._project_ancestors(project),
                "status": dict(NULL_LINK),
            },
        }

    # Work packages ----------------------------------------------------------------------------

    def _work_package_ancestors(self, parent_id: int | None) -> list[JSON]:
        chain: list[JSON] = []
        while parent_id is not None:
            chain.insert(0, self.work_package_link(parent_id))
            parent_id = self.dataset.work_package_rows[parent_id].parent_id
        return chain

    def work_package(self, work_package: WorkPackage) -> JSON:
        """The full representation, the same in collections as for a single work package."""
        row = self.dataset.work_package_rows[work_package.id]
        wp_id, subject = work_package.id, work_package.subject
        path = f"{API}/work_packages/{wp_id}"
        payload: JSON = {"_type": "WorkPackage", "id": wp_id}
        if self.profile.display_ids and work_package.display_id is not None:
            payload["displayId"] = work_package.display_id
        payload |= {
            "lockVersion": work_package.lock_version or 0,
            "subject": subject,
            "description": formattable(work_package.description),
            "scheduleManually": False,
            "readonly": False,
        }
        if self.dataset.types[row.type_id].is_milestone:
            # A milestone has one date instead of a start and a finish.
            payload["date"] = day(work_package.due_date or work_package.start_date)
        else:
            payload["startDate"] = day(work_package.start_date)
            payload["dueDate"] = day(work_package.due_date)
        payload |= {
            "derivedStartDate": None,
            "derivedDueDate": None,
            "estimatedTime": None if work_package.estimated_hours is None else iso_hours(work_package.estimated_hours),
            "derivedEstimatedTime": None,
            "remainingTime": None,
            "derivedRemainingTime": None,
            "ignoreNonWorkingDays": False,
            "spentTime": "PT0S",
            "percentageDone": work_package.percentage_done,
            "derivedPercentageDone": None,
            "createdAt": stamp(work_package.created_at),
            "updatedAt": stamp(work_package.updated_at),
        }
        status = self.dataset.statuses[row.status_id]
        wp_type = self.dataset.types[row.type_id]
        priority = None if row.priority_id is None else self.dataset.priorities[row.priority_id]
        payload["_links"] = {
            "self": self.link(path, subject),
            "schema": self.link(f"{API}/work_packages/schemas/{row.project_id}-{row.type_id}"),
            "update": self.link(path, f"Update {subject}", method="patch"),
            "delete": self.link(f"/work_packages/bulk?ids={wp_id}", f"Delete {subject}", method="delete"),
            "logTime": self.link(
                f"/work_packages/{wp_id}/time_entries/new", f"Log time on {subject}", type="text/html"
            ),
            "move": self.link(f"/work_packages/{wp_id}/move/new", f"Move {subject}", type="text/html"),
            "attachments": self.link(f"{path}/attachments"),
            "addAttachment": self.link(f"{path}/attachments", method="post"),
            "author": self.user_link(work_package.author),
            "customActions": [],
            "responsible": dict(NULL_LINK),
            "relations": self.link(f"{path}/relations", "Show relations"),
            "revisions": self.link(f"{path}/revisions"),
            "activities": self.link(f"{path}/activities"),
            "assignee": self.user_link(work_package.assignee),
            "priority": dict(NULL_LINK)
            if priority is None
            else self.link(f"{API}/priorities/{priority.id}", priority.name),
            "project": self.project_link(row.project_id),
            "status": self.link(f"{API}/statuses/{status.id}", status.name),
            "type": self.link(f"{API}/types/{wp_type.id}", wp_type.name),
            "version": dict(NULL_LINK),
            "availableWatchers": self.link(f"{path}/available_watchers"),
            "watch": self.link(
                f"{path}/watchers",
                method="post",
                payload={"user": {"href": self.href(f"{API}/users/{self._me_id()}")}},
            ),
            "addWatcher": self.link(
                f"{path}/watchers",
                method="post",
                payload={"user": {"href": self.href(f"{API}/users/{{user_id}}")}},
                templated=True,
            ),
            "removeWatcher": self.link(f"{path}/watchers/{{user_id}}", method="delete", templated=True),
            "addRelation": self.link(f"{API}/relations", "Add relation", method="post"),
            "changeParent": self.link(path, f"Change parent of {subject}", method="patch"),
            "addComment": self.link(f"{path}/activities", "Add comment", method="post"),
            "parent": self.work_package_link(row.parent_id),
            "category": dict(NULL_LINK),
            "children": [
                self.link(f"{API}/work_packages/{child.id}", child.subject) for child in work_package.children or ()
            ],
            "ancestors": self._work_package_ancestors(row.parent_id),
            "timeEntries": self.link(f"/work_packages/{wp_id}/time_entries", "Time entries", type="text/html"),
            "watchers": self.link(f"{path}/watchers"),
        }
        return payload

    def _me_id(self) -> int | str:
        user = self.tenant.current_user
        return "me" if user is None else user.id

    def activity(self, work_package_id: int, activity: Activity, *, embed: bool = False) -> JSON:
        """An activity; ``embed`` for the single resource (``activity.json``), which embeds its
        attachments, work package and emoji reactions where the listed ones do not."""
        path = f"{API}/activities/{activity.id}"
        comment = activity.comment or ""
        payload: JSON = {
            "_type": "Activity::Comment" if comment.strip() else "Activity",
            "id": activity.id,
            "comment": formattable(comment),
            "details": [formattable(detail, "custom") for detail in activity.details],
            "version": activity.version,
            "internal": activity.internal,
            "createdAt": stamp(activity.created_at),
            "updatedAt": stamp(activity.created_at),
        }
        if embed:
            payload["_embedded"] = {
                "attachments": self.empty_collection(f"{path}/attachments"),
                "workPackage": self.work_package(self.dataset.work_packages[work_package_id]),
                "emojiReactions": self.empty_collection(f"{path}/emoji_reactions"),
            }
        payload["_links"] = {
            "attachments": self.link(f"{path}/attachments"),
            "addAttachment": self.link(f"{path}/attachments", method="post"),
            "self": self.link(path),
            "workPackage": self.work_package_link(work_package_id),
            # OpenProject links the author without a title: clients look the name up.
            "user": dict(NULL_LINK) if activity.user is None else self.link(f"{API}/users/{activity.user.id}"),
            "update": self.link(path, method="patch"),
            "emojiReactions": self.link(f"{path}/emoji_reactions"),
        }
        return payload

    # Metadata ---------------------------------------------------------------------------------

    @staticmethod
    def _position(ids: Sequence[int], wanted: int) -> int:
        return ids.index(wanted) + 1

    def status(self, status: Status) -> JSON:
        return {
            "_type": "Status",
            "id": status.id,
            "name": status.name,
            "isClosed": status.is_closed,
            "color": status.color,
            "isDefault": bool(status.is_default),
            "isReadonly": False,
            "excludedFromTotals": False,
            "defaultDoneRatio": None,
            "position": self._position(list(self.dataset.statuses), status.id),
            "_links": {"self": self.link(f"{API}/statuses/{status.id}", status.name)},
        }

    def type(self, wp_type: WorkPackageType) -> JSON:
        return {
            "_type": "Type",
            "id": wp_type.id,
            "name": wp_type.name,
            "color": wp_type.color,
            "position": self._position(list(self.dataset.types), wp_type.id),
            "isDefault": bool(wp_type.is_default),
            "isMilestone": wp_type.is_milestone,
            "createdAt": None,
            "updatedAt": None,
            "_links": {"self": self.link(f"{API}/types/{wp_type.id}", wp_type.name)},
        }

    def priority(self, priority: Priority) -> JSON:
        return {
            "_type": "Priority",
            "id": priority.id,
            "name": priority.name,
            "position": self._position(list(self.dataset.priorities), priority.id),
            "color": priority.color,
            "isDefault": bool(priority.is_default),
            "isActive": priority.is_active,
            "_links": {"self": self.link(f"{API}/priorities/{priority.id}", priority.name)},
        }

    def user(self, user: User) -> JSON:
        path = f"{API}/users/{user.id}"
        first, _, last = user.name.partition(" ")
        principal = json.dumps([{"principal": {"operator": "=", "values": [str(user.id)]}}], separators=(",", ":"))
        links: JSON = {
            "self": self.link(path, user.name),
            "memberships": self.link(f"{API}/memberships?{query_string({'filters': principal})}", "Memberships"),
            "showUser": self.link(f"/users/{user.id}", type="text/html"),
            "updateImmediately": self.link(path, f"Update {user.login or user.name}", method="patch"),
        }
        if user.status == "locked":
            links["unlock"] = self.link(f"{path}/lock", f"Set unlock on {user.login or user.name}", method="delete")
        else:
            links["lock"] = self.link(f"{path}/lock", f"Set lock on {user.login or user.name}", method="post")
        links["delete"] = self.link(path, f"Delete {user.login or user.name}", method="delete")
        payload: JSON = {
            "_type": "User",
            "id": user.id,
            "name": user.name,
            "createdAt": None,
            "updatedAt": None,
            "login": user.login,
            "firstName": first,
            "lastName": last,
            "email": user.email,
            "avatar": "",
            "status": user.status,
            "identityUrl": None,
            "language": "en",
            "_links": links,
        }
        if self.tenant.admin:
            # `admin` is rendered to administrators only (S141); the token's own user is the admin.
            me = self.tenant.current_user
            payload["admin"] = me is not None and me.id == user.id
        return payload

    # Saved queries ----------------------------------------------------------------------------

    def _filter_value_link(self, name: str, value: str) -> JSON:
        resource = _LINKED_FILTERS[name]
        if value == "me" and resource == "users":
            return self.link(f"{API}/users/me", "me")
        title: str | None = None
        if value.isascii() and value.isdigit():
            key = int(value)
            records: Mapping[int, Any] = {
                "statuses": self.dataset.statuses,
                "types": self.dataset.types,
                "priorities": self.dataset.priorities,
                "projects": self.dataset.projects,
                "users": self.dataset.users,
                "work_packages": self.dataset.work_packages,
            }[resource]
            record = records.get(key)
            if record is not None:
                title = record.subject if isinstance(record, WorkPackage) else record.name
        return self.link(f"{API}/{resource}/{quote(value, safe='')}", title)

    def query_filter(self, query_filter: QueryFilter) -> JSON:
        name, operator = query_filter.field, query_filter.operator
        label = _label(name, _FILTER_LABELS)
        payload: JSON = {"_type": f"{_pascal(name)}QueryFilter", "name": label}
        links: JSON = {
            "filter": self.link(f"{API}/queries/filters/{name}", label),
            "operator": self.link(f"{API}/queries/operators/{operator}", _OPERATOR_TITLES.get(operator, operator)),
            "schema": self.link(f"{API}/queries/filter_instance_schemas/{name}"),
        }
        if name in _LINKED_FILTERS:
            links["values"] = [self._filter_value_link(name, value) for value in query_filter.values]
        else:
            payload["values"] = list(query_filter.values)
        payload["_links"] = links
        return payload

    def query_results_path(self, query: SavedQuery) -> str:
        return f"{API}/work_packages" if query.project is None else f"{API}/projects/{query.project.id}/work_packages"

    def query_results_params(self, query: SavedQuery) -> dict[str, str | int]:
        filters = [{f.field: {"operator": f.operator, "values": list(f.values)}} for f in query.filters]
        params: dict[str, str | int] = {"filters": json.dumps(filters, separators=(",", ":"), ensure_ascii=False)}
        if query.sort_by:
            params["sortBy"] = json.dumps([[s.attribute, s.direction] for s in query.sort_by], separators=(",", ":"))
        return params

    def query(self, query: SavedQuery, results: JSON, *, columns_as_links: bool) -> JSON:
        """A saved query. The single resource puts its columns in the table projection
        (``query.json``); list elements also carry ``_links.columns`` (``query_collection.json``)."""
        path = f"{API}/queries/{query.id}"
        columns = [
            self.link(f"{API}/queries/columns/{column}", _label(column, _COLUMN_LABELS)) for column in query.columns
        ]
        table: JSON = {"_type": "QueryProjection::Table"}
        if not columns_as_links:
            table |= {"showHierarchies": True, "_links": {"columns": columns, "highlightedAttributes": []}}
        owner = self.tenant.current_user
        links: JSON = {
            "self": self.link(path, query.name),
            "results": self.link(
                f"{self.query_results_path(query)}?{query_string({**self.query_results_params(query), 'offset': 1})}"
            ),
        }
        if columns_as_links:
            links["columns"] = columns
        links |= {
            "groupBy": {"href": None, "title": None},
            "sortBy": [
                self.link(
                    f"{API}/queries/sort_bys/{s.attribute}-{s.direction}",
                    f"{_label(s.attribute, _COLUMN_LABELS)} ({'Descending' if s.direction == 'desc' else 'Ascending'})",
                )
                for s in query.sort_by
            ],
            "user": self.user_link(None if owner is None else NamedRef(owner.id, owner.name)),
            "project": self.project_link(None if query.project is None else query.project.id),
        }
        return {
            "_type": "Query",
            "id": query.id,
            "name": query.name,
            "createdAt": None,
            "updatedAt": None,
            "filters": [self.query_filter(f) for f in query.filters],
            "public": query.public,
            "sums": False,
            "starred": bool(query.starred),
            "hidden": False,
            "timestamps": ["PT0S"],
            "projections": [
                table,
                {"_type": "QueryProjection::Gantt", "labels": {}, "zoomLevel": "auto"},
                {"_type": "QueryProjection::Calendar"},
            ],
            "_embedded": {"results": results},
            "_links": links,
        }

    # Meetings ---------------------------------------------------------------------------------

    def meeting(self, meeting: Meeting) -> JSON:
        path = f"{API}/meetings/{meeting.id}"
        payload: JSON = {
            "_type": "Meeting",
            "id": meeting.id,
            "title": meeting.title,
            "location": meeting.location,
            "lockVersion": 0,
            "meetingType": "StructuredMeeting",
        }
        if self.profile.meeting_state:
            payload["state"] = meeting.state
        minutes = meeting.duration_minutes
        if minutes is None:
            duration: float | str | None = None
        elif self.profile.iso_duration:
            duration = iso_duration(minutes)
        else:
            duration = minutes / 60
        payload |= {
            "startTime": stamp(meeting.start_time),
            "endTime": stamp(meeting.end_time),
            "duration": duration,
            "createdAt": stamp(meeting.created_at),
            "updatedAt": stamp(meeting.updated_at),
        }
        links: JSON = {
            "attachments": self.link(f"{path}/attachments"),
            "addAttachment": self.link(f"{path}/attachments", method="post"),
            "self": self.link(path, meeting.title),
            "author": self.user_link(meeting.author),
            "project": self.project_link(meeting.project.id),
        }
        participants = self.dataset.meeting_details[meeting.id].participants or ()
        if self.profile.meeting_participants:
            # `associated_resources :users, as: :participants`: titled user links, full users embedded
            # (@deedf43:modules/meeting/lib/api/v3/meetings/meeting_representer.rb).
            links["participants"] = [self.user_link(person) for person in participants]
        payload["_links"] = links
        embedded: JSON = {"attachments": self.empty_collection(f"{path}/attachments")}
        if self.profile.meeting_participants:
            embedded["participants"] = [self.user(self.dataset.users[person.id]) for person in participants]
        if meeting.author is not None:
            embedded["author"] = self.user(self.dataset.users[meeting.author.id])
        embedded["project"] = self.project(self.dataset.projects[meeting.project.id])
        payload["_embedded"] = embedded
        return payload

    def meeting_section(self, meeting: Meeting, *, backlog: bool) -> JSON:
        """A ``MeetingSection``: ``backlog`` tells the backlog section apart
        (@9610091:modules/meeting/lib/api/v3/meeting_sections/meeting_section_representer.rb)."""
        number = BACKLOG_SECTION if backlog else AGENDA_SECTION
        section_id = meeting.id * SECTION_IDS_PER_MEETING + number
        title = "Backlog" if backlog else "Agenda"
        return {
            "_type": "MeetingSection",
            "id": section_id,
            "title": title,
            "position": number,
            "backlog": backlog,
            "createdAt": stamp(meeting.created_at),
            "updatedAt": stamp(meeting.updated_at),
            "_links": {
                "self": self.link(f"{API}/meeting_sections/{section_id}", title),
                "meeting": self.link(f"{API}/meetings/{meeting.id}", meeting.title),
            },
        }

    def agenda_item(self, meeting: Meeting, item: AgendaItem) -> JSON:
        """An agenda item as the collection renders it. Where the profile embeds (17.8+: ``embed_links:
        %i[section outcomes]``, @f9bd779/@899685:.../meeting_agenda_item_collection_representer.rb) the
        section and the outcomes are embedded as well as linked; otherwise the section is only linked and
        outcomes are absent (the outcomes API is 17.6's, #75393, @0170877:docs/release-notes/17-6-0/README.md)."""
        outcomes = [
            self.outcome(OutcomeRef(outcome_id(item, index), meeting, item, notes))
            for index, notes in enumerate(item.outcomes)
        ]
        section = self.meeting_section(meeting, backlog=item.id in self.tenant.backlog_item_ids)
        links: JSON = {
            "self": self.link(f"{API}/meeting_agenda_items/{item.id}", item.title),
            "meeting": self.link(f"{API}/meetings/{meeting.id}", meeting.title),
            "author": self.user_link(meeting.author),
            "workPackage": self.work_package_link(None if item.work_package is None else item.work_package.id),
            "section": self.link(section["_links"]["self"]["href"].removeprefix(self.prefix), section["title"]),
        }
        embedded: JSON = {}
        if self.profile.meeting_outcomes_endpoint:
            links["outcomes"] = [self.link(f"{API}/meeting_outcomes/{o['id']}", str(o["id"])) for o in outcomes]
        if self.profile.outcomes_embedded:
            embedded = {"section": section, "outcomes": outcomes}
        return {
            "_type": "MeetingAgendaItem",
            "id": item.id,
            "title": item.title,
            "notes": formattable(item.notes),
            "position": item.position,
            "durationInMinutes": item.duration_in_minutes,
            "itemType": "simple" if item.work_package is None else "work_package",
            "lockVersion": 0,
            "createdAt": stamp(meeting.created_at),
            "updatedAt": stamp(meeting.updated_at),
            "_links": links,
            "_embedded": embedded,
        }

    def outcome(self, ref: OutcomeRef) -> JSON:
        return {
            "_type": "MeetingOutcome",
            "id": ref.id,
            "kind": "information",
            "notes": formattable(ref.notes),
            "createdAt": stamp(ref.meeting.updated_at),
            "updatedAt": stamp(ref.meeting.updated_at),
            "_links": {
                "self": self.link(f"{API}/meeting_outcomes/{ref.id}", str(ref.id)),
                "author": self.user_link(ref.meeting.author),
                "agendaItem": self.link(f"{API}/meeting_agenda_items/{ref.item.id}", ref.item.title),
                "workPackage": dict(NULL_LINK),
            },
        }

    # Wiki -------------------------------------------------------------------------------------

    def wiki_page(self, page: WikiPage) -> JSON:
        path = f"{API}/wiki_pages/{page.id}"
        payload: JSON = {"_type": "WikiPage", "id": page.id, "title": page.title}
        if self.profile.wiki_bodies:
            payload["text"] = formattable(page.text)
            payload["updatedAt"] = stamp(page.updated_at)
        payload["_embedded"] = {"project": self.project(self.dataset.projects[page.project.id])}
        payload["_links"] = {
            "self": self.link(path, page.title),
            "project": self.project_link(page.project.id),
            "attachments": self.link(f"{path}/attachments"),
            "addAttachment": self.link(f"{path}/attachments", method="post"),
        }
        return payload

    def wiki_page_link(self, link: WikiPageLink) -> JSON:
        """``PageLinkRepresenter`` / ``RelationPageLinkRepresenter`` (17.6+): the page is named by
        ``identifier`` only (for OpenProject's own wiki, the page id), the provider and the work
        package by links; no page link, no provider or type as strings, no URL
        (``@a27f373:modules/wikis/lib/api/v3/page_links/page_link_representer.rb``,
        ``@1ef26bf:.../relation_page_link_representer.rb``)."""
        row = self.dataset.wiki_page_links[link.id]
        work_package = self.dataset.work_packages[row.work_package_id]
        kind = "Inline" if (link.link_type or "relation").lower() == "inline" else "Relation"
        identifier = link.identifier or ""
        payload: JSON = {
            "_type": "WikiPageLink",
            "id": link.id,
            "identifier": identifier,
            "wikiPageLinkType": f"urn:openproject-org:api:v3:wikiPageLinks:{kind}",
            "createdAt": stamp(work_package.created_at),
            "updatedAt": stamp(work_package.updated_at),
        }
        links: JSON = {
            # "Title being the identifier is kind of a placeholder until we have actual page names."
            "self": self.link(f"{API}/wiki_page_links/{link.id}", identifier),
            "provider": self.link(
                f"{API}/wiki_providers/{quote(link.provider_id or link.provider or 'internal', safe='')}",
                link.provider or "Internal wiki",
            ),
            "linkable": self.work_package_link(row.work_package_id),
        }
        if kind == "Relation":
            links["author"] = self.user_link(work_package.author)
            links["delete"] = self.link(f"{API}/wiki_page_links/{link.id}", method="delete")
        payload["_links"] = links
        return payload

    # Writes -----------------------------------------------------------------------------------

    def form(self, path: str, payload: JSON, schema: JSON, errors: Mapping[str, JSON]) -> JSON:
        """A ``/form`` answer (``API::Decorators::Form``): the payload as it would be saved, its
        schema, and ``validationErrors`` keyed by attribute."""
        return {
            "_type": "Form",
            "_embedded": {"payload": payload, "schema": schema, "validationErrors": dict(errors)},
            "_links": {
                "self": self.link(path, method="post"),
                "validate": self.link(path, method="post"),
                **({} if errors else {"commit": self.link(path.removesuffix("/form"), method="post")}),
            },
        }

    def time_entry_activity(self, activity: TimeEntryActivity, position: int) -> JSON:
        path = f"{API}/time_entries/activities/{activity.id}"
        return {
            "_type": "TimeEntriesActivity",
            "id": activity.id,
            "name": activity.name,
            "position": position,
            "default": activity.is_default,
            "_links": {"self": self.link(path, activity.name)},
        }

    def time_entry_schema(self) -> JSON:
        activities = list(self.dataset.time_entry_activities.values())
        return {
            "_type": "Schema",
            "hours": {"type": "Duration", "name": "Hours", "required": True, "writable": True},
            "spentOn": {"type": "Date", "name": "Date", "required": True, "writable": True},
            "activity": {
                "type": "TimeEntriesActivity",
                "name": "Activity",
                "required": True,
                "writable": True,
                "_embedded": {"allowedValues": [self.time_entry_activity(a, i + 1) for i, a in enumerate(activities)]},
                "_links": {
                    "allowedValues": [self.link(f"{API}/time_entries/activities/{a.id}", a.name) for a in activities]
                },
            },
            "_links": {},
        }

    def time_entry(self, entry: TimeEntry) -> JSON:
        path = f"{API}/time_entries/{entry.id}"
        links: JSON = {
            "self": self.link(path),
            "schema": self.link(f"{API}/time_entries/schema"),
            "project": self.project_link(entry.project.id),
            "user": self.user_link(entry.user),
            "activity": dict(NULL_LINK)
            if entry.activity is None
            else self.link(f"{API}/time_entries/activities/{entry.activity.id}", entry.activity.name),
        }
        target = entry.work_package
        wp_link = dict(NULL_LINK) if target is None else self.link(f"{API}/work_packages/{target.id}", target.subject)
        links["entity" if self.profile.time_entry_entity else "workPackage"] = wp_link
        return {
            "_type": "TimeEntry",
            "id": entry.id,
            "comment": formattable(entry.comment, "plain"),
            "spentOn": day(entry.spent_on),
            "hours": iso_hours(entry.hours),
            "ongoing": False,
            "createdAt": stamp(entry.created_at),
            "updatedAt": stamp(entry.created_at),
            "_links": links,
        }
