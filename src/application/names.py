"""Names for ids: statuses, types, priorities and the like, as people and assistants write them.

A name matches when it is equal after folding case, accents and spacing ("in progress" is
"In Progress", "Geschlossen" is "geschlossen", "Resolu" is not "Résolu" but is suggested). An
unknown or ambiguous name is an ``INVALID_ARGUMENT`` that lists the closest valid names, so the
next attempt can be right; nothing is sent to OpenProject before the name is settled.
"""

from __future__ import annotations

import difflib
from collections.abc import Callable, Sequence
from typing import Protocol, TypeVar

from openproject_mcp.domain.errors import InvalidArgumentError
from openproject_mcp.domain.search.normalize import fold_for_containment

MAX_LISTED = 12

N = TypeVar("N")


class Named(Protocol):
    @property
    def id(self) -> int: ...

    @property
    def name(self) -> str: ...


_GERMAN = (("ae", "a"), ("oe", "o"), ("ue", "u"))


def fold_name(text: str) -> str:
    """A name as names are compared: case, accents and spacing folded (the search's folding), and
    German transliterations read as the letter (*Mueller* = *Müller*)."""
    folded = fold_for_containment(text)
    for pair, letter in _GERMAN:
        folded = folded.replace(pair, letter)
    return folded


def named(value: str, candidates: Sequence[N], names: Callable[[N], Sequence[str]]) -> list[N]:
    """The candidates one of whose ``names`` is ``value`` once folded (``fold_name``)."""
    wanted = fold_name(value)
    return [c for c in candidates if any(fold_name(n) == wanted for n in names(c))]


def resolve_name(value: str, candidates: Sequence[Named], *, argument: str, what: str, listing: str) -> int:
    """The id of the one candidate named ``value``.

    ``argument`` is the argument's name, ``what`` what the candidates are ("status"),
    ``listing`` the tool that lists them, for the hint.
    """
    if not fold_name(value):
        raise InvalidArgumentError(f"{argument} must be a {what} id or name, got a blank string.")
    exact = named(value, candidates, lambda c: (c.name,))
    if len(exact) == 1:
        return exact[0].id
    if len(exact) > 1:
        ids = ", ".join(f"{c.name!r} = {c.id}" for c in exact)
        raise InvalidArgumentError(
            f"{argument} {value!r} names more than one {what}: {ids}.", hint="Send the id of the one you mean."
        )
    raise InvalidArgumentError(
        f"{argument} {value!r} is not a {what} here.",
        hint=f"{closest_names(value, [c.name for c in candidates])} See {listing}.",
    )


def closest_names(value: str, names: Sequence[str]) -> str:
    """A sentence naming the valid names closest to ``value`` first (all of them when few)."""
    if not names:
        return "There are none to choose from."
    folded = {fold_name(n): n for n in names}
    near = [folded[f] for f in difflib.get_close_matches(fold_name(value), list(folded), n=3, cutoff=0.5)]
    wanted = fold_name(value)
    near += [n for f, n in folded.items() if n not in near and (wanted in f or (f and f in wanted))]
    rest = [n for n in names if n not in near]
    ordered = near + rest
    shown = ", ".join(repr(n) for n in ordered[:MAX_LISTED])
    more = f" and {len(ordered) - MAX_LISTED} more" if len(ordered) > MAX_LISTED else ""
    lead = f"Did you mean {near[0]!r}? " if near else ""
    return f"{lead}Valid names: {shown}{more}."
