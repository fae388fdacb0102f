"""What an OpenProject instance can provide, found out by cheap probes and remembered per instance.

Versions 16.6 to 18.0 differ (see the "Version profiles" of the dataset format): the probes ask
the instance itself instead of trusting a version number (which only administrators can read).
Probes run concurrently, in two rounds: first the lists (meetings, the meetings ``search``
filter, the first work package), then what needs an id from them.

Only definitive answers are cached. An answer that needs data the instance does not have yet
(no meeting to look at, no work package...) or that failed on the way (5xx, network, or a 403 on
one probe: a user may lack a module in the one project probed) is never taken for a missing
feature: for the current call the feature counts as present (except the wiki page list, whose
absence only selects the discovery that works everywhere), so the feature's own requests run and
report their own failures (a 5xx degrades a search, a 401/403/429 fails it), and it is asked again
next time. 401 and 429 are raised as they are. Definitive answers expire after an hour, so an
upgraded instance (or a module switched on) is noticed without a restart.

The cache also remembers how an instance wants to be asked (:meth:`CapabilityCache.dialect`),
learned by the repositories from answers they received: which form of the meetings ``time``
filter it accepts, and whether it sorts meetings by start time.

Where replicas share a store, what one learned is handed to the others (:meth:`CapabilityCache.load`
and :meth:`CapabilityCache.publish`): an instance is probed once for all of them, not once per
process. The local memory stays what every read consults.
"""

from __future__ import annotations

import asyncio
import dataclasses
import hashlib
import time
from collections.abc import Awaitable, Callable, Mapping
from typing import Any, TypeVar

import msgspec

from openproject_mcp.adapters.openproject import endpoints, hal
from openproject_mcp.adapters.openproject.client import OpenProjectClient
from openproject_mcp.adapters.openproject.concurrency import together
from openproject_mcp.adapters.openproject.endpoints import filters_param
from openproject_mcp.domain.capabilities import InstanceCapabilities
from openproject_mcp.domain.errors import (
    ForbiddenError,
    InvalidQueryError,
    NetworkError,
    NotFoundError,
    UpstreamServerError,
)
from openproject_mcp.domain.queries import Filter
from openproject_mcp.ports.repositories import CapabilityRepository
from openproject_mcp.ports.shared_state import SharedStore

CAPABILITY_NAMES: tuple[str, ...] = tuple(f.name for f in dataclasses.fields(InstanceCapabilities))

_SEARCH_PROBE = Filter("search", "**", ("openproject-mcp capability probe",))

T = TypeVar("T")

Answer = bool | None  # None: undetermined for now

_UNDETERMINED = (UpstreamServerError, NetworkError, ForbiddenError)
CACHE_TTL_SECONDS = 3600.0

UNDETERMINED_MEANS: Mapping[str, bool] = {
    name: name not in ("wiki_page_list", "wiki_bodies") for name in CAPABILITY_NAMES
}
"""What a capability counts as for one call when its probe could not tell (never cached)."""


SHARED_RELOAD_SECONDS = 30.0
"""How often, at most, a replica asks the shared store for what another replica learned."""


class _Shared(msgspec.Struct, frozen=True):
    """One instance's entry in the shared store; ``age`` is how long ago it was first learned."""

    known: dict[str, bool] = {}
    dialects: dict[str, str] = {}
    age: float = 0.0


_ENCODER = msgspec.msgpack.Encoder()
_DECODER = msgspec.msgpack.Decoder(_Shared)


class CapabilityCache:
    """App-level memory of each instance's capabilities, keyed by its base URL.

    Holds definitive answers only; the lock per instance makes concurrent calls detect once (per
    process; with a shared ``store``, a replica that finds an instance already probed by another
    one takes the answers from there).
    """

    def __init__(
        self,
        ttl_seconds: float = CACHE_TTL_SECONDS,
        clock: Callable[[], float] = time.monotonic,
        store: SharedStore | None = None,
    ) -> None:
        self._known: dict[str, dict[str, bool]] = {}
        self._dialects: dict[str, dict[str, str]] = {}
        self._learned_at: dict[str, float] = {}
        self._locks: dict[str, asyncio.Lock] = {}
        self._ttl = ttl_seconds
        self._clock = clock
        self._store = store if store is not None and store.shared else None
        self._loaded_at: dict[str, float] = {}
        self._published: dict[str, _Shared] = {}

    @staticmethod
    def _shared_key(base_url: str) -> str:
        return f"capabilities:{hashlib.sha256(base_url.encode()).hexdigest()[:32]}"

    async def load(self, base_url: str) -> None:
        """Take in what other replicas learned of ``base_url``, at most every ``SHARED_RELOAD_SECONDS``
        (and not at all while this process knows every capability). Without a shared store: nothing."""
        if self._store is None:
            return
        self._expire(base_url)
        now = self._clock()
        last = self._loaded_at.get(base_url)
        if last is not None and now - last < SHARED_RELOAD_SECONDS:
            return
        self._loaded_at[base_url] = now
        data = await self._store.get(self._shared_key(base_url))
        if data is None:
            return
        try:
            shared = _DECODER.decode(data)
        except msgspec.DecodeError:
            return  # written by another version: as good as absent
        if shared.age >= self._ttl:
            return
        known = {name: value for name, value in shared.known.items() if name in CAPABILITY_NAMES}
        learned = self._learned_at.get(base_url)
        self._learned_at[base_url] = min(now - max(0.0, shared.age), learned if learned is not None else now)
        self._known[base_url] = known | self._known.get(base_url, {})
        self._dialects[base_url] = dict(shared.dialects) | self._dialects.get(base_url, {})

    async def publish(self, base_url: str) -> None:
        """Hand what this process knows of ``base_url`` to the other replicas, if it changed."""
        if self._store is None or base_url not in self._learned_at:
            return
        age = max(0.0, self._clock() - self._learned_at[base_url])
        entry = _Shared(dict(self._known.get(base_url, {})), dict(self._dialects.get(base_url, {})), age)
        previous = self._published.get(base_url)
        if previous is not None and previous.known == entry.known and previous.dialects == entry.dialects:
            return
        self._published[base_url] = entry
        await self._store.put(self._shared_key(base_url), _ENCODER.encode(entry), self._ttl - age)

    def lock(self, base_url: str) -> asyncio.Lock:
        lock = self._locks.get(base_url)
        if lock is None:
            lock = self._locks[base_url] = asyncio.Lock()
        return lock

    def _expire(self, base_url: str) -> None:
        learned = self._learned_at.get(base_url)
        if learned is not None and self._clock() - learned > self._ttl:
            self.forget(base_url)

    def _touch(self, base_url: str) -> None:
        if base_url not in self._learned_at:
            self._learned_at[base_url] = self._clock()

    def known(self, base_url: str) -> dict[str, bool]:
        self._expire(base_url)
        return dict(self._known.get(base_url, {}))

    def remember(self, base_url: str, answers: Mapping[str, bool]) -> None:
        unknown = set(answers) - set(CAPABILITY_NAMES)
        if unknown:
            raise ValueError(f"unknown capabilities: {sorted(unknown)}")
        self._touch(base_url)
        self._known.setdefault(base_url, {}).update(answers)

    def dialect(self, base_url: str, key: str) -> str | None:
        """How this instance wants something asked, as learned from an answer (``None``: not yet)."""
        self._expire(base_url)
        return self._dialects.get(base_url, {}).get(key)

    def learn_dialect(self, base_url: str, key: str, value: str) -> None:
        """Remember a form the instance accepted (only ever from a successful answer)."""
        self._touch(base_url)
        self._dialects.setdefault(base_url, {})[key] = value

    def forget(self, base_url: str | None = None) -> None:
        """Drop what is known about one instance (or all), e.g. after an upgrade."""
        if base_url is None:
            self._known.clear()
            self._dialects.clear()
            self._learned_at.clear()
            self._published.clear()
            self._loaded_at.clear()
        else:
            self._known.pop(base_url, None)
            self._dialects.pop(base_url, None)
            self._learned_at.pop(base_url, None)
            self._published.pop(base_url, None)
            self._loaded_at.pop(base_url, None)


class AiohttpCapabilityRepository(CapabilityRepository):
    def __init__(self, client: OpenProjectClient, cache: CapabilityCache) -> None:
        self._client = client
        self._cache = cache

    async def capabilities(self) -> InstanceCapabilities:
        key = self._client.base_url
        known = self._cache.known(key)
        if all(name in known for name in CAPABILITY_NAMES):
            return InstanceCapabilities(**known)
        async with self._cache.lock(key):
            await self._cache.load(key)
            known = self._cache.known(key)
            missing = {name for name in CAPABILITY_NAMES if name not in known}
            found: dict[str, Answer] = await _Probe(self._client).run(missing) if missing else {}
            self._cache.remember(key, {name: value for name, value in found.items() if value is not None})
            await self._cache.publish(key)
        answers = {name: _settled(name, found.get(name)) for name in missing} | known
        return InstanceCapabilities(**answers)


def _settled(name: str, answer: Answer) -> bool:
    return UNDETERMINED_MEANS[name] if answer is None else answer


@dataclasses.dataclass(slots=True)
class _Listing:
    """What a first-round probe found: whether the list exists, and its first element."""

    available: Answer
    first: Any = None


class _Probe:
    def __init__(self, client: OpenProjectClient) -> None:
        self._client = client

    async def run(self, wanted: set[str]) -> dict[str, Answer]:
        meetings_wanted = bool(wanted & {"meeting_list", "agenda_items", "meeting_participants"})
        work_package_wanted = bool(wanted & {"wiki_page_links", "display_ids"})
        meetings = asyncio.ensure_future(self._listing(meetings_wanted, self._meetings))
        search = asyncio.ensure_future(self._answer("meeting_search_filter" in wanted, self._meeting_search))
        work_package = asyncio.ensure_future(self._listing(work_package_wanted, self._first_work_package))
        await together([meetings, search, work_package])

        meeting_list = meetings.result()
        first_meeting: hal.MeetingHal | None = meeting_list.first
        first_work_package: hal.WorkPackageHal | None = work_package.result().first

        agenda = asyncio.ensure_future(
            self._answer("agenda_items" in wanted, lambda: self._agenda_items(first_meeting))
        )
        participants = asyncio.ensure_future(
            self._answer("meeting_participants" in wanted, lambda: self._participants(first_meeting))
        )
        links = asyncio.ensure_future(
            self._answer("wiki_page_links" in wanted, lambda: self._wiki_page_links(first_work_package))
        )
        await together([agenda, participants, links])

        answers: dict[str, Answer] = {
            "meeting_list": meeting_list.available,
            "meeting_search_filter": search.result(),
            "agenda_items": agenda.result(),
            "meeting_participants": participants.result(),
            # No released version lists wiki pages or renders their text in APIv3 (ADR 0012):
            # nothing to probe, and asking an unreleased path would be an off-spec request.
            "wiki_page_list": False,
            "wiki_bodies": False,
            "wiki_page_links": links.result(),
            "display_ids": (first_work_package.display_id is not None) if first_work_package else None,
        }
        if meeting_list.available is False:
            # The list is mounted since 14.4 (opf/openproject@4911b8a:modules/meeting/lib/api/v3/meetings/
            # meetings_api.rb): a 404 means the meetings module is off or absent, so none of its features.
            answers |= {"agenda_items": False, "meeting_participants": False, "meeting_search_filter": False}
        return {name: value for name, value in answers.items() if name in wanted}

    @staticmethod
    async def _listing(wanted: bool, probe: Callable[[], Awaitable[_Listing]]) -> _Listing:
        if not wanted:
            return _Listing(available=None)
        try:
            return await probe()
        except _UNDETERMINED:
            return _Listing(available=None)

    @staticmethod
    async def _answer(wanted: bool, probe: Callable[[], Awaitable[Answer]]) -> Answer:
        if not wanted:
            return None
        try:
            return await probe()
        except _UNDETERMINED:
            return None

    async def _meetings(self) -> _Listing:
        try:
            collection = await self._fetch(endpoints.MEETINGS.path(), hal.Collection[hal.MeetingHal], {"pageSize": 1})
        except NotFoundError:
            return _Listing(available=False)
        return _Listing(available=True, first=next(iter(collection.elements), None))

    async def _meeting_search(self) -> Answer:
        params: dict[str, str | int] = {"filters": filters_param([_SEARCH_PROBE]), "pageSize": 1}
        try:
            await self._client.get(endpoints.MEETINGS.path(), params)
        except (InvalidQueryError, NotFoundError):
            return False
        return True

    async def _first_work_package(self) -> _Listing:
        collection = await self._fetch(
            endpoints.WORK_PACKAGES.path(),
            hal.Collection[hal.WorkPackageHal],
            {"filters": filters_param([]), "pageSize": 1},
        )
        return _Listing(available=True, first=next(iter(collection.elements), None))

    async def _agenda_items(self, meeting: hal.MeetingHal | None) -> Answer:
        if meeting is None:
            return None
        try:
            await self._client.get(endpoints.MEETING_AGENDA_ITEMS.path(id=meeting.id))
        except NotFoundError:
            return False
        return True

    async def _participants(self, meeting: hal.MeetingHal | None) -> Answer:
        if meeting is None:
            return None
        # The single resource is what get_meeting shows participants from; a search ranks the
        # list's, which the same representer renders (ADR 0043).
        try:
            resource = await self._fetch(endpoints.MEETING.path(id=meeting.id), hal.MeetingHal)
        except NotFoundError:
            return None  # gone since it was listed
        return resource.links.participants is not None

    async def _wiki_page_links(self, work_package: hal.WorkPackageHal | None) -> Answer:
        if work_package is None:
            return None
        try:
            await self._client.get(endpoints.WORK_PACKAGE_WIKI_PAGE_LINKS.path(id=work_package.id), {"pageSize": 1})
        except NotFoundError:
            return False
        return True

    async def _fetch(self, path: str, tp: type[T], params: Mapping[str, str | int] | None = None) -> T:
        data = await self._client.get(path, params)
        try:
            return hal.decode(data, tp)
        except hal.PayloadError as exc:
            raise UpstreamServerError(
                self._client.redact(f"The response of OpenProject to GET /{path} could not be read: {exc}.")
            ) from exc
