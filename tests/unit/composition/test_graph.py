"""The composition root's rules: the registry is derived from the container, fixture state is
built once per process, the read-only policy lives in the core, and a bad setting fails at start."""

from __future__ import annotations

import dataclasses

import pytest
from dependency_injector import providers

from openproject_mcp.adapters.fixture.project_repository import InMemoryProjectRepository
from openproject_mcp.adapters.mcp.catalog import TOOLS
from openproject_mcp.application.attachments import ListAttachments, ReadAttachment
from openproject_mcp.application.projects import ListProjects, ListProjectsRequest
from openproject_mcp.application.writes import WritePolicy, WriteUseCase
from openproject_mcp.composition import Application, Call, RequestScope, UseCases, current_call, use_case_registry
from openproject_mcp.config import ConfigurationError, Settings
from openproject_mcp.domain.errors import ReadOnlyError

DEMO = Settings(backend="demo")


class Notes:
    """A write port kept in memory for the test: it checks the policy before it changes anything."""

    def __init__(self, policy: WritePolicy) -> None:
        self.policy = policy
        self.saved: list[str] = []

    def add(self, text: str) -> None:
        self.policy.check("Adding a note")
        self.saved.append(text)


class AddNote(WriteUseCase):
    def __init__(self, notes: Notes) -> None:
        self._notes = notes

    async def execute(self, text: str) -> None:
        self._notes.add(text)


class WithAWrite(UseCases):
    """What registering a write use case is: one provider line."""

    policy = providers.Dependency(instance_of=WritePolicy)
    notes = providers.Singleton(Notes, policy)
    add_note = providers.Factory(AddNote, notes)


def test_the_registry_is_every_use_case_of_the_container_and_serves_every_tool() -> None:
    registry = Application(DEMO).registry
    # The tools' use cases, and the two that only resources use (attachments).
    assert len(registry) == len(TOOLS) + 2 == 27
    assert ListProjects in registry
    assert ListAttachments in registry and ReadAttachment in registry
    assert all(callable(getattr(kind, "execute", None)) for kind in registry)


@pytest.mark.parametrize("read_only", [False, True])
def test_write_use_cases_are_registered_only_when_writes_are_allowed(read_only: bool) -> None:
    registry = use_case_registry(WithAWrite(policy=providers.Object(WritePolicy(read_only))), read_only=read_only)
    assert (AddNote in registry) is not read_only
    assert ListProjects in registry


async def test_a_write_use_case_resolved_read_only_is_refused_by_the_core() -> None:
    registry = use_case_registry(WithAWrite(policy=providers.Object(WritePolicy(True))), read_only=True)
    scope = RequestScope(registry, Call("", "tenant"), read_only=True)
    with pytest.raises(ReadOnlyError, match="AddNote changes data"):
        await scope.resolve(AddNote)
    with pytest.raises(LookupError, match="not a registered use case"):  # writable, but never declared
        await RequestScope({}, Call("", "tenant")).resolve(AddNote)


async def test_a_write_port_refuses_in_read_only_mode_even_when_reached() -> None:
    container = WithAWrite(policy=providers.Object(WritePolicy(True)))
    notes = container.notes()
    with pytest.raises(ReadOnlyError, match="Adding a note changes data") as caught:
        notes.add("x")
    assert notes.saved == [] and caught.value.hint and "--read-only" in caught.value.hint
    writable = WithAWrite(policy=providers.Object(WritePolicy(False))).notes()
    writable.add("x")
    assert writable.saved == ["x"]


async def test_fixture_repositories_are_built_once_per_process_and_shared_by_calls() -> None:
    app = Application(DEMO)
    seen = set()
    for _ in range(3):
        async with app.scope(None) as scope:
            use_case = await scope.resolve(ListProjects)
            await use_case.execute(ListProjectsRequest())
            seen.add(id(use_case._projects))
    assert seen == {id(app.container.fixture.projects())}


async def test_a_part_is_swapped_through_the_container() -> None:
    app = Application(DEMO)
    no_projects = dataclasses.replace(app.container.dataset(), projects={})
    with app.container.fixture.projects.override(providers.Object(InMemoryProjectRepository(no_projects))):
        async with app.scope(None) as scope:
            assert (await (await scope.resolve(ListProjects)).execute(ListProjectsRequest())).total == 0
    async with app.scope(None) as scope:
        assert (await (await scope.resolve(ListProjects)).execute(ListProjectsRequest())).total > 0


def test_per_call_providers_exist_only_inside_a_call() -> None:
    with pytest.raises(RuntimeError, match="outside a tool call"):
        current_call()


@pytest.mark.parametrize(
    "url",
    ["https://user:pw-secret@op.example.com/", "ftp://op.example.com/", "https://op.example.com/?token=pw-secret"],
)
def test_settings_refuse_a_bad_base_url_naming_the_setting_and_not_the_secret(url: str) -> None:
    with pytest.raises(ConfigurationError) as caught:
        Settings(backend="openproject", base_url=url, api_key="k")
    assert str(caught.value).startswith("OPENPROJECT_BASE_URL is invalid: ")
    assert "pw-secret" not in str(caught.value)


def test_settings_normalise_the_base_url_once_with_the_clients_rule() -> None:
    assert Settings(backend="openproject", base_url="HTTPS://Op.Example.com:443/api/v3").base_url == (
        "https://op.example.com/"
    )
