"""``GET /api/v3/meetings`` as each profile's ``MeetingQuery`` validates and answers it.

What a real instance refuses is refused here with the answer it gives: HTTP 400, errorIdentifier
``InvalidQuery`` (``MultipleErrors`` when there are several), and the English message OpenProject
builds from ``"<attribute> <message>"`` (opf/openproject@074fd87:app/models/queries/base_query.rb
``filters_valid``/``sortation_valid``; texts from @4911b8a:config/locales/en.yml and the meeting
module's locale, @00f371c:modules/meeting/config/locales/en.yml, where the time filter is named after
``start_time``, "Start time"). The message texts are those recorded in docs/openproject-versions.md
("Error answers").
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from datetime import datetime, timedelta

from openproject_mcp.adapters.fixture.meeting_repository import searchable_text
from openproject_mcp.adapters.fixture.text import contains_every_word, fold_case
from openproject_mcp.domain.entities import Meeting
from openproject_mcp.domain.queries import Filter, SortKey
from tests.support.fake_openproject.errors import ApiError, invalid_query
from tests.support.fake_openproject.profiles import Profile
from tests.support.fake_openproject.tenant import Tenant

MULTIPLE_ERRORS = "Multiple field constraints have been violated."
"""``MultipleErrors`` (@4911b8a:lib/api/root_api.rb ``raise_query_errors``, one error per message)."""

TIME_NAME = "Start time"
"""The time filter's human name: the meeting's ``start_time`` (@00f371c:modules/meeting/config/locales/en.yml)."""

# Humanised attribute names as OpenProject's translations give them (``id`` → "ID").
_NAMES = {"id": "ID", "startTime": "Start time", "projectName": "Project name"}

Predicate = Callable[[Meeting], bool]


def human(api_name: str) -> str:
    """``startTime`` → "Start time", ``foo_bar`` → "Foo bar" (Rails' ``humanize`` of the snake name)."""
    if api_name in _NAMES:
        return _NAMES[api_name]
    snake = re.sub(r"(?<=[a-z0-9])(?=[A-Z])", "_", api_name).lower()
    return snake.replace("_", " ").strip().capitalize()


def meetings_for(
    profile: Profile,
    tenant: Tenant,
    filters: Sequence[Filter],
    sort_by: Sequence[SortKey],
    now: datetime,
) -> list[Meeting]:
    """The meetings a request selects, in its order; :class:`ApiError` (400) for what the profile refuses."""
    errors: list[str] = []
    predicates: list[Predicate] = []
    for f in filters:
        predicate = _filter(profile, tenant, f, now, errors)
        if predicate is not None:
            predicates.append(predicate)
    for key in sort_by:
        # An unregistered order is a NotExistingOrder, never valid (@40b2bbe:app/models/queries/orders/
        # not_existing_order.rb; @054197f:app/models/queries/orders/available_orders.rb).
        # Names are underscored before the orders are looked up (S59): `start_time` is `startTime`.
        if _underscored(key.attribute) not in {_underscored(k) for k in profile.meeting_sort_keys}:
            errors.append(f"Orders {human(key.attribute)} does not exist.")
    if len(errors) == 1:
        raise invalid_query(errors[0])
    if errors:
        raise ApiError(400, "MultipleErrors", MULTIPLE_ERRORS)
    found = [m for m in tenant.dataset.meetings.values() if all(p(m) for p in predicates)]
    found.sort(key=lambda m: m.id)  # without an order: ascending id
    for key in reversed(sort_by):  # stable sorts, last key first
        reverse = key.direction == "desc"
        if _underscored(key.attribute) == "id":
            found.sort(key=lambda m: m.id, reverse=reverse)
        else:
            found.sort(key=lambda m: m.start_time, reverse=reverse)
    return found


def _underscored(api_name: str) -> str:
    """``startTime`` → ``start_time``, as OpenProject's property name conversion reads a name."""
    return re.sub(r"(?<=[a-z0-9])(?=[A-Z])", "_", api_name).lower()


def _filter(profile: Profile, tenant: Tenant, f: Filter, now: datetime, errors: list[str]) -> Predicate | None:
    if f.name == "project":
        if f.operator not in ("=", "!") or not f.values:
            errors.append("Filters Project filter has invalid values.")
            return None
        wanted = set(f.values)
        keep = f.operator == "="
        return lambda m: (str(m.project.id) in wanted) is keep
    if f.name == "time":
        return _time(profile, f, now, errors)
    if f.name == "search" and profile.meeting_search_filter:
        # Branch-only filter (@b358596:modules/meeting/app/models/queries/meetings/filters/search_filter.rb);
        # no profile plays it, kept for a profile variant.
        words = tuple(fold_case(" ".join(f.values)).split())
        texts = {
            meeting_id: searchable_text(meeting, tenant.dataset.meeting_details[meeting_id])
            for meeting_id, meeting in tenant.dataset.meetings.items()
        }
        return lambda m: contains_every_word(texts[m.id], words)
    if f.name == "title" and profile.meeting_title_filter:
        # `type :text`: `~` and `!~` (@899685:modules/meeting/app/models/queries/meetings/filters/title_filter.rb).
        if f.operator not in ("~", "!~") or len(f.values) != 1:
            errors.append("Filters Title filter has invalid values.")
            return None
        needle = fold_case(f.values[0])
        keep = f.operator == "~"
        return lambda m: (needle in fold_case(m.title)) is keep
    # An unregistered filter name (the spec's own example: "Filters Invalid filter does not exist.").
    errors.append(f"Filters {human(f.name)} filter does not exist.")
    return None


def _time(profile: Profile, f: Filter, now: datetime, errors: list[str]) -> Predicate | None:
    # Both forms: past is `start_time < now`; upcoming (`future`) is a meeting not yet over,
    # `start_time + duration > now` in the list form, `>= now` in the operator form, so a meeting
    # under way is in both (@4911b8a and the operator form's time_filter.rb, as cited above).
    operator_form = profile.meeting_time_filter != "list"

    def upcoming(meeting: Meeting) -> bool:
        end = meeting.end_time or meeting.start_time + timedelta(minutes=meeting.duration_minutes or 0)
        return end >= now if operator_form else end > now

    def past(meeting: Meeting) -> bool:
        return meeting.start_time < now

    if profile.meeting_time_filter == "list":
        # `type :list`, `available_operators [Equals]`, one value of PAST_VALUE/FUTURE_VALUE
        # (@4911b8a:modules/meeting/app/models/queries/meetings/filters/time_filter.rb); values outside
        # the allowed ones are an `inclusion` error (@2dcdc17:app/models/queries/filters/strategies/list.rb).
        if f.operator != "=":
            errors.append(f"Filters {TIME_NAME} is not set to one of the allowed values. and is invalid.")
            return None
        if len(f.values) != 1 or f.values[0] not in ("past", "future"):
            errors.append(f"Filters {TIME_NAME} filter has invalid values.")
            return None
        return upcoming if f.values[0] == "future" else past
    # Operators Upcoming/Past, no value (@a27f373:.../meetings/filters/time_filter.rb;
    # @899685:app/models/queries/operators/upcoming.rb and past.rb); `=` is not among them.
    if f.operator not in ("upcoming", "past"):
        errors.append(f"Filters {TIME_NAME} is not set to one of the allowed values.")
        return None
    return upcoming if f.operator == "upcoming" else past
