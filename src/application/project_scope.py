"""Resolving a ``projectId`` argument (a numeric id or an identifier) to a project id."""

from __future__ import annotations

from openproject_mcp.domain.errors import InvalidArgumentError
from openproject_mcp.ports import ProjectRepository


class ProjectResolver:
    """Turns ``projectId`` arguments into numeric ids, asking the backend once per identifier.

    One instance lives for one tool call, so the memo never outlives the caller's permissions.
    """

    def __init__(self, projects: ProjectRepository) -> None:
        self._projects = projects
        self._resolved: dict[str, int] = {}

    @property
    def lookups(self) -> int:
        """How many requests resolving has cost this call."""
        return len(self._resolved)

    async def resolve(self, ref: int | str | None) -> int | None:
        if ref is None:
            return None
        checked = project_ref(ref)
        if isinstance(checked, int):
            return checked
        if checked not in self._resolved:
            self._resolved[checked] = (await self._projects.get(checked)).id
        return self._resolved[checked]


def project_ref(ref: int | str) -> int | str:
    """A validated ``projectId``: a positive id (also given as digits), or a stripped identifier."""
    if isinstance(ref, bool) or (isinstance(ref, int) and ref < 1):
        raise InvalidArgumentError(f"projectId must be a positive id or an identifier, got {ref!r}.")
    if isinstance(ref, int):
        return ref
    text = ref.strip()
    if not text:
        raise InvalidArgumentError("projectId must not be blank.")
    return int(text) if text.isdigit() else text
