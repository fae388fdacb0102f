"""How much of a model's context the catalog and the answers take, per result format.

``tools/list`` as a client receives it (the result object as compact JSON) and the answers of a
few demo calls, in bytes and approximate tokens (bytes / 4, a usual rule of thumb for English and
JSON; no tokenizer is involved), for each ``OPENPROJECT_RESULT_FORMAT``.
"""

from __future__ import annotations

import asyncio
from typing import Any, get_args

from mcp import Client
from pydantic import BaseModel

from openproject_mcp.adapters.mcp.server import build_server
from openproject_mcp.application.result_size import OutputSchemas, ResultFormat
from openproject_mcp.composition import Application
from openproject_mcp.config import Settings

CALLS: tuple[tuple[str, dict[str, Any]], ...] = (
    ("openproject_search_work_packages", {"query": "checkout"}),
    ("openproject_search_meetings", {"query": "budget aproval"}),
    ("openproject_list_work_packages", {"pageSize": 100}),
    ("openproject_get_work_package", {"workPackageId": 101}),
)


def size(model: BaseModel) -> int:
    return len(model.model_dump_json(by_alias=True, exclude_none=True).encode())


async def measure(
    result_format: ResultFormat, output_schemas: OutputSchemas = "keys", *, read_only: bool = False
) -> list[tuple[str, int]]:
    application = Application(Settings(backend="demo"))
    server = build_server(
        application.scope, result_format=result_format, output_schemas=output_schemas, read_only=read_only
    )
    try:
        async with Client(server) as client:
            listed = await client.list_tools()
            sizes = [(f"tools/list ({len(listed.tools)} tools)", size(listed))]
            for name, arguments in CALLS:
                sizes.append((name, size(await client.call_tool(name, arguments))))
    finally:
        await application.aclose()
    return sizes


def main() -> None:
    print("bytes of JSON as the client receives it, ~tokens = bytes / 4")
    for result_format in get_args(ResultFormat):
        print(f"  OPENPROJECT_RESULT_FORMAT={result_format}")
        for what, n in asyncio.run(measure(result_format)):
            print(f"    {what:<36} {n:>8,} bytes  ~{n // 4:>6,} tokens")
    print("  tools/list by OPENPROJECT_OUTPUT_SCHEMAS (OPENPROJECT_RESULT_FORMAT=full)")
    for output_schemas in get_args(OutputSchemas):
        listed, n = asyncio.run(measure("full", output_schemas))[0]
        default = " (default)" if output_schemas == "keys" else ""
        print(f"    {output_schemas + default:<15} {listed:<20} {n:>8,} bytes  ~{n // 4:>6,} tokens")
    listed, n = asyncio.run(measure("full", read_only=True))[0]
    print(f"    {'keys, read-only':<15} {listed:<20} {n:>8,} bytes  ~{n // 4:>6,} tokens")
