"""Remote-mode tests put tokens into URLs on purpose; the test's own HTTP client must not log them."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests.unit.adapters.mcp_http.serving import quiet_client_loggers


@pytest.fixture(autouse=True)
def quiet_http_client() -> Iterator[None]:
    yield from quiet_client_loggers()
