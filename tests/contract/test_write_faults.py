"""A write whose answer is lost is reported as "outcome unknown" and is never sent twice.

The fake OpenProject applies the write, then withholds its answer (late beyond the client's timeout,
or a dropped connection, or a gateway error). The recorded requests prove the write went out exactly
once, and a read afterwards shows it did happen: which is why it must not be repeated blindly.
Each write logs one audit line on stderr, without the token or the text written.
"""

from __future__ import annotations

import base64
import logging
from collections.abc import AsyncIterator
from typing import Any

import pytest
from mcp import Client
from mcp.types import CallToolResult

from openproject_mcp.adapters.mcp.server import build_server
from openproject_mcp.composition import Application
from openproject_mcp.config import Settings
from tests.contract.conftest import served_dataset
from tests.support.fake_openproject import FakeOpenProject, Fault

TOKEN = "write-token-6c1f0e9a"
SECRETS = (TOKEN, base64.b64encode(f"apikey:{TOKEN}".encode()).decode())
COMMENT = "Confidential: the supplier quote is 41,250 EUR"


def text_of(result: CallToolResult) -> str:
    return "\n".join(getattr(c, "text", "") for c in result.content)


@pytest.fixture
async def fake() -> AsyncIterator[FakeOpenProject]:
    async with FakeOpenProject({TOKEN: served_dataset()}, profile="17.8") as server:
        yield server


async def call(fake: FakeOpenProject, tool: str, arguments: dict[str, Any], **settings: Any) -> CallToolResult:
    app = Application(Settings(backend="openproject", base_url=fake.base_url, api_key=TOKEN, max_retries=3, **settings))
    try:
        async with Client(build_server(app.scope)) as client:
            return await client.call_tool(tool, arguments)
    finally:
        await app.aclose()


def sent(fake: FakeOpenProject, method: str, path: str) -> int:
    return sum(1 for r in fake.requests if r.method == method and r.path == path)


@pytest.mark.parametrize(
    ("fault", "code"),
    [
        (Fault(200, r"/time_entries$", method="POST", after_apply=True, delay=3.0), "OPENPROJECT_NETWORK_ERROR"),
        (Fault(0, r"/time_entries$", method="POST", after_apply=True), "OPENPROJECT_NETWORK_ERROR"),
        (Fault(504, r"/time_entries$", method="POST", after_apply=True), "OPENPROJECT_SERVER_ERROR"),
    ],
    ids=["timeout", "dropped", "gateway"],
)
async def test_a_post_whose_answer_is_lost_is_outcome_unknown_and_sent_exactly_once(
    fake: FakeOpenProject, fault: Fault, code: str
) -> None:
    fake.inject(fault)
    result = await call(fake, "openproject_log_time", {"workPackageId": 104, "hours": 2}, timeout_seconds=1.0)
    text = text_of(result)
    assert result.is_error and text.startswith(f"Error [{code}]: "), text
    assert "outcome is unknown" in text and "not sent again" in text
    assert "Check the current state" in text and "openproject_list_time_entries (workPackageId 104)" in text
    assert sent(fake, "POST", "/api/v3/time_entries") == 1
    fake.clear()
    listed = await call(fake, "openproject_list_time_entries", {"workPackageId": 104})
    assert listed.structured_content is not None and listed.structured_content["total"] == 1  # it did happen


async def test_a_patch_whose_answer_is_lost_is_not_repeated(fake: FakeOpenProject) -> None:
    fake.inject(Fault(0, r"/work_packages/104$", method="PATCH", after_apply=True))
    result = await call(fake, "openproject_update_work_package", {"workPackageId": 104, "status": "Confirmed"})
    assert result.is_error and "outcome is unknown" in text_of(result)
    assert sent(fake, "PATCH", "/api/v3/work_packages/104") == 1
    assert fake.tenant(TOKEN).dataset.work_packages[104].status == "Confirmed"


async def test_a_comment_whose_answer_is_lost_is_not_posted_twice(fake: FakeOpenProject) -> None:
    fake.inject(Fault(0, r"/work_packages/104/activities$", method="POST", after_apply=True))
    result = await call(fake, "openproject_add_work_package_comment", {"workPackageId": 104, "comment": COMMENT})
    assert result.is_error and "outcome is unknown" in text_of(result)
    assert sent(fake, "POST", "/api/v3/work_packages/104/activities") == 1
    comments = [a.comment for a in fake.tenant(TOKEN).dataset.activities[104] if a.comment]
    assert comments.count(COMMENT) == 1


async def test_a_rate_limited_write_is_retried_because_openproject_did_not_process_it(fake: FakeOpenProject) -> None:
    fake.inject(Fault(429, r"/work_packages/104/activities$", method="POST", times=1, retry_after="0"))
    result = await call(fake, "openproject_add_work_package_comment", {"workPackageId": 104, "comment": "Twice?"})
    assert not result.is_error, text_of(result)
    assert sent(fake, "POST", "/api/v3/work_packages/104/activities") == 2  # the 429, then the one that counted
    comments = [a.comment for a in fake.tenant(TOKEN).dataset.activities[104] if a.comment]
    assert comments.count("Twice?") == 1


async def test_each_write_logs_one_audit_line_without_the_token_or_the_text(
    fake: FakeOpenProject, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.DEBUG)
    await call(fake, "openproject_add_work_package_comment", {"workPackageId": 104, "comment": COMMENT})
    await call(fake, "openproject_update_work_package", {"workPackageId": 103, "status": "Closed"})
    read = await call(fake, "openproject_get_work_package", {"workPackageId": 104})
    assert read.structured_content is not None
    seen = read.structured_content["lockVersion"]
    await call(fake, "openproject_update_work_package", {"workPackageId": 104, "subject": "Moved on"})
    await call(fake, "openproject_update_work_package", {"workPackageId": 104, "lockVersion": seen, "subject": "x"})
    await call(fake, "openproject_update_work_package", {"workPackageId": 104, "status": "Closed", "dryRun": True})
    # An update giving the values the work package has sends nothing, yet is an answered write.
    await call(fake, "openproject_update_work_package", {"workPackageId": 104, "subject": "Moved on"})
    audit = [r.getMessage() for r in caplog.records if r.name == "openproject_mcp.audit"]
    assert len(audit) == 5, audit  # a dry run writes nothing, so it is not a write
    user = audit[0].split("user=")[1].split()[0]
    assert user.startswith("tenant:") and len(user) > 20
    assert (
        audit[0]
        == f"write tool=openproject_add_work_package_comment record=work_package:104 user={user} outcome=commented"
    )
    assert audit[1].endswith("record=work_package:103 user=" + user + " outcome=refused")
    assert audit[2].endswith("record=work_package:104 user=" + user + " outcome=updated")
    assert audit[3].endswith("record=work_package:104 user=" + user + " outcome=conflict")
    assert audit[4].endswith("record=work_package:104 user=" + user + " outcome=unchanged")
    logged = "\n".join(r.getMessage() for r in caplog.records)
    assert COMMENT not in logged
    assert not any(secret in logged for secret in SECRETS)
