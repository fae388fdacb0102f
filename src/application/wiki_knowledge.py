"""What is known about an instance's wiki page ids, shared by every caller of that instance.

No released OpenProject version lists wiki pages, so pages are found by id (see ADR 0012).
Ids are learned wherever they show up: pages someone could read, ``wiki_pages/N`` links and
``[[[provider:identifier]]]`` macros in work package texts, and links to OpenProject's own
wiki. That knowledge is kept per instance, since an id exists whoever asks; whether a page is
visible, and its title, is only ever kept per caller (``search_wiki_pages``).

Which wiki provider is OpenProject's own is not in the API (there is no provider list): a
provider counts as internal once one of its numeric identifiers opened a wiki page, and as
external once it showed an identifier that is not a number.
"""

from __future__ import annotations

import re
import time
from collections.abc import Iterable
from dataclasses import dataclass, field

from openproject_mcp.application.caching import TenantCaches, instance_key
from openproject_mcp.domain.entities import WikiPageLink

_PAGE_HREF = re.compile(r"wiki_pages/(\d{1,9})\b")
# OpenProject's wiki macro since 17.6: [[[<provider id>:<identifier>]]]; for its own wiki the
# identifier is the page id.
_MACRO = re.compile(r"\[\[\[[0-9]+:([0-9]{1,9})\]\]\]")
MAX_IDS = 100_000
RECHECK_SECONDS = 3600.0
"""How long an instance without ``GET /api/v3/wiki_page_links`` is not asked again (an upgrade)."""


def page_ids_in(text: str | None) -> set[int]:
    """Wiki page ids a text refers to (API links and numeric wiki macros)."""
    if not text:
        return set()
    found = {int(m) for m in _PAGE_HREF.findall(text)} | {int(m) for m in _MACRO.findall(text)}
    return {i for i in found if i > 0}


def internal_page_id(link: WikiPageLink) -> int | None:
    """The page id a link may point at in OpenProject's own wiki (its identifier, if a number)."""
    identifier = (link.identifier or "").strip()
    if link.wiki_page is not None:
        return link.wiki_page.id
    if identifier.isascii() and identifier.isdigit() and 0 < len(identifier) <= 9:
        return int(identifier) or None
    return None


@dataclass(slots=True)
class InstanceWikiIds:
    """One instance's wiki ids: ``known`` exist (someone read them), ``hinted`` were mentioned."""

    known: set[int] = field(default_factory=set)
    hinted: set[int] = field(default_factory=set)
    internal_providers: set[str] = field(default_factory=set)
    external_providers: set[str] = field(default_factory=set)
    links_missing_since: float | None = None
    """When ``GET /api/v3/wiki_page_links`` last answered 404 (``time.monotonic``), if it did."""

    def links_missing(self) -> bool:
        """Whether the instance lately had no ``GET /api/v3/wiki_page_links`` (before 17.6)."""
        since = self.links_missing_since
        return since is not None and time.monotonic() - since < RECHECK_SECONDS

    @property
    def highest(self) -> int:
        return max(self.known, default=0)

    def confirm(self, page_id: int) -> None:
        if len(self.known) < MAX_IDS:
            self.known.add(page_id)
        self.hinted.discard(page_id)

    def hint(self, ids: Iterable[int]) -> None:
        for page_id in ids:
            if page_id not in self.known and len(self.hinted) < MAX_IDS:
                self.hinted.add(page_id)

    def is_external(self, link: WikiPageLink) -> bool:
        return link.provider_id is not None and link.provider_id in self.external_providers

    def learn_provider(self, link: WikiPageLink, *, internal: bool | None) -> None:
        """Record what a link showed about its provider (``None``: nothing conclusive)."""
        if link.provider_id is None:
            return
        if internal_page_id(link) is None and link.wiki_page is None:
            self.external_providers.add(link.provider_id)
        elif internal and link.provider_id not in self.external_providers:
            self.internal_providers.add(link.provider_id)

    def note_links(self, links: Iterable[WikiPageLink]) -> None:
        """Hints from wiki page links: numeric identifiers of providers not known to be external."""
        for link in links:
            self.learn_provider(link, internal=None)
            if link.wiki_page is not None:
                self.confirm(link.wiki_page.id)
            elif not self.is_external(link):
                page_id = internal_page_id(link)
                if page_id is not None:
                    self.hint((page_id,))


@dataclass(frozen=True, slots=True)
class WikiIdsSnapshot:
    """:class:`InstanceWikiIds` as it travels through the shared tier (wall-clock time, not monotonic)."""

    known: tuple[int, ...] = ()
    hinted: tuple[int, ...] = ()
    internal_providers: tuple[str, ...] = ()
    external_providers: tuple[str, ...] = ()
    links_missing_at: float | None = None
    """When ``GET /api/v3/wiki_page_links`` last answered 404, in ``time.time()`` seconds."""


def snapshot_ids(ids: InstanceWikiIds) -> WikiIdsSnapshot:
    since = ids.links_missing_since
    return WikiIdsSnapshot(
        known=tuple(sorted(ids.known)),
        hinted=tuple(sorted(ids.hinted)),
        internal_providers=tuple(sorted(ids.internal_providers)),
        external_providers=tuple(sorted(ids.external_providers)),
        links_missing_at=None if since is None else time.time() - (time.monotonic() - since),
    )


def merge_ids(ids: InstanceWikiIds, shared: WikiIdsSnapshot) -> None:
    """Add what another replica learned: every set only grows, within its bounds."""
    for page_id in shared.known:
        ids.confirm(page_id)
    ids.hint(shared.hinted)
    ids.external_providers.update(shared.external_providers)
    ids.internal_providers.update(p for p in shared.internal_providers if p not in ids.external_providers)
    if shared.links_missing_at is not None:
        since = time.monotonic() - max(0.0, time.time() - shared.links_missing_at)
        if ids.links_missing_since is None or since > ids.links_missing_since:
            ids.links_missing_since = since


class WikiReferences:
    """One call's access to its instance's :class:`InstanceWikiIds` (kept in the app-level caches)."""

    def __init__(self, caches: TenantCaches, instance: str) -> None:
        self._caches = caches
        self._instance = instance

    def ids(self) -> InstanceWikiIds:
        known = self._caches.wiki_ids.get(self._instance)
        if isinstance(known, InstanceWikiIds):
            return known
        fresh = InstanceWikiIds()
        self._caches.wiki_ids.put(self._instance, fresh)
        return fresh

    async def load(self) -> InstanceWikiIds:
        """The instance's ids, with what other replicas learned merged in (where caches are shared)."""
        ids = self.ids()
        shared = await self._caches.shared_get("wiki-ids", instance_key(self._instance), WikiIdsSnapshot)
        if isinstance(shared, WikiIdsSnapshot):
            merge_ids(ids, shared)
        return ids

    async def publish(self) -> None:
        """Hand what this process knows of the instance's ids to the other replicas."""
        if self._caches.shared is not None:
            ttl = self._caches.settings.wiki_id_ttl_seconds
            snapshot = snapshot_ids(self.ids())
            await self._caches.shared_put("wiki-ids", instance_key(self._instance), snapshot, WikiIdsSnapshot, ttl)

    def note_texts(self, texts: Iterable[str | None]) -> None:
        """Harvest page ids from texts read anyway (descriptions, comments)."""
        found: set[int] = set()
        for text in texts:
            found |= page_ids_in(text)
        if found:
            self.ids().hint(found)
