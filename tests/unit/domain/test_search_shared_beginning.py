"""The beginning a full-text leg sends for a word: held by each of its forms, never shorter than
four letters (three for a word of four), the whole word where its forms share too little."""

from __future__ import annotations

import pytest

from openproject_mcp.domain.search import shared_beginning, stem_keys

FAMILIES: tuple[tuple[str, ...], ...] = (
    ("migrate", "migrated", "migrating", "migration", "migrations"),
    ("decide", "decided", "deciding", "decision", "decisions"),
    ("approve", "approved", "approval", "approving"),
    ("policy", "policies"),
    ("replace", "replacing", "replacement"),
    ("reimburse", "reimbursed", "reimbursement"),
    ("onboard", "onboarding", "onboarded"),
    ("deploy", "deployed", "deployment"),
    ("fail", "failed", "failure"),
    ("extend", "extension"),
    ("organisation", "organize", "organization"),
    ("configure", "configuration", "configured"),
    # British and American spellings (ADR 0058).
    ("standardise", "standardize", "standardizing", "standardised", "standardisation", "standardization"),
    ("organise", "organize", "organising", "organisation", "organization"),
    ("prioritise", "prioritize", "prioritised", "prioritization"),
)


@pytest.mark.parametrize("family", FAMILIES, ids=lambda family: family[0])
def test_every_form_holds_the_beginning_sent_for_any_other(family: tuple[str, ...]) -> None:
    assert all(stem_keys(a) & stem_keys(b) for a in family for b in family)  # ranking meets them all
    for word in family:
        beginning = word[: shared_beginning(word)]
        missing = [other for other in family if beginning not in other]
        assert not missing, (word, beginning, missing)


@pytest.mark.parametrize(
    ("word", "sent"),
    [
        ("hiring", "hiring"),  # its key "hir" is too short to send
        ("hire", "hir"),  # three letters for a word of four
        ("budget", "budget"),  # no other form to share with
        ("refund", "refund"),  # "-und" is no rule's writing
        ("mueller", "mueller"),  # a German variant's key shares too little
        ("v2", "v2"),  # words with digits are never stemmed
        ("policies", "polic"),
        ("logs", "logs"),  # a four-letter plural: its singular "log" is inside "blog" and "login"
    ],
)
def test_the_beginning_is_never_too_short_to_mean_something(word: str, sent: str) -> None:
    assert word[: shared_beginning(word)] == sent


@pytest.mark.parametrize(
    ("word", "sent"),
    [
        ("revised", "revis"),  # not "revi", in review and previous (ADR 0065)
        ("premise", "premis"),
        ("devise", "devis"),
        ("realised", "realis"),
        ("standardise", "standardi"),  # long enough to send what both spellings share
        ("organise", "organi"),
    ],
)
def test_an_ise_words_ize_key_shortens_its_leg_only_to_six_letters_or_more(word: str, sent: str) -> None:
    assert word[: shared_beginning(word)] == sent


def test_analyse_and_analyze_meet_in_ranking_though_their_legs_stay_apart() -> None:
    # What both share, "analy", is under six letters (ADR 0065): each leg sends its own spelling.
    family = ("analyse", "analyze", "analysed", "analyzing", "analyses")
    assert all(stem_keys(a) & stem_keys(b) for a in family for b in family)
    assert "analyse"[: shared_beginning("analyse")] == "analys"
