"""A query word no record holds, read as the words the records spell it with ("qbr" as
"quarterly business review"), ADR 0046."""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable, Sequence

from openproject_mcp.domain.search.normalize import STOPWORDS, query_tokens, tokenize

ACRONYM_LETTERS = range(3, 6)
"""An acronym has three to five letters: two are too often a word's initials by chance."""
MAX_STOPWORDS_BETWEEN = 1
"""Stopwords skipped between two spelled-out words ("estimated time of arrival")."""


def acronym_like(term: str, query: str) -> bool:
    """Three to five ASCII letters that the query writes in capitals (``QBR``): what could be the
    initials of a phrase, typed as such."""
    if len(term) not in ACRONYM_LETTERS or not (term.isascii() and term.isalpha()):
        return False
    return re.search(rf"(?<!\w){term.upper()}(?!\w)", query) is not None


def spelled_out(term: str, texts: Iterable[str]) -> tuple[str, ...] | None:
    """The words whose initials spell ``term``, in the order they stand, as the most texts hold
    them (the first found on a tie); ``None`` where no text does.

    Each word has two letters or more and is not a stopword; at most one stopword stands between
    two of them; and the words open their text (a title: "Quarterly business review with KTL")
    or each is written with a capital ("the Service Level Agreement"), as a name is, so that
    words that merely happen to begin with those letters ("storage log affected") do not count.
    A text counts a spelling once however often it holds it.
    """
    size = len(term)
    counts: Counter[tuple[str, ...]] = Counter()
    for text in texts:
        if not _may_spell(term, text):
            continue
        tokens = tokenize(text)
        found: set[tuple[str, ...]] = set()
        for start, token in enumerate(tokens):
            value = token.value
            if value[0] != term[0] or not _a_word(value):
                continue
            words = [token]
            skipped = 0
            for at in range(start + 1, len(tokens)):
                following = tokens[at].value
                if following in STOPWORDS:
                    skipped += 1
                    if skipped > MAX_STOPWORDS_BETWEEN:
                        break
                    continue
                if following[0] != term[len(words)] or not _a_word(following):
                    break
                words.append(tokens[at])
                skipped = 0
                if len(words) == size:
                    break
            if len(words) == size and (start == 0 or all(text[w.start].isupper() for w in words)):
                found.add(tuple(w.value for w in words))
        counts.update(found)
    if not counts:
        return None
    best = max(counts.values())
    return next(words for words, count in counts.items() if count == best)


def _may_spell(term: str, text: str) -> bool:
    """A cheap test: the text holds a word starting with the term's first letter, either case."""
    first = term[0]
    return first in text or first.upper() in text


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
    for term in unmatched:
        if not acronym_like(term, query):
            continue
        words = spelled_out(term, texts)
        if words is None:
            continue
        longer = with_spelling(spelled, term, words)
        if max_words is not None and len(query_tokens(longer)) > max_words:
            continue
        spelled = longer
        readings.append(f"{term!r} was also read as {' '.join(words)!r}, the words its letters begin.")
    return (spelled, tuple(readings)) if readings else None
