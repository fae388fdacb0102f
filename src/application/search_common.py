"""Pieces shared by the three search use cases: legs, notes and paging of ranked hits."""

from __future__ import annotations

import math
import re
import unicodedata
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Generic, TypeVar

from openproject_mcp.domain.search import number_plural, query_spellings, shared_beginning, split_versions

T = TypeVar("T")

MAX_FULL_TEXT_LEGS = 4
FULL_TEXT_LEG_SIZE = 100
SUBJECT_LEG_SIZE = 100
RECENCY_WINDOW = 250
# Where a lower-case letter meets an upper-case one inside a word (``max|Connections``).
_CAMEL_HUMP = re.compile(r"(?<=[a-z])(?=[A-Z])")
# A leg stops before a spelling the server does not fold (``ß``/``ss``, a letter with an accent)
# when at least this many letters are left before it (ADR 0051).
MIN_SPELLING_CUT = 6
# ... and at most this many letters from it to the word's end (``-straße``, ``-strassen``): an
# other spelling further from the end opens another word of a compound (ADR 0054).
MAX_SPELLING_TAIL = 4
# A number's plural (``429s``) is sent as its number from three digits (``90`` is in too much).
MIN_NUMBER_LEG = 3


def full_text_terms(query: str) -> tuple[str, ...]:
    """The words worth one server-side full-text request each: the query's versions, then its
    words longest first, at most four in all.

    A version is sent as its numbers (``v2.14.1`` as ``2.14.1``, which also finds ``v2.14.1``):
    its parts are too short to be legs of their own, and the whole is specific (ADR 0051).

    The words are ranking's (``query_tokens``: stopwords left out unless the query holds nothing
    else), each spelled as the query spells it: the server matches case-insensitively but not
    accent-insensitively (``ILIKE``), so ``Müller`` is sent as ``Müller``, not folded. A word is
    sent as the beginning its other forms share (``leg_spelling``), since the server matches by
    containment: ``migrate`` as ``migr`` also finds ``migration``. A camel-case word is sent as
    its parts (``maxConnections``: ``Connect`` and ``max``).
    """
    versions, words = split_versions(query)
    spelled: dict[str, str] = {}
    for value, typed in query_spellings(words).items():
        parts = _CAMEL_HUMP.split(typed)
        if len(parts) > 1 and typed.lower() == value:
            # ``maxConnections``: the server holds it as one word, or as ``max_connections`` or
            # ``max connections``; the leg of both parts together finds all three.
            spelled.update((part.lower(), part) for part in parts)
        else:
            spelled[value] = typed
    terms = sorted((value for value in spelled if len(value) >= 3), key=lambda value: (-len(value), value))
    # Words sent alike (``migrate migration`` as ``migr``) take one leg, so another word gets one.
    words_sent = dict.fromkeys(leg_spelling(value, spelled[value]) for value in terms)
    return tuple(dict.fromkeys([*versions, *words_sent]))[:MAX_FULL_TEXT_LEGS]


# A word at least this long that no record holds as typed may hold a typo: its halves are sent
# too, one of which a single typo leaves intact (ADR 0062). Shorter halves are in too much.
MIN_TYPO_HALVES_LENGTH = 10


def typo_halves(sent: str) -> tuple[str, str] | None:
    """The two halves a full-text leg that found nothing is sent again as (``kalinigrad``:
    ``kalin`` and ``igrad``; a single typo leaves one of them as the record writes it), for a word
    of letters only, ``MIN_TYPO_HALVES_LENGTH`` long or more; ``None`` otherwise."""
    if len(sent) < MIN_TYPO_HALVES_LENGTH or not sent.isalpha():
        return None
    middle = len(sent) // 2
    return sent[:middle], sent[middle:]


def leg_spelling(value: str, typed: str) -> str:
    """What a full-text leg sends for one query word (``value``, folded; ``typed``, as the query
    spells it): the typed word cut to the beginning every form of it shares, where the typed word
    folds letter for letter (otherwise the typed word, whole: cutting ``Straße`` or ``Müller``
    by the folded word's letters could cut at the wrong place).

    The server compares letters as written (``ß`` is not ``ss``, ``ü`` not ``u``). Where a word
    ends in a spelling that may be written another way — its last non-ASCII letter, or its last
    ``ss``, which may be ``ß`` — with at most four letters after it and six or more before it, the
    leg sends only those before (``spelling_cut``): ``Bahnhofstraße`` and ``Bahnhofstrasse`` are
    both sent as ``Bahnhofstra``, which finds either spelling. A compound whose other spelling
    stands earlier (``Projektübersicht``, ``Rechnungsstellung``) is sent as before: cut there, it
    would be its first word, which many texts hold; and so is a word with fewer letters before
    the spelling (``Straße``, ``Müller``): ``Stra`` is in far too many texts.
    """
    typed = unicodedata.normalize("NFC", typed)  # an accent typed as its own code point stays with its letter
    if len(value) > MIN_NUMBER_LEG and number_plural(value, value[:-1]):
        return typed[:-1]  # ``429s``: the number, which ``429`` and ``429s`` both hold (ADR 0053)
    cut = spelling_cut(typed)
    if typed.lower() != value:
        return typed if cut is None else typed[:cut]
    sent = typed[: shared_beginning(value)]
    return sent if cut is None else sent[:cut]


def spelling_cut(typed: str) -> int | None:
    """Where a leg for ``typed`` stops before a spelling the server does not fold (see
    ``leg_spelling``), or None."""
    last_unfolded = max((at for at, char in enumerate(typed) if not char.isascii()), default=-1)
    at = max(last_unfolded, typed.lower().rfind("ss"))
    if at >= MIN_SPELLING_CUT and len(typed) - at <= MAX_SPELLING_TAIL:
        return at
    return None


def all_words_term(terms: tuple[str, ...]) -> str | None:
    """One full-text value holding every term, for a query of two or more: the server's ``~``
    wants each whitespace-separated word in the same text (a subject, the description, one
    comment), so this leg is narrow where each word's own leg is saturated."""
    return " ".join(terms) if len(terms) >= 2 else None


def evidence_weight(population: int, matches: int) -> float:
    """What one full-text leg says of a record it returned: ``log(1 + N / df)``, the rarer the
    leg's word among the ``population`` in scope, the more (``matches``: the leg's total)."""
    return math.log(1.0 + max(population, matches, 1) / max(matches, 1))


@dataclass(slots=True)
class CandidateSet(Generic[T]):
    """Candidates gathered from several requests, deduplicated by id in arrival order."""

    by_id: dict[int, T] = field(default_factory=dict)
    # Per record returned by a server full-text leg: the summed ``evidence_weight`` of those legs.
    server_matches: dict[int, float] = field(default_factory=dict)
    limit_reached: bool = False
    failed_legs: int = 0
    notes: list[str] = field(default_factory=list)

    def add(self, records: Iterable[T], key: Callable[[T], int], *, evidence: float | None = None) -> None:
        """Add ``records``; ``evidence`` is the weight of the full-text leg that returned them, if one did."""
        for record in records:
            record_key = key(record)
            self.by_id.setdefault(record_key, record)
            if evidence is not None:
                self.server_matches[record_key] = self.server_matches.get(record_key, 0.0) + evidence

    @property
    def items(self) -> list[T]:
        return list(self.by_id.values())


def enrichment_note(
    enriched: int, candidates: int, what: str, how_else: str, next_reads: int = 0, answered: bool = False
) -> str | None:
    """What was read in depth, when not everything; with ``next_reads``, that a repeat of the search
    reads that many more, as it found nothing or (``answered``) only records matching part of the
    query (ADR 0066)."""
    if candidates == 0 or enriched >= candidates:
        return None
    note = (
        f"{what} were read for {enriched} of {candidates} candidates (the best shallow matches, then the "
        f"server's full-text hits, then the most recently updated); {how_else}"
    )
    if next_reads:
        found = "No record read matches every word of the query" if answered else "Nothing matched in what was read"
        note += (
            f" {found}: repeating this search reads the {what.lower()} of the next {next_reads} candidates in that "
            "order."
        )
    return note


def failure_note(failures: int, what: str) -> str | None:
    if not failures:
        return None
    noun = "record" if failures == 1 else "records"
    return f"{failures} {noun} could not be read in full ({what} missing); they were ranked on what the list returned."
