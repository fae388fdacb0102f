"""What each simulated OpenProject version exposes (the "Version profiles" of the dataset format)."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Profile:
    """One OpenProject version as the fake server plays it."""

    name: str
    core_version: str
    meeting_list: bool
    """``GET /api/v3/meetings`` exists (17.3+); ``GET /api/v3/meetings/{id}`` always does."""
    agenda_items: bool
    """``/meetings/{id}/agenda_items`` and the outcome endpoints exist (17.4+)."""
    meeting_search_filter: bool
    """The meetings list knows the ``search`` filter (18.0); otherwise it is 400 ``InvalidQuery``."""
    meeting_participants: bool
    """Meetings carry ``_links.participants`` (18.0, shape assumed)."""
    meeting_state: bool
    """Meetings carry ``state`` (17.4+)."""
    iso_duration: bool
    """A meeting's ``duration`` is ISO 8601 (``PT1H30M``, 17.4+) instead of a number of hours (17.3)."""
    wiki_bodies: bool
    """Wiki pages carry ``text`` (formattable) and ``updatedAt`` (18.0)."""
    wiki_page_list: bool
    """``GET /api/v3/projects/{id}/wiki_pages`` exists (18.0, shape assumed)."""
    wiki_page_links: bool
    """``GET /api/v3/work_packages/{id}/wiki_page_links`` exists (17.6+)."""
    wiki_page_links_global: bool
    """``GET /api/v3/wiki_page_links`` exists (17.6+)."""
    display_ids: bool
    """Work packages carry ``displayId`` and can be fetched by it (17.5+)."""


PROFILES: dict[str, Profile] = {
    "16.6": Profile(
        name="16.6",
        core_version="16.6.0",
        meeting_list=False,
        agenda_items=False,
        meeting_search_filter=False,
        meeting_participants=False,
        meeting_state=False,
        iso_duration=False,
        wiki_bodies=False,
        wiki_page_list=False,
        wiki_page_links=False,
        wiki_page_links_global=False,
        display_ids=False,
    ),
    "17.3": Profile(
        name="17.3",
        core_version="17.3.0",
        meeting_list=True,
        agenda_items=False,
        meeting_search_filter=False,
        meeting_participants=False,
        meeting_state=False,
        iso_duration=False,
        wiki_bodies=False,
        wiki_page_list=False,
        wiki_page_links=False,
        wiki_page_links_global=False,
        display_ids=False,
    ),
    "17.4": Profile(
        name="17.4",
        core_version="17.4.0",
        meeting_list=True,
        agenda_items=True,
        meeting_search_filter=False,
        meeting_participants=False,
        meeting_state=True,
        iso_duration=True,
        wiki_bodies=False,
        wiki_page_list=False,
        wiki_page_links=False,
        wiki_page_links_global=False,
        display_ids=False,
    ),
    "18.0": Profile(
        name="18.0",
        core_version="18.0.0",
        meeting_list=True,
        agenda_items=True,
        meeting_search_filter=True,
        meeting_participants=True,
        meeting_state=True,
        iso_duration=True,
        wiki_bodies=False,
        wiki_page_list=False,
        wiki_page_links=True,
        wiki_page_links_global=True,
        display_ids=True,
    ),
}


def profile_named(name: str) -> Profile:
    try:
        return PROFILES[name]
    except KeyError:
        raise ValueError(f"unknown profile {name!r}; known: {', '.join(PROFILES)}") from None
