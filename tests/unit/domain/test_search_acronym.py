"""An acronym no record holds, read as the words a record spells it with (ADR 0046)."""

from __future__ import annotations

from dataclasses import dataclass

import pytest

from openproject_mcp.domain.search import Field, rank_records
from openproject_mcp.domain.search.acronym import (
    acronym_like,
    phrase_readings,
    spelled_out,
    spelled_phrases,
    spelled_query,
    with_spelling,
    written_in_capitals,
)


@pytest.mark.parametrize(
    ("term", "query", "expected"),
    [
        ("qbr", "QBR with KTL", True),
        ("sla", "what does the SLA say", True),
        ("sla", "what does the sla say", False),  # not typed as an acronym
        ("ux", "UX review", False),  # two letters: too often initials by chance
        ("abcdef", "ABCDEF", False),  # six letters: a word, not initials
        ("q3r", "Q3R", False),  # letters only
    ],
)
def test_an_acronym_is_three_to_five_letters_typed_in_capitals(term: str, query: str, expected: bool) -> None:
    assert acronym_like(term, query) is expected


def test_a_title_opening_with_the_words_spells_the_acronym_out() -> None:
    texts = ["KTL volumes", "Quarterly business review with KTL"]
    assert spelled_out("qbr", texts) == ("quarterly", "business", "review")


def test_words_written_as_a_name_spell_it_out_anywhere_in_a_text() -> None:
    assert spelled_out("sla", ["Read the Service Level Agreement first."]) == ("service", "level", "agreement")


def test_words_that_merely_begin_with_the_letters_do_not() -> None:
    # Mid-sentence and lower-case: chance, not a name.
    assert spelled_out("sla", ["The storage log affected the import."]) is None


@pytest.mark.parametrize("text", ["Alpha, Beta. Charlie", "Alpha\nBeta\nCharlie", "Alpha; Beta Charlie"])
def test_punctuation_or_a_line_break_between_the_words_spells_nothing(text: str) -> None:
    assert spelled_out("abc", [text]) is None


def test_a_hyphen_between_the_words_still_spells() -> None:
    assert spelled_out("sla", ["The Service-Level Agreement"]) == ("service", "level", "agreement")


def test_at_most_two_acronyms_are_read_per_query() -> None:
    texts = ["Service Level Agreement", "Estimated Time of Arrival", "Quarterly Business Review"]
    spelled = spelled_query("SLA ETA QBR", ["sla", "eta", "qbr"], texts)
    assert spelled is not None and len(spelled[1]) == 2


def test_one_stopword_may_stand_between_two_of_the_words_and_two_may_not() -> None:
    assert spelled_out("eta", ["Estimated Time of Arrival"]) == ("estimated", "time", "arrival")
    assert spelled_out("eta", ["Estimated Time of the Arrival"]) is None


def test_the_spelling_most_texts_hold_wins() -> None:
    texts = ["Service Level Agreement", "Service Level Agreement, signed", "Sales Lead Assignment"]
    assert spelled_out("sla", texts) == ("service", "level", "agreement")


def test_the_words_follow_the_acronym_which_stays() -> None:
    assert with_spelling("QBR with KTL", "qbr", ("quarterly", "business", "review")) == (
        "QBR quarterly business review with KTL"
    )
    assert with_spelling("K.T.L.", "ktl", ("kay", "tee", "ell")) == "K.T.L. kay tee ell"


def test_a_spelling_past_the_query_words_ranking_keeps_is_not_added() -> None:
    texts = ["Service Level Agreement"]
    # "SLA service level agreement breach": five significant words.
    assert spelled_query("SLA breach", ["sla"], texts, max_words=5) is not None
    assert spelled_query("SLA breach", ["sla"], texts, max_words=4) is None


@dataclass(frozen=True)
class Page:
    id: int
    title: str


FIELDS: tuple[Field[Page], ...] = (Field("title", 1.0, lambda p: p.title),)
PAGES = [Page(1, "Ferry operator contacts"), Page(2, "Service Level Agreement with the ferry operator")]


def test_a_ranking_reads_an_acronym_no_record_holds_as_its_spelling() -> None:
    # Without the reading both hold "ferry operator" alone and the lower id comes first.
    ranked = rank_records(PAGES, "SLA ferry operator", FIELDS, key=lambda p: p.id)
    assert [r.record.id for r in ranked][:1] == [2]
    plain = rank_records(PAGES, "sla ferry operator", FIELDS, key=lambda p: p.id)
    assert [r.record.id for r in plain] == [1, 2]


def test_a_prefix_or_typo_neighbour_does_not_stop_the_reading() -> None:
    # "Slack" starts with "sla": still no record holds SLA itself or another form of it.
    pages = [*PAGES, Page(3, "Slack channel for dispatch")]
    ranked = rank_records(pages, "SLA ferry operator", FIELDS, key=lambda p: p.id)
    assert [r.record.id for r in ranked][:1] == [2]


def test_an_acronym_a_record_holds_is_not_spelled_out() -> None:
    pages = [*PAGES, Page(3, "SLA review")]
    ranked = rank_records(pages, "SLA", FIELDS, key=lambda p: p.id)
    assert [r.record.id for r in ranked] == [3]


# ------------------------------------------------------------------ spelled-out words read as an acronym (ADR 0060)


@pytest.mark.parametrize(
    ("query", "acronym", "words"),
    [
        ("multi-factor authentication for the vpn", "mfa", ("multi", "factor", "authentication")),
        ("single sign on fails", "sso", ("single", "sign")),  # a stopword ending the phrase counts
        ("when is the end of life", "eol", ("end", "life")),  # a stopword between counts...
        ("estimated time of arrival", "eta", ("estimated", "time", "arrival")),  # ...or not
        ("service level agreement", "sla", ("service", "level", "agreement")),
    ],
)
def test_a_phrase_of_the_query_gives_the_acronym_of_its_initials(
    query: str, acronym: str, words: tuple[str, ...]
) -> None:
    assert dict(spelled_phrases(query))[acronym] == words


def test_a_phrase_is_words_side_by_side() -> None:
    phrases = dict(spelled_phrases("multi, factor. authentication"))
    assert "mfa" not in phrases  # punctuation ends a phrase
    assert "mfa" not in dict(spelled_phrases("multi of the factor authentication"))  # two stopwords in a row


def test_the_acronym_must_be_written_in_capitals() -> None:
    assert written_in_capitals("mfa", ["Enforce MFA on the VPN"])
    assert written_in_capitals("api", ["Three APIs"])
    assert not written_in_capitals("mfa", ["the mfa token", "MFAX"])
    # One small letter after the first, as a small word's often is (ADR 0063).
    assert written_in_capitals("poc", ["Read the PoC guidelines"])
    assert not written_in_capitals("poc", ["Poc", "pOC", "a poc"])


def test_a_reading_needs_a_word_no_record_holds_and_the_acronym_held_in_capitals() -> None:
    texts = ["Enforce MFA on the VPN gateway"]
    query = "multi-factor authentication for the vpn"
    readings, notes = phrase_readings(query, ["multi"], lambda token: token == "mfa", texts)
    assert readings == {"mfa": ("multi", "factor", "authentication")}
    assert notes == ("'multi factor authentication' was also read as 'MFA', the acronym the records write.",)
    assert phrase_readings(query, [], lambda token: token == "mfa", texts) == ({}, ())  # every word held
    assert phrase_readings(query, ["multi"], lambda token: False, texts) == ({}, ())  # no record holds mfa
    assert phrase_readings(query, ["multi"], lambda token: True, ["the mfa token"]) == ({}, ())  # not capitals


def test_a_record_writing_the_acronym_ranks_first_for_the_spelled_out_words() -> None:
    pages = [
        Page(1, "Partner API authentication"),
        Page(2, "VPN gateway upgrade"),
        Page(3, "Enforce MFA on the VPN gateway for contractors"),
        Page(4, "Refactor the billing module"),
    ]
    ranked = rank_records(pages, "multi-factor authentication for the vpn", FIELDS, key=lambda p: p.id)
    assert [r.record.id for r in ranked][:1] == [3]


# ------------------------------------------------------------------ a small word's letter (ADR 0063)


@pytest.mark.parametrize(
    ("term", "text", "words"),
    [
        ("eol", "End-of-life hardware disposal", ("end", "of", "life")),
        ("poc", "Read the Proof of Concept guidelines", ("proof", "of", "concept")),
        ("sso", "Single Sign-On for internal tools", ("single", "sign", "on")),
        ("eta", "Estimated time of arrival on the tracking page", ("estimated", "time", "arrival")),
    ],
)
def test_a_stopword_of_the_spelling_may_give_its_letter(term: str, text: str, words: tuple[str, ...]) -> None:
    assert spelled_out(term, [text]) == words


def test_a_spelling_neither_opens_with_a_stopword_nor_is_only_one_word_and_stopwords() -> None:
    assert spelled_out("tsa", ["The Service Agreement"]) is None
    assert spelled_out("oot", ["Often on the"]) is None  # one word, two stopwords


def test_in_mid_text_only_a_stopword_may_give_a_lower_case_letter() -> None:
    # "Status of pull request" is no name; "Sales lead at" is no Service Level Agreement (ADR 0065).
    assert spelled_out("sop", ["Please check the Status of pull request 42"]) is None
    assert spelled_out("sla", ["Call with the Sales lead at ACME"]) is None
    assert spelled_out("poc", ["Read the Proof of Concept guidelines"]) == ("proof", "of", "concept")


def test_an_acronym_written_otherwise_anywhere_is_a_word() -> None:
    assert not written_in_capitals("new", ["NEW starter checklist", "New laptop for Ben"])
    assert not written_in_capitals("not", ["Do NOT deploy on Fridays"])  # a stopword is never one
    assert written_in_capitals("mfa", ["Enforce MFA", "MFAs for admins"])
