"""The composition root: one declarative graph for the process, a thin scope per tool call.

``AppContainer`` is built once per process. It holds the settings, the tenant-scoped caches,
both backends (the in-memory one over the loaded dataset, and the OpenProject one over a
connection pool that is a ``Resource``), the ports chosen from them by a ``Selector`` on the
backend setting, and every use case (``UseCases``: one provider line each).

A tool call is a :class:`Call`: the caller's credential and tenant, nothing else. Its scope
resolves use cases from the same process graph inside a private ``contextvars.Context`` that
holds only that call, so what must exist once per call (the HTTP session and client, the
repositories built on them, the project-slug memo) are ``ContextLocalSingleton`` providers:
created on first use in the call, shared within it, gone with it. Nothing is copied or
overridden per call, so nothing of a call can stay referenced by the long-lived graph.
"""

from __future__ import annotations

import asyncio
import contextvars
import logging
from collections.abc import AsyncIterator, Awaitable, Mapping
from contextlib import AsyncExitStack, asynccontextmanager
from dataclasses import dataclass, field
from typing import Any, TypeVar, cast

import aiohttp
from dependency_injector import containers, providers

from openproject_mcp.adapters.fixture.api_spec_repository import InMemoryApiSpecRepository
from openproject_mcp.adapters.fixture.attachment_repository import InMemoryAttachmentRepository
from openproject_mcp.adapters.fixture.capability_repository import InMemoryCapabilityRepository
from openproject_mcp.adapters.fixture.dataset import Dataset, load_dataset, load_demo_dataset
from openproject_mcp.adapters.fixture.instance_repository import InMemoryInstanceRepository, acting_user_id
from openproject_mcp.adapters.fixture.meeting_repository import InMemoryMeetingRepository
from openproject_mcp.adapters.fixture.metadata_repository import InMemoryMetadataRepository
from openproject_mcp.adapters.fixture.project_repository import InMemoryProjectRepository
from openproject_mcp.adapters.fixture.query_repository import InMemoryQueryRepository
from openproject_mcp.adapters.fixture.wiki_repositories import (
    InMemoryWikiPageLinkRepository,
    InMemoryWikiPageRepository,
)
from openproject_mcp.adapters.fixture.work_package_repository import InMemoryWorkPackageRepository
from openproject_mcp.adapters.fixture.write_repositories import (
    InMemoryTimeEntryRepository,
    InMemoryWorkPackageWriteRepository,
)
from openproject_mcp.adapters.openproject.capabilities import AiohttpCapabilityRepository, CapabilityCache
from openproject_mcp.adapters.openproject.client import (
    ClientSettings,
    OpenProjectClient,
    TenantLimiters,
    new_connector,
    new_session,
)
from openproject_mcp.adapters.openproject.instance import AiohttpInstanceRepository
from openproject_mcp.adapters.openproject.oauth import AiohttpOpenProjectAuthorization, OAuthApplication
from openproject_mcp.adapters.openproject.repositories import (
    AiohttpApiSpecRepository,
    AiohttpAttachmentRepository,
    AiohttpMeetingRepository,
    AiohttpMetadataRepository,
    AiohttpProjectRepository,
    AiohttpQueryRepository,
    AiohttpWikiPageLinkRepository,
    AiohttpWikiPageRepository,
    AiohttpWorkPackageRepository,
)
from openproject_mcp.adapters.openproject.writes import AiohttpTimeEntryRepository, AiohttpWorkPackageWriteRepository
from openproject_mcp.adapters.shared_state.codec import MsgpackCodecs
from openproject_mcp.adapters.shared_state.memory import MemoryStore
from openproject_mcp.adapters.shared_state.redis import RedisStore
from openproject_mcp.adapters.shared_state.sealed import SealedStore
from openproject_mcp.application.activities import ListWorkPackageActivities
from openproject_mcp.application.api_spec import GetApiSpec
from openproject_mcp.application.attachments import ListAttachments, ReadAttachment
from openproject_mcp.application.caching import EnrichmentCache, SharedTier, TenantCaches, tenant_key
from openproject_mcp.application.instance import GetInstance
from openproject_mcp.application.meetings import GetMeeting, ListMeetings
from openproject_mcp.application.metadata import ListPriorities, ListStatuses, ListTypes, ListUsers
from openproject_mcp.application.project_scope import ProjectResolver
from openproject_mcp.application.projects import GetProject, ListProjects
from openproject_mcp.application.saved_queries import GetQuery, ListQueries
from openproject_mcp.application.search_meetings import SearchMeetings
from openproject_mcp.application.search_wiki_pages import SearchWikiPages
from openproject_mcp.application.search_work_packages import SearchWorkPackages
from openproject_mcp.application.wiki_knowledge import WikiReferences
from openproject_mcp.application.wiki_pages import GetWikiPage, ListWikiPageLinks
from openproject_mcp.application.work_packages import GetWorkPackage, ListWorkPackages
from openproject_mcp.application.write_tools import (
    AddWorkPackageComment,
    CreateWorkPackage,
    ListTimeEntries,
    LogTime,
    UpdateWorkPackage,
)
from openproject_mcp.application.writes import WritePolicy, read_only_error, writes
from openproject_mcp.config import Settings, SignInSettings
from openproject_mcp.domain.entities import MeetingDetails
from openproject_mcp.domain.errors import AuthenticationError
from openproject_mcp.ports.shared_state import SharedStore
from openproject_mcp.ports.signin import OpenProjectAuthorization

U = TypeVar("U")


@dataclass(frozen=True, slots=True, eq=False)
class Call:
    """The thin per-call container: whose call this is. ``closing`` ends what the call opened."""

    credential: str = field(repr=False)
    tenant: str
    closing: AsyncExitStack = field(default_factory=AsyncExitStack, repr=False)


_CALL: contextvars.ContextVar[Call] = contextvars.ContextVar("openproject_mcp_call")


def current_call() -> Call:
    """The call being resolved; only set inside a :class:`RequestScope`'s private context."""
    try:
        return _CALL.get()
    except LookupError:
        raise RuntimeError("a per-call provider was resolved outside a tool call's scope") from None


class FixtureRepositories(containers.DeclarativeContainer):
    """Every port served from the in-memory dataset: built once per process, indexes included."""

    dataset: providers.Dependency[Dataset] = providers.Dependency(instance_of=Dataset)
    policy: providers.Dependency[WritePolicy] = providers.Dependency(instance_of=WritePolicy)
    projects = providers.Singleton(InMemoryProjectRepository, dataset)
    # ``me`` in a filter is the user the dataset's caller acts as, as openproject_get_instance says.
    work_packages = providers.Singleton(
        InMemoryWorkPackageRepository, dataset, providers.Callable(acting_user_id, dataset)
    )
    queries = providers.Singleton(InMemoryQueryRepository, dataset, providers.Callable(acting_user_id, dataset))
    metadata = providers.Singleton(InMemoryMetadataRepository, dataset)
    api_spec = providers.Singleton(InMemoryApiSpecRepository)
    meetings = providers.Singleton(InMemoryMeetingRepository, dataset)
    wiki_pages = providers.Singleton(InMemoryWikiPageRepository, dataset)
    wiki_page_links = providers.Singleton(InMemoryWikiPageLinkRepository, dataset)
    capabilities = providers.Singleton(InMemoryCapabilityRepository)
    attachments = providers.Singleton(InMemoryAttachmentRepository, dataset)
    # Writes change the process's dataset: they last as long as the process, never shared with another.
    work_package_writes = providers.Singleton(InMemoryWorkPackageWriteRepository, dataset, policy)
    time_entries = providers.Singleton(InMemoryTimeEntryRepository, dataset, policy)
    instance_facts = providers.Singleton(InMemoryInstanceRepository, dataset)


def _call_session(call: Call, settings: ClientSettings, connector: aiohttp.BaseConnector) -> aiohttp.ClientSession:
    session = new_session(settings, call.credential, connector)
    call.closing.push_async_callback(session.close)
    return session


class OpenProjectRepositories(containers.DeclarativeContainer):
    """Every port served by one OpenProject instance; one session and client per call."""

    call: providers.Dependency[Call] = providers.Dependency(instance_of=Call)
    client_settings: providers.Dependency[ClientSettings] = providers.Dependency(instance_of=ClientSettings)
    connector: providers.Dependency[aiohttp.BaseConnector] = providers.Dependency(instance_of=aiohttp.BaseConnector)
    limiters: providers.Dependency[TenantLimiters] = providers.Dependency(instance_of=TenantLimiters)
    capability_cache: providers.Dependency[CapabilityCache] = providers.Dependency(instance_of=CapabilityCache)
    policy: providers.Dependency[WritePolicy] = providers.Dependency(instance_of=WritePolicy)

    session = providers.ContextLocalSingleton(_call_session, call, client_settings, connector)
    client = providers.ContextLocalSingleton(
        OpenProjectClient,
        session,
        client_settings,
        call.provided.credential,
        limiters.provided.for_tenant.call(call.provided.tenant),
    )
    projects = providers.ContextLocalSingleton(AiohttpProjectRepository, client)
    work_packages = providers.ContextLocalSingleton(AiohttpWorkPackageRepository, client)
    queries = providers.ContextLocalSingleton(AiohttpQueryRepository, client)
    metadata = providers.ContextLocalSingleton(AiohttpMetadataRepository, client)
    api_spec = providers.ContextLocalSingleton(AiohttpApiSpecRepository, client)
    meetings = providers.ContextLocalSingleton(AiohttpMeetingRepository, client, capability_cache)
    wiki_pages = providers.ContextLocalSingleton(AiohttpWikiPageRepository, client)
    wiki_page_links = providers.ContextLocalSingleton(AiohttpWikiPageLinkRepository, client)
    capabilities = providers.ContextLocalSingleton(AiohttpCapabilityRepository, client, capability_cache)
    attachments = providers.ContextLocalSingleton(AiohttpAttachmentRepository, client)
    work_package_writes = providers.ContextLocalSingleton(AiohttpWorkPackageWriteRepository, client, policy)
    time_entries = providers.ContextLocalSingleton(AiohttpTimeEntryRepository, client, policy, capability_cache)
    instance_facts = providers.ContextLocalSingleton(AiohttpInstanceRepository, client)


class UseCases(containers.DeclarativeContainer):
    """Every use case, one provider line each, over the ports the backend setting selected.

    The registry a scope resolves from is derived from this class (:func:`use_case_registry`):
    registering a use case is its line here and nothing else.
    """

    ports = providers.DependenciesContainer()
    call: providers.Dependency[Call] = providers.Dependency(instance_of=Call)
    caches: providers.Dependency[TenantCaches] = providers.Dependency(instance_of=TenantCaches)
    instance: providers.Dependency[str] = providers.Dependency(instance_of=str)
    """What identifies the data source (the base URL, or the dataset): what instance-wide caches are keyed by."""
    max_attachment_bytes: providers.Dependency[int] = providers.Dependency(instance_of=int)

    resolver = providers.ContextLocalSingleton(ProjectResolver, ports.projects)
    wiki_references = providers.Factory(WikiReferences, caches, instance)
    comment_cache: providers.Factory[EnrichmentCache[tuple[str, ...]]] = providers.Factory(
        EnrichmentCache, caches, call.provided.tenant, "work-package-comments", tuple[str, ...]
    )
    agenda_cache: providers.Factory[EnrichmentCache[MeetingDetails]] = providers.Factory(
        EnrichmentCache, caches, call.provided.tenant, "meeting-details", MeetingDetails
    )

    list_projects = providers.Factory(ListProjects, ports.projects)
    get_project = providers.Factory(GetProject, ports.projects)
    list_work_packages = providers.Factory(ListWorkPackages, ports.work_packages, ports.metadata, resolver)
    get_work_package = providers.Factory(GetWorkPackage, ports.work_packages, wiki_references)
    list_activities = providers.Factory(ListWorkPackageActivities, ports.work_packages, wiki_references)
    search_work_packages = providers.Factory(
        SearchWorkPackages, ports.work_packages, ports.metadata, resolver, comment_cache, references=wiki_references
    )
    list_queries = providers.Factory(ListQueries, ports.queries, resolver)
    get_query = providers.Factory(GetQuery, ports.queries)
    list_types = providers.Factory(ListTypes, ports.metadata, resolver)
    list_statuses = providers.Factory(ListStatuses, ports.metadata)
    list_priorities = providers.Factory(ListPriorities, ports.metadata)
    list_users = providers.Factory(ListUsers, ports.metadata)
    get_api_spec = providers.Factory(GetApiSpec, ports.api_spec, caches, call.provided.tenant)
    list_meetings = providers.Factory(ListMeetings, ports.meetings, resolver)
    get_meeting = providers.Factory(GetMeeting, ports.meetings)
    search_meetings = providers.Factory(SearchMeetings, ports.meetings, ports.capabilities, resolver, agenda_cache)
    get_wiki_page = providers.Factory(GetWikiPage, ports.wiki_pages, wiki_references)
    search_wiki_pages = providers.Factory(
        SearchWikiPages,
        ports.wiki_pages,
        ports.wiki_page_links,
        resolver,
        caches,
        call.provided.tenant,
        wiki_references,
    )
    list_wiki_page_links = providers.Factory(
        ListWikiPageLinks, ports.wiki_page_links, ports.wiki_pages, wiki_references, ports.work_packages
    )
    list_attachments = providers.Factory(ListAttachments, ports.attachments, ports.work_packages, ports.wiki_pages)
    read_attachment = providers.Factory(
        ReadAttachment, ports.attachments, ports.work_packages, ports.wiki_pages, max_attachment_bytes
    )
    # Writes (left out of the registry in read-only mode; their ports check the policy as well).
    create_work_package = providers.Factory(
        CreateWorkPackage,
        ports.work_packages,
        ports.metadata,
        ports.work_package_writes,
        comment_cache,
        call.provided.tenant,
        resolver,
    )
    update_work_package = providers.Factory(
        UpdateWorkPackage,
        ports.work_packages,
        ports.metadata,
        ports.work_package_writes,
        comment_cache,
        call.provided.tenant,
    )
    add_work_package_comment = providers.Factory(
        AddWorkPackageComment, ports.work_packages, ports.work_package_writes, comment_cache, call.provided.tenant
    )
    log_time = providers.Factory(LogTime, ports.work_packages, ports.time_entries, call.provided.tenant)
    list_time_entries = providers.Factory(
        ListTimeEntries, ports.work_packages, ports.time_entries, ports.work_package_writes, resolver
    )
    get_instance = providers.Factory(GetInstance, ports.instance_facts, ports.capabilities)


def _port_names() -> tuple[str, ...]:
    names = tuple(
        name
        for name, provider in FixtureRepositories.providers.items()
        if not isinstance(provider, providers.Dependency)
    )
    missing = set(names) - set(OpenProjectRepositories.providers)
    if missing:  # a port served by one backend only is a wiring mistake: fail at import
        raise TypeError(f"OpenProjectRepositories does not serve {sorted(missing)}")
    return names


PORTS = _port_names()


def _load(settings: Settings) -> Dataset:
    if settings.backend == "dataset" and settings.dataset_path is not None:
        return load_dataset(settings.dataset_path)
    return load_demo_dataset()


def _client_settings(settings: Settings) -> ClientSettings:
    return ClientSettings(
        base_url=settings.base_url or "",
        timeout_seconds=settings.timeout_seconds,
        max_retries=settings.max_retries,
        max_concurrency=settings.max_concurrency,
        max_response_bytes=settings.limits.max_response_bytes,
        max_requests_per_call=settings.limits.max_requests_per_call,
        proxy=settings.network.proxy.url,
        ca_bundle=str(settings.network.ca_bundle) if settings.network.ca_bundle else None,
    )


async def open_pool(settings: ClientSettings) -> AsyncIterator[aiohttp.BaseConnector]:
    """The connection pool every call's session shares (a ``Resource``: opened and closed once)."""
    connector = new_connector(settings, limit=100, limit_per_host=50, ttl_dns_cache=300)
    try:
        yield connector
    finally:
        await connector.close()


def _opened(pool: providers.Resource[aiohttp.BaseConnector]) -> aiohttp.BaseConnector:
    """The pool ``Resource``'s value once the lifespan opened it (it never opens lazily mid-call)."""
    if not pool.initialized:
        raise RuntimeError("the connection pool is not open: Application.start() must run first")
    value: object = pool()  # an asynchronous Resource hands its value back as a finished future
    return cast(aiohttp.BaseConnector, value.result() if isinstance(value, asyncio.Future) else value)


def new_shared_store(settings: Settings) -> SharedStore:
    """The store replicas share: Redis where ``OPENPROJECT_REDIS_URL`` is set, else in this process.

    Made at once (a Redis client connects on its first command), so sign-in can hold it before
    the lifespan starts; :func:`shared_store_lifespan` checks it at start and closes it at the end.
    """
    if not settings.redis_url:
        return MemoryStore()
    return RedisStore(settings.redis_url, timeout_seconds=settings.redis_timeout_seconds)


async def shared_store_lifespan(store: SharedStore) -> AsyncIterator[SharedStore]:
    """The shared store's connection (a ``Resource``): asked once at start, closed at process end."""
    if isinstance(store, RedisStore) and await store.healthy():
        # An unreachable store logged its own line: the server starts anyway, without the shared cache.
        logging.getLogger("openproject_mcp.shared_state").info("Shared state is kept at %s.", store.where)
    try:
        yield store
    finally:
        await store.close()


def _cache_tier(settings: Settings, store: SharedStore) -> SharedTier | None:
    """The shared tier of the caches: only for OpenProject data, and only over a store other processes see."""
    if settings.adapter != "openproject" or not store.shared:
        return None
    return SharedTier(store, MsgpackCodecs())


def _capability_store(settings: Settings, store: SharedStore) -> SharedStore | None:
    return store if _cache_tier(settings, store) is not None else None


def _ports(
    adapter: providers.Provider[str], **backends: providers.Container[Any]
) -> dict[str, providers.Selector[Any]]:
    return {
        name: providers.Selector(adapter, **{kind: getattr(backend, name) for kind, backend in backends.items()})
        for name in PORTS
    }


class AppContainer(containers.DeclarativeContainer):
    """The process: settings, caches, both backends, the selected ports and the use cases."""

    settings: providers.Dependency[Settings] = providers.Dependency(instance_of=Settings)
    call = providers.Callable(current_call)
    shared_store = providers.Singleton(new_shared_store, settings)
    """What replicas share (Redis with ``OPENPROJECT_REDIS_URL``, else in this process): caches and sign-in."""
    shared_store_connection = providers.Resource(shared_store_lifespan, shared_store)
    caches = providers.Singleton(TenantCaches, shared=providers.Callable(_cache_tier, settings, shared_store))
    write_policy = providers.Singleton(WritePolicy, settings.provided.read_only)  # what every write port checks

    dataset = providers.Singleton(_load, settings)
    fixture = providers.Container(FixtureRepositories, dataset=dataset, policy=write_policy)

    client_settings = providers.Singleton(_client_settings, settings)
    pool = providers.Resource(open_pool, client_settings)
    limiters = providers.Singleton(TenantLimiters, settings.provided.max_concurrency)
    capability_cache = providers.Singleton(
        CapabilityCache, store=providers.Callable(_capability_store, settings, shared_store)
    )
    openproject = providers.Container(
        OpenProjectRepositories,
        call=call,
        client_settings=client_settings,
        connector=providers.Callable(_opened, pool.provider),
        limiters=limiters,
        capability_cache=capability_cache,
        policy=write_policy,
    )

    ports = providers.DependenciesContainer(
        **_ports(settings.provided.adapter, fixture=fixture, openproject=openproject)
    )
    use_cases = providers.Container(
        UseCases,
        ports=ports,
        call=call,
        caches=caches,
        instance=settings.provided.instance,
        max_attachment_bytes=settings.provided.resources.max_attachment_bytes,
    )


def use_case_registry(use_cases: containers.Container, *, read_only: bool) -> dict[type[Any], providers.Provider[Any]]:
    """Use case class -> its provider: every ``Factory`` of ``UseCases`` whose product executes,
    except, in read-only mode, those that write (they are not registered at all)."""
    return {
        provider.cls: provider
        for provider in use_cases.providers.values()
        if isinstance(provider, providers.Factory)
        and callable(getattr(provider.cls, "execute", None))
        and not (read_only and writes(provider.cls))
    }


class RequestScope:
    """One tool call's use cases (what the MCP adapter's ``UseCaseScope`` asks for)."""

    __slots__ = ("_context", "_read_only", "_registry")

    def __init__(
        self, registry: Mapping[type[Any], providers.Provider[Any]], call: Call, *, read_only: bool = False
    ) -> None:
        self._registry = registry
        self._read_only = read_only
        self._context = contextvars.Context()
        self._context.run(_CALL.set, call)

    async def resolve(self, use_case: type[U]) -> U:
        provider = self._registry.get(use_case)
        if provider is None:
            if self._read_only and writes(use_case):
                raise read_only_error(use_case.__name__)
            raise LookupError(f"{use_case.__name__} is not a registered use case")
        return cast(U, self._context.run(provider))


class Application:
    """The process graph and a scope per tool call. The one object the entry point hands to a transport.

    ``shared`` is true for the multi-tenant HTTP server: there a call without its own token is
    refused, unless the operator enabled single-tenant mode (``OPENPROJECT_SINGLE_TENANT``).
    Over stdio the server's own token serves the one user.
    """

    def __init__(self, settings: Settings, *, shared: bool = False) -> None:
        self.settings = settings
        self.shared = shared
        self.container = AppContainer(settings=providers.Object(settings))
        self.registry = use_case_registry(self.container.use_cases(), read_only=settings.read_only)
        self._started = False
        if settings.adapter == "fixture":
            self.container.fixture()  # load and validate the dataset, build the indexes: once
            for name in PORTS:
                getattr(self.container.fixture, name)()

    async def start(self) -> None:
        """Open the process resources (the shared store's connection, and the connection pool for
        OpenProject). The server's lifespan calls it."""
        if self._started:
            return
        opened: Awaitable[Any] | None
        if self.settings.adapter != "openproject":
            opened = self.container.shared_store_connection.init()  # in-memory data: no connection pool
        else:
            opened = self.container.init_resources()
        if opened is not None:
            await opened
        self._started = True

    async def shared_state_reachable(self) -> bool:
        """Whether the shared store answers now (always, for the in-process one)."""
        store: SharedStore = self.container.shared_store()
        return await store.healthy()

    async def aclose(self) -> None:
        """Close the process resources (at process end)."""
        if not self._started:
            return
        self._started = False
        stopped = self.container.shutdown_resources()
        if stopped is not None:
            await stopped

    def signin_parts(self, signin: SignInSettings) -> tuple[SharedStore, OpenProjectAuthorization]:
        """What sign-in with OpenProject runs on: the shared store, sealed with the settings' keys,
        and OpenProject's OAuth endpoints for the registered application."""
        store = SealedStore(self.container.shared_store(), signin.encryption_keys)
        upstream = AiohttpOpenProjectAuthorization(
            OAuthApplication(
                base_url=self.settings.base_url or "",
                client_id=signin.client_id,
                client_secret=signin.client_secret,
                redirect_uri=signin.callback_url,
                timeout_seconds=self.settings.timeout_seconds,
                proxy=self.settings.network.proxy.url,
                ca_bundle=str(self.settings.network.ca_bundle) if self.settings.network.ca_bundle else None,
            )
        )
        return store, upstream

    def token_for(self, credential: str | None) -> str:
        """The token one call uses: its own, or the server's where that is allowed."""
        if credential:
            return credential
        if self.settings.api_key and (not self.shared or self.settings.single_tenant):
            return self.settings.api_key
        raise AuthenticationError(
            "No OpenProject token came with this request.",
            hint="Send 'Authorization: Bearer <token>' or 'X-OpenProject-Api-Key: <token>' "
            "(an API token from My account -> Access tokens).",
            status=401,
        )

    @asynccontextmanager
    async def scope(self, credential: str | None) -> AsyncIterator[RequestScope]:
        if self.settings.adapter == "fixture":
            call = Call("", tenant_key(self.settings.instance, ""))
        else:
            token = self.token_for(credential)
            await self.start()
            call = Call(token, tenant_key(self.settings.instance, token))
        async with call.closing:
            yield RequestScope(self.registry, call, read_only=self.settings.read_only)
