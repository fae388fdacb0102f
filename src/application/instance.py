"""Use case: what the assistant is connected to (instance, version, user, detected features)."""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass

from openproject_mcp.domain.capabilities import InstanceCapabilities
from openproject_mcp.domain.entities import User
from openproject_mcp.ports import CapabilityRepository, InstanceRepository

CAPABILITY_MEANINGS: dict[str, str] = {
    "meeting_list": "the list of meetings (the meetings module answers)",
    "agenda_items": "meeting agenda items with their notes (OpenProject 17.4+)",
    "meeting_search_filter": "OpenProject's own meeting search (without it, this server matches titles itself)",
    "meeting_participants": "the participants of a meeting",
    "wiki_bodies": "the text of wiki pages (no released OpenProject exposes it)",
    "wiki_page_list": "a list of wiki pages (no released OpenProject has one; pages are found by id)",
    "wiki_page_links": "the wiki pages linked to a work package (OpenProject 17.6+)",
    "display_ids": "display ids such as PROJ-42 (OpenProject 17.4+)",
}
"""What each detected capability means for the tools, in the words the answer uses."""

VERSION_HIDDEN_NOTE = (
    "OpenProject shows its version to administrators only; the capabilities below were detected by asking "
    "the instance, whatever its version."
)


@dataclass(frozen=True, slots=True)
class CapabilityView:
    feature: str
    available: bool
    meaning: str


@dataclass(frozen=True, slots=True)
class InstanceView:
    name: str
    capabilities: tuple[CapabilityView, ...]
    url: str | None = None
    version: str | None = None
    current_user: User | None = None
    admin: bool | None = None
    notes: tuple[str, ...] | None = None


def capability_views(capabilities: InstanceCapabilities) -> tuple[CapabilityView, ...]:
    return tuple(
        CapabilityView(field.name, bool(getattr(capabilities, field.name)), CAPABILITY_MEANINGS.get(field.name, ""))
        for field in dataclasses.fields(capabilities)
    )


class GetInstance:
    """The instance's name and version (where visible), the token's user and the detected features."""

    def __init__(self, instances: InstanceRepository, capabilities: CapabilityRepository) -> None:
        self._instances = instances
        self._capabilities = capabilities

    async def execute(self) -> InstanceView:
        facts = await self._instances.facts()
        detected = await self._capabilities.capabilities()
        notes: list[str] = []
        if facts.version is None:
            notes.append(VERSION_HIDDEN_NOTE)
        if facts.current_user is None:
            notes.append("The instance answered as for an anonymous user: the token is not tied to a user.")
        return InstanceView(
            name=facts.name,
            url=facts.url,
            version=facts.version,
            current_user=facts.current_user,
            admin=facts.admin,
            capabilities=capability_views(detected),
            notes=tuple(notes) or None,
        )
