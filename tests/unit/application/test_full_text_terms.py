"""What the full-text legs send for a query: versions whole, then words cut where OpenProject's
``ILIKE`` would otherwise miss another spelling or form (ADRs 0036, 0051, 0053, 0054)."""

from __future__ import annotations

import pytest

from openproject_mcp.application.search_common import MAX_FULL_TEXT_LEGS, full_text_terms


@pytest.mark.parametrize(
    ("query", "sent"),
    [
        # The spelling at a word's end that may be written another way: both spellings are found.
        ("Bahnhofstraße", ("Bahnhofstra",)),
        ("Bahnhofstrassen", ("Bahnhofstra",)),
        ("hauptstrasse", ("hauptstra",)),
        ("Wasserstrasse", ("Wasserstra",)),  # the last "ss", not the first
        ("Wasserstraße", ("Wasserstra",)),
        ("BAHNHOFSTRAẞE", ("BAHNHOFSTRA",)),
        ("Beyonce\u0301", ("Beyonc",)),  # an accent typed as its own code point stays with its letter
        # A compound whose other spelling opens its second word is sent as before: cut there it
        # would be its first word, which many texts hold.
        ("Projektübersicht", ("Projektübersicht",)),
        ("Rechnungsstellung", ("Rechnungsstellung",)),
        ("Zahlungsstatus", ("Zahlungsstatus",)),
        # Too few letters before the spelling: the word whole.
        ("Straße", ("Straße",)),
        ("Müller", ("Müller",)),
        # Versions whole, first; a number's plural as its number, from three digits.
        ("4.0 release", ("4.0", "releas")),
        ("crash in v2.14.1", ("2.14.1", "crash")),
        ("429s", ("429",)),
        ("90s", ("90s",)),
        ("\u0661\u0662\u0663s", ("\u0661\u0662\u0663s",)),  # not ASCII digits: not a number ranking meets
    ],
)
def test_a_leg_sends_what_finds_every_spelling_the_ranking_accepts(query: str, sent: tuple[str, ...]) -> None:
    assert full_text_terms(query) == sent


def test_words_sent_alike_take_one_leg_and_leave_a_slot_to_another_word() -> None:
    sent = full_text_terms("Bahnhofstraße Bahnhofstrassen Lieferung Adresse Kunde")
    assert sent == ("Bahnhofstra", "Lieferung", "Adress", "Kund")
    assert len(full_text_terms("one1 two2 three3 four4 five5 six6")) == MAX_FULL_TEXT_LEGS
