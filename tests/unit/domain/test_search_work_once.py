"""A search scores each distinct text once, however many records and rankings hold it."""

from __future__ import annotations

from dataclasses import dataclass

from openproject_mcp.domain.search import Field, QueryScorer


@dataclass(frozen=True)
class Ticket:
    id: int
    subject: str
    description: str
    comments: tuple[str, ...]


SHARED = "The budget approval was deferred to the next quarter, pending the vendor's invoice."
SUBJECT: tuple[Field[Ticket], ...] = (Field("subject", 3.0, lambda t: t.subject),)
ALL: tuple[Field[Ticket], ...] = (
    Field("subject", 3.0, lambda t: t.subject),
    Field("description", 1.0, lambda t: t.description),
    Field("comments", 1.0, lambda t: t.comments),
)


def tickets() -> list[Ticket]:
    # Equal descriptions as distinct string objects, as slicing a payload produces them.
    return [
        Ticket(
            i,
            f"Ticket {i} on the budget" if i % 4 == 0 else f"Ticket {i}",
            "".join(list(SHARED)) if i % 2 == 0 else f"Note {i} about nothing in particular",
            (f"comment {i}: approval is late", "no news") if i % 5 == 0 else (),
        )
        for i in range(1, 61)
    ]


def test_each_distinct_matching_text_is_matched_once_over_every_ranking_of_a_search() -> None:
    records = tickets()
    scorer = QueryScorer("budget approval")
    shallow = scorer.rank(records, SUBJECT, key=lambda t: t.id, weight_scale=3.0, details=False)
    full = scorer.rank(records, ALL, key=lambda t: t.id, weight_scale=3.0)
    again = scorer.rank(records, ALL, key=lambda t: t.id, weight_scale=3.0)
    assert shallow.hits and full.hits and again.hits == full.hits
    texts = {text for t in records for text in (t.subject, t.description, *t.comments)}
    matching = {text for text in texts if "budget" in text.lower() or "approval" in text.lower()}
    assert len(matching) == 15 + 1 + 12  # subjects, the one shared description, comments
    assert scorer.texts_matched == len(matching)


def test_records_sharing_a_text_get_the_same_score_and_snippet() -> None:
    records = tickets()
    hits = QueryScorer("budget approval").rank(records, ALL, key=lambda t: t.id).hits
    shared = [hit for hit in hits if hit.record.description == SHARED and hit.record.id % 4 and hit.record.id % 5]
    assert len(shared) > 5
    assert len({(hit.score, hit.matches) for hit in shared}) == 1
    assert shared[0].matches[0].field == "description" and "budget approval" in (shared[0].matches[0].snippet or "")


def test_a_text_matched_before_any_ranking_is_matched_with_its_own_words() -> None:
    # Matching a text no ranking read must not answer "no match" because the vocabulary was empty,
    # nor keep that answer once a ranking has read the text.
    scorer = QueryScorer("budget approval")
    match = scorer.text_match("The budget approval is due.")
    assert match is not None and scorer.effective(match) == (1.0, 1.0)
    field: Field[str] = Field("text", 1.0, lambda value: value)
    hits = scorer.rank(["The budget approval is due."], [field], key=lambda _: 0).hits
    assert [hit.score for hit in hits] == [1.0]
