"""The write use cases' own rules, on the in-memory backend: names, durations, read-only, caches."""

from __future__ import annotations

import pytest

from openproject_mcp.application.search_work_packages import SearchWorkPackages, SearchWorkPackagesRequest
from openproject_mcp.application.write_names import Choice, choose, choose_assignee, hours_argument
from openproject_mcp.application.write_tools import (
    AddCommentRequest,
    AddWorkPackageComment,
    UpdateWorkPackage,
    UpdateWorkPackageRequest,
    WorkPackageFields,
)
from openproject_mcp.composition import Application
from openproject_mcp.config import Settings
from openproject_mcp.domain.durations import iso_hours, parse_hours
from openproject_mcp.domain.entities import User
from openproject_mcp.domain.errors import InvalidArgumentError, ReadOnlyError

STATUSES = [Choice(1, "New"), Choice(7, "In progress"), Choice(9, "In testing"), Choice(12, "Closed")]
USERS = [
    User(3, "Lena Müller", "lmueller"),
    User(4, "José Álvarez", "jalvarez"),
    User(12, "José Alvarez", "jalvarez2"),
]


@pytest.mark.parametrize(
    ("value", "hours"),
    [(1.5, 1.5), ("1.5", 1.5), ("1,25", 1.25), ("PT1H30M", 1.5), ("pt45m", 0.75), ("P1DT2H", 26.0), ("PT90S", 0.025)],
)
def test_durations_are_hours_or_iso_8601(value: float | str, hours: float) -> None:
    assert parse_hours(value) == pytest.approx(hours)


@pytest.mark.parametrize("value", ["", "PT", "P", "1h", "-2", "nan", "inf", "PT1H30"])
def test_what_is_not_a_duration_is_refused(value: str) -> None:
    assert parse_hours(value) is None
    with pytest.raises(InvalidArgumentError, match="PT1H30M"):
        hours_argument(value, "hours")


def test_hours_are_written_as_openproject_writes_them() -> None:
    assert [iso_hours(h) for h in (1.5, 2, 0.25, 0, 1 / 3)] == ["PT1H30M", "PT2H", "PT15M", "PT0S", "PT20M"]


def test_names_match_whatever_their_case_and_accents() -> None:
    assert choose("status", "in PROGRESS", STATUSES, "statuses") == 7
    assert choose("status", " closed ", STATUSES, "statuses") == 12
    assert choose("status", 9, STATUSES, "statuses") == 9
    assert choose("status", "9", STATUSES, "statuses") == 9


def test_an_unknown_name_lists_the_closest_valid_values_first() -> None:
    with pytest.raises(InvalidArgumentError) as caught:
        choose("status", "Clsoed", STATUSES, "statuses")
    assert caught.value.hint is not None and caught.value.hint.startswith("Closest valid values: Closed (12)")


def test_an_id_that_is_not_allowed_here_is_refused_with_the_valid_ones() -> None:
    with pytest.raises(InvalidArgumentError, match="not the id of one of the statuses") as caught:
        choose("status", 5, STATUSES, "statuses")
    assert "New (1)" in (caught.value.hint or "")


def test_an_ambiguous_name_asks_for_the_id() -> None:
    with pytest.raises(InvalidArgumentError, match="ambiguous") as caught:
        choose_assignee("jose alvarez", USERS, None)
    assert "José Álvarez (4)" in (caught.value.hint or "") and "José Alvarez (12)" in (caught.value.hint or "")


def test_an_assignee_is_me_a_login_a_name_or_an_id_among_the_available_ones() -> None:
    me = USERS[0]
    assert choose_assignee("me", USERS, me) == 3
    assert choose_assignee("JALVAREZ", USERS, me) == 4
    assert choose_assignee("lena mueller", USERS, me) == 3
    assert choose_assignee(12, USERS, me) == 12
    with pytest.raises(InvalidArgumentError, match="available assignees"):
        choose_assignee(99, USERS, me)


async def test_a_comment_drops_the_cached_comments_of_that_work_package_for_that_user() -> None:
    app = Application(Settings(backend="demo"))
    async with app.scope(None) as scope:
        search = await scope.resolve(SearchWorkPackages)
        await search.execute(SearchWorkPackagesRequest(query="wishlist"))
    cached = app.container.caches().enrichment
    assert any(key[2] == 104 for key in cached.keys_snapshot())
    async with app.scope(None) as scope:
        comment = await scope.resolve(AddWorkPackageComment)
        await comment.execute(AddCommentRequest(104, "Noted."))
    assert not any(key[2] == 104 and key[1] == "work-package-comments" for key in cached.keys_snapshot())
    assert any(key[2] != 104 for key in cached.keys_snapshot())  # only that record's entries went


async def test_read_only_refuses_in_the_core_whatever_the_transport() -> None:
    app = Application(Settings(backend="demo", read_only=True))
    async with app.scope(None) as scope:
        with pytest.raises(ReadOnlyError):
            await scope.resolve(UpdateWorkPackage)
    writes = app.container.fixture.work_package_writes()
    with pytest.raises(ReadOnlyError):
        await writes.add_comment(104, "x")
    assert all(not (a.comment or "").startswith("x") for a in app.container.dataset().activities[104])


async def test_an_update_without_any_field_is_refused_before_anything_is_sent() -> None:
    app = Application(Settings(backend="demo"))
    async with app.scope(None) as scope:
        update = await scope.resolve(UpdateWorkPackage)
        with pytest.raises(InvalidArgumentError, match="Nothing to change"):
            await update.execute(UpdateWorkPackageRequest(104, WorkPackageFields()))
