"""From decoded HAL resources to the core's entities.

Ids of linked resources come from their hrefs (``/api/v3/users/4`` → 4), names from the links'
``title``; timestamps become timezone-aware UTC ``datetime`` values. A resource missing what an
entity cannot do without (a work package without a project, a meeting without a start) raises
:class:`PayloadError`: it is reported as unreadable rather than invented.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Mapping
from datetime import UTC, datetime
from typing import Any
from urllib.parse import unquote

from openproject_mcp.adapters.openproject import hal
from openproject_mcp.adapters.openproject.hal import PayloadError
from openproject_mcp.domain.durations import parse_hours
from openproject_mcp.domain.entities import (
    Activity,
    AgendaItem,
    Attachment,
    Meeting,
    NamedRef,
    Priority,
    Project,
    QueryFilter,
    SavedQuery,
    SortCriterion,
    Status,
    User,
    WikiPage,
    WikiPageLink,
    WorkPackage,
    WorkPackageRef,
    WorkPackageType,
)
from openproject_mcp.domain.queries import Page, PageRequest
from openproject_mcp.domain.writes import TimeEntry

_CUSTOM_FIELD = re.compile(r"customField(\d+)")
_DURATION = re.compile(
    r"P(?:(?P<weeks>\d+(?:[.,]\d+)?)W)?(?:(?P<days>\d+(?:[.,]\d+)?)D)?"
    r"(?:T(?:(?P<hours>\d+(?:[.,]\d+)?)H)?(?:(?P<minutes>\d+(?:[.,]\d+)?)M)?(?:(?P<seconds>\d+(?:[.,]\d+)?)S)?)?",
    re.IGNORECASE,
)


# Values --------------------------------------------------------------------------------------


def id_from_href(href: str | None) -> int | None:
    """The numeric id at the end of an href (``/api/v3/users/4`` → 4), if there is one."""
    if not href:
        return None
    segment = href.split("?", 1)[0].rstrip("/").rsplit("/", 1)[-1]
    return int(segment) if segment.isdigit() else None


def last_segment(href: str | None) -> str | None:
    """The decoded last path segment of an href (``/api/v3/queries/operators/%3Ct%2B`` → ``<t+``)."""
    if not href:
        return None
    segment = href.split("?", 1)[0].rstrip("/").rsplit("/", 1)[-1]
    return unquote(segment) or None


def utc(value: datetime | None) -> datetime | None:
    """A timezone-aware UTC datetime (a naive value is taken to be UTC already)."""
    if value is None:
        return None
    if value.tzinfo is None:
        return value.replace(tzinfo=UTC)
    return value.astimezone(UTC)


def text(formattable: hal.Formattable | None) -> str | None:
    """The raw (markdown) text of a formattable, ``None`` when there is none or it is empty."""
    if formattable is None or not formattable.raw:
        return None
    return formattable.raw


def minutes_from_duration(value: float | str | None) -> int | None:
    """Minutes from a meeting duration: hours as a number (up to 17.3) or ISO 8601 (``PT1H30M``, 17.6 on)."""
    if value is None or isinstance(value, bool):
        return None
    if isinstance(value, int | float):
        return round(value * 60) if value >= 0 else None
    stripped = value.strip()
    try:
        hours = float(stripped)
    except ValueError:
        pass
    else:
        return round(hours * 60) if hours >= 0 else None
    match = _DURATION.fullmatch(stripped)
    if match is None or stripped.upper() in ("P", "PT") or stripped.upper().endswith("T"):
        return None
    parts = {k: float(v.replace(",", ".")) if v else 0.0 for k, v in match.groupdict().items()}
    total = (
        parts["weeks"] * 7 * 24 * 60
        + parts["days"] * 24 * 60
        + parts["hours"] * 60
        + parts["minutes"]
        + parts["seconds"] / 60
    )
    return round(total)


def named_ref(link: hal.Link | None, *, fallback_name: str | None = None) -> NamedRef | None:
    """A link as ``{id, name}``; ``None`` for an absent or empty link."""
    if link is None:
        return None
    ref_id = id_from_href(link.href)
    if ref_id is None:
        return None
    name = link.title if link.title is not None else fallback_name
    return NamedRef(id=ref_id, name=name if name is not None else "")


def work_package_ref(link: hal.Link | None) -> WorkPackageRef | None:
    if link is None:
        return None
    ref_id = id_from_href(link.href)
    if ref_id is None:
        return None
    return WorkPackageRef(id=ref_id, subject=link.title or "")


def _required(value: Any, what: str) -> Any:
    if value is None:
        raise PayloadError(f"{what} is missing")
    return value


def page_of(collection: hal.Collection[Any], items: tuple[Any, ...], requested: PageRequest) -> Page[Any]:
    """A :class:`Page`, echoing what the server says it used and falling back to the request."""
    total = collection.total if collection.total is not None else collection.count
    return Page(
        items=items,
        total=total if total is not None else len(items),
        offset=collection.offset if collection.offset is not None else requested.offset,
        page_size=collection.page_size if collection.page_size is not None else requested.page_size,
    )


def slice_page(items: tuple[Any, ...], requested: PageRequest, total: int | None = None) -> Page[Any]:
    """A page cut client-side out of an unpaginated collection (or out of its first ``len(items)``
    elements, when the server said how many there are in all)."""
    offset = max(1, requested.offset)
    size = max(0, requested.page_size)
    start = (offset - 1) * size
    return Page(
        items=items[start : start + size], total=len(items) if total is None else total, offset=offset, page_size=size
    )


# Resources -----------------------------------------------------------------------------------


def project(resource: hal.ProjectHal) -> Project:
    return Project(
        id=resource.id,
        identifier=resource.identifier or str(resource.id),
        name=_required(resource.name, f"the name of project {resource.id}"),
        active=resource.active if resource.active is not None else True,
        public=bool(resource.public),
        description=text(resource.description),
        parent=named_ref(resource.links.parent),
        created_at=utc(resource.created_at),
        updated_at=utc(resource.updated_at),
        status=resource.links.status.title if resource.links.status else None,
        status_explanation=text(resource.status_explanation),
    )


def work_package(resource: hal.WorkPackageHal, custom_fields: tuple[tuple[str, str], ...] = ()) -> WorkPackage:
    links = resource.links
    project_ref = named_ref(links.project)
    if project_ref is None:
        raise PayloadError(f"the project of work package {resource.id} is missing")
    display_id = resource.display_id
    return WorkPackage(
        id=resource.id,
        subject=_required(resource.subject, f"the subject of work package {resource.id}"),
        type=_title(links.type),
        status=_title(links.status),
        project=project_ref,
        display_id=str(display_id) if display_id is not None and str(display_id) else None,
        description=text(resource.description),
        priority=links.priority.title if links.priority and links.priority.href else None,
        assignee=named_ref(links.assignee),
        author=named_ref(links.author),
        parent=work_package_ref(links.parent),
        children=tuple(ref for ref in (work_package_ref(link) for link in links.children or ()) if ref is not None),
        start_date=resource.start_date or resource.milestone_date,
        due_date=resource.due_date or resource.milestone_date,
        percentage_done=round(resource.percentage_done) if resource.percentage_done is not None else None,
        created_at=utc(resource.created_at),
        updated_at=utc(resource.updated_at),
        custom_fields=custom_fields,
        lock_version=resource.lock_version,
        estimated_hours=parse_hours(resource.estimated_time) if resource.estimated_time else None,
    )


def _title(link: hal.Link | None) -> str:
    return (link.title or "") if link is not None else ""


def custom_field_values(resource: Mapping[str, Any]) -> dict[str, str]:
    """``customFieldN`` values of an undecoded work package, as text, keyed ``customFieldN``.

    Scalars sit at the top level, long texts as formattables, and references to other
    resources (users, versions, list options) as links in ``_links``.
    """
    values: dict[str, str] = {}
    for key, value in resource.items():
        if _CUSTOM_FIELD.fullmatch(key) and (shown := _shown(value)) is not None:
            values[key] = shown
    links = resource.get("_links")
    if isinstance(links, Mapping):
        for key, value in links.items():
            if _CUSTOM_FIELD.fullmatch(key) and (shown := _shown_link(value)) is not None:
                values[key] = shown
    return dict(sorted(values.items(), key=lambda item: int(item[0].removeprefix("customField"))))


def _shown(value: Any) -> str | None:
    if value is None:
        return None
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int | float | str):
        return str(value)
    if isinstance(value, Mapping) and "raw" in value:
        raw = value.get("raw")
        return raw if isinstance(raw, str) and raw else None
    if isinstance(value, list):
        shown = [s for s in (_shown(v) for v in value) if s]
        return ", ".join(shown) if shown else None
    return None


def _shown_link(value: Any) -> str | None:
    if isinstance(value, list):
        shown = [s for s in (_shown_link(v) for v in value) if s]
        return ", ".join(shown) if shown else None
    if isinstance(value, Mapping) and value.get("href"):
        title = value.get("title")
        return title if isinstance(title, str) and title else last_segment(str(value["href"]))
    return None


def custom_field_names(schema: Mapping[str, Any]) -> dict[str, str]:
    """``customFieldN`` → its name, from a work package schema."""
    names: dict[str, str] = {}
    for key, value in schema.items():
        if _CUSTOM_FIELD.fullmatch(key) and isinstance(value, Mapping):
            name = value.get("name")
            if isinstance(name, str) and name:
                names[key] = name
    return names


def activity(resource: hal.ActivityHal, user_names: Mapping[int, str] | None = None) -> Activity:
    created_at = utc(resource.created_at) or utc(resource.updated_at)
    user_id = id_from_href(resource.links.user.href) if resource.links.user else None
    fallback = (user_names or {}).get(user_id) if user_id is not None else None
    return Activity(
        id=resource.id,
        version=resource.version if resource.version is not None else 0,
        created_at=_required(created_at, f"the creation time of activity {resource.id}"),
        user=named_ref(resource.links.user, fallback_name=fallback),
        comment=text(resource.comment),
        details=tuple(d.raw for d in resource.details if d.raw),
        internal=bool(resource.internal),
    )


def saved_query(resource: hal.QueryHal) -> SavedQuery:
    columns = resource.links.columns
    if not columns:
        tables = [p for p in resource.projections if p.type_ and p.type_.endswith("Table")]
        columns = next((p.links.columns for p in tables if p.links.columns), [])
    return SavedQuery(
        id=_required(resource.id, "the id of a saved query"),
        name=resource.name or "",
        public=bool(resource.public),
        starred=resource.starred,
        project=named_ref(resource.links.project),
        filters=tuple(_query_filter(f) for f in resource.filters),
        columns=tuple(c for c in (last_segment(link.href) for link in columns) if c),
        sort_by=tuple(s for s in (_sort_criterion(link) for link in resource.links.sort_by) if s),
    )


def _query_filter(resource: hal.QueryFilterHal) -> QueryFilter:
    operator = last_segment(resource.links.operator.href if resource.links.operator else None)
    if resource.values is not None:
        values = tuple(_filter_value(v) for v in resource.values if v is not None)
    else:
        values = tuple(v for v in (last_segment(link.href) or link.title for link in resource.links.values) if v)
    return QueryFilter(field=_filter_name(resource), operator=operator or "", values=values)


def _filter_name(resource: hal.QueryFilterHal) -> str:
    """The filter's API name (``status``, ``dueDate``, ``customField3``), never its translated label.

    OpenProject names it in ``_links.filter`` (``/api/v3/queries/filters/dueDate``); the instance
    schema link and the ``_type`` (``DueDateQueryFilter``) name it too. ``name`` is the label
    ("Finish date") and is the last resort.
    """
    links = resource.links
    for link in (links.filter, links.schema):
        name = last_segment(link.href if link else None)
        if name:
            return name
    kind = resource.type_ or ""
    if kind.endswith("QueryFilter") and len(kind) > len("QueryFilter"):
        stem = kind.removesuffix("QueryFilter")
        return stem[:1].lower() + stem[1:]
    return resource.name or ""


def _filter_value(value: Any) -> str:
    if isinstance(value, bool):
        return "t" if value else "f"  # OpenProject's spelling of booleans in filters
    return str(value)


def _sort_criterion(link: hal.Link) -> SortCriterion | None:
    key = last_segment(link.href)  # "updated_at-desc"
    if not key:
        return None
    attribute, _, direction = key.rpartition("-")
    if not attribute or direction not in ("asc", "desc"):
        return SortCriterion(attribute=key, direction="asc")
    return SortCriterion(attribute=attribute, direction=direction)


def work_package_type(resource: hal.TypeHal) -> WorkPackageType:
    return WorkPackageType(
        id=resource.id,
        name=_required(resource.name, f"the name of type {resource.id}"),
        is_milestone=bool(resource.is_milestone),
        is_default=resource.is_default,
        color=resource.color,
    )


def status(resource: hal.StatusHal) -> Status:
    return Status(
        id=resource.id,
        name=_required(resource.name, f"the name of status {resource.id}"),
        is_closed=bool(resource.is_closed),
        is_default=resource.is_default,
        color=resource.color,
    )


def priority(resource: hal.PriorityHal) -> Priority:
    return Priority(
        id=resource.id,
        name=_required(resource.name, f"the name of priority {resource.id}"),
        is_active=resource.is_active if resource.is_active is not None else True,
        is_default=resource.is_default,
        color=resource.color,
    )


def user(resource: hal.UserHal) -> User:
    return User(
        id=resource.id,
        name=_required(resource.name, f"the name of user {resource.id}"),
        login=resource.login,
        email=resource.email,
        status=resource.status,
    )


def meeting(resource: hal.MeetingHal) -> Meeting:
    project_ref = named_ref(resource.links.project)
    if project_ref is None:
        raise PayloadError(f"the project of meeting {resource.id} is missing")
    return Meeting(
        id=resource.id,
        title=resource.title or "",
        start_time=_required(utc(resource.start_time), f"the start time of meeting {resource.id}"),
        project=project_ref,
        end_time=utc(resource.end_time),
        duration_minutes=minutes_from_duration(resource.duration),
        location=resource.location or None,
        state=resource.state,
        author=named_ref(resource.links.author),
        created_at=utc(resource.created_at),
        updated_at=utc(resource.updated_at),
        participants=participants(resource),
    )


def participants(resource: hal.MeetingHal) -> tuple[NamedRef, ...] | None:
    """Participants from ``_links.participants`` (a list of titled links); ``None`` where absent."""
    links = resource.links.participants
    if not isinstance(links, list):
        # Absent (16.x, 17.x) or a single link to elsewhere: a shape this adapter does not guess at.
        return None
    return tuple(ref for ref in (named_ref(link) for link in links) if ref is not None)


def agenda_item(resource: hal.AgendaItemHal, outcomes: Iterable[hal.OutcomeHal] = ()) -> AgendaItem:
    work_package_link = resource.links.work_package
    title = resource.title or (work_package_link.title if work_package_link else None) or ""
    return AgendaItem(
        id=resource.id,
        title=title,
        position=resource.position if resource.position is not None else 0,
        notes=text(resource.notes),
        duration_in_minutes=resource.duration_in_minutes,
        work_package=work_package_ref(work_package_link),
        outcomes=tuple(t for t in (text(o.notes) for o in outcomes) if t),
    )


def wiki_page(resource: hal.WikiPageHal, *, project_fallback: NamedRef | None = None) -> WikiPage:
    project_ref = named_ref(resource.links.project) or project_fallback
    if project_ref is None:
        raise PayloadError(f"the project of wiki page {resource.id} is missing")
    return WikiPage(
        id=resource.id,
        title=resource.title or "",
        project=project_ref,
        text=text(resource.text),
        updated_at=utc(resource.updated_at),
    )


def attachment(resource: hal.AttachmentHal, absolute: Callable[[str], str]) -> Attachment:
    """An attachment whose link is the instance's content path, never ``downloadLocation``.

    With external storage OpenProject renders ``downloadLocation`` as the storage's pre-signed
    URL, which lets anyone holding it read the file: a credential, kept out of every result. The
    content path (``staticDownloadLocation``, the same as ``downloadLocation`` on local storage)
    needs the caller's own token. Versions without ``staticDownloadLocation`` get the path built
    from the id, which is the endpoint every supported version serves.
    """
    location = resource.links.static_download_location
    href = location.href if location and location.href and _is_content_path(location.href) else None
    size = resource.file_size if resource.file_size is not None else resource.legacy_file_size
    return Attachment(
        id=resource.id,
        file_name=_required(resource.file_name, f"the file name of attachment {resource.id}"),
        file_size=size if size is not None else 0,
        content_type=resource.content_type or "application/octet-stream",
        download_url=absolute(href or f"api/v3/attachments/{resource.id}/content"),
    )


def _is_content_path(href: str) -> bool:
    """A relative ``.../api/v3/attachments/{id}/content`` path with no query: nothing signed in it."""
    return href.startswith("/") and not href.startswith("//") and "?" not in href and href.endswith("/content")


def wiki_page_link(resource: hal.WikiPageLinkHal) -> WikiPageLink:
    """A link in the 17.6 shape. Which page of OpenProject's own wiki it points at is not known
    here (the identifier of that provider is the page id, but nothing in the payload says which
    provider is OpenProject's own): the application resolves that."""
    provider = resource.links.provider
    provider_id = last_segment(provider.href) if provider else None
    linkable = resource.links.linkable
    linkable_id = id_from_href(linkable.href) if linkable else None
    return WikiPageLink(
        id=resource.id,
        identifier=resource.identifier,
        provider=(provider.title if provider else None) or provider_id,
        provider_id=provider_id,
        link_type=_urn_tail(resource.wiki_page_link_type),
        work_package=WorkPackageRef(linkable_id, (linkable.title if linkable else None) or "")
        if linkable_id is not None
        else None,
    )


def _urn_tail(urn: str | None) -> str | None:
    """``urn:openproject-org:api:v3:wikiPageLinks:Relation`` -> ``relation``."""
    if not urn:
        return None
    return urn.rsplit(":", 1)[-1].lower() or None


def time_entry(resource: hal.TimeEntryHal) -> TimeEntry:
    links = resource.links
    project_ref = named_ref(links.project)
    hours = parse_hours(resource.hours) if resource.hours is not None else None
    entity = links.entity if links.entity is not None and links.entity.href else links.work_package
    on_work_package = entity is not None and "/work_packages/" in (entity.href or "")
    return TimeEntry(
        id=resource.id,
        hours=_required(hours, f"the hours of time entry {resource.id}"),
        spent_on=_required(resource.spent_on, f"the date of time entry {resource.id}"),
        project=_required(project_ref, f"the project of time entry {resource.id}"),
        user=named_ref(links.user),
        activity=named_ref(links.activity),
        work_package=work_package_ref(entity) if on_work_package else None,
        comment=text(resource.comment),
        created_at=utc(resource.created_at),
    )
