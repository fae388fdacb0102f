"""Relevance of ``rank_records`` on the invented workspace in ``benchmarks.corpus``.

Prints recall@1 and MRR over realistic assistant phrasings (overall and per category: the
baseline cases, word forms, information coverage, phrase and order, short and stopword
queries, technical tokens), and counts decoy violations: a
near miss ("brazil" for "brain", "metrics" for "metro") returned at all, or anything returned
for gibberish. ``evaluate()`` is what the unit test asserts on (recall@1 == 1, no violations).
"""

from __future__ import annotations

from dataclasses import dataclass

from benchmarks.corpus import CORPUS, DECOY_CASES, FIELDS, KNOWN_LIMITS, RELEVANCE_CASES, Record, key
from openproject_mcp.domain.search import rank_records


@dataclass(frozen=True, slots=True)
class RelevanceReport:
    cases: int
    recall_at_1: float
    mrr: float
    decoy_cases: int
    decoy_violations: int
    failures: tuple[str, ...]
    known_limits: int
    known_limits_met: int
    categories: tuple[tuple[str, int, float, float], ...] = ()  # (name, cases, recall@1, MRR)


def search(query: str, corpus: tuple[Record, ...] = CORPUS) -> list[int]:
    return [ranked.record.id for ranked in rank_records(corpus, query, FIELDS, key=key)]


def evaluate() -> RelevanceReport:
    failures: list[str] = []
    first = 0
    reciprocal = 0.0
    violations = 0
    per_category: dict[str, list[float]] = {}
    for case in RELEVANCE_CASES:
        ids = search(case.query)
        if ids[:1] == [case.expected]:
            first += 1
        else:
            failures.append(f"{case.query!r}: expected {case.expected} first, got {ids[:5]}")
        rank = 1.0 / (ids.index(case.expected) + 1) if case.expected in ids else 0.0
        reciprocal += rank
        per_category.setdefault(case.category, []).append(rank)
        for decoy in case.absent:
            if decoy in ids:
                violations += 1
                failures.append(f"{case.query!r}: decoy {decoy} returned at rank {ids.index(decoy) + 1}")
    for decoy_case in DECOY_CASES:
        corpus = tuple(record for record in CORPUS if record.id not in decoy_case.without)
        ids = search(decoy_case.query, corpus)
        wrong = [found for found in ids if found in decoy_case.forbidden] if decoy_case.forbidden else ids
        if wrong:
            violations += 1
            failures.append(f"{decoy_case.query!r} (without {list(decoy_case.without)}): returned {wrong}")
    limits_met = sum(1 for case in KNOWN_LIMITS if search(case.query)[:1] == [case.expected])
    total = len(RELEVANCE_CASES)
    return RelevanceReport(
        cases=total,
        recall_at_1=first / total,
        mrr=reciprocal / total,
        decoy_cases=len(DECOY_CASES) + sum(1 for case in RELEVANCE_CASES if case.absent),
        decoy_violations=violations,
        failures=tuple(failures),
        known_limits=len(KNOWN_LIMITS),
        known_limits_met=limits_met,
        categories=tuple(
            (name, len(ranks), sum(1 for r in ranks if r == 1.0) / len(ranks), sum(ranks) / len(ranks))
            for name, ranks in per_category.items()
        ),
    )


def main() -> None:
    report = evaluate()
    print(f"{report.cases} phrasings over {len(CORPUS)} records; {report.decoy_cases} decoy checks")
    print(f"  recall@1:         {report.recall_at_1:.3f}")
    print(f"  MRR:              {report.mrr:.3f}")
    print(f"  decoy violations: {report.decoy_violations}")
    for name, cases, recall, mrr in report.categories:
        print(f"    {name:<28} {cases:>3} cases  recall@1 {recall:.3f}  MRR {mrr:.3f}")
    for failure in report.failures:
        print(f"  FAIL {failure}")
    print(f"  known limits met: {report.known_limits_met} of {report.known_limits} (not scored)")
    for case in KNOWN_LIMITS:
        print(f"    {case.query!r} -> {search(case.query)[:3]} (wanted {case.expected}: {case.why})")


if __name__ == "__main__":
    main()
