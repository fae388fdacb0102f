"""Turning what the model wrote (names, ``me``, logins, display ids, ``1.5`` or ``PT1H30M``) into ids.

A name matches as :func:`names.fold_name` compares names (*José* = *jose*, *In Progress* =
*in progress*, *Müller* = *Mueller*), the same rule as the read tools' names. Exactly one
candidate must match: none or several is ``INVALID_ARGUMENT`` listing the closest valid values,
raised before any write is sent.
"""

from __future__ import annotations

import difflib
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import date

from openproject_mcp.application.arguments import positive_id
from openproject_mcp.application.names import fold_name, named
from openproject_mcp.domain.durations import parse_hours
from openproject_mcp.domain.entities import User
from openproject_mcp.domain.errors import InvalidArgumentError

SHOWN = 8
"""At most this many valid values are listed in an error (the closest first)."""


@dataclass(frozen=True, slots=True)
class Choice:
    """One valid value: its id, its display name, and other names it answers to (a login)."""

    id: int
    name: str
    aliases: tuple[str, ...] = ()


def closest(wanted: str, choices: Sequence[Choice], limit: int = SHOWN) -> list[str]:
    """The display names of the choices nearest to ``wanted``, nearest first, then the others."""
    folded = fold_name(wanted)
    scored = sorted(
        choices,
        key=lambda c: (
            -max(difflib.SequenceMatcher(None, folded, fold_name(n)).ratio() for n in (c.name, *c.aliases)),
            c.name,
        ),
    )
    return [f"{c.name} ({c.id})" for c in scored[:limit]]


def choose(argument: str, value: int | str, choices: Sequence[Choice], what: str) -> int:
    """The id of the one choice ``value`` names: its id (a number or digits), or its name or alias."""
    if not choices:
        raise InvalidArgumentError(f"{argument}: there are no {what} to choose from here.")
    if isinstance(value, bool):
        raise InvalidArgumentError(f"{argument} must be a name or an id, got {value!r}.")
    if isinstance(value, int) or value.strip().isdigit():
        wanted_id = positive_id(value, argument)
        if any(c.id == wanted_id for c in choices):
            return wanted_id
        raise InvalidArgumentError(
            f"{argument}: {wanted_id} is not the id of one of the {what} allowed here.",
            hint=f"Valid values: {', '.join(closest(str(wanted_id), choices))}.",
        )
    if not fold_name(value):
        raise InvalidArgumentError(f"{argument} must not be blank.")
    matches = named(value, choices, lambda c: (c.name, *c.aliases))
    if len(matches) == 1:
        return matches[0].id
    if matches:
        raise InvalidArgumentError(
            f"{argument}: {value!r} is ambiguous: it names {len(matches)} {what}.",
            hint=f"Pass the id instead: {', '.join(f'{c.name} ({c.id})' for c in matches[:SHOWN])}.",
        )
    raise InvalidArgumentError(
        f"{argument}: {value!r} is not one of the {what} allowed here.",
        hint=f"Closest valid values: {', '.join(closest(value, choices))}.",
    )


def user_choices(users: Sequence[User]) -> list[Choice]:
    return [Choice(u.id, u.name, tuple(a for a in (u.login, u.email) if a)) for u in users]


def choose_assignee(value: int | str, candidates: Sequence[User], me: User | None) -> int:
    """``me``, a login, a name or an id, among the project's available assignees."""
    if isinstance(value, str) and value.strip().lower() == "me":
        if me is None:
            raise InvalidArgumentError("assignee: 'me' cannot be resolved: the token's user is unknown.")
        value = me.id
    return choose("assignee", value, user_choices(candidates), "available assignees of this project")


def hours_argument(value: float | int | str, argument: str, *, positive: bool = True) -> float:
    hours = parse_hours(value)
    if hours is None or (positive and hours <= 0):
        raise InvalidArgumentError(
            f"{argument} must be a {'positive ' if positive else ''}number of hours such as 1.5, or an ISO 8601 "
            f"duration such as PT1H30M; got {value!r}."
        )
    if hours > 1000:
        raise InvalidArgumentError(f"{argument} is {hours:g} hours; at most 1000 are accepted.")
    # OpenProject's API writes hours as an ISO 8601 duration to the second: what is kept is that,
    # on every backend alike, and a positive time under half a second would be written as none.
    seconds = round(hours * 3600)
    if positive and seconds == 0:
        raise InvalidArgumentError(
            f"{argument} is {hours:g} hours, less than a second (hours are kept to the second); give at least "
            "0.0003 hours (one second), e.g. 0.25 for 15 minutes."
        )
    return seconds / 3600


def date_argument(value: str | None, argument: str) -> date | None:
    if value is None:
        return None
    try:
        return date.fromisoformat(value.strip())
    except ValueError:
        raise InvalidArgumentError(f"{argument} must be a date as YYYY-MM-DD, got {value!r}.") from None
