"""What one OpenProject instance can provide; versions 16.x to 18.x differ."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class InstanceCapabilities:
    meeting_list: bool = True
    agenda_items: bool = True
    meeting_search_filter: bool = True
    meeting_participants: bool = True
    wiki_bodies: bool = True
    wiki_page_list: bool = True
    wiki_page_links: bool = True
    display_ids: bool = True
