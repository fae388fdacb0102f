"""A query word no record holds, read as the words the records spell it with ("qbr" as
"quarterly business review"), ADRs 0046 and 0050; and the other way round, words the query
spells out that no record holds, read as the acronym the records write ("multi-factor
authentication" as "MFA"), ADR 0060."""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from itertools import product

from openproject_mcp.domain.search.normalize import STOPWORDS, query_tokens, tokenize

ACRONYM_LETTERS = range(3, 6)
"""An acronym has three to five letters: two are too often a word's initials by chance."""
MAX_STOPWORDS_BETWEEN = 1
"""Stopwords skipped between two spelled-out words ("estimated time of arrival")."""
MAX_ACRONYMS = 2
"""Acronyms read per query: each costs a pass over the texts."""
OPENING_CHARACTERS = 200
"""How much of a text's beginning is read for a spelling that opens it."""
_GAP = r"[ \t-]+"
_BREAK = re.compile(r"[^ \t-]")


def acronym_like(term: str, query: str) -> bool:
    """Three to five ASCII letters that the query writes in capitals (``QBR``): what could be the
    initials of a phrase, typed as such."""
    if len(term) not in ACRONYM_LETTERS or not (term.isascii() and term.isalpha()):
        return False
    return re.search(rf"(?<!\w){term.upper()}(?!\w)", query) is not None


def acronyms_in(query: str, terms: Iterable[str]) -> list[str]:
    """The ``terms`` that the query types as acronyms, the first ``MAX_ACRONYMS`` of them."""
    return [term for term in terms if acronym_like(term, query)][:MAX_ACRONYMS]


def spelled_out(term: str, texts: Iterable[str]) -> tuple[str, ...] | None:
    """The words whose initials spell ``term``, in the order they stand, as the most texts hold
    them (the first found on a tie); ``None`` where no text does.

    Each word has two letters or more and is not a stopword; at most one stopword stands between
    two of them; no punctuation or line break stands between them (a list of names is not one
    name); and the words open their text (a title: "Quarterly business review with KTL") or each
    is written with a capital ("the Service Level Agreement"), as a name is, so that words that
    merely happen to begin with those letters ("storage log affected") do not count. A text
    counts a spelling once however often it holds it. The capitals are found by one regular
    expression per text, the opening in the text's first ``OPENING_CHARACTERS``.
    """
    capitals = _capitals_pattern(term)
    counts: Counter[tuple[str, ...]] = Counter()
    for text in texts:
        found: set[tuple[str, ...]] = set()
        opening = text.lstrip()[:1]
        if opening and opening.lower() == term[0]:
            words = _spelling(term, text[:OPENING_CHARACTERS].lstrip(), capitals=False)
            if words is not None:
                found.add(words)
        if term[0].upper() in text:
            for match in capitals.finditer(text):
                words = _spelling(term, match.group(), capitals=True)
                if words is not None:
                    found.add(words)
        counts.update(found)
    if not counts:
        return None
    best = max(counts.values())
    return next(words for words, count in counts.items() if count == best)


def _capitals_pattern(term: str) -> re.Pattern[str]:
    """Words starting with the term's letters in capitals, side by side, one word between allowed;
    a letter after the first may also open a short word in lower case (``Proof of Concept``: the
    ``o`` of ``of``), which ``_spelling`` accepts only where it is a stopword (ADR 0063)."""
    parts = [rf"{term[0].upper()}[^\W\d_]+"]
    parts += [rf"(?:{letter.upper()}[^\W\d_]+|{letter}[a-z]{{0,3}})" for letter in term[1:]]
    between = rf"{_GAP}(?:[^\W\d_]+{_GAP})?"
    return re.compile(r"(?<!\w)" + between.join(parts) + r"(?!\w)")


def _spelling(term: str, text: str, *, capitals: bool) -> tuple[str, ...] | None:
    """The words at the start of ``text`` (a regular expression's match, or a text's opening) that
    spell ``term``, nothing but blanks or hyphens between them: words of two letters or more, the
    first no stopword; a stopword between two of them either gives the next letter (``End-of-life``:
    ``eol``; ``Proof of Concept``: ``poc``, ADR 0063) or is skipped (``Estimated time of arrival``:
    ``eta``), one at a time. Two of the words at least are no stopwords. With ``capitals`` (a
    spelling in mid-text) every word but a stopword is written with a capital (ADR 0065)."""
    tokens = tokenize(text)
    if not tokens or tokens[0].start != 0:
        return None

    def walk(at: int, taken: tuple[str, ...], skipped: int, previous_end: int) -> tuple[str, ...] | None:
        if len(taken) == len(term):
            return taken if sum(1 for word in taken if word not in STOPWORDS) >= 2 else None
        if at == len(tokens):
            return None
        token = tokens[at]
        if taken and _BREAK.search(text, previous_end, token.start):
            return None
        value, letter = token.value, term[len(taken)]
        if taken and value in STOPWORDS:
            if value[0] == letter and value.isalpha():
                found = walk(at + 1, (*taken, value), 0, token.end)
                if found is not None:
                    return found
            return walk(at + 1, taken, skipped + 1, token.end) if skipped < MAX_STOPWORDS_BETWEEN else None
        if value[0] != letter or not _a_word(value) or (capitals and not text[token.start].isupper()):
            return None
        return walk(at + 1, (*taken, value), 0, token.end)

    return walk(0, (), 0, 0)


def _a_word(value: str) -> bool:
    return len(value) >= 2 and value.isalpha() and value not in STOPWORDS


def with_spelling(query: str, term: str, words: tuple[str, ...]) -> str:
    """``query`` with ``words`` after each standing ``term`` (the term kept: a record read later may
    hold it); after the query where the term does not stand in it as typed."""
    spelling = " ".join(words)
    pattern = re.compile(rf"(?<!\w){re.escape(term)}(?!\w)", re.IGNORECASE)
    rewritten, count = pattern.subn(lambda found: f"{found.group()} {spelling}", query)
    return rewritten if count else f"{query} {spelling}"


def spelled_query(
    query: str, unmatched: Iterable[str], texts: Sequence[str], *, max_words: int | None = None
) -> tuple[str, tuple[str, ...]] | None:
    """``query`` with each unmatched acronym the ``texts`` spell out followed by its words, and
    a note per reading; ``None`` when none is. A spelling that would take the query past
    ``max_words`` significant words is not added (ranking would drop the query's last words)."""
    spelled = query
    readings: list[str] = []
    for term in acronyms_in(query, unmatched):
        words = spelled_out(term, texts)
        if words is None:
            continue
        longer = with_spelling(spelled, term, words)
        if max_words is not None and len(query_tokens(longer)) > max_words:
            continue
        spelled = longer
        readings.append(f"{term!r} was also read as {' '.join(words)!r}, the words its letters begin.")
    return (spelled, tuple(readings)) if readings else None


def spelled_phrases(query: str) -> tuple[tuple[str, tuple[str, ...]], ...]:
    """The acronyms the query's phrases could stand for, each with its significant words (two or
    more): runs of words side by side in the query (only blanks or hyphens between), each of two
    ASCII letters or more, the first no stopword, never two stopwords in a row; a stopword between
    two words counts among the initials (``end of life``: ``eol``) or not (``estimated time of
    arrival``: ``eta``), one that ends the run counts (``single sign on``: ``sso``). Three to five
    letters; in order, each acronym once (its first phrase)."""
    tokens = tokenize(query)
    found: dict[str, tuple[str, ...]] = {}
    for start in range(len(tokens)):
        if tokens[start].value in STOPWORDS or not _a_run_word(tokens[start].value):
            continue
        run = [tokens[start]]
        for token in tokens[start + 1 :]:
            if _BREAK.search(query, run[-1].end, token.start) or not _a_run_word(token.value):
                break
            if token.value in STOPWORDS and run[-1].value in STOPWORDS:
                break
            run.append(token)
            if len(run) > max(ACRONYM_LETTERS) + 1:
                break
            words = [t.value for t in run]
            significant = tuple(word for word in words if word not in STOPWORDS)
            if len(significant) < 2:
                continue
            # A stopword ends a phrase only as one of its letters (``single sign on``: ``sso``).
            ending = words[-1] in STOPWORDS
            for acronym in _initials(words[:-1] if ending else words):
                acronym += words[-1][0] if ending else ""
                if len(acronym) in ACRONYM_LETTERS:
                    found.setdefault(acronym, significant)
    return tuple(found.items())


def _a_run_word(value: str) -> bool:
    return len(value) >= 2 and value.isalpha() and value.isascii()


def _initials(words: Sequence[str]) -> list[str]:
    """The initials of ``words``, each stopword among them counted or not."""
    choices = [(word[0], "") if word in STOPWORDS else (word[0],) for word in words]
    return list(dict.fromkeys("".join(letters) for letters in product(*choices)))


def written_in_capitals(acronym: str, texts: Iterable[str]) -> bool:
    """Whether the texts write ``acronym`` as a word of its own in capitals (``MFA``, ``MFAs``; one
    letter after the first may be small, as a small word's letter often is: ``PoC``, ADR 0063), and
    nowhere otherwise: a word some text writes in lower case or capitalised (``not``, ``New``) is a
    word, whatever other texts shout (``Do NOT``, ``NEW:``; ADR 0065)."""
    if acronym in STOPWORDS:
        return False
    pattern = re.compile(rf"(?<!\w){acronym}s?(?!\w)", re.IGNORECASE)
    seen = False
    for text in texts:
        for found in pattern.finditer(text):
            letters = found.group()[: len(acronym)]
            if not (letters[0].isupper() and sum(1 for letter in letters if letter.islower()) <= 1):
                return False
            seen = True
    return seen


def phrase_readings(
    query: str, unheld: Iterable[str], holds: Callable[[str], bool], texts: Sequence[str]
) -> tuple[dict[str, tuple[str, ...]], tuple[str, ...]]:
    """The acronyms to read the query's spelled-out phrases as, each with its words, and a note
    per reading (ADR 0060): a phrase holding a word no record holds in any form (``unheld``),
    whose initials are a token the records hold (``holds``) and some text writes in capitals.
    At most ``MAX_ACRONYMS`` are read."""
    missing = frozenset(unheld)
    if not missing:
        return {}, ()
    readings: dict[str, tuple[str, ...]] = {}
    notes: list[str] = []
    for acronym, words in spelled_phrases(query):
        if len(readings) == MAX_ACRONYMS:
            break
        if acronym in words or missing.isdisjoint(words) or not holds(acronym):
            continue
        if any(set(words) <= set(taken) for taken in readings.values()):
            continue  # a phrase inside one read already
        if written_in_capitals(acronym, texts):
            readings[acronym] = words
            notes.append(f"{' '.join(words)!r} was also read as {acronym.upper()!r}, the acronym the records write.")
    return readings, tuple(notes)


@dataclass(frozen=True, slots=True)
class AcronymReading:
    """How a query's acronyms are read: the query with the spellings of its acronyms after them
    (ADRs 0046, 0050), the acronyms its spelled-out words stand for (ADR 0060), a note each."""

    query: str
    acronyms: dict[str, tuple[str, ...]]
    notes: tuple[str, ...]


def may_read_acronyms(query: str, unheld: Sequence[str], holds: Callable[[str], bool]) -> bool:
    """Whether ``read_acronyms`` may find a reading, told without reading any text: the query types
    an unheld word as an acronym, or a phrase holding an unheld word has initials the texts hold."""
    if acronyms_in(query, unheld):
        return True
    missing = frozenset(unheld)
    return any(holds(acronym) for acronym, words in spelled_phrases(query) if not missing.isdisjoint(words))


def read_acronyms(
    query: str,
    unheld: Sequence[str],
    holds: Callable[[str], bool],
    texts: Sequence[str],
    *,
    max_words: int | None = None,
) -> AcronymReading | None:
    """The reading of ``query``'s acronyms over ``texts`` (``unheld``: its words no text holds in
    any form; ``holds``: whether the texts hold a token): an acronym read as the words they spell it
    with, spelled-out words as the acronym they write; ``None`` when there is neither."""
    spelled = spelled_query(query, unheld, texts, max_words=max_words)
    phrases, phrase_notes = phrase_readings(query, unheld, holds, texts)
    if spelled is None and not phrases:
        return None
    text, notes = spelled if spelled is not None else (query, ())
    return AcronymReading(text, phrases, (*notes, *phrase_notes))
