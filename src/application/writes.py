"""The read-only policy, enforced in the core.

A use case that changes data says so (``writes = True``, as :class:`WriteUseCase` does). When
the server runs read-only, the composition root does not register such use cases at all, and
every write port is handed a :class:`WritePolicy` that refuses with ``ReadOnlyError`` before
anything is sent, so a write cannot happen even through a path nobody registered by mistake.
The MCP adapter only reflects the policy: it lists and answers the tools it was given.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from openproject_mcp.domain.errors import ReadOnlyError

READ_ONLY_HINT = "Start the server without --read-only (and without OPENPROJECT_READ_ONLY) to allow writes."


def read_only_error(action: str) -> ReadOnlyError:
    """The one refusal of a write in read-only mode, naming what was refused and how to allow it."""
    return ReadOnlyError(f"{action} changes data, and this server runs in read-only mode.", hint=READ_ONLY_HINT)


class WriteUseCase:
    """Base of the use cases that create, change or delete something."""

    writes: ClassVar[bool] = True


def writes(use_case: type[object]) -> bool:
    """Whether a use case class changes data."""
    return bool(getattr(use_case, "writes", False))


@dataclass(frozen=True, slots=True)
class WritePolicy:
    """Whether writes are allowed in this process; write ports call :meth:`check` first."""

    read_only: bool

    def check(self, action: str) -> None:
        """Raise ``ReadOnlyError`` naming ``action`` when the server runs read-only."""
        if self.read_only:
            raise read_only_error(action)
