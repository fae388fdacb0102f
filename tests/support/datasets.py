"""Datasets for tests: the shipped ones, and small generated ones written to a temporary file."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any, TypeVar

from openproject_mcp.composition import Application, RequestScope
from openproject_mcp.config import Settings

U = TypeVar("U")

DEMO = Settings(backend="demo")


def dataset_settings(path: Path) -> Settings:
    return Settings(backend="dataset", dataset_path=path)


@asynccontextmanager
async def scope_for(settings: Settings) -> AsyncIterator[RequestScope]:
    async with Application(settings).scope(None) as scope:
        yield scope


async def use_case(settings: Settings, kind: type[U]) -> U:
    async with scope_for(settings) as scope:
        return await scope.resolve(kind)


def iso(moment: datetime) -> str:
    return moment.strftime("%Y-%m-%dT%H:%M:%SZ")


def base_document() -> dict[str, Any]:
    """The smallest consistent organisation: two users, one project, the usual metadata."""
    return {
        "instance": {"version": "18.0", "name": "Generated"},
        "users": [
            {"id": 1, "name": "Anna Müller", "login": "amuller", "email": "anna@example.com", "status": "active"},
            {"id": 2, "name": "Ben Carter", "login": "bcarter", "email": "ben@example.com", "status": "active"},
        ],
        "projects": [
            {
                "id": 1,
                "identifier": "ops",
                "name": "Operations",
                "description": "Everything.",
                "active": True,
                "public": False,
                "parent": None,
                "createdAt": "2026-01-01T00:00:00Z",
                "updatedAt": "2026-01-01T00:00:00Z",
            }
        ],
        "types": [{"id": 1, "name": "Task", "isMilestone": False, "isDefault": True, "color": "#000000"}],
        "statuses": [
            {"id": 1, "name": "New", "isClosed": False, "isDefault": True},
            {"id": 2, "name": "Closed", "isClosed": True, "isDefault": False},
        ],
        "priorities": [{"id": 1, "name": "Normal", "isDefault": True, "isActive": True}],
        "work_packages": [],
        "meetings": [],
        "wiki_pages": [],
    }


def work_package_row(
    wp_id: int, subject: str, description: str, comment: str, moment: datetime, *, status: int = 1
) -> dict[str, Any]:
    """One work package of :func:`base_document`'s project, with one comment written at ``moment``."""
    return {
        "id": wp_id,
        "project": 1,
        "subject": subject,
        "description": description,
        "type": 1,
        "status": status,
        "priority": 1,
        "author": 2,
        "assignee": None,
        "parent": None,
        "startDate": None,
        "dueDate": None,
        "percentageDone": 0,
        "createdAt": iso(moment),
        "updatedAt": iso(moment),
        "activities": [
            {"id": 10_000 + wp_id, "version": 1, "user": 2, "createdAt": iso(moment), "comment": comment, "details": []}
        ],
    }


def many_work_packages(count: int, *, old_comment: str | None = None) -> dict[str, Any]:
    """``count`` routine work packages, id 1 the oldest; id 1 may carry one distinctive comment."""
    document = base_document()
    start = datetime(2025, 1, 1, tzinfo=UTC)
    for i in range(1, count + 1):
        moment = start + timedelta(hours=i)
        comment = old_comment if i == 1 and old_comment else ""
        document["work_packages"].append(
            work_package_row(
                i,
                f"Routine maintenance task {i}",
                "Check the usual things.",
                comment,
                moment,
                status=2 if i == 1 else 1,
            )
        )
    return document


def crowded_work_packages(count: int, comments: dict[int, str]) -> dict[str, Any]:
    """``count`` routine work packages, id 1 the oldest, each commented as ``comments`` says (no
    comment otherwise): common words spread over many records bury an old one in every leg."""
    document = base_document()
    start = datetime(2025, 1, 1, tzinfo=UTC)
    for i in range(1, count + 1):
        document["work_packages"].append(
            work_package_row(
                i,
                f"Routine maintenance task {i}",
                "Check the usual things.",
                comments.get(i, ""),
                start + timedelta(hours=i),
            )
        )
    return document


def many_meetings(count: int, *, old_outcome: str | None = None) -> dict[str, Any]:
    """``count`` routine meetings, id 1 the oldest; id 1 may record one distinctive outcome."""
    document = base_document()
    start = datetime(2025, 1, 1, 9, tzinfo=UTC)
    for i in range(1, count + 1):
        moment = start + timedelta(days=i)
        document["meetings"].append(
            {
                "id": i,
                "project": 1,
                "title": f"Weekly sync {i}",
                "location": "Room A",
                "startTime": iso(moment),
                "endTime": iso(moment + timedelta(hours=1)),
                "state": "closed",
                "author": 1,
                "participants": [1, 2],
                "createdAt": iso(moment),
                "updatedAt": iso(moment),
                "agendaItems": [
                    {
                        "id": 1000 + i,
                        "title": "Status round",
                        "notes": "",
                        "position": 1,
                        "durationInMinutes": 10,
                        "workPackage": None,
                        "outcomes": [old_outcome] if i == 1 and old_outcome else [],
                    }
                ],
            }
        )
    return document


def marked_organisation(marker: str, work_packages: int = 12, meetings: int = 8) -> dict[str, Any]:
    """Work packages with comments, meetings with agenda items and three wiki pages, every visible
    text carrying ``marker``: an answer, or a cache entry, shows whose organisation it came from."""
    document = many_work_packages(work_packages)
    document["meetings"] = many_meetings(meetings)["meetings"]
    document["instance"]["name"] = f"{marker} instance"
    for user in document["users"]:
        user["name"] = f"{user['name']} {marker}"
    document["projects"][0]["name"] = f"{marker} operations"
    for work_package in document["work_packages"]:
        work_package["subject"] = f"{marker} routine maintenance task {work_package['id']}"
        work_package["description"] = f"Check the usual {marker} things."
        for activity in work_package["activities"]:
            activity["comment"] = f"{marker} note on task {work_package['id']}"
    for meeting in document["meetings"]:
        meeting["title"] = f"{marker} weekly sync {meeting['id']}"
        for item in meeting["agendaItems"]:
            item["notes"] = f"{marker} figures"
    document["wiki_pages"] = [
        {"id": n, "project": 1, "title": f"{marker} handbook part {n}", "updatedAt": "2026-09-30T08:00:00Z"}
        for n in (1, 2, 3)
    ]
    return document


def write(tmp_path: Path, document: dict[str, Any], name: str = "dataset.json") -> Path:
    path = tmp_path / name
    path.write_text(json.dumps(document), encoding="utf-8")
    return path
