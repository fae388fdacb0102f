"""Token and field scores: the seed's rules in order, coverage, the phrase bonus, offsets."""

from __future__ import annotations

from dataclasses import dataclass

import pytest

from openproject_mcp.domain.search import (
    EDIT_PENALTY,
    PHRASE_BONUS,
    STEM_SCORE,
    Field,
    query_tokens,
    rank_records,
    score_field,
    score_token,
)
from openproject_mcp.domain.search.score import PREFIX_SCORE, Lexicon, vocabulary_hits


@pytest.mark.parametrize(
    ("query", "field", "expected"),
    [
        ("budget", "budget", 1.0),  # exact
        ("ab", "ab", 1.0),  # exact beats the length gate
        ("bud", "budget", 0.9),  # prefix from 3 letters
        ("bu", "budget", 0.0),  # under 3 letters only an exact token counts
        ("ab", "ac", 0.0),
        ("prov", "approval", 0.75),  # contained, 4 letters or more
        ("pro", "approval", 0.0),  # 3 letters are not enough to count as contained
        ("budgt", "budget", 1 - 1 / 5 * EDIT_PENALTY),  # one edit on a 5-letter token
        ("aproval", "approval", 1 - 1 / 7 * EDIT_PENALTY),
        ("migraton", "migrate", 1 - 2 / 8 * EDIT_PENALTY),  # two edits allowed from 6 letters
        ("cat", "dog", 0.0),  # guard: distance 3
        ("red", "car", 0.0),
        ("muller", "muller", 1.0),
        ("brain", "brazil", 0.0),  # two edits on a 5-letter word: a different word
        ("metro", "metrics", 0.0),  # not a prefix, three edits
        ("brazil", "brain", 1 - 2 / 6 * EDIT_PENALTY),  # the long word may absorb two edits
        ("reconcilation", "reconciliation", 1 - 1 / 13 * EDIT_PENALTY),
        # Word forms meet through the stemmer (ADR 0016): below exact, above a prefix or typo.
        ("decide", "decision", STEM_SCORE),
        ("decide", "decided", STEM_SCORE),
        ("hiring", "hire", STEM_SCORE),
        ("migrate", "migration", STEM_SCORE),
        ("deploy", "deployment", STEM_SCORE),
        ("failure", "fail", STEM_SCORE),
        ("mueller", "muller", STEM_SCORE),  # German spelling of an umlaut
        # A stem ending in a doubled consonant meets it single, and the reverse.
        ("cancelled", "cancellation", STEM_SCORE),
        ("install", "installed", STEM_SCORE),
        ("called", "call", STEM_SCORE),
        ("enrol", "enrollment", STEM_SCORE),
        ("spelling", "spell", STEM_SCORE),
        # A short root before -ation keeps its "at": rotation ~ rotate, not station ~ stats.
        ("rotate", "rotations", STEM_SCORE),
        ("locating", "location", STEM_SCORE),
        ("creation", "create", STEM_SCORE),
        ("stats", "station", 0.0),
        # A four-letter plural meets its three-letter word (ADR 0052); "news" is no plural.
        ("logs", "log", STEM_SCORE),
        ("job", "jobs", STEM_SCORE),
        ("keys", "key", STEM_SCORE),
        ("pay", "pays", STEM_SCORE),
        ("new", "news", PREFIX_SCORE),
        # An abbreviation's plural ending in -is/-us meets it too (ADR 0056); axis and plus stay words.
        ("apis", "api", STEM_SCORE),
        ("kpi", "kpis", STEM_SCORE),
        ("axis", "axi", 1 - 1 / 4 * EDIT_PENALTY),
        # A three-letter word (or its plural) is not the same letters with "e" (ADR 0054): car/care,
        # sit/site, hop/hoping; its own forms double the consonant (hopping, sitting).
        ("cars", "caring", 0.0),
        ("sits", "site", 1 - 1 / 4 * EDIT_PENALTY),
        ("hops", "hoping", 0.0),
        ("hops", "hopping", STEM_SCORE),
        ("sit", "sitting", STEM_SCORE),
        ("fix", "fixing", STEM_SCORE),  # x does not double
        ("nils", "nil", 1 - 1 / 4 * EDIT_PENALTY),  # a name, not a plural: a typo neighbour at most
        # A query token holding a digit matches only itself; digits are never edit-matched.
        ("0012", "0011", 0.0),
        ("0012", "0012", 1.0),
        # A number meets its padded form, as an id is written (ADR 0045); not the reverse.
        ("12", "0012", STEM_SCORE),
        ("405", "00405", STEM_SCORE),
        ("0012", "12", 0.0),  # zeros the user typed are meant: not the 12 of a version 3.12
        ("7", "07", 0.0),  # one digit: every date holds 07
        ("12", "0112", 0.0),
        ("12", "120", 0.0),
        ("12", "v012", 0.0),
        # A number meets its plural, both ways (ADR 0053): "429s", "the 1990s".
        ("429s", "429", STEM_SCORE),
        ("429", "429s", STEM_SCORE),
        ("1990s", "1990", STEM_SCORE),
        ("5s", "5", 0.0),  # one digit: too little to be a number people count
        ("429s", "4290", 0.0),
        # -ise and -ize, -yse and -yze meet (ADR 0058); a short word keeps its own spelling.
        ("standardizing", "standardise", STEM_SCORE),
        ("analysed", "analyze", STEM_SCORE),
        ("organise", "organization", STEM_SCORE),
        ("rise", "rize", 1 - 1 / 4 * EDIT_PENALTY),
        # A stopword of the text is never a query word's typo, prefix or part (ADR 0057).
        ("bug", "but", 0.0),
        ("bug", "bugs", STEM_SCORE),
        ("abou", "about", 0.0),
        ("thes", "these", 0.0),
        ("wil", "will", 0.0),
        ("wille", "will", STEM_SCORE),  # a form of it still meets it
        ("budget", "budget2026", 0.9),  # a word may still be the prefix of a token with digits
        ("budgtx", "budget1", 0.0),
    ],
)
def test_score_token_rules(query: str, field: str, expected: float) -> None:
    assert score_token(query, field) == pytest.approx(expected)


def test_a_typo_scores_between_nothing_and_exact() -> None:
    assert 0.0 < score_token("budgt", "budget") < score_token("budget", "budget")


def test_vocabulary_hits_agree_with_score_token() -> None:
    vocabulary = {
        *("budget", "budgets", "budgetary", "budge", "gadget", "fudge", "trudge", "bud", "xbudgetx", "dog"),
        *("but", "bugs", "about", "these"),  # stopwords meet a query word only exactly (ADR 0057)
    }
    for query in ["budget", "budgt", "bud", "bu", "udge", "dgeb", "bug", "abou", "thes", "but"]:
        expected = {token: score_token(query, token) for token in vocabulary if score_token(query, token) > 0}
        assert vocabulary_hits(query, vocabulary) == expected
    numbers = {"12", "012", "0012", "0112", "120", "v012", "3", "07", "7", "00405", "12s", "429", "429s", "7s"}
    for query in ["12", "0012", "7", "405", "112", "12s", "429", "429s", "7s"]:
        expected = {token: score_token(query, token) for token in numbers if score_token(query, token) > 0}
        assert vocabulary_hits(query, numbers) == expected, query
        assert vocabulary_hits(query, Lexicon(numbers, ())) == expected, query


def field(query: str, text: str) -> float:
    return score_field(query_tokens(query), text).score


@dataclass(frozen=True)
class Note:
    id: int
    text: str


NOTE_FIELDS: tuple[Field[Note], ...] = (Field("text", 1.0, lambda n: n.text),)


def order(query: str, *texts: str) -> list[int]:
    """The positions of the texts in ranked order when all of them are ranked together."""
    notes = [Note(index, text) for index, text in enumerate(texts)]
    return [r.record.id for r in rank_records(notes, query, NOTE_FIELDS, key=lambda n: n.id, min_score=0.0)]


def scores(query: str, *texts: str) -> list[float]:
    """Each text's score when all of them are ranked together (0.0 when gated out)."""
    notes = [Note(index, text) for index, text in enumerate(texts)]
    found = {r.record.id: r.score for r in rank_records(notes, query, NOTE_FIELDS, key=lambda n: n.id, min_score=0.0)}
    return [found.get(index, 0.0) for index in range(len(texts))]


def test_coverage_ranks_both_tokens_above_one() -> None:
    both, one = scores("budget approval", "Approval of the budget", "Approval of the agenda")
    assert both > one > 0.0
    # "approval" is in both texts, so it carries less information than "budget": 0.0 < one < 0.25.
    assert one < 0.25


def test_coverage_keeps_a_one_word_hit_under_the_default_gate_when_the_other_word_is_informative() -> None:
    # "hiring" is in the candidate set (the second text) and rarer than "decision".
    found = rank_records(
        [Note(1, "Decision log"), Note(2, "Hiring decision")], "hiring decision", NOTE_FIELDS, key=lambda n: n.id
    )
    assert [r.record.id for r in found] == [2]


def test_a_word_no_candidate_holds_does_not_sink_the_others() -> None:
    # "decision" is nowhere, so it is left out of the weights instead of halving the score.
    assert field("hiring freezze decision", "Hiring freeze confirmed") > 0.35


@pytest.mark.parametrize(
    ("query", "verbatim", "scattered"),
    [
        # The bonus only shows where tokens are not all exact: an all-exact field is already 1.
        ("budget approv", "budget approval meeting", "approval of the yearly budget"),
        ("budgt aproval", "Budget approval, Q3", "Approval of the budget for Q3"),
        ("quartely pricing", "Quarterly pricing committee", "Pricing of the quarterly plan"),
    ],
)
def test_a_verbatim_phrase_outranks_scattered_tokens(query: str, verbatim: str, scattered: str) -> None:
    # The verbatim text is listed second, so a tie broken by id would put it last.
    assert order(query, scattered, verbatim) == [1, 0]
    phrase, apart = scores(query, verbatim, scattered)
    assert phrase >= apart


@pytest.mark.parametrize(
    ("query", "verbatim", "reordered"),
    [
        ("budget approval", "Budget approval meeting", "Approval of the yearly budget"),
        ("hiring freeze", "The hiring freeze holds", "Freeze on hiring"),
        ("payment provider fees", "payment provider fees in Q3", "fees of the provider for payment"),
    ],
)
def test_the_verbatim_phrase_wins_even_when_every_word_is_exact(query: str, verbatim: str, reordered: str) -> None:
    # Both reach the top score; the phrase still comes first, not the lower id.
    assert scores(query, verbatim, reordered) == [1.0, 1.0]
    assert order(query, reordered, verbatim) == [1, 0]


def test_words_in_order_with_a_gap_rank_between_the_phrase_and_scattered_words() -> None:
    scattered = "budget for the team, and then much later, after lunch, an approval"
    assert order("budget approval", scattered, "budget final approval", "budget approval") == [2, 1, 0]


@pytest.mark.parametrize(
    ("query", "part_as_typed", "scattered"),
    [
        ("handover night shift", "Night shift handover", "Handover of the shift at night"),
        ("request airport transfer", "Airport transfer request", "Request for a transfer to the airport"),
        ("budget approval q3 review", "Q3 review: budget approval", "Approval of the review budget for Q3"),
    ],
)
def test_a_part_of_the_phrase_as_typed_outranks_the_words_scattered(
    query: str, part_as_typed: str, scattered: str
) -> None:
    # Neither holds the whole phrase in order; one holds two (or more) of its words as typed.
    assert scores(query, part_as_typed, scattered) == [1.0, 1.0]
    assert order(query, scattered, part_as_typed) == [1, 0]


def test_a_part_of_the_phrase_never_reaches_the_next_phrase_level() -> None:
    # In order with a gap (the next level up) still beats any number of adjacent parts out of order.
    in_order = "budget draft for approval, final q3"
    parts = "approval q3, then budget approval"
    assert order("budget approval q3", parts, in_order) == [1, 0]


def test_a_version_counts_in_the_phrase_where_the_query_has_it() -> None:
    # The version stands second in the query: the text typed like the query is the phrase.
    assert order("release 3.1 night shift", "3.1 release night shift", "release 3.1 night shift") == [1, 0]
    assert order("handover 3.1", "3.1 handover", "handover 3.1") == [1, 0]


def test_a_word_the_records_hold_in_another_form_is_not_widened_to_its_neighbours() -> None:
    # "audits" is in no record, "audit" is: "audio" (two edits) is not what was meant.
    assert order("dock audits", "Docket and audio setup for the town hall", "Dock audit Leipzig") == [1]
    # Without another form in the records, the typo neighbour still counts.
    assert order("dock audits", "Docket and audio setup for the town hall") == [0]


def test_a_four_letter_plural_meets_its_singular_and_no_prefix_neighbour() -> None:
    # "pays" holds "pay" in another form, so "pay" is not widened to "payouts" (a prefix).
    assert order("on call pay per call out", "Marketplace payouts per seller", "On-call week pays 350 EUR")[:1] == [1]
    # "partner", "api" and "keys" all stand in the second record, "key" in its singular.
    assert order("partner api keys", "Rotate the API keys", "New API key for the partner")[:1] == [1]


def test_a_plural_of_other_letters_does_not_switch_off_the_widening_of_a_word() -> None:
    # "sits" is no form of "site", so "site" still reaches "website" (ADR 0054).
    assert order("site migration", "Website migration plan", "The dump sits in the bucket until the migration")[:1] == [
        0
    ]


def test_a_plural_splits_as_its_singular_does() -> None:
    # "email" stands in a record, so "emails" is not widened to "mail": it still finds "E-mail".
    assert order("emails bouncing", "Bounce handling", "E-mail bounce handling", "Email archive")[:1] == [1]


def test_the_phrase_skips_field_stopwords() -> None:
    # The query lost "of the"; the field keeps them, so they must not break the phrase.
    with_stopwords = field("budgt approvl", "budget of the approval")
    scattered = field("budgt approvl", "budget; summer approval")
    assert with_stopwords > scattered


def test_a_single_token_never_earns_the_phrase_bonus() -> None:
    assert field("budgt", "budget") == pytest.approx(1 - 1 / 5 * EDIT_PENALTY)


def test_an_all_exact_field_scores_one_with_or_without_the_phrase() -> None:
    # The displayed score is capped at 1; the order among equals is the phrase's (see above).
    assert field("budget approval", "budget approval meeting") == 1.0
    assert field("budget approval", "approval of the yearly budget") == 1.0


def test_a_typo_in_the_query_is_tolerated() -> None:
    assert field("budgt aproval", "Approval of Q3 budget") > 0.5


def test_token_scores_follow_the_query_order() -> None:
    result = score_field(("budget", "hiring", "approv"), "Approval of Q3 budget")
    # "approv" is the stem of "approval" (approv-al), no longer only its prefix.
    assert result.token_scores == (1.0, 0.0, STEM_SCORE)
    # "hiring" is not in the text (its own candidate set), so it is left out of the weights;
    # "approval q3 budget" holds both other words close together, in another order.
    assert result.score == pytest.approx(min(1.0, (1.0 + STEM_SCORE) / 2 + PHRASE_BONUS * 0.4))


def test_matched_offsets_index_the_original_text() -> None:
    text = "Approval of Q3 budget"
    result = score_field(("budget",), text)
    assert result.matched_offsets == (15,)
    assert text[15:21] == "budget"


def test_offsets_survive_text_that_changes_length_when_folded() -> None:
    text = "ﬁﬁ Straße — Müller budget"
    result = score_field(("muller", "budget"), text)
    assert [text[offset : offset + 6] for offset in result.matched_offsets] == ["Müller", "budget"]


def test_the_first_best_occurrence_is_the_anchor() -> None:
    text = "a budgeting note, then the budget itself, then budget again"
    assert score_field(("budget",), text).matched_offsets == (text.index("budget itself"),)


@pytest.mark.parametrize(
    ("query", "text"),
    [((), "anything"), (("budget",), ""), (("budget",), "--- ..."), (("budget",), "nothing relevant")],
)
def test_empty_inputs_score_zero(query: tuple[str, ...], text: str) -> None:
    result = score_field(query, text)
    assert result.score == 0.0
    assert result.matched_offsets == ()
    assert result.token_scores == (0.0,) * len(query)


def test_query_tokens_are_folded_like_field_text() -> None:
    assert score_field(("Müller",), "anna muller").score == 1.0


@pytest.mark.parametrize(
    ("plural", "singular"),
    [("bookings", "booking"), ("meetings", "meeting"), ("settings", "setting"), ("warnings", "warning")],
)
def test_the_plural_of_a_word_in_ing_is_another_form_of_it(plural: str, singular: str) -> None:
    from openproject_mcp.domain.search import STEM_SCORE, score_token

    assert score_token(plural, singular) == score_token(singular, plural) == STEM_SCORE


def test_a_plural_in_ings_counts_as_a_form_in_the_ranking() -> None:
    # "bookings" stands in the second text, so it is not widened to its neighbours; the first holds
    # it as "booking", another form, so it holds every word of the query (ADR 0067).
    assert order("cancelled bookings carrier", "Carrier booking cancelled", "Bookings fee", "Carrier fee")[:1] == [0]
    assert scores("cancelled bookings carrier", "Carrier booking cancelled", "Bookings fee")[0] >= 0.95


@pytest.mark.parametrize(("word", "neighbour"), [("may", "bay"), ("old", "cold"), ("say", "day"), ("run", "rum")])
def test_a_common_three_letter_word_has_no_typo_neighbours(word: str, neighbour: str) -> None:
    from openproject_mcp.domain.search import score_token

    assert score_token(word, neighbour) == 0.0
    assert neighbour not in vocabulary_hits(word, [neighbour, word + "s"])


def test_a_three_letter_word_outside_the_list_still_meets_its_typo_neighbour() -> None:
    from openproject_mcp.domain.search import score_token

    assert score_token("vpm", "vpn") > 0.0 and "vpn" in vocabulary_hits("vpm", ["vpn", "vpc"])


def test_a_question_with_a_common_short_word_is_not_answered_by_its_neighbour() -> None:
    # "may" matched "bay" one letter away and, held by one title only, outweighed "poc" (ADR 0071).
    titles = ("Returns bay process", "PoC guidelines", "Kubernetes upgrade runbook", "Runbook: disk alerts")
    assert order("how long may a PoC run", *titles)[:1] == [1]
    assert scores("how long may a PoC run", *titles)[0] == 0.0


@pytest.mark.parametrize(("query", "token"), [("won", "woenings"), ("boy", "boeyings"), ("booking", "bookings")])
def test_the_plural_rule_keys_umlaut_spellings_as_vocabulary_hits_do(query: str, token: str) -> None:
    from openproject_mcp.domain.search import score_token

    assert vocabulary_hits(query, [token]).get(token, 0.0) == score_token(query, token)
