"""Hand-written HAL payloads shaped like OpenProject's, for the repository tests."""

from __future__ import annotations

from typing import Any

JSON = dict[str, Any]


def link(href: str | None, title: str | None = None) -> JSON:
    return {"href": href, **({"title": title} if title is not None else {})}


def collection(elements: list[JSON], *, total: int | None = None, paginated: bool = True, **extra: Any) -> JSON:
    payload: JSON = {
        "_type": "Collection",
        "total": len(elements) if total is None else total,
        "count": len(elements),
        "_embedded": {"elements": elements},
        "_links": {"self": link("/api/v3/whatever")},
    }
    if paginated:
        payload |= {"pageSize": 20, "offset": 1}
    payload.update(extra)
    return payload


def project(project_id: int = 1, identifier: str = "demo", name: str = "Demo project") -> JSON:
    return {
        "_type": "Project",
        "id": project_id,
        "identifier": identifier,
        "name": name,
        "active": True,
        "public": False,
        "description": {"format": "markdown", "raw": f"About {name}", "html": "<p>...</p>"},
        "_links": {"self": link(f"/api/v3/projects/{project_id}", name), "parent": link(None)},
    }


def work_package(wp_id: int = 38, subject: str = "Fix login redirect", **extra: Any) -> JSON:
    payload: JSON = {
        "_type": "WorkPackage",
        "id": wp_id,
        "subject": subject,
        "description": {"format": "markdown", "raw": f"Description of {subject}", "html": "<p>...</p>"},
        "startDate": "2026-09-01",
        "dueDate": None,
        "percentageDone": 0,
        "createdAt": "2026-09-01T09:00:00Z",
        "updatedAt": "2026-09-10T09:00:00Z",
        "_links": {
            "self": link(f"/api/v3/work_packages/{wp_id}", subject),
            "schema": link("/api/v3/work_packages/schemas/1-1"),
            "project": link("/api/v3/projects/1", "Demo project"),
            "type": link("/api/v3/types/1", "Task"),
            "status": link("/api/v3/statuses/1", "New"),
            "priority": link("/api/v3/priorities/8", "Normal"),
            "author": link("/api/v3/users/4", "Anna Müller"),
            "assignee": link(None),
            "parent": link(None),
        },
    }
    payload.update(extra)
    return payload


def activity(activity_id: int, version: int, created_at: str, user_href: str, comment: str = "") -> JSON:
    return {
        "_type": "Activity::Comment" if comment else "Activity",
        "id": activity_id,
        "version": version,
        "comment": {"format": "markdown", "raw": comment, "html": ""},
        "details": [],
        "createdAt": created_at,
        "_links": {"self": link(f"/api/v3/activities/{activity_id}"), "user": link(user_href)},
    }


def user(user_id: int, name: str, **extra: Any) -> JSON:
    return {"_type": "User", "id": user_id, "name": name, **extra}


def meeting(meeting_id: int = 2, title: str = "Approval of Q3 budget", **extra: Any) -> JSON:
    payload: JSON = {
        "_type": "Meeting",
        "id": meeting_id,
        "title": title,
        "location": "Room A",
        "startTime": "2026-09-08T10:00:00Z",
        "endTime": "2026-09-08T11:00:00Z",
        "duration": 1.0,
        "_links": {
            "self": link(f"/api/v3/meetings/{meeting_id}", title),
            "project": link("/api/v3/projects/1", "Demo project"),
            "author": link("/api/v3/users/4", "Anna Müller"),
        },
    }
    payload.update(extra)
    return payload


def agenda_item(item_id: int, title: str, position: int, **extra: Any) -> JSON:
    payload: JSON = {
        "_type": "MeetingAgendaItem",
        "id": item_id,
        "title": title,
        "notes": {"format": "markdown", "raw": f"Notes on {title}", "html": ""},
        "position": position,
        "durationInMinutes": 15,
        "_links": {"self": link(f"/api/v3/meeting_agenda_items/{item_id}", title)},
    }
    payload.update(extra)
    return payload


def outcome(outcome_id: int, notes: str) -> JSON:
    return {"_type": "MeetingOutcome", "id": outcome_id, "notes": {"format": "markdown", "raw": notes}}


def wiki_page(page_id: int = 1, title: str = "Onboarding Guide", text: str | None = None) -> JSON:
    payload: JSON = {
        "_type": "WikiPage",
        "id": page_id,
        "title": title,
        "_links": {
            "self": link(f"/api/v3/wiki_pages/{page_id}"),
            "project": link("/api/v3/projects/1", "Demo project"),
            "attachments": link(f"/api/v3/wiki_pages/{page_id}/attachments"),
        },
    }
    if text is not None:
        payload["text"] = {"format": "markdown", "raw": text, "html": ""}
    return payload


def error(name: str, message: str) -> JSON:
    return {"_type": "Error", "errorIdentifier": f"urn:openproject-org:api:v3:errors:{name}", "message": message}
