"""How long heavy searches hold the event loop: ranking in place versus the bounded, threaded ranking.

Four searches with a 5,000-character query over 300 records with long texts (about 19,000
characters of description and 4,000 of comments each) run at once, as four concurrent callers
would. Beside them a ticker asks the loop for a 10 ms sleep over and over; how late each tick
comes is how long any other request (a health check, a cheap tool call) would have waited.

1. ``in place, unbounded``: ``rank_records`` on the loop with the whole query and texts, as
   before; one search only (four take minutes), and the loop is held for all of it.
2. ``in place, bounded``: the same bounds as below, still on the loop.
3. ``bounded, on a worker``: ``application.ranking.rank`` (the first significant words, the
   first characters of each text, on the ranking thread), as the search use cases call it.
"""

from __future__ import annotations

import asyncio
import random
import statistics
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass

from openproject_mcp.application.ranking import MAX_SCORED_CHARACTERS, rank, scored_query
from openproject_mcp.domain.search import Field, Ranked, rank_records

SEARCHES = 4
RECORDS = 300
TICK = 0.01


@dataclass(frozen=True, slots=True)
class Record:
    id: int
    subject: str
    description: str
    comment: str


def _subject(record: Record) -> str:
    return record.subject


def _description(record: Record) -> str:
    return record.description


def _comment(record: Record) -> str:
    return record.comment


FIELDS: tuple[Field[Record], ...] = (
    Field("subject", 3.0, _subject),
    Field("description", 1.5, _description),
    Field("comments", 1.0, _comment),
)


def workload() -> tuple[list[Record], str]:
    chooser = random.Random(7)
    alphabet = "abcdefghijklmnopqrstuvwxyz"
    words = ["".join(chooser.choice(alphabet) for _ in range(chooser.randint(3, 10))) for _ in range(3000)]
    records = [
        Record(
            i,
            " ".join(chooser.choices(words, k=8)),
            " ".join(chooser.choices(words, k=2600))[:19_000],
            " ".join(chooser.choices(words, k=600)),
        )
        for i in range(1, RECORDS + 1)
    ]
    return records, " ".join(chooser.choices(words, k=900))[:5000]


async def measure(
    search: Callable[[], Awaitable[list[Ranked[Record]]]], searches: int = SEARCHES
) -> tuple[float, float, float]:
    """(seconds until every search ended, median and worst lateness of a 10 ms tick)."""
    late: list[float] = []
    done = asyncio.Event()

    async def ticker() -> None:
        while not done.is_set():
            asked = time.perf_counter()
            await asyncio.sleep(TICK)
            late.append(time.perf_counter() - asked - TICK)

    ticking = asyncio.create_task(ticker())
    await asyncio.sleep(0)
    began = time.perf_counter()
    await asyncio.gather(*(search() for _ in range(searches)))
    took = time.perf_counter() - began
    done.set()
    await ticking
    return took, statistics.median(late), max(late)


async def run() -> None:
    records, query = workload()

    async def in_place() -> list[Ranked[Record]]:
        await asyncio.sleep(0)
        return rank_records(records, query, FIELDS, key=lambda r: r.id)

    async def bounded_in_place() -> list[Ranked[Record]]:
        await asyncio.sleep(0)
        cut = [Record(r.id, r.subject, r.description[:MAX_SCORED_CHARACTERS], r.comment) for r in records]
        return rank_records(cut, scored_query(query, "fuzzy"), FIELDS, key=lambda r: r.id)

    async def bounded() -> list[Ranked[Record]]:
        return await rank(records, query, FIELDS, key=lambda r: r.id)

    print(f"5,000-character query, {RECORDS} records of ~23,000 characters")
    scenarios = (
        ("in place, unbounded", in_place, 1),
        ("in place, bounded", bounded_in_place, SEARCHES),
        ("bounded, on a worker", bounded, SEARCHES),
    )
    for name, search, searches in scenarios:
        took, median_late, worst_late = await measure(search, searches)
        print(
            f"  {name:<21} {searches} search(es) done in {took:6.2f} s; a 10 ms tick came late by "
            f"{median_late * 1000:7.1f} ms median, {worst_late * 1000:8.1f} ms worst"
        )


def main() -> None:
    asyncio.run(run())
