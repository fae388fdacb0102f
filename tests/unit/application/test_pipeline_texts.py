"""The final ranking reuses the first phase's texts: the same answer as reading every field again.

Whatever the layout of the full fields (shallow fields first, interleaved with deep ones, lifted
in another order, not all lifted, one lifted twice), a search answers what one ranking of every
field of every candidate answers, deep fields empty where nothing was read, and notes the same cuts.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta

import pytest

from openproject_mcp.application.ranking import MAX_SCORED_CHARACTERS, RankingLimits, query_scorer, rank_with
from openproject_mcp.application.search_pipeline import Enriched, PipelineSettings, SearchSpec, lift, run_search
from openproject_mcp.domain.search import Field, MatchMode

BASE = datetime(2026, 11, 1, tzinfo=UTC)
LONG = "filler words " * (MAX_SCORED_CHARACTERS // 12) + "budget at the very end"


@dataclass(frozen=True)
class Doc:
    id: int
    title: str
    place: str | None
    owner: str
    updated: datetime


TITLE: Field[Doc] = Field("title", 3.0, lambda d: d.title)
PLACE: Field[Doc] = Field("place", 1.0, lambda d: d.place)
OWNER: Field[Doc] = Field("owner", 0.5, lambda d: d.owner or None)
SHALLOW = (TITLE, PLACE, OWNER)
NOTES: Field[Enriched[Doc, tuple[str, ...]]] = Field("notes", 1.5, lambda e: e.deep)
SUMMARY: Field[Enriched[Doc, tuple[str, ...]]] = Field("summary", 1.0, lambda e: e.deep[0] if e.deep else None)

LAYOUTS: dict[str, tuple[Field[Doc], ...]] = {}
FULL: dict[str, tuple[Field[Enriched[Doc, tuple[str, ...]]], ...]] = {
    "in order": (lift(TITLE), lift(PLACE), lift(OWNER), NOTES, SUMMARY),
    "interleaved": (lift(TITLE), NOTES, lift(PLACE), SUMMARY, lift(OWNER)),
    "deep first": (SUMMARY, lift(TITLE), lift(PLACE), lift(OWNER)),
    "reordered": (lift(PLACE), lift(TITLE), NOTES, lift(OWNER)),
    "not all lifted": (lift(TITLE), NOTES),
    "lifted twice": (lift(TITLE), lift(PLACE), lift(OWNER), NOTES, lift(TITLE)),
}


def docs() -> list[Doc]:
    titles = ["budget review", "Budget approval meeting", "team offsite", "hiring plan", LONG, "approval of budget"]
    return [
        Doc(
            i,
            f"{titles[i % len(titles)]} {i}",
            None if i % 3 else "room budget",
            ("Inès", "", "Bob")[i % 3],
            BASE + timedelta(hours=(i * 7) % 40),
        )
        for i in range(1, 41)
    ]


def notes_of(doc: Doc) -> tuple[str, ...]:
    if doc.id % 4 == 0:
        return ()
    if doc.id % 9 == 0:
        return (LONG, "the budget was approved")
    return (f"note {doc.id} on the budget approval", "nothing here", f"more about hiring {doc.id}")


def spec_for(
    full: tuple[Field[Enriched[Doc, tuple[str, ...]]], ...], read: dict[int, tuple[str, ...]]
) -> SearchSpec[Doc, tuple[str, ...]]:
    async def enrich(doc: Doc) -> tuple[str, ...]:
        read[doc.id] = notes_of(doc)
        return read[doc.id]

    return SearchSpec(
        shallow_fields=SHALLOW,
        full_fields=full,
        key=lambda d: d.id,
        version=lambda d: d.updated.isoformat(),
        recency=lambda d: d.updated,
        enrich=enrich,
    )


async def read_again(
    full: tuple[Field[Enriched[Doc, tuple[str, ...]]], ...],
    query: str,
    mode: MatchMode,
    deep: dict[int, tuple[str, ...]],
) -> tuple[list[tuple[int, float, object]], list[str]]:
    """One ranking of every field of every candidate, deep fields empty where nothing was read;
    and the notes of a first ranking of the shallow fields followed by it."""
    shallow_names = {field.name: field for field in SHALLOW}

    def deep_field(field: Field[Enriched[Doc, tuple[str, ...]]]) -> Field[Doc]:
        def read(doc: Doc) -> str | Sequence[str] | None:
            return field.extract(Enriched(doc, deep[doc.id])) if doc.id in deep else None

        return Field(field.name, field.weight, read)

    fields = [
        Field(f.name, f.weight, shallow_names[f.name].extract) if f.name in shallow_names else deep_field(f)
        for f in full
    ]
    scale = max([f.weight for f in SHALLOW] + [f.weight for f in full])
    limits = RankingLimits()
    scorer = query_scorer(query, mode, limits)
    await rank_with(scorer, docs(), SHALLOW, key=lambda d: d.id, weight_scale=scale, limits=limits, details=False)
    ranking = await rank_with(scorer, docs(), fields, key=lambda d: d.id, weight_scale=scale, limits=limits)
    return [(r.record.id, r.score, r.matches) for r in ranking.hits], limits.notes()


@pytest.mark.parametrize("layout", list(FULL))
@pytest.mark.parametrize(("query", "mode"), [("budget approval", "fuzzy"), ("budgt", "fuzzy"), ("budget", "exact")])
@pytest.mark.parametrize("enrich_limit", [5, 100])
async def test_the_final_ranking_answers_as_reading_every_field_again(
    layout: str, query: str, mode: MatchMode, enrich_limit: int
) -> None:
    enriched: dict[int, tuple[str, ...]] = {}
    settings = PipelineSettings(enrich_limit=enrich_limit)
    result = await run_search(spec_for(FULL[layout], enriched), docs(), query, mode, settings=settings)
    assert len(enriched) == min(enrich_limit, len(docs()))
    hits, notes = await read_again(FULL[layout], query, mode, enriched)
    assert result.hits
    assert [(h.candidate.id, h.score, h.matches) for h in result.hits] == hits
    assert list(result.notes) == notes
    assert any("characters only" in note for note in notes)
