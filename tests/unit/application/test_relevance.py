"""The use-case relevance table (benchmarks/bench_relevance_use_cases.py) must stay perfect."""

from __future__ import annotations

from benchmarks.bench_relevance_use_cases import CASES, evaluate_async


async def test_every_assistant_phrasing_finds_its_record_first_through_the_pipeline() -> None:
    report = await evaluate_async()
    assert report.cases == len(CASES) >= 30
    assert report.failures == []
    assert report.recall_at_1 == 1.0
    assert report.decoy_violations == 0
