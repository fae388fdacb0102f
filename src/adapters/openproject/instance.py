"""The instance's own facts over API v3: the root (``GET /api/v3``) and the token's user (``/users/me``).

The root names the instance to everyone and its version to administrators only; ``/users/me`` is
the token's own user, whose ``admin`` flag, again, only an administrator sees (sources S140–S142 in
``docs/openproject-versions.md``).
"""

from __future__ import annotations

from openproject_mcp.adapters.openproject import endpoints, hal, mapping
from openproject_mcp.adapters.openproject.client import OpenProjectClient
from openproject_mcp.adapters.openproject.concurrency import together
from openproject_mcp.adapters.openproject.fetching import fetch
from openproject_mcp.domain.entities import InstanceFacts, User
from openproject_mcp.domain.errors import ForbiddenError, NotFoundError
from openproject_mcp.ports.repositories import InstanceRepository


class AiohttpInstanceRepository(InstanceRepository):
    def __init__(self, client: OpenProjectClient) -> None:
        self._client = client

    async def facts(self) -> InstanceFacts:
        root, me = await together([self._root(), self._me()])
        assert isinstance(root, hal.RootHal)
        user: User | None
        admin: bool | None = None
        if isinstance(me, hal.CurrentUserHal):
            user, admin = mapping.user(me), me.admin
        else:  # /users/me was not readable: the root's user link still names the caller
            link = root.links.user
            user_id = mapping.id_from_href(link.href) if link is not None else None
            user = User(user_id, link.title or f"user {user_id}") if link is not None and user_id else None
        return InstanceFacts(
            name=root.instance_name or "OpenProject",
            version=root.core_version,
            current_user=user,
            admin=admin,
            url=self._client.base_url,
        )

    async def _root(self) -> hal.RootHal | hal.CurrentUserHal | None:
        return await fetch(self._client, endpoints.ROOT.path(), hal.RootHal)

    async def _me(self) -> hal.RootHal | hal.CurrentUserHal | None:
        try:
            return await fetch(self._client, endpoints.USER.path(id="me"), hal.CurrentUserHal)
        except (NotFoundError, ForbiddenError):
            return None
