"""The three search use cases against the in-memory adapter: legs, windows, notes, ranking."""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path
from typing import Any

import pytest

from openproject_mcp.adapters.fixture.dataset import load_dataset
from openproject_mcp.adapters.fixture.meeting_repository import InMemoryMeetingRepository
from openproject_mcp.adapters.fixture.project_repository import InMemoryProjectRepository
from openproject_mcp.application.project_scope import ProjectResolver
from openproject_mcp.application.search_meetings import SearchMeetings, SearchMeetingsRequest
from openproject_mcp.application.search_wiki_pages import SearchWikiPages, SearchWikiPagesRequest
from openproject_mcp.application.search_work_packages import SearchWorkPackages, SearchWorkPackagesRequest
from openproject_mcp.application.views import WorkPackageSearchPage
from openproject_mcp.application.work_packages import WorkPackageScope
from openproject_mcp.domain.capabilities import InstanceCapabilities
from openproject_mcp.domain.errors import InvalidArgumentError
from openproject_mcp.ports import CapabilityRepository
from tests.support.datasets import (
    DEMO,
    base_document,
    crowded_work_packages,
    dataset_settings,
    many_meetings,
    many_work_packages,
    use_case,
    write,
)


class FixedCapabilities(CapabilityRepository):
    """A capability source that answers what the test says the instance can do."""

    def __init__(self, capabilities: InstanceCapabilities) -> None:
        self._capabilities = capabilities

    async def capabilities(self) -> InstanceCapabilities:
        return self._capabilities


def meetings_search(path: Path, capabilities: InstanceCapabilities) -> SearchMeetings:
    """The meeting search over the dataset file at ``path``, on an instance that can do ``capabilities``."""
    dataset = load_dataset(path)
    return SearchMeetings(
        InMemoryMeetingRepository(dataset),
        FixedCapabilities(capabilities),
        ProjectResolver(InMemoryProjectRepository(dataset)),
    )


def with_soren_in_the_oldest_meeting(document: dict[str, Any]) -> dict[str, Any]:
    document["users"].append(
        {"id": 3, "name": "Søren Kvist", "login": "skvist", "email": "soren@example.com", "status": "active"}
    )
    document["meetings"][0]["participants"] = [1, 3]
    return document


async def test_a_work_package_whose_only_match_is_an_old_comment_is_found(tmp_path: Path) -> None:
    path = write(tmp_path, many_work_packages(400, old_comment="We moved the pool to PgBouncer in transaction mode."))
    search = await use_case(dataset_settings(path), SearchWorkPackages)
    page = await search.execute(SearchWorkPackagesRequest("pgbouncer"))
    assert [e.work_package.id for e in page.elements] == [1]
    assert page.elements[0].matched_fields == ("comments",)
    assert page.elements[0].snippet is not None and "PgBouncer" in page.elements[0].snippet
    assert page.coverage is not None and page.coverage.candidate_limit_reached
    assert page.notes and any("candidate window was cut" in n for n in page.notes)


async def test_an_old_work_package_holding_two_common_words_together_is_found(tmp_path: Path) -> None:
    # Each word's leg is cut at its page size (160 newer records hold each word) and the record is
    # outside the recent window: only the leg of both words together returns it.
    comments = dict.fromkeys(range(2, 162), "Budget figures updated.")
    comments |= dict.fromkeys(range(162, 322), "Forklift serviced.")
    comments[1] = "The forklift lease fits the budget."
    path = write(tmp_path, crowded_work_packages(600, comments))
    search = await use_case(dataset_settings(path), SearchWorkPackages)
    page = await search.execute(SearchWorkPackagesRequest("forklift budget"))
    assert page.elements and page.elements[0].work_package.id == 1
    assert page.elements[0].matched_fields == ("comments",)


async def test_an_old_work_package_hit_by_a_rare_words_leg_is_read_before_newer_hits_of_a_common_one(
    tmp_path: Path,
) -> None:
    # 80 newer records hold "budget" in a comment; the one holding "escrow" is the oldest, outside
    # the recent window: read newest first it would be the 81st in line, past the 25 read in depth.
    comments = dict.fromkeys(range(2, 82), "Budget review done.")
    comments[1] = "Escrow account opened."
    path = write(tmp_path, crowded_work_packages(300, comments))
    search = await use_case(dataset_settings(path), SearchWorkPackages)
    page = await search.execute(SearchWorkPackagesRequest("escrow budget"))
    assert [e.work_package.id for e in page.elements][:1] == [1]
    assert page.elements[0].matched_fields == ("comments",)


async def test_the_full_text_legs_spell_a_word_as_the_query_does(tmp_path: Path) -> None:
    # The server matches case-insensitively but keeps accents (ILIKE): a folded "jurgen" would not
    # find "Jürgen" in an old comment.
    comments = {1: "Jürgen Weber approved the vendor call."}
    path = write(tmp_path, crowded_work_packages(400, comments))
    search = await use_case(dataset_settings(path), SearchWorkPackages)
    page = await search.execute(SearchWorkPackagesRequest("Jürgen"))
    assert [e.work_package.id for e in page.elements] == [1]


@pytest.mark.parametrize(
    ("query", "comment"),
    [
        # The server matches by containment: "migrate" is not in "migration", but "migr" is.
        ("when did we migrate", "The ledger migration ran overnight."),
        ("what did we decide", "Decision: partial refunds stay manual."),
        ("which policies apply", "The travel policy changed in March."),
        # It compares letters as written (ß is not ss): the leg sends the beginning both spellings
        # share ("Bahnhofstra"), not the word as typed (ADR 0051).
        ("Bahnhofstraße", "The driver could not find Bahnhofstrasse 12."),
        ("hauptstrasse", "Validation rejects Hauptstraße 4 in Leipzig."),
        ("Friedrichstrasse", "Friedrichstraße is missing from the zone list."),
        # A version's numbers are too short to be legs of their own: the version is sent whole
        # (ADR 0051), a number's plural as its number (ADR 0053).
        ("when did the 4.0 go-live happen", "Go for 4.0 on Tuesday."),
        ("crash in v2.14.1", "Reproduced on 2.14.1 only."),
        ("payouts failing with 429s", "The PSP answered 429 for the whole batch."),
    ],
)
async def test_a_full_text_leg_brings_in_an_old_comment_only_it_reaches(
    tmp_path: Path, query: str, comment: str
) -> None:
    # The oldest of 400 work packages, outside the recent window, holds the comment: a leg of the
    # query must bring it in, and it must come first, matched in its comments.
    path = write(tmp_path, crowded_work_packages(400, {1: comment}))
    search = await use_case(dataset_settings(path), SearchWorkPackages)
    page = await search.execute(SearchWorkPackagesRequest(query))
    assert [e.work_package.id for e in page.elements][:1] == [1]
    assert page.elements[0].matched_fields == ("comments",)


@pytest.mark.parametrize(
    ("query", "common", "comment"),
    [
        ("Projektübersicht", "Projekt plan updated.", "Die Projektübersicht lädt nicht."),
        ("Rechnungsstellung", "Rechnung sent.", "Die Rechnungsstellung läuft ab Mai monatlich."),
    ],
)
async def test_a_compound_is_not_cut_to_its_first_word_where_that_word_saturates_the_leg(
    tmp_path: Path, query: str, common: str, comment: str
) -> None:
    # 200 newer comments hold the compound's first word: a leg of that word alone would be cut at
    # its 100 newest and never reach the oldest record (ADR 0054).
    comments = dict.fromkeys(range(2, 202), common) | {1: comment}
    path = write(tmp_path, crowded_work_packages(400, comments))
    search = await use_case(dataset_settings(path), SearchWorkPackages)
    page = await search.execute(SearchWorkPackagesRequest(query))
    assert [e.work_package.id for e in page.elements][:1] == [1]


async def test_a_question_finds_an_old_subject_holding_its_words_where_every_full_text_leg_is_saturated(
    tmp_path: Path,
) -> None:
    # 150 newer records say "budget approval" in a comment: each word's leg and the leg of both
    # are cut at their 100 newest; only the subject leg, sent the question's words, reaches id 1.
    document = crowded_work_packages(600, dict.fromkeys(range(400, 550), "Budget approval pending."))
    document["work_packages"][0]["subject"] = "Budget approval for the Lisbon office"
    search = await use_case(dataset_settings(write(tmp_path, document)), SearchWorkPackages)
    page = await search.execute(SearchWorkPackagesRequest("where is the budget approval?"))
    assert [e.work_package.id for e in page.elements][:1] == [1]
    assert page.elements[0].matched_fields[:1] == ("subject",)


async def test_forty_weak_subject_hits_do_not_take_every_read_from_what_a_rare_words_leg_found(
    tmp_path: Path,
) -> None:
    # Forty recent subjects hold two of the four words; the oldest record holds the other two in a
    # comment (and two in its subject, so it is a weak shallow hit too, the 41st): read best shallow
    # hit first, its comment would never be read.
    document = crowded_work_packages(400, {1: "The firmware rollback fixed it."})
    for row in document["work_packages"][300:340]:
        row["subject"] = f"Label printer queue {row['id']}"
    document["work_packages"][0]["subject"] = "Printer labels smudge"
    search = await use_case(dataset_settings(write(tmp_path, document)), SearchWorkPackages)
    page = await search.execute(SearchWorkPackagesRequest("label printer firmware rollback"))
    assert [e.work_package.id for e in page.elements][:1] == [1]
    assert "comments" in page.elements[0].matched_fields
    assert page.unmatched_terms is None


@pytest.mark.parametrize("query", ["maxConnections", "max_connections", "max connections"])
async def test_an_old_comment_spelling_a_setting_one_way_is_found_by_every_spelling(tmp_path: Path, query: str) -> None:
    path = write(tmp_path, crowded_work_packages(400, {1: "Raised max_connections to 400 on the replica."}))
    search = await use_case(dataset_settings(path), SearchWorkPackages)
    page = await search.execute(SearchWorkPackagesRequest(query))
    assert [e.work_package.id for e in page.elements][:1] == [1]


async def test_an_old_meeting_whose_only_match_is_an_outcome_is_found(tmp_path: Path) -> None:
    path = write(tmp_path, many_meetings(600, old_outcome="We decided to keep supplier payouts in escrow."))
    search = await use_case(dataset_settings(path), SearchMeetings)
    page = await search.execute(SearchMeetingsRequest("what did we decide about escrow"))
    assert [e.meeting.id for e in page.elements] == [1]
    top = page.elements[0]
    assert top.match_type == "agenda_item"
    assert top.matched_agenda_items and top.matched_agenda_items[0].id == 1001


async def test_an_old_meeting_outside_the_window_is_found_by_a_participant_through_the_full_text_leg(
    tmp_path: Path,
) -> None:
    document = many_meetings(600)
    document["users"].append(
        {"id": 3, "name": "Søren Kvist", "login": "skvist", "email": "soren@example.com", "status": "active"}
    )
    document["meetings"][0]["participants"] = [1, 3]  # id 1, the oldest, outside the 500 most recent
    search = await use_case(dataset_settings(write(tmp_path, document)), SearchMeetings)
    page = await search.execute(SearchMeetingsRequest("Søren"))
    assert [e.meeting.id for e in page.elements] == [1]
    assert page.elements[0].match_type == "participant"


async def test_without_a_full_text_leg_a_meeting_is_found_by_a_participant_it_was_not_read_for(
    tmp_path: Path,
) -> None:
    # No released version has the meetings `search` filter: the list's participants are all there is
    # for the 275 meetings whose agendas the 25 reads do not reach. Meeting 1 is the oldest.
    document = with_soren_in_the_oldest_meeting(many_meetings(300))
    search = meetings_search(write(tmp_path, document), InstanceCapabilities(meeting_search_filter=False))
    page = await search.execute(SearchMeetingsRequest("meeting with Soren Kvist"))
    assert [e.meeting.id for e in page.elements][:1] == [1]
    assert page.elements[0].match_type == "participant"
    assert page.elements[0].matched_fields == ("participants",)


async def test_a_person_in_every_meeting_leaves_the_reads_in_depth_to_the_newest_meetings(tmp_path: Path) -> None:
    # Every meeting lists Ben Carter, so every one is a shallow hit of the same score: the 25 reads
    # go to the newest of them (as without the name), where the decision is, not to the oldest ids.
    document = many_meetings(300)
    assert all(2 in m["participants"] for m in document["meetings"])
    document["meetings"][-1]["agendaItems"][0]["outcomes"] = ["escrow decision"]
    search = meetings_search(write(tmp_path, document), InstanceCapabilities(meeting_search_filter=False))
    page = await search.execute(SearchMeetingsRequest("escrow decision with Ben Carter"))
    assert [e.meeting.id for e in page.elements][:1] == [300]
    assert page.elements[0].match_type == "agenda_item"


async def test_without_a_meetings_full_text_leg_the_notes_say_the_window_was_cut(tmp_path: Path) -> None:
    dataset = load_dataset(write(tmp_path, many_meetings(600, old_outcome="escrow decision")))
    meetings = InMemoryMeetingRepository(dataset)
    search = SearchMeetings(
        meetings,
        FixedCapabilities(InstanceCapabilities(meeting_search_filter=False)),
        ProjectResolver(InMemoryProjectRepository(dataset)),
    )
    page = await search.execute(SearchMeetingsRequest("escrow"))
    assert page.elements == ()
    assert page.coverage is not None and page.coverage.candidate_limit_reached
    assert page.notes is not None
    assert any("no meeting full-text search" in n for n in page.notes)
    assert any("candidate window was cut" in n for n in page.notes)


async def test_with_participants_but_no_agenda_api_nothing_is_read_in_depth(tmp_path: Path) -> None:
    document = with_soren_in_the_oldest_meeting(many_meetings(40))
    capabilities = InstanceCapabilities(agenda_items=False, meeting_search_filter=False)
    search = meetings_search(write(tmp_path, document), capabilities)
    page = await search.execute(SearchMeetingsRequest("Søren Kvist"))
    assert [e.meeting.id for e in page.elements] == [1]
    assert page.elements[0].match_type == "participant"
    assert page.coverage is not None and page.coverage.enriched == 0  # the list named him: no read


async def test_without_agenda_items_only_shallow_fields_are_searched_and_the_notes_say_so(tmp_path: Path) -> None:
    dataset = load_dataset(write(tmp_path, many_meetings(5, old_outcome="escrow decision")))
    search = SearchMeetings(
        InMemoryMeetingRepository(dataset),
        FixedCapabilities(
            InstanceCapabilities(agenda_items=False, meeting_search_filter=False, meeting_participants=False)
        ),
        ProjectResolver(InMemoryProjectRepository(dataset)),
    )
    title_hit = await search.execute(SearchMeetingsRequest("weekly sync 3"))
    assert title_hit.elements[0].meeting.id == 3
    assert title_hit.coverage is not None and title_hit.coverage.enriched == 0
    assert title_hit.notes and any("no agenda item API" in n for n in title_hit.notes)


async def test_a_person_and_a_topic_in_different_fields_outrank_either_alone(tmp_path: Path) -> None:
    document = many_meetings(0)
    meetings = [
        (1, "Budget review", 2),  # topic only, author Ben
        (2, "Team lunch", 1),  # person only, author Anna Müller
        (3, "Budget review", 1),  # topic in the title, person as author
    ]
    for meeting_id, title, author in meetings:
        document["meetings"].append(
            {
                "id": meeting_id,
                "project": 1,
                "title": title,
                "location": "Room A",
                "startTime": "2026-05-01T09:00:00Z",
                "endTime": "2026-05-01T10:00:00Z",
                "state": "closed",
                "author": author,
                "participants": [],
                "createdAt": "2026-05-01T09:00:00Z",
                "updatedAt": "2026-05-01T09:00:00Z",
                "agendaItems": [],
            }
        )
    search = await use_case(dataset_settings(write(tmp_path, document)), SearchMeetings)
    page = await search.execute(SearchMeetingsRequest("Müller's budget review"))
    ids = [e.meeting.id for e in page.elements]
    assert ids[0] == 3
    assert ids.index(3) < ids.index(1)


async def test_repeating_a_search_warms_the_cache_then_the_results_stay_put() -> None:
    search = await use_case(DEMO, SearchWorkPackages)
    first = await search.execute(SearchWorkPackagesRequest("the", match_mode="exact", page_size=100))
    second = await search.execute(SearchWorkPackagesRequest("the", match_mode="exact", page_size=100))
    third = await search.execute(SearchWorkPackagesRequest("the", match_mode="exact", page_size=100))
    assert first.coverage is not None and second.coverage is not None and third.coverage is not None
    assert first.coverage.enriched <= second.coverage.enriched == third.coverage.enriched
    assert {e.work_package.id for e in first.elements} <= {e.work_package.id for e in second.elements}
    assert [(e.work_package.id, e.score) for e in second.elements] == [
        (e.work_package.id, e.score) for e in third.elements
    ]


@pytest.mark.parametrize("query", ["", "   "])
async def test_a_blank_query_is_rejected_before_anything_is_read(query: str) -> None:
    search = await use_case(DEMO, SearchMeetings)
    with pytest.raises(InvalidArgumentError, match="query"):
        await search.execute(SearchMeetingsRequest(query))


async def test_search_pages_slice_the_ranked_list() -> None:
    search = await use_case(DEMO, SearchWorkPackages)
    # The first call fills the enrichment cache; later calls see deeper (ADR 0005), then stay stable.
    await search.execute(SearchWorkPackagesRequest("the", match_mode="exact", page_size=100))
    everything = await search.execute(SearchWorkPackagesRequest("the", match_mode="exact", page_size=100))
    second = await search.execute(SearchWorkPackagesRequest("the", match_mode="exact", page_size=3, offset=2))
    assert [e.work_package.id for e in second.elements] == [e.work_package.id for e in everything.elements][3:6]
    assert second.total == everything.total and second.has_more is (everything.total > 6)


async def test_work_package_search_honours_the_status_scope() -> None:
    search = await use_case(DEMO, SearchWorkPackages)
    everything = await search.execute(SearchWorkPackagesRequest("checkout", page_size=100))
    open_only = await search.execute(
        SearchWorkPackagesRequest("checkout", scope=WorkPackageScope(status="open"), page_size=100)
    )
    assert {e.work_package.id for e in open_only.elements} <= {e.work_package.id for e in everything.elements}
    assert all(e.work_package.status != "Closed" for e in open_only.elements)


async def test_wiki_search_without_a_query_lists_pages_with_score_zero() -> None:
    search = await use_case(DEMO, SearchWikiPages)
    page = await search.execute(SearchWikiPagesRequest())
    assert page.total == len(page.elements) > 0
    assert all(e.score == 0 for e in page.elements)
    assert [e.id for e in page.elements] == sorted(e.id for e in page.elements)


async def test_wiki_search_finds_body_only_words_below_title_hits(tmp_path: Path) -> None:
    document = base_document()
    document["wiki_pages"] = [
        {"id": 1, "project": 1, "title": "Escrow handbook", "text": "How we pay.", "updatedAt": "2026-01-01T00:00:00Z"},
        {"id": 2, "project": 1, "title": "Finance", "text": "The escrow account.", "updatedAt": "2026-01-01T00:00:00Z"},
    ]
    search = await use_case(dataset_settings(write(tmp_path, document)), SearchWikiPages)
    page = await search.execute(SearchWikiPagesRequest("escrow"))
    assert [e.id for e in page.elements] == [1, 2]
    assert page.elements[0].score > page.elements[1].score
    assert page.elements[1].matched_fields == ("text",)


@pytest.mark.parametrize(
    "query", ["#110", "110", "SHOP-10", "shop-10", "SHOP-10 export timeout", "why is shop-10 still open?"]
)
async def test_a_work_package_named_by_id_or_display_id_comes_first(query: str) -> None:
    search = await use_case(DEMO, SearchWorkPackages)
    page = await search.execute(SearchWorkPackagesRequest(query))
    assert page.elements[0].work_package.id == 110
    assert page.elements[0].score == 1.0 and page.elements[0].matched_fields[0] == "id"
    keys = [(-e.score, e.work_package.id) for e in page.elements]
    assert keys == sorted(keys)


@pytest.mark.parametrize("query", ["#110", "SHOP-10", "SHOP-10 export timeout"])
async def test_a_work_package_named_by_id_outside_the_scope_is_not_returned(query: str) -> None:
    search = await use_case(DEMO, SearchWorkPackages)
    page = await search.execute(SearchWorkPackagesRequest(query, scope=WorkPackageScope(project_id="warehouse")))
    assert 110 not in [e.work_package.id for e in page.elements]


CHATTY = (
    "hi, quick HR question, my partner and I want to spend a few weeks in Portugal in the autumn, "
    "am I allowed to work from abroad for a while?"
)


def chatty_wiki() -> dict[str, Any]:
    document = base_document()
    pages = [
        ("Working from abroad", "Employees may work from another EU country for up to 30 days a year."),
        ("Partner portal", "How partners log in."),
        ("Spend limits", "Card spend limits per team."),
        ("Travel policy", "Book trains for trips under four hours."),
    ]
    document["wiki_pages"] = [
        {"id": n, "project": 1, "title": title, "text": text, "updatedAt": "2026-01-01T00:00:00Z"}
        for n, (title, text) in enumerate(pages, start=1)
    ]
    return document


async def test_a_long_question_that_finds_nothing_as_a_whole_is_answered_by_its_best_clause(tmp_path: Path) -> None:
    # As a whole the chatter words (partner, spend, weeks, portugal ~ portal, question) outweigh
    # the two the answer holds; the clause "am I allowed to work from abroad" finds it (ADR 0061).
    search = await use_case(dataset_settings(write(tmp_path, chatty_wiki())), SearchWikiPages)
    page = await search.execute(SearchWikiPagesRequest(CHATTY))
    assert [e.id for e in page.elements][:1] == [1]
    assert page.notes and any("Nothing matched the whole question" in n and "work from abroad" in n for n in page.notes)


async def test_a_question_found_as_a_whole_is_not_answered_by_a_clause(tmp_path: Path) -> None:
    search = await use_case(dataset_settings(write(tmp_path, chatty_wiki())), SearchWikiPages)
    page = await search.execute(
        SearchWikiPagesRequest("am I allowed to work from abroad, for a few weeks, in Portugal?")
    )
    assert [e.id for e in page.elements][:1] == [1]
    assert not any("Nothing matched the whole question" in n for n in page.notes or ())


async def search_thirty(
    tmp_path: Path, target: str, subjects: Iterable[tuple[int, str]], query: str
) -> tuple[WorkPackageSearchPage, int]:
    """A work package search over 30 routine work packages, the fourth titled ``target`` and others
    retitled by position, and the fourth's id."""
    document = many_work_packages(30)
    document["work_packages"][3]["subject"] = target
    for at, subject in subjects:
        document["work_packages"][at]["subject"] = subject
    search = await use_case(dataset_settings(write(tmp_path, document)), SearchWorkPackages)
    return await search.execute(SearchWorkPackagesRequest(query)), document["work_packages"][3]["id"]


async def test_a_long_question_answered_by_a_clause_through_the_pipeline(tmp_path: Path) -> None:
    # Each chatter word somewhere else, none of them together: as a whole nothing comes near.
    page, target = await search_thirty(
        tmp_path,
        "Coffee machine in the canteen is broken again",
        ((5, "Weekly report"), (6, "Training plan for new staff"), (7, "Last-mile route review")),
        "ugh, I missed last week's review because my train was late, and someone told me afterwards "
        "that they finally talked about the coffee machine, any ticket for it?",
    )
    assert [e.work_package.id for e in page.elements][:1] == [target]


async def test_the_clause_whose_best_record_holds_its_words_as_written_answers(tmp_path: Path) -> None:
    # No record holds "wall" or "text"; "Test call routing" holds a typo neighbour of each, so the
    # chatter clause "sorry for the wall of text" scores it higher than the topic's clause scores
    # its record, whose other words are each in a record of their own (ADR 0069).
    words = ("two", "weeks", "still", "catching", "lunch", "ticket", "changing")
    chatter = ("Test call routing", *(f"{word.capitalize()} routine" for word in words))
    page, target = await search_thirty(
        tmp_path,
        "Stretch film supplier switches to 17 micron",
        enumerate(chatter, start=5),
        "sorry for the wall of text, I've been out for two weeks and I'm still catching up, and Dario "
        "mentioned at lunch that there's a ticket somewhere about the stretch film supplier changing something",
    )
    assert [e.work_package.id for e in page.elements][:1] == [target]
    assert page.notes and any("stretch film supplier" in n for n in page.notes if "whole question" in n)


def wiki_of(*titles: str) -> dict[str, Any]:
    document = base_document()
    document["wiki_pages"] = [
        {"id": n, "project": 1, "title": title, "text": "", "updatedAt": "2026-01-01T00:00:00Z"}
        for n, title in enumerate(titles, start=1)
    ]
    return document


@pytest.mark.parametrize(
    ("titles", "query", "note"),
    [
        # An acronym no page holds, read as the words a page spells it with (ADRs 0046, 0050).
        (("Ferry operator contacts", "Service Level Agreement with the ferry operator"), "SLA ferry operator", "'sla'"),
        # Words no page holds, read as the acronym a page writes (ADR 0060).
        (("Admin accounts", "MFA for admin accounts"), "multi-factor authentication for admin accounts", "'MFA'"),
    ],
)
async def test_the_wiki_search_reads_acronyms_both_ways(
    tmp_path: Path, titles: tuple[str, ...], query: str, note: str
) -> None:
    search = await use_case(dataset_settings(write(tmp_path, wiki_of(*titles))), SearchWikiPages)
    page = await search.execute(SearchWikiPagesRequest(query))
    assert [e.id for e in page.elements][:1] == [2]
    assert page.notes and any("was also read as" in n and note in n for n in page.notes)


async def test_a_long_word_no_work_package_holds_is_searched_again_by_its_halves(tmp_path: Path) -> None:
    # The oldest work package is outside the window of the 250 newest; only a full-text leg reaches
    # it, and "kalinigrad" (a typo) finds nothing there. Its half "kalin" does (ADR 0062).
    document = many_work_packages(400)
    document["work_packages"][0]["subject"] = "Kaliningrad transit declaration times out"
    search = await use_case(dataset_settings(write(tmp_path, document)), SearchWorkPackages)
    page = await search.execute(SearchWorkPackagesRequest("kalinigrad routine"))
    assert [e.work_package.id for e in page.elements][:1] == [1]
    assert page.notes and any("its halves 'kalin' and 'igrad' were searched too" in n for n in page.notes)
    # A word the records hold as typed is not searched again.
    plain = await search.execute(SearchWorkPackagesRequest("kaliningrad routine"))
    assert [e.work_package.id for e in plain.elements][:1] == [1]
    assert not any("halves" in n for n in plain.notes or ())


def test_only_a_long_word_of_letters_is_cut_in_halves() -> None:
    from openproject_mcp.application.search_common import typo_halves

    assert typo_halves("kalinigrad") == ("kalin", "igrad")
    assert typo_halves("authentiction") == ("authen", "tiction")
    assert typo_halves("temporay") is None  # halves of four letters are in too much
    assert typo_halves("2026-05-01") is None


async def test_a_question_naming_the_day_finds_the_meeting_of_that_day(tmp_path: Path) -> None:
    # A meeting a day from 2 January 2025, all with one title and agenda item: only the date tells
    # them apart, and equal scores would put the oldest first (ADR 0070).
    document = many_meetings(60)
    for meeting in document["meetings"]:
        meeting["title"] = "Peak season readiness"
        meeting["agendaItems"][0]["title"] = "Overflow warehouse"
    search = await use_case(dataset_settings(write(tmp_path, document)), SearchMeetings)
    page = await search.execute(SearchMeetingsRequest("what did we decide on 20 January about the overflow warehouse?"))
    first = page.elements[0]
    assert (first.meeting.start_time.month, first.meeting.start_time.day) == (1, 20)
    assert first.match_type == "agenda_item" and "date" in first.matched_fields


async def test_a_meeting_matching_by_its_date_alone_is_no_answer(tmp_path: Path) -> None:
    search = await use_case(dataset_settings(write(tmp_path, many_meetings(40))), SearchMeetings)
    page = await search.execute(SearchMeetingsRequest("January 2025"))
    assert page.elements == ()
    page = await search.execute(SearchMeetingsRequest("status round January 2025"))
    assert page.elements and all(e.match_type == "agenda_item" for e in page.elements)


@pytest.mark.parametrize(
    ("query", "named"),
    [
        ("what did we decide in mid-December 2024?", {"december": "december", "2024": "2024"}),
        ("on 03 March", {"march": "march", "3": "03"}),
        ("March 17th", {"march": "march", "17": "17th"}),
        ("the 5th of June", {"june": "june", "5": "5th"}),
        ("Jan 2025 review", {"january": "jan", "2025": "2025"}),
        ("Mondays standup", {"monday": "mondays"}),
        ("in May 2025", {"may": "may", "2025": "2025"}),
        ("how long may a PoC run", {}),
        ("who may present 2 items", {}),
        ("postgres 12 EOL", {}),
    ],
)
def test_the_date_words_a_query_names(query: str, named: dict[str, str]) -> None:
    from openproject_mcp.domain.search.dates import date_words

    assert date_words(query) == named
