"""The composition root: which adapters serve which ports, one container per tool call.

``AppContainer`` holds what lives as long as the process: settings, the tenant-scoped caches,
the loaded dataset or the HTTP connection pool. ``RequestContainer`` is built anew for every
tool call with that call's credential and yields the use cases; its repositories come from
one of the backend containers below. Everything is resolved explicitly: no wiring decorators.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any, TypeVar

import aiohttp
from dependency_injector import containers, providers

from openproject_mcp.adapters.fixture.api_spec_repository import InMemoryApiSpecRepository
from openproject_mcp.adapters.fixture.capability_repository import InMemoryCapabilityRepository
from openproject_mcp.adapters.fixture.dataset import Dataset, load_dataset, load_demo_dataset
from openproject_mcp.adapters.fixture.meeting_repository import InMemoryMeetingRepository
from openproject_mcp.adapters.fixture.metadata_repository import InMemoryMetadataRepository
from openproject_mcp.adapters.fixture.project_repository import InMemoryProjectRepository
from openproject_mcp.adapters.fixture.query_repository import InMemoryQueryRepository
from openproject_mcp.adapters.fixture.wiki_repositories import (
    InMemoryWikiPageLinkRepository,
    InMemoryWikiPageRepository,
)
from openproject_mcp.adapters.fixture.work_package_repository import InMemoryWorkPackageRepository
from openproject_mcp.adapters.openproject.capabilities import AiohttpCapabilityRepository, CapabilityCache
from openproject_mcp.adapters.openproject.client import (
    ClientSettings,
    OpenProjectClient,
    TenantLimiters,
    open_session,
)
from openproject_mcp.adapters.openproject.repositories import (
    AiohttpApiSpecRepository,
    AiohttpMeetingRepository,
    AiohttpMetadataRepository,
    AiohttpProjectRepository,
    AiohttpQueryRepository,
    AiohttpWikiPageLinkRepository,
    AiohttpWikiPageRepository,
    AiohttpWorkPackageRepository,
)
from openproject_mcp.application.activities import ListWorkPackageActivities
from openproject_mcp.application.api_spec import GetApiSpec
from openproject_mcp.application.caching import EnrichmentCache, TenantCaches, tenant_key
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
from openproject_mcp.config import Settings
from openproject_mcp.domain.entities import MeetingDetails
from openproject_mcp.domain.errors import AuthenticationError

U = TypeVar("U")


class FixtureRepositories(containers.DeclarativeContainer):
    """Every port served from an in-memory dataset."""

    dataset: providers.Dependency[Dataset] = providers.Dependency(instance_of=Dataset)
    projects = providers.Singleton(InMemoryProjectRepository, dataset)
    work_packages = providers.Singleton(InMemoryWorkPackageRepository, dataset)
    queries = providers.Singleton(InMemoryQueryRepository, dataset)
    metadata = providers.Singleton(InMemoryMetadataRepository, dataset)
    api_spec = providers.Singleton(InMemoryApiSpecRepository)
    meetings = providers.Singleton(InMemoryMeetingRepository, dataset)
    wiki_pages = providers.Singleton(InMemoryWikiPageRepository, dataset)
    wiki_page_links = providers.Singleton(InMemoryWikiPageLinkRepository, dataset)
    capabilities = providers.Singleton(InMemoryCapabilityRepository)


class OpenProjectRepositories(containers.DeclarativeContainer):
    """Every port served by one OpenProject instance, with one caller's token."""

    client_settings: providers.Dependency[ClientSettings] = providers.Dependency(instance_of=ClientSettings)
    api_key: providers.Dependency[str] = providers.Dependency(instance_of=str)
    connector: providers.Dependency[aiohttp.BaseConnector] = providers.Dependency(instance_of=aiohttp.BaseConnector)
    limiter: providers.Dependency[asyncio.Semaphore] = providers.Dependency(instance_of=asyncio.Semaphore)
    capability_cache: providers.Dependency[CapabilityCache] = providers.Dependency(instance_of=CapabilityCache)

    session = providers.Resource(open_session, client_settings, api_key, connector)
    client = providers.Singleton(OpenProjectClient, session, client_settings, api_key, limiter)
    projects = providers.Singleton(AiohttpProjectRepository, client)
    work_packages = providers.Singleton(AiohttpWorkPackageRepository, client)
    queries = providers.Singleton(AiohttpQueryRepository, client)
    metadata = providers.Singleton(AiohttpMetadataRepository, client)
    api_spec = providers.Singleton(AiohttpApiSpecRepository, client)
    meetings = providers.Singleton(AiohttpMeetingRepository, client, capability_cache)
    wiki_pages = providers.Singleton(AiohttpWikiPageRepository, client)
    wiki_page_links = providers.Singleton(AiohttpWikiPageLinkRepository, client)
    capabilities = providers.Singleton(AiohttpCapabilityRepository, client, capability_cache)


class RequestContainer(containers.DeclarativeContainer):
    """The use cases of one tool call, over the repositories chosen for it."""

    repositories = providers.DependenciesContainer()
    caches: providers.Dependency[TenantCaches] = providers.Dependency(instance_of=TenantCaches)
    tenant: providers.Dependency[str] = providers.Dependency(instance_of=str)
    instance: providers.Dependency[str] = providers.Dependency(instance_of=str)

    resolver = providers.Singleton(ProjectResolver, repositories.projects)
    wiki_references = providers.Factory(WikiReferences, caches, instance)
    comment_cache: providers.Factory[EnrichmentCache[tuple[str, ...]]] = providers.Factory(
        EnrichmentCache, caches, tenant, "work-package-comments"
    )
    agenda_cache: providers.Factory[EnrichmentCache[MeetingDetails]] = providers.Factory(
        EnrichmentCache, caches, tenant, "meeting-details"
    )

    list_projects = providers.Factory(ListProjects, repositories.projects)
    get_project = providers.Factory(GetProject, repositories.projects)
    list_work_packages = providers.Factory(
        ListWorkPackages, repositories.work_packages, repositories.metadata, resolver
    )
    get_work_package = providers.Factory(GetWorkPackage, repositories.work_packages, wiki_references)
    list_activities = providers.Factory(ListWorkPackageActivities, repositories.work_packages, wiki_references)
    search_work_packages = providers.Factory(
        SearchWorkPackages,
        repositories.work_packages,
        repositories.metadata,
        resolver,
        comment_cache,
        references=wiki_references,
    )
    list_queries = providers.Factory(ListQueries, repositories.queries, resolver)
    get_query = providers.Factory(GetQuery, repositories.queries)
    list_types = providers.Factory(ListTypes, repositories.metadata, resolver)
    list_statuses = providers.Factory(ListStatuses, repositories.metadata)
    list_priorities = providers.Factory(ListPriorities, repositories.metadata)
    list_users = providers.Factory(ListUsers, repositories.metadata)
    get_api_spec = providers.Factory(GetApiSpec, repositories.api_spec, caches, tenant)
    list_meetings = providers.Factory(ListMeetings, repositories.meetings, resolver)
    get_meeting = providers.Factory(GetMeeting, repositories.meetings)
    search_meetings = providers.Factory(
        SearchMeetings, repositories.meetings, repositories.capabilities, resolver, agenda_cache
    )
    get_wiki_page = providers.Factory(GetWikiPage, repositories.wiki_pages, wiki_references)
    search_wiki_pages = providers.Factory(
        SearchWikiPages,
        repositories.wiki_pages,
        repositories.wiki_page_links,
        resolver,
        caches,
        tenant,
        wiki_references,
    )
    list_wiki_page_links = providers.Factory(
        ListWikiPageLinks, repositories.wiki_page_links, repositories.wiki_pages, wiki_references
    )


USE_CASE_PROVIDERS: dict[type[Any], str] = {
    ListProjects: "list_projects",
    GetProject: "get_project",
    ListWorkPackages: "list_work_packages",
    GetWorkPackage: "get_work_package",
    ListWorkPackageActivities: "list_activities",
    SearchWorkPackages: "search_work_packages",
    ListQueries: "list_queries",
    GetQuery: "get_query",
    ListTypes: "list_types",
    ListStatuses: "list_statuses",
    ListPriorities: "list_priorities",
    ListUsers: "list_users",
    GetApiSpec: "get_api_spec",
    ListMeetings: "list_meetings",
    GetMeeting: "get_meeting",
    SearchMeetings: "search_meetings",
    GetWikiPage: "get_wiki_page",
    SearchWikiPages: "search_wiki_pages",
    ListWikiPageLinks: "list_wiki_page_links",
}


class RequestScope:
    """One tool call's use cases (what the MCP adapter's ``UseCaseScope`` asks for)."""

    def __init__(self, container: RequestContainer) -> None:
        self._container = container

    async def resolve(self, use_case: type[U]) -> U:
        provider: providers.Provider[U] = getattr(self._container, USE_CASE_PROVIDERS[use_case])
        provider.enable_async_mode()
        return await provider.async_()


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
    )


class AppContainer(containers.DeclarativeContainer):
    """What lives as long as the process."""

    settings: providers.Dependency[Settings] = providers.Dependency(instance_of=Settings)
    caches = providers.Singleton(TenantCaches)
    dataset = providers.Singleton(_load, settings)
    client_settings = providers.Singleton(_client_settings, settings)
    capability_cache = providers.Singleton(CapabilityCache)
    limiters = providers.Singleton(TenantLimiters, settings.provided.max_concurrency)


class Application:
    """Builds a scope per tool call. The one object the entry point hands to a transport.

    ``shared`` is true for the multi-tenant HTTP server: there a call without its own token is
    refused, unless the operator enabled single-tenant mode (``OPENPROJECT_SINGLE_TENANT``).
    Over stdio the server's own token serves the one user.
    """

    def __init__(self, settings: Settings, *, shared: bool = False) -> None:
        self.settings = settings
        self.shared = shared
        self.container = AppContainer(settings=providers.Object(settings))
        self._connector: aiohttp.BaseConnector | None = None
        if settings.backend != "openproject":
            self.container.dataset()  # load (and validate) the dataset before serving anything

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
        if self.settings.backend != "openproject":
            yield self._scope(
                FixtureRepositories(dataset=self.container.dataset), tenant_key(self.settings.instance, "")
            )
            return
        token = self.token_for(credential)
        tenant = tenant_key(self.settings.instance, token)
        repositories = OpenProjectRepositories(
            client_settings=self.container.client_settings,
            api_key=providers.Object(token),
            connector=providers.Object(self._pool()),
            limiter=providers.Object(self.container.limiters().for_tenant(tenant)),
            capability_cache=self.container.capability_cache,
        )
        try:
            yield self._scope(repositories, tenant)
        finally:
            shutdown = repositories.shutdown_resources()
            if shutdown is not None:
                await shutdown

    async def aclose(self) -> None:
        """Close the shared connection pool (at process end)."""
        if self._connector is not None:
            await self._connector.close()
            self._connector = None

    def _pool(self) -> aiohttp.BaseConnector:
        # Created on first use, inside the running event loop, and shared by every call.
        if self._connector is None or self._connector.closed:
            self._connector = aiohttp.TCPConnector(limit=100, limit_per_host=50, ttl_dns_cache=300)
        return self._connector

    def _scope(self, repositories: containers.Container, tenant: str) -> RequestScope:
        container = RequestContainer(
            caches=self.container.caches,
            tenant=providers.Object(tenant),
            instance=providers.Object(self.settings.instance),
        )
        container.repositories.override(repositories)
        return RequestScope(container)
