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

    async def resolve(self, ref: int | str | None) -> int | None:
        if ref is None:
            return None
        if isinstance(ref, bool):
            raise InvalidArgumentError(f"projectId must be a project id or identifier, got {ref!r}.")
        if isinstance(ref, int):
            if ref < 1:
                raise InvalidArgumentError(f"projectId must be a positive id or an identifier, got {ref}.")
            return ref
        text = ref.strip()
        if not text:
            raise InvalidArgumentError("projectId must not be blank.")
        if text.isdigit():
            return int(text)
        if text not in self._resolved:
            self._resolved[text] = (await self._projects.get(text)).id
        return self._resolved[text]
