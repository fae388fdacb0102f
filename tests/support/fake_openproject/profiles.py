"""What each simulated OpenProject version does, one profile per distinct behaviour set.

Every attribute maps to one key of the version truth table in ``docs/openproject-versions.md``
(the table between ``<!-- truth-table:begin -->`` and ``<!-- truth-table:end -->``), and each value
below carries the source it was read from: ``opf/openproject@<sha>:<path>`` (short shas; the full
ones are in the sources table of that document). Where OpenProject's source does not settle a
cell, the comment says "unsettled" and names the candidate this profile plays; the adapter must
work with every candidate, and the fake plays one of them.

Profiles, named by the version whose column each matches exactly:

- ``16.6``;
- ``17.3``;
- ``17.5``, also played for datasets and callers saying ``17.4``;
- ``17.8``, also played for ``17.6`` and ``17.7``;
- ``18.0`` (the mainline development state of 18.0, not the unmerged feature branches).

Version anchors: ``@4911b8a`` is 14.4.0, ``@deedf43`` 17.6.0-dev (after 17.5 was branched),
``@0eb0eeb`` 17.7.0-dev, ``@a27f373`` 18.0.0-dev (``lib/open_project/version.rb`` at each).
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Literal

TimeFilterForm = Literal["list", "operator"]
DurationForm = Literal["hours", "iso8601"]

NO_MEETING_SORT_KEYS: frozenset[str] = frozenset()
"""14.4 registers no order at all (``@4911b8a:modules/meeting/app/models/queries/meetings.rb``): every
sort key answers 400. A candidate for 16.6–17.8, whose ``meetings.rb`` is not anchored."""

MEETING_SORT_KEYS = frozenset({"id", "startTime"})
"""``Orders::DefaultOrder`` ``/\\A(id|start_time)\\z/`` (``@45b991b:modules/meeting/app/models/queries/
meetings/orders/default_order.rb``), registered by ``@a27f373:.../queries/meetings.rb`` (18.0-dev); the
other candidate for 16.6–17.8."""

PRINCIPAL_STATUS_NUMBERS = frozenset({"1", "2", "3", "4"})
"""The principals ``status`` filter allows ``Principal.statuses`` values, integers
(``@cef85bf:app/models/queries/principals/filters/status_filter.rb``; ``@2032541`` the same with
``Principal::STATUSES``); the 17.3 spec: "status number (active = 1, registered = 2, locked = 3,
invited = 4)" (``openproject-apiv3-17.3-stable.bundled.json#/paths/~1api~1v3~1principals/get``)."""

USER_STATUS_NAMES = frozenset({"active", "registered", "locked", "invited"})
"""The users ``status`` filter (``@1a58f38:app/models/queries/users/filters/status_filter.rb``) uses
``Shared::UserStatusFilter``, whose allowed values are the status *names*
(``@054197f:app/models/queries/filters/shared/user_status_filter.rb``)."""


@dataclass(frozen=True, slots=True)
class Profile:
    """One OpenProject behaviour set as the fake server plays it.

    Attribute names are those of ``docs/openproject-versions.md``'s truth table keys (see the
    key/attribute table of its format); the table is checked against these profiles by a test.
    """

    name: str
    core_version: str
    """What the root's ``coreVersion`` says (to administrators only)."""

    # meetings.* ------------------------------------------------------------------------------
    meeting_list: bool
    """``meetings.list``: ``GET /api/v3/meetings`` (collection). ``GET /api/v3/meetings/{id}`` always exists."""
    meeting_time_filter: TimeFilterForm
    """``meetings.time_filter``: ``list`` = ``{"time": {"operator": "=", "values": ["past"|"future"]}}``;
    ``operator`` = ``{"time": {"operator": "upcoming"|"past", "values": []}}``. The other form is 400."""
    meeting_sort_keys: frozenset[str]
    """``meetings.sort_keys``: the sort keys the meetings query registers (API names); any other is 400."""
    meeting_search_filter: bool
    """``meetings.search_filter``: the ``search`` (``**``) filter; otherwise 400 InvalidQuery."""
    meeting_title_filter: bool
    """``meetings.title_filter``: the ``title`` (``~``, ``!~``) filter; otherwise 400 InvalidQuery."""
    meeting_participants: bool
    """``meetings.participants``: ``_links.participants`` (titled user links) and ``_embedded.participants``."""
    meeting_state: bool
    """``meetings.state``: a ``state`` property on a meeting."""
    meeting_duration: DurationForm
    """``meetings.duration``: ``hours`` (a number, 1.5) or ``iso8601`` (``PT1H30M``)."""

    # agenda_items.* and meeting_outcomes.* ----------------------------------------------------
    agenda_items: bool
    """``agenda_items.list``: ``GET /api/v3/meetings/{id}/agenda_items`` (and ``/meeting_agenda_items/{id}``)."""
    agenda_backlog: bool
    """``agenda_items.backlog``: that collection also holds the meeting's backlog items, told apart by
    ``_links.section`` (the backlog section)."""
    outcomes_embedded: bool
    """``agenda_items.outcomes_embedded``: agenda items carry ``_links.outcomes`` and ``_embedded.outcomes``."""
    meeting_outcomes_endpoint: bool
    """``meeting_outcomes.flat``: ``GET /api/v3/meeting_outcomes/{id}``."""

    # wiki_pages.* and wiki_page_links.* -------------------------------------------------------
    wiki_page_list: bool
    """``wiki_pages.list``: any APIv3 list of wiki pages (``/projects/{id}/wiki_pages``)."""
    wiki_bodies: bool
    """``wiki_pages.text``: a wiki page's ``text`` (formattable) in APIv3."""
    wiki_page_links: bool
    """``wiki_page_links.work_package``: ``GET /api/v3/work_packages/{id}/wiki_page_links``."""
    wiki_page_links_global: bool
    """``wiki_page_links.global``: ``GET /api/v3/wiki_page_links`` with filters."""

    # work_packages.* --------------------------------------------------------------------------
    display_ids: bool
    """``work_packages.display_id``: a ``displayId`` property (a string)."""
    display_id_lookup: bool
    """``work_packages.display_id_lookup``: ``GET /api/v3/work_packages/PROJ-42`` resolves it (else 400)."""

    # time_entries.* ---------------------------------------------------------------------------
    time_entry_entity: bool
    """``time_entries.entity``: a time entry links its work package as ``_links.entity`` and the list
    filters ``entity_type``/``entity_id``; otherwise ``_links.workPackage`` and the ``work_package``
    filter (``entity_*`` is 400 InvalidQuery)."""

    # principals.* and users.* -----------------------------------------------------------------
    principal_status_values: frozenset[str]
    """``principals.status_values``: what the principals ``status`` filter accepts; others are 400."""
    user_status_values: frozenset[str]
    """``users.status_values``: what the users ``status`` filter accepts; others are 400."""

    # Names the renderer and the routes used before the truth table; kept as derived views.
    @property
    def iso_duration(self) -> bool:
        """A meeting's ``duration`` is ISO 8601 (``PT1H30M``) instead of a number of hours."""
        return self.meeting_duration == "iso8601"


PROFILES: dict[str, Profile] = {
    "16.6": Profile(
        name="16.6",
        core_version="16.6.0",
        # The collection is mounted since 14.4: `Endpoints::Index.new(model: Meeting)`
        # (@4911b8a:modules/meeting/lib/api/v3/meetings/meetings_api.rb).
        meeting_list=True,
        # Unsettled (list or operator; first release of the operator form unknown). Plays `list`, the
        # 14.4 form: `type :list`, `available_operators [Equals]`, PAST_VALUE/FUTURE_VALUE
        # (@4911b8a:modules/meeting/app/models/queries/meetings/filters/time_filter.rb, same at @213c6a7).
        meeting_time_filter="list",
        # Unsettled ({id startTime} or {}; the 16.x meetings.rb is not anchored). Plays {}, the 14.4 state
        # (@4911b8a:.../queries/meetings.rb registers no order), so a profile exercises "no sort key at all".
        meeting_sort_keys=NO_MEETING_SORT_KEYS,
        # No `search` filter in any mainline meetings.rb; only in branch snapshots
        # (@b358596/@0502584:.../meetings/filters/search_filter.rb); not in @a27f373:.../queries/meetings.rb.
        meeting_search_filter=False,
        # Filters at @4911b8a and @ed2db48: Project, Time, AttendedUser, InvitedUser, Author,
        # DatesInterval (@4911b8a:modules/meeting/app/models/queries/meetings.rb): no `title`.
        meeting_title_filter=False,
        # Absent from the 14.4 representer (@4911b8a:modules/meeting/lib/api/v3/meetings/meeting_representer.rb)
        # and from the 17.3 spec's MeetingModel; first seen at @deedf43 (17.6-dev).
        meeting_participants=False,
        # Not rendered at 14.4 (@4911b8a:.../meeting_representer.rb); first with the 17.4 API.
        meeting_state=False,
        # 14.4 renders the raw `duration` in hours (@4911b8a:.../meeting_representer.rb).
        meeting_duration="hours",
        # Agenda items arrived with the 17.4 "Meetings and recurring meetings APIv3 endpoints … agenda
        # items, sections, and occurrences" (@deedf43:docs/release-notes/17-4-0/README.md).
        agenda_items=False,
        agenda_backlog=False,
        outcomes_embedded=False,
        # "API for Meeting outcomes #75393" is a 17.6 feature (@0170877:docs/release-notes/17-6-0/README.md).
        meeting_outcomes_endpoint=False,
        # No released version has a wiki page list or text in APIv3: the 18.0-dev spec lists only
        # /wiki_pages/{id} and its attachments (@017d121:docs/api/apiv3/openapi-spec.yml); the list and
        # `text` exist only in branch snapshots (@019c40c:lib/api/v3/wiki_pages/nested_apis.rb,
        # @f41e639:lib/api/v3/wiki_pages/wiki_page_representer.rb).
        wiki_page_list=False,
        wiki_bodies=False,
        # Wiki page links are a 17.6 feature ("Create API for wiki page links #73293",
        # @0170877:docs/release-notes/17-6-0/README.md); not in the 17.5 notes (@0eb0eeb).
        wiki_page_links=False,
        wiki_page_links_global=False,
        # `displayId` arrived in 17.4 (@deedf43:docs/release-notes/17-4-0/README.md); the integer route
        # (`route_param :id, type: Integer`, @02d503f:lib/api/v3/work_packages/work_packages_api.rb)
        # answers a semantic id with 400 (@0fb0de6:lib/api/root_api.rb maps Grape validation errors).
        display_ids=False,
        display_id_lookup=False,
        # Unsettled (yes or no): 14.4 links `work_package` (@4911b8a:modules/costs/lib/api/v3/time_entries/
        # time_entry_representer.rb), the 17.3 spec `entity`. Plays "no", so the adapter's fallback is exercised.
        time_entry_entity=False,
        principal_status_values=PRINCIPAL_STATUS_NUMBERS,  # @cef85bf / @2032541, see the constant
        user_status_values=USER_STATUS_NAMES,  # @1a58f38 / @054197f, see the constant
    ),
    "17.3": Profile(
        name="17.3",
        core_version="17.3.0",
        meeting_list=True,  # mounted since 14.4 (@4911b8a:modules/meeting/lib/api/v3/meetings/meetings_api.rb)
        # Unsettled (list or operator). Plays `list` (@4911b8a/@213c6a7:.../meetings/filters/time_filter.rb).
        meeting_time_filter="list",
        # Unsettled ({id startTime} or {}). Plays {id startTime} (@45b991b:.../orders/default_order.rb).
        meeting_sort_keys=MEETING_SORT_KEYS,
        meeting_search_filter=False,  # branch only (@b358596/@0502584), not mainline (@a27f373)
        # Unsettled (title filter first seen at @899685:.../meetings/filters/title_filter.rb, 18.0-dev).
        # Plays "no", the @4911b8a/@ed2db48 filter set.
        meeting_title_filter=False,
        # The bundled 17.3 spec has no meeting participants nor agenda-item endpoints
        # (openproject-apiv3-17.3-stable.bundled.json#/paths); they came with 17.4 (@deedf43 17.4 notes).
        meeting_participants=False,
        meeting_state=False,  # 17.4 API (@deedf43:docs/release-notes/17-4-0/README.md)
        # A number of hours in the 17.3 spec (openproject-apiv3-17.3-stable.bundled.json#/components/schemas/
        # MeetingModel), as the 14.4 representer renders it (@4911b8a:.../meetings/meeting_representer.rb).
        meeting_duration="hours",
        agenda_items=False,  # 17.4 (@deedf43:docs/release-notes/17-4-0/README.md)
        agenda_backlog=False,
        outcomes_embedded=False,
        meeting_outcomes_endpoint=False,  # 17.6 (@0170877:docs/release-notes/17-6-0/README.md, #75393)
        wiki_page_list=False,  # not released (@017d121:docs/api/apiv3/openapi-spec.yml)
        wiki_bodies=False,  # not released (@017d121; branch @f41e639 only)
        wiki_page_links=False,  # 17.6 (@0170877, #73293)
        wiki_page_links_global=False,  # 17.6 (@7522e89:modules/wikis/lib/api/v3/page_links/page_links_api.rb)
        display_ids=False,  # 17.4 (@deedf43:docs/release-notes/17-4-0/README.md)
        display_id_lookup=False,  # 17.5 (@0eb0eeb:docs/release-notes/17-5-0/README.md)
        # `_links.entity` and the entity_type/entity_id filters (17.3 spec: TimeEntryModel, GET /api/v3/time_entries).
        time_entry_entity=True,
        principal_status_values=PRINCIPAL_STATUS_NUMBERS,  # @cef85bf; the 17.3 spec's "status number"
        user_status_values=USER_STATUS_NAMES,  # @1a58f38 / @054197f
    ),
    "17.5": Profile(
        name="17.5",
        core_version="17.5.0",
        meeting_list=True,  # since 14.4 (@4911b8a:.../meetings/meetings_api.rb)
        # Unsettled (list or operator). Plays `operator`, the likeliest boundary: the 17.5 notes add the
        # upcoming/past filter to the meetings page (#74743, @0eb0eeb:docs/release-notes/17-5-0/README.md);
        # operator form at @a27f373:.../meetings/filters/time_filter.rb.
        meeting_time_filter="operator",
        # Unsettled ({id startTime} or {}). Plays {id startTime} (@45b991b:.../orders/default_order.rb).
        meeting_sort_keys=MEETING_SORT_KEYS,
        meeting_search_filter=False,  # branch only (@b358596/@0502584)
        # Unsettled (@899685:.../filters/title_filter.rb is 18.0-dev). Plays "no".
        meeting_title_filter=False,
        # `associated_resources :users, as: :participants` at @deedf43 (17.6-dev, branched after 17.5)
        # (@deedf43:modules/meeting/lib/api/v3/meetings/meeting_representer.rb); the 17.6 notes fix
        # `_links.participants` bugs (#75696, #75697, #75701, @0170877), so it shipped in 17.4/17.5.
        meeting_participants=True,
        # The 17.6 notes fix "Not possible to switch meeting status to 'closed' in API" (#76100,
        # @0170877): `state` was already in the 17.4/17.5 API (@deedf43:.../meeting_representer.rb).
        meeting_state=True,
        # `format_duration_from_hours` at @deedf43:.../meeting_representer.rb (branched after 17.5).
        # Unsettled for 17.4/17.5 (hours or iso8601); plays `iso8601`.
        meeting_duration="iso8601",
        # "Meetings and recurring meetings APIv3 endpoints … agenda items, sections" (@deedf43 17.4 notes);
        # GET /meetings/{id}/agenda_items (@79ec939:.../agenda_items_by_meeting_api.rb).
        agenda_items=True,
        # The collection is every item of the meeting's own sections, a one-time meeting's backlog section
        # included (@79ec939:.../agenda_items_by_meeting_api.rb); the 17.6 fixes only add a series'
        # backlog (#76101, @0170877). Sections carry `backlog` (@9610091:.../meeting_section_representer.rb).
        agenda_backlog=True,
        # Unsettled (yes or no; `embed_links: %i[section outcomes]` is seen at @f9bd779/@899685, newer).
        # Plays "no": the outcomes API is a 17.6 feature (#75393, @0170877).
        outcomes_embedded=False,
        meeting_outcomes_endpoint=False,  # 17.6 (@0170877:docs/release-notes/17-6-0/README.md, #75393)
        wiki_page_list=False,  # not released (@017d121:docs/api/apiv3/openapi-spec.yml)
        wiki_bodies=False,  # not released (@017d121; branch @f41e639 only)
        wiki_page_links=False,  # 17.6 (@0170877, #73293); not in the 17.5 notes (@0eb0eeb)
        wiki_page_links_global=False,  # 17.6 (@7522e89:.../page_links/page_links_api.rb)
        # "the API V3 exposes a dedicated field, `displayId`" (@deedf43:docs/release-notes/17-4-0/README.md);
        # always a string (@9610091:lib/api/v3/work_packages/work_package_representer.rb).
        display_ids=True,
        # 17.5 "project-based IDs … supported across … URLs … APIs" (@0eb0eeb:docs/release-notes/17-5-0/
        # README.md); `route_param :id, type: String` (@911eb98:lib/api/v3/work_packages/work_packages_api.rb).
        # A 17.4 instance (played by this profile) is integer-only: unsettled there, plays "yes".
        display_id_lookup=True,
        # @79ec939:modules/costs/lib/api/v3/time_entries/entity_representer_factory.rb; the 17.3 spec.
        time_entry_entity=True,
        principal_status_values=PRINCIPAL_STATUS_NUMBERS,  # @cef85bf / @2032541
        user_status_values=USER_STATUS_NAMES,  # @1a58f38 / @054197f
    ),
    "17.8": Profile(
        name="17.8",
        core_version="17.8.0",
        meeting_list=True,  # since 14.4 (@4911b8a:.../meetings/meetings_api.rb)
        # Unsettled (list or operator). Plays `operator` (@a27f373:.../meetings/filters/time_filter.rb; the
        # meetings page defaults to it in older-header code, @28b264c:.../concerns/meetings/query_loading.rb).
        meeting_time_filter="operator",
        # Unsettled ({id startTime} or {}). Plays {id startTime} (@45b991b:.../orders/default_order.rb).
        meeting_sort_keys=MEETING_SORT_KEYS,
        meeting_search_filter=False,  # branch only (@b358596/@0502584), not @a27f373
        # Unsettled (@899685:.../filters/title_filter.rb is 18.0-dev). Plays "no".
        meeting_title_filter=False,
        meeting_participants=True,  # @deedf43/@9610091/@0eb0eeb:.../meeting_representer.rb; 17.6 fixes (@0170877)
        meeting_state=True,  # @deedf43:.../meeting_representer.rb
        meeting_duration="iso8601",  # `format_duration_from_hours` (@deedf43/@0eb0eeb:.../meeting_representer.rb)
        agenda_items=True,  # 17.4 (@deedf43 notes); @79ec939:.../agenda_items_by_meeting_api.rb
        # "Backlog items are not shown in agenda_items response" fixed in 17.6 (@0170877); the collection
        # adds the backlog section's items (file version 54737762499 of agenda_items_by_meeting_api.rb).
        agenda_backlog=True,
        # `embed_links: %i[section outcomes]` (@f9bd779/@899685:.../meeting_agenda_item_collection_representer.rb).
        outcomes_embedded=True,
        # "API for Meeting outcomes #75393" (@0170877); /api/v3/meeting_outcomes/{id} in
        # @017d121:docs/api/apiv3/openapi-spec.yml.
        meeting_outcomes_endpoint=True,
        wiki_page_list=False,  # not released (@017d121:docs/api/apiv3/openapi-spec.yml; 17.6–17.8 notes)
        wiki_bodies=False,  # not released (@017d121; branch @f41e639 only)
        # "Create API for wiki page links #73293" (@0170877); mounted unconditionally
        # (@0502584:modules/wikis/lib/open_project/wikis/engine.rb); handler
        # @911eb98:modules/wikis/lib/api/v3/page_links/work_package_wiki_page_links_api.rb.
        wiki_page_links=True,
        # @7522e89:modules/wikis/lib/api/v3/page_links/page_links_api.rb (filters provider, identifier,
        # wiki_page_link_type; @25b1377:.../page_links_api_spec.rb).
        wiki_page_links_global=True,
        display_ids=True,  # 17.4 (@deedf43 notes); @9610091:.../work_package_representer.rb
        display_id_lookup=True,  # 17.5 (@0eb0eeb notes); @911eb98:.../work_packages_api.rb
        # @79ec939:.../time_entries/entity_representer_factory.rb; the 17.3 spec.
        time_entry_entity=True,
        principal_status_values=PRINCIPAL_STATUS_NUMBERS,  # @cef85bf / @2032541
        user_status_values=USER_STATUS_NAMES,  # @1a58f38 / @054197f
    ),
    "18.0": Profile(
        name="18.0",
        core_version="18.0.0",
        meeting_list=True,  # @a27f373:modules/meeting/lib/api/v3/meetings/meetings_api.rb (since 14.4)
        # `available_operators [Upcoming, Past]`, `default_operator Upcoming`, `required? true`
        # (@a27f373:.../meetings/filters/time_filter.rb, same at @45b991b); the operators need no value
        # (@899685:app/models/queries/operators/upcoming.rb, .../past.rb).
        meeting_time_filter="operator",
        meeting_sort_keys=MEETING_SORT_KEYS,  # @45b991b:.../orders/default_order.rb, see the constant
        # @a27f373:modules/meeting/app/models/queries/meetings.rb registers project, time, attended_user,
        # invited_user, author, dates_interval, recurring, title, state: no `search`.
        meeting_search_filter=False,
        meeting_title_filter=True,  # @a27f373:.../queries/meetings.rb; @899685:.../filters/title_filter.rb
        meeting_participants=True,  # @45b991b:.../meeting_representer.rb
        meeting_state=True,  # @45b991b:.../meeting_representer.rb; `state` filter at @a27f373
        meeting_duration="iso8601",  # @45b991b:.../meeting_representer.rb
        agenda_items=True,  # @899685:.../meeting_agenda_item_collection_representer.rb
        agenda_backlog=True,  # since 17.6 (@0170877); file version 54737762499
        outcomes_embedded=True,  # @899685/@f9bd779: `embed_links: %i[section outcomes]`
        meeting_outcomes_endpoint=True,  # @017d121:docs/api/apiv3/openapi-spec.yml
        # The mainline 18.0-dev spec has no wiki list and no page text (@017d121:docs/api/apiv3/openapi-spec.yml);
        # nor does the 18.0 draft release note (@bd3607f:docs/release-notes/18-0-0/README.md).
        wiki_page_list=False,
        wiki_bodies=False,
        wiki_page_links=True,  # @a27f373:.../page_links/page_link_representer.rb; 17.6 (@0170877)
        wiki_page_links_global=True,  # @7522e89:.../page_links/page_links_api.rb
        display_ids=True,  # @9610091:lib/api/v3/work_packages/work_package_representer.rb
        display_id_lookup=True,  # @911eb98:lib/api/v3/work_packages/work_packages_api.rb
        # @79ec939:.../time_entries/entity_representer_factory.rb; the 17.3 spec.
        time_entry_entity=True,
        principal_status_values=PRINCIPAL_STATUS_NUMBERS,  # @cef85bf / @2032541
        user_status_values=USER_STATUS_NAMES,  # @1a58f38 / @054197f
    ),
}

PROFILE_FOR_VERSION: dict[str, str] = {
    "16.6": "16.6",
    "17.3": "17.3",
    "17.4": "17.5",
    "17.5": "17.5",
    "17.6": "17.8",
    "17.7": "17.8",
    "17.8": "17.8",
    "18.0": "18.0",
}
"""Which profile plays each version a dataset (``instance.version``) or a test may name."""


PLAYED_DIFFERENCES: dict[str, dict[str, object]] = {
    # 17.4 has display ids but still takes only the numeric id in the path; 17.5 resolves PROJ-42
    # (docs/openproject-versions.md, "Display ids": S19, S20, S41).
    "17.4": {"display_id_lookup": False},
}
"""Where a version played by another version's profile does otherwise, what it does."""


def profile_named(name: str) -> Profile:
    """The profile for a version: one of ``PROFILE_FOR_VERSION``. A version played by another
    version's profile (17.4, 17.6, 17.7) reports its own ``coreVersion`` and keeps its own
    differences (``PLAYED_DIFFERENCES``)."""
    try:
        profile = PROFILES[PROFILE_FOR_VERSION[name]]
    except KeyError:
        raise ValueError(f"unknown profile {name!r}; known: {', '.join(PROFILE_FOR_VERSION)}") from None
    if profile.name == name:
        return profile
    return replace(profile, core_version=f"{name}.0", **PLAYED_DIFFERENCES.get(name, {}))  # type: ignore[arg-type]
