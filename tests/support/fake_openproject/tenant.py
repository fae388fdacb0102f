"""What one API token sees: its dataset, the in-memory repositories over it, and derived indexes.

The repositories are the fixture backend's own, so the fake server filters, sorts and pages
exactly as the fixture backend does; this module only adds what HAL rendering needs on top
(synthetic ids for meeting outcomes, indexes from agenda items and activities back to their owners).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime

from openproject_mcp.adapters.fixture import (
    Dataset,
    InMemoryMeetingRepository,
    InMemoryMetadataRepository,
    InMemoryProjectRepository,
    InMemoryQueryRepository,
    InMemoryWikiPageLinkRepository,
    InMemoryWikiPageRepository,
    InMemoryWorkPackageRepository,
)
from openproject_mcp.adapters.fixture.instance_repository import acting_user as _acting_user
from openproject_mcp.adapters.fixture.write_repositories import DatasetWriter
from openproject_mcp.domain.entities import Activity, AgendaItem, Meeting, User

OUTCOME_IDS_PER_ITEM = 1000
"""The dataset gives outcomes no ids: outcome ``i`` (0-based) of agenda item ``a`` is ``a * 1000 + i + 1``."""


@dataclass(frozen=True, slots=True)
class OutcomeRef:
    id: int
    meeting: Meeting
    item: AgendaItem
    notes: str


def outcome_id(item: AgendaItem, index: int) -> int:
    return item.id * OUTCOME_IDS_PER_ITEM + index + 1


def current_user_of(dataset: Dataset) -> User | None:
    """Whom the token belongs to: the user the in-memory backend acts as (the first active one)."""
    return _acting_user(dataset)


class Tenant:
    """One token's view of the instance."""

    def __init__(self, token: str, dataset: Dataset, *, admin: bool, now: Callable[[], datetime] | None = None) -> None:
        self.token = token
        # The tenant's own copy: its writes change what its later reads return, and nothing else.
        self.dataset = dataset = dataset.writable_copy()
        self.writer = DatasetWriter(dataset)
        self.admin = admin
        self.current_user = current_user_of(dataset)
        current_id = self.current_user.id if self.current_user else None
        self.projects = InMemoryProjectRepository(dataset)
        self.work_packages = InMemoryWorkPackageRepository(dataset, current_user_id=current_id)
        self.queries = InMemoryQueryRepository(dataset, current_user_id=current_id)
        self.metadata = InMemoryMetadataRepository(dataset)
        self.now: Callable[[], datetime] = now or (lambda: datetime.now(UTC))
        self.meetings = InMemoryMeetingRepository(dataset, now=self.now)
        self.wiki_pages = InMemoryWikiPageRepository(dataset)
        self.wiki_page_links = InMemoryWikiPageLinkRepository(dataset)

        self.agenda_items: dict[int, tuple[Meeting, AgendaItem]] = {}
        self.backlog_item_ids: set[int] = set()
        self.outcomes: dict[int, OutcomeRef] = {}
        for meeting_id, details in dataset.meeting_details.items():
            meeting = dataset.meetings[meeting_id]
            self.backlog_item_ids.update(item.id for item in details.backlog_items or ())
            for item in (*(details.agenda_items or ()), *(details.backlog_items or ())):
                self.agenda_items[item.id] = (meeting, item)
                for index, notes in enumerate(item.outcomes):
                    ref = OutcomeRef(outcome_id(item, index), meeting, item, notes)
                    self.outcomes[ref.id] = ref

    @property
    def activities(self) -> dict[int, tuple[int, Activity]]:
        """Activity id -> (its work package id, the activity), as of now (writes add activities)."""
        return {
            activity.id: (work_package_id, activity)
            for work_package_id, timeline in self.dataset.activities.items()
            for activity in timeline
        }
