"""Relevance through the real use cases: assistant phrasings over the embedded demo dataset.

Unlike ``bench_relevance_domain`` (the ranking unit on its own corpus), every case here runs the
whole search pipeline — candidate legs, enrichment, one weight scale, paging — against the
in-memory backend, exactly as a tool call does. Prints recall@1, MRR and decoy violations.
"""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from dataclasses import dataclass, field

from openproject_mcp.application.search_meetings import SearchMeetings, SearchMeetingsRequest
from openproject_mcp.application.search_wiki_pages import SearchWikiPages, SearchWikiPagesRequest
from openproject_mcp.application.search_work_packages import SearchWorkPackages, SearchWorkPackagesRequest
from openproject_mcp.composition import Application
from openproject_mcp.config import Settings

WP, MEET, WIKI = "work packages", "meetings", "wiki"


@dataclass(frozen=True)
class Case:
    tool: str
    query: str
    expected: int | None  # None: nothing may come back
    decoys: tuple[int, ...] = ()
    why: str = ""


CASES: tuple[Case, ...] = (
    Case(MEET, "quartely roadmap reveiw", 201, why="three typos, tie broken by id"),
    Case(MEET, "roadmap review quarterly", 201, why="reordered"),
    Case(MEET, "what did we decide about the printed catalogue", 203, why="agenda outcome"),
    Case(MEET, "hiring comittee frontend", 202, why="typo"),
    Case(MEET, "payment provider fees", 204, why="title and outcome"),
    Case(MEET, "seasonal pickers", 205, why="agenda item title"),
    Case(MEET, "forklift briefing", 208),
    Case(MEET, "accesibility audit", 210, why="typo"),
    Case(MEET, "who is the onboarding buddy", 202, why="question answered by an outcome"),
    Case(MEET, "blorptang quasimodal", None, why="gibberish"),
    Case(WP, "honeypot", 110, why="closed, only in an old comment"),
    Case(WP, "schlafsack umlaut search", 103, why="description and subject"),
    Case(WP, "double charge reload", 116),
    Case(WP, "idempotancy key", 116, why="typo, comment"),
    Case(WP, "apple pay wallets", 119),
    Case(WP, "vat rounding cart invoice", 118),
    Case(WP, "why are stock levels late after returns", 125, why="question"),
    Case(WP, "label printer driver", 124),
    Case(WP, "forklift training hall b", 128),
    Case(WP, "cdn image migration", 105, why="closed"),
    Case(WP, "zzqx frobnicate", None, why="gibberish"),
    Case(WIKI, "onbaording checklist", 301, why="typo"),
    Case(WIKI, "varnish", 303, why="body only"),
    Case(WIKI, "blue green deployment", 302, why="body phrase"),
    Case(WIKI, "what is an sku", 308, why="question, glossary body"),
    Case(WIKI, "refund partial returns", 305),
    Case(WIKI, "safety shoes", 306),
    Case(WIKI, "thermal labels", 307),
    Case(WIKI, "idempotency webhooks", 304),
    Case(WIKI, "xylophone quartz", None, why="gibberish"),
)


@dataclass
class RelevanceReport:
    cases: int = 0
    hits_at_1: int = 0
    reciprocal_ranks: list[float] = field(default_factory=list)
    decoy_violations: int = 0
    failures: list[str] = field(default_factory=list)

    @property
    def recall_at_1(self) -> float:
        return self.hits_at_1 / self.cases if self.cases else 0.0

    @property
    def mrr(self) -> float:
        return sum(self.reciprocal_ranks) / len(self.reciprocal_ranks) if self.reciprocal_ranks else 0.0


async def _ids(app: Application, case: Case) -> list[int]:
    async with app.scope(None) as scope:
        if case.tool == WP:
            wp = await (await scope.resolve(SearchWorkPackages)).execute(
                SearchWorkPackagesRequest(case.query, page_size=100)
            )
            return [e.work_package.id for e in wp.elements]
        if case.tool == MEET:
            meetings = await (await scope.resolve(SearchMeetings)).execute(
                SearchMeetingsRequest(case.query, page_size=100)
            )
            return [e.meeting.id for e in meetings.elements]
        wiki = await (await scope.resolve(SearchWikiPages)).execute(SearchWikiPagesRequest(case.query, limit=100))
        return [e.id for e in wiki.elements]


async def evaluate_async(cases: Sequence[Case] = CASES) -> RelevanceReport:
    app = Application(Settings(backend="demo"))
    report = RelevanceReport()
    for case in cases:
        ids = await _ids(app, case)
        report.cases += 1
        if case.expected is None:
            ok = not ids
            report.reciprocal_ranks.append(1.0 if ok else 0.0)
            report.hits_at_1 += ok
            if not ok:
                report.failures.append(f"{case.tool} {case.query!r}: expected nothing, got {ids[:5]}")
            continue
        rank = ids.index(case.expected) + 1 if case.expected in ids else None
        report.reciprocal_ranks.append(1 / rank if rank else 0.0)
        if rank == 1:
            report.hits_at_1 += 1
        else:
            report.failures.append(f"{case.tool} {case.query!r}: expected {case.expected} first, got {ids[:5]}")
        for decoy in case.decoys:
            if decoy in ids:
                report.decoy_violations += 1
                report.failures.append(f"{case.tool} {case.query!r}: decoy {decoy} returned")
    return report


def evaluate(cases: Sequence[Case] = CASES) -> RelevanceReport:
    return asyncio.run(evaluate_async(cases))


def main() -> None:
    report = evaluate()
    print("relevance through the use cases (demo dataset)")
    print(f"  cases: {report.cases}  recall@1: {report.recall_at_1:.3f}  MRR: {report.mrr:.3f}")
    print(f"  decoy violations: {report.decoy_violations}")
    for failure in report.failures:
        print(f"  FAIL {failure}")


if __name__ == "__main__":
    main()
