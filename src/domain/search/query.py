"""What a query asks for: its terms, and whether they match whole words only.

A term is one thing the query wants found. Usually it is one folded word, matched by every
token rule. A version string (``v2.3.1``, ``4.2``) is one term made of its numbers, matched
only as that exact sequence of tokens, never by edits. A query of stopwords only (``the``,
``to be or not to be``) or a very short one (``qa``) keeps every word and matches whole words
only. Technical spellings are reconciled while matching, against the texts' own vocabulary:
two adjacent query words also match their concatenation (``max connections`` finds
``maxConnections``) and one query word also matches two adjacent field words it splits into
(``email`` finds ``e-mail``, ``maxconnections`` finds ``max_connections``).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from openproject_mcp.domain.search.normalize import STOPWORDS, query_tokens, tokenize

__all__ = [
    "MIN_CLAUSE_QUERY_WORDS",
    "MIN_FUZZY_QUERY_LENGTH",
    "QueryPlan",
    "Term",
    "plan_query",
    "query_clauses",
    "split_versions",
]

# Edit distance means nothing for one or two characters; such queries match whole words.
MIN_FUZZY_QUERY_LENGTH = 3
# A question this long may hold its topic in one clause and chatter around it (ADR 0061).
MIN_CLAUSE_QUERY_WORDS = 8
MIN_CLAUSE_WORDS = 2
# A clause ends at punctuation followed by a blank or the end, or at a line break ("4.0" stays whole).
_CLAUSE_BREAK = re.compile(r"[,;:!?.]+(?=\s|$)|\n+")
# A number written with thousands separators: "18,400", "1,000,000" (commas: a dot is a version's).
# Two groups of three ("502,503") are as often a list of codes, and stay two numbers (ADR 0065).
_GROUPED_NUMBER = re.compile(r"(?<![\w.,])(?:\d{1,2}(?:,\d{3})+|\d{3}(?:,\d{3}){2,})(?![\w]|[.,]\d)")
# From this many digits a number may be written in groups of three (1450 as 1,450 or 1.450).
MIN_GROUPED_DIGITS = 4
# A version: digits joined by dots, optionally after a "v" ("v2.3.1", "2.3", "17.4.0").
_VERSION = re.compile(r"(?<![\w.])[vV]?(\d+(?:\.\d+)+)(?![\w]|\.\d)")


@dataclass(frozen=True, slots=True)
class Term:
    """One thing the query wants found.

    ``word`` is matched by the token rules (or exactly, when ``fuzzy`` is false); ``sequences``
    are alternatives that match only as consecutive field tokens (a version's numbers).
    """

    text: str
    word: str | None
    sequences: tuple[tuple[str, ...], ...] = ()
    fuzzy: bool = True


@dataclass(frozen=True, slots=True)
class QueryPlan:
    terms: tuple[Term, ...]
    whole_words: bool  # stopword-only or very short: exact whole words, no stems, no fuzz

    @property
    def words(self) -> tuple[str, ...]:
        return tuple(term.word for term in self.terms if term.word is not None)


def split_versions(query: str) -> tuple[tuple[str, ...], str]:
    """The query's version strings (their numbers, without a ``v``: ``v2.14.1`` gives ``2.14.1``),
    distinct, in order; and the query with each of them blanked to spaces of the same length."""
    matches = list(_VERSION.finditer(query))
    return tuple(dict.fromkeys(match.group(1) for match in matches)), _blanked(query, matches)


def _blanked(query: str, matches: list[re.Match[str]]) -> str:
    """``query`` with each match replaced by spaces of its length, so the words keep their places."""
    for match in reversed(matches):
        query = query[: match.start()] + " " * (match.end() - match.start()) + query[match.end() :]
    return query


def plan_query(query: str, needle: str) -> QueryPlan:
    """The terms of ``query`` in order of first use (versions where they stand), duplicates dropped.

    ``needle`` is the folded, whitespace-collapsed query (its length decides "very short").
    """
    matches = list(_VERSION.finditer(query))
    # Versions and grouped numbers: terms of digits, each matched only as written.
    numbers: list[tuple[int, Term]] = []
    for match in matches:
        parts = tuple(match.group(1).split("."))
        prefixed = (f"v{parts[0]}", *parts[1:])
        numbers.append((match.start(), Term(match.group(1), None, (parts, prefixed), fuzzy=False)))
    rest = _blanked(query, matches)
    # A number in groups of three ("18,400") is one term, met as written or without the commas (ADR 0064).
    grouped = list(_GROUPED_NUMBER.finditer(rest))
    for match in grouped:
        groups = tuple(match.group().split(","))
        numbers.append((match.start(), Term(match.group(), "".join(groups), (groups,), fuzzy=False)))
    places: dict[str, int] = {}
    for token in tokenize(_blanked(rest, grouped)):
        places.setdefault(token.value, token.start)
    significant = tuple(value for value in places if value not in STOPWORDS)
    whole_words = not numbers and (not significant or len(needle) < MIN_FUZZY_QUERY_LENGTH)
    words = tuple(places) if whole_words else significant
    placed = [*numbers, *((places[word], _word_term(word, whole_words)) for word in words)]
    placed.sort(key=lambda entry: entry[0])
    terms = tuple(dict.fromkeys(term for _, term in placed))
    return QueryPlan(terms, whole_words)


def query_clauses(query: str, max_words: int | None = None) -> tuple[str, ...]:
    """The clauses of a long question (``MIN_CLAUSE_QUERY_WORDS`` significant words or more) that
    hold ``MIN_CLAUSE_WORDS`` significant words or more, in order, each once, when there are two such
    or more; otherwise none. A clause ends at a comma, semicolon, colon, full stop, question or
    exclamation mark followed by a blank, or at a line break. With ``max_words``, only the clauses
    that start within the query's first ``max_words`` significant words count, as ranking reads no
    further (ADR 0065)."""
    if len(query_tokens(query)) < MIN_CLAUSE_QUERY_WORDS:
        return ()
    telling: dict[str, None] = {}
    read = 0
    for part in _CLAUSE_BREAK.split(query):
        if max_words is not None and read >= max_words:
            break
        clause = part.strip()
        words = len([word for word in query_tokens(clause) if word not in STOPWORDS])
        read += words
        if words >= MIN_CLAUSE_WORDS:
            telling.setdefault(clause)
    return tuple(telling) if len(telling) >= 2 else ()


def _word_term(word: str, whole_words: bool) -> Term:
    """A query word's term; a number of four digits or more is also met written in groups of three
    (``18400`` in "€18,400" or "18.400", ADR 0064)."""
    if len(word) >= MIN_GROUPED_DIGITS and word.isascii() and word.isdigit() and word[0] != "0":
        head = len(word) % 3 or 3
        groups = (word[:head], *(word[at : at + 3] for at in range(head, len(word), 3)))
        return Term(word, word, (groups,), fuzzy=not whole_words)
    return Term(word, word, fuzzy=not whole_words)
