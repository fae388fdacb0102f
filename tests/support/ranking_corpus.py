"""A generated corpus and query set whose rankings are recorded, so a speed-up can prove it changed nothing.

The records are made from a fixed seed: project prose over a Zipf-weighted vocabulary that holds
word families (decide/decided/decision), German spellings (Müller/Mueller, Straße/strasse),
accented names, technical tokens (``max_connections``, ``e-mail``, versions, ``#1234``) and
near-miss spellings, in titles, bodies and list-valued items. The queries are drawn from the
records themselves: exact words, typos, prefixes, other word forms, phrases verbatim and
reordered, stopword-only and very short queries, technical spellings, words the corpus never
saw, and exact mode.

``python -m tests.support.ranking_corpus`` rewrites the recording from the current code. Do that
only for a change that is meant to move rankings, and say so in its commit; a pure speed-up
must leave ``tests/unit/domain/data/recorded_rankings.json`` as it is.
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import random
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path

from openproject_mcp.application.caching import TenantCaches, TokenCache
from openproject_mcp.application.search_pipeline import Enriched, SearchSpec, lift, run_search
from openproject_mcp.domain.search import Field, MatchMode, QueryScorer, Ranked, Ranking

RECORDING = Path(__file__).resolve().parent.parent / "unit" / "domain" / "data" / "recorded_rankings.json"
SEED = 20261201

FAMILIES = (
    "decide decided decides deciding decision decisions",
    "hire hired hiring hires",
    "approve approved approval approvals approving",
    "migrate migrated migration migrations migrating",
    "deploy deployed deployment deployments deploying",
    "fail failed failure failures failing",
    "replace replaced replacement replacing",
    "reimburse reimbursed reimbursement",
    "onboard onboarding onboarded",
    "connect connection connections connected",
    "configure configurable configuration configured",
    "validate validation validated validating",
    "extend extension extended",
    "perform performance performed",
    "policy policies",
    "plan planned planning plans",
    "document documentation documents documented",
    "review reviewed reviews reviewing",
    "close closure closed closing",
    "renew renewal renewed",
)
TOPIC_TEXT = (
    "budget invoice vendor contract payment portal feedback berth birth rail strike trailer "
    "release schedule sprint backlog incident outage certificate proxy database replica index "
    "cache latency timeout export import report dashboard metrics metro brain brazil audit "
    "security login password account customer support ticket roadmap quarter board finance "
    "hosting provider network firewall backup restore storage cluster kubernetes container "
    "pipeline build test coverage mobile android iphone design mockup critique workshop office "
    "travel booking hotel flight train ferry harbour port fee freight cargo warehouse inventory"
)
TOPICS = tuple(TOPIC_TEXT.split())
GERMAN = ("Müller", "Mueller", "Straße", "Strasse", "Jürgen", "Juergen", "Größe", "Groesse", "Köln", "Koeln")
ACCENTED = ("Zürich", "Genève", "São Paulo", "Søren", "Inès", "José", "Łódź", "naïve", "café", "“quoted”", "it’s")
TECHNICAL = (
    "max_connections",
    "maxConnections",
    "poolTimeout",
    "pool_timeout",
    "e-mail",
    "email",
    "v2.3.1",
    "2.3",
    "v2.14.1",
    "v2.1.14",
    "4.2.1",
    "4.1.2",
    "ADR-0012",
    "ADR-0011",
    "#3405",
    "#1234",
    "OAuth2",
    "utf-8",
    "x86_64",
)
FUNCTION = "the of and to in a is for on that with as by we at from this it be are was or an will has not".split()  # noqa: SIM905
SYLLABLES = "ba be bi bo da de di do ka ke ko la le li lo ma me mi mo na ne no ra re ri ro sa se ta te to".split()  # noqa: SIM905


@dataclass(frozen=True, slots=True)
class Doc:
    id: int
    title: str
    body: str
    items: tuple[str, ...]
    updated: datetime


FIELDS: tuple[Field[Doc], ...] = (
    Field("title", 3.0, lambda d: d.title),
    Field("items", 2.0, lambda d: d.items),
    Field("body", 1.0, lambda d: d.body),
)
SHALLOW: tuple[Field[Doc], ...] = (Field("title", 3.0, lambda d: d.title), Field("body", 1.0, lambda d: d.body))


@dataclass(frozen=True, slots=True)
class Case:
    query: str
    mode: MatchMode


def _vocabulary(rng: random.Random) -> list[str]:
    words = [word for family in FAMILIES for word in family.split()] + list(TOPICS)
    words += ["".join(rng.choice(SYLLABLES) for _ in range(rng.randint(2, 4))) for _ in range(400)]
    rng.shuffle(words)
    return words


def build_corpus(count: int = 160) -> tuple[tuple[Doc, ...], tuple[Case, ...]]:
    rng = random.Random(SEED)
    vocabulary = _vocabulary(rng)
    weights = [1.0 / (rank + 1) ** 0.8 for rank in range(len(vocabulary))]
    specials = GERMAN + ACCENTED + TECHNICAL

    def words(amount: int) -> list[str]:
        picked = rng.choices(vocabulary, weights=weights, k=amount)
        out: list[str] = []
        for word in picked:
            roll = rng.random()
            if roll < 0.3:
                out.append(rng.choice(FUNCTION))
            elif roll < 0.34:
                out.append(rng.choice(specials))
            else:
                out.append(word.capitalize() if rng.random() < 0.1 else word)
        return out

    def sentence(low: int, high: int) -> str:
        text = " ".join(words(rng.randint(low, high)))
        return text[:1].upper() + text[1:] + rng.choice([".", ".", ",", ";", "?", ":"])

    def paragraph(length: int) -> str:
        parts: list[str] = []
        while sum(len(part) + 1 for part in parts) < length:
            parts.append(sentence(5, 14))
            if rng.random() < 0.1:
                parts.append("\n\n")
        return " ".join(parts)[:length]

    start = datetime(2026, 1, 1, tzinfo=UTC)
    docs = tuple(
        Doc(
            index,
            sentence(3, 8).rstrip(".,;?:"),
            paragraph(rng.choice((0, 80, 300, 900, 1600))),
            tuple(sentence(3, 10) for _ in range(rng.choice((0, 0, 1, 3, 6)))),
            start + timedelta(hours=rng.randint(0, 5000)),
        )
        for index in range(1, count + 1)
    )
    return docs, _cases(rng, docs, vocabulary)


def _typo(rng: random.Random, word: str) -> str:
    at = rng.randrange(len(word))
    kind = rng.choice(("drop", "swap", "replace", "insert"))
    if kind == "drop" and len(word) > 3:
        return word[:at] + word[at + 1 :]
    if kind == "swap" and at + 1 < len(word):
        return word[:at] + word[at + 1] + word[at] + word[at + 2 :]
    letter = rng.choice("abcdefghijklmnopqrstuvwxyz")
    if kind == "insert":
        return word[:at] + letter + word[at:]
    return word[:at] + letter + word[at + 1 :]


def _cases(rng: random.Random, docs: Sequence[Doc], vocabulary: Sequence[str]) -> tuple[Case, ...]:
    content = [word for word in vocabulary if len(word) >= 4]
    queries: list[str] = [
        "what did we decide about hiring",
        "what did we decide about the budget?",
        "budget approval",
        "approval of the budget",
        "the",
        "to be or not to be",
        "a",
        "qa",
        "id",
        "port fee",
        "berth",
        "rail strike",
        "max_connections",
        "maxConnections",
        "max connections",
        "e-mail",
        "email",
        "mail",
        "v2.3.1",
        "2.3",
        "4.2.1",
        "ADR-0012",
        "#3405 export timeout",
        "1234",
        "poolTimeout",
        "pool timeout",
        "Mueller",
        "Müller",
        "strasse",
        "Straße",
        "Groesse",
        "Koln",
        "zurich",
        "sao paulo",
        "utf-8",
        "oauth",
        "x86",
        "zzzqqq",
        "quantum budget",
        "budgets migrations deployments failures",
    ]
    for _ in range(30):
        word = rng.choice(content)
        queries.append(word)
        queries.append(_typo(rng, word))
    for _ in range(12):
        word = rng.choice(content)
        queries.append(word[: max(3, len(word) - 2)])
    for family in FAMILIES[:12]:
        forms = family.split()
        queries.append(f"{rng.choice(forms)} {rng.choice(TOPICS)}")
    long_texts = [doc.body for doc in docs if len(doc.body) > 200]
    for _ in range(24):
        text_words = rng.choice(long_texts).split()
        at = rng.randrange(max(1, len(text_words) - 3))
        phrase = " ".join(text_words[at : at + rng.randint(2, 3)]).strip(".,;?:")
        queries.append(phrase)
        queries.append(" ".join(reversed(phrase.split())))
    for _ in range(12):
        picked = rng.sample(content, 3)
        queries.append(" ".join(picked))
        queries.append(f"{_typo(rng, picked[0])} {picked[1]} unknownword")
    cases = [Case(query, "fuzzy") for query in dict.fromkeys(queries)]
    cases += [Case(query, "exact") for query in ("budget", "max_connections", "Müller", "the board", "v2.3.1", "café")]
    return tuple(cases)


def _match_record(ranked: Ranked[Doc]) -> list[object]:
    return [
        ranked.record.id,
        ranked.score,
        [
            [match.field, repr(match.score), match.snippet, [[i.index, repr(i.score), i.snippet] for i in match.items]]
            for match in ranked.matches
        ],
    ]


def _ranking_record(ranking: Ranking[Doc]) -> dict[str, object]:
    full = [_match_record(hit) for hit in ranking.hits]
    digest = hashlib.sha256(json.dumps(full, ensure_ascii=True).encode("ascii")).hexdigest()
    return {
        "hits": " ".join(f"{hit.record.id}:{hit.score:g}" for hit in ranking.hits),
        "unmatched": list(ranking.unmatched_terms),
        "digest": digest,
    }


def rank_directly(docs: Sequence[Doc], case: Case) -> dict[str, object]:
    """One ranking of every record over every field."""
    ranking = QueryScorer(case.query, mode=case.mode).rank(docs, FIELDS, key=lambda d: d.id)
    return _ranking_record(ranking)


def rank_in_two_rankings(docs: Sequence[Doc], case: Case, *, cached: bool) -> dict[str, object]:
    """The pipeline's shape by hand: one scorer ranks the short fields, then everything."""
    store = TokenCache(TenantCaches(), "tenant:recorded") if cached else None
    scorer = QueryScorer(case.query, mode=case.mode, store=store)
    first = scorer.rank(docs, SHALLOW, key=lambda d: d.id, weight_scale=3.0, details=False)
    second = scorer.rank(docs, FIELDS, key=lambda d: d.id, weight_scale=3.0)
    record = _ranking_record(second)
    record["first"] = " ".join(f"{hit.record.id}:{hit.score:g}" for hit in first.hits)
    return record


def search_through_pipeline(docs: Sequence[Doc], case: Case) -> dict[str, object]:
    """``run_search`` with in-memory deep content (the items), as a use case runs it."""
    by_id = {doc.id: doc for doc in docs}
    lifted: Callable[[Field[Doc]], Field[Enriched[Doc, tuple[str, ...]]]] = lift

    async def enrich(doc: Doc) -> tuple[str, ...]:
        return by_id[doc.id].items

    spec: SearchSpec[Doc, tuple[str, ...]] = SearchSpec(
        shallow_fields=SHALLOW,
        full_fields=(*(lifted(field) for field in SHALLOW), Field("items", 2.0, lambda e: e.deep)),
        key=lambda d: d.id,
        version=lambda d: d.updated.isoformat(),
        recency=lambda d: d.updated,
        enrich=enrich,
    )
    result = asyncio.run(run_search(spec, docs, case.query, case.mode))
    full = [
        [hit.candidate.id, hit.score, [[m.field, repr(m.score), m.snippet] for m in hit.matches]] for hit in result.hits
    ]
    return {
        "hits": " ".join(f"{hit.candidate.id}:{hit.score:g}" for hit in result.hits),
        "unmatched": list(result.unmatched_terms),
        "enriched": result.enriched,
        "digest": hashlib.sha256(json.dumps(full, ensure_ascii=True).encode("ascii")).hexdigest(),
    }


PIPELINE_CASES = 40  # the first cases also run through run_search (it is slower per case)
TWO_EVERY = 2  # every other case is also ranked in two rankings by one scorer


def record_all() -> dict[str, object]:
    docs, cases = build_corpus()
    return {
        "direct": {f"{case.mode}:{case.query}": rank_directly(docs, case) for case in cases},
        "two_rankings": {
            f"{case.mode}:{case.query}": rank_in_two_rankings(docs, case, cached=False) for case in cases[::TWO_EVERY]
        },
        "pipeline": {
            f"{case.mode}:{case.query}": search_through_pipeline(docs, case) for case in cases[:PIPELINE_CASES]
        },
    }


def main() -> None:
    RECORDING.parent.mkdir(parents=True, exist_ok=True)
    RECORDING.write_text(json.dumps(record_all(), indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    print(f"wrote {RECORDING}", file=sys.stderr)


if __name__ == "__main__":
    main()
