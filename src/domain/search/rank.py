"""Rank records against a query over declared fields: the one entry point the application uses.

Callers say *what* to search (``Field`` declarations); this module says *how well* it matches.
``rank_records`` computes everything from its arguments. A ``QueryScorer`` is the same work
spread over several rankings of one search (the pipeline ranks shallow fields, then all
fields of the enriched records): it remembers, for that one search only, each text's tokens
and matches, so no text is tokenised or matched twice. Nothing survives the scorer, so
nothing can leak between requests or tenants; a caller that wants token values (and each
ranking's texts as one ``Corpus``) kept across searches passes its own (tenant-scoped)
``TokenStore``.

The rules (ADR 0016): per query term, the best token score in a text; terms weighted by how
informative they are among the ranked records (``log(1 + N / df)``; a term no record matches
is left out and reported in ``unmatched_terms``); a text scores the weighted mean of its
terms' bests times the information share it covers (the gate uses its square root), plus
``PHRASE_BONUS`` times how close to the query's phrase its words stand, capped at 1. Equal scores are ordered
by the score before the cap, so a verbatim phrase comes before the same words reordered.
"""

from __future__ import annotations

import dataclasses
import math
import operator
import sys
from collections.abc import Callable, Iterable, Mapping, Sequence, Set
from dataclasses import dataclass
from itertools import chain, compress, pairwise
from typing import Generic, Literal, NamedTuple, Protocol, TypeVar

from openproject_mcp.domain.search.acronym import read_acronyms
from openproject_mcp.domain.search.normalize import (
    STOPWORDS,
    first_token_start,
    fold_for_containment,
    locate_folded,
    normalize,
    token_start,
    token_values,
)
from openproject_mcp.domain.search.query import MIN_FUZZY_QUERY_LENGTH, QueryPlan, Term, plan_query
from openproject_mcp.domain.search.score import (
    PHRASE_BONUS,
    PREFIX_SCORE,
    Lexicon,
    is_strong,
    stem_roots,
    vocabulary_hits,
)
from openproject_mcp.domain.search.snippet import needs_anchor, snippet

__all__ = [
    "DEFAULT_MIN_SCORE",
    "MIN_FUZZY_QUERY_LENGTH",
    "Corpus",
    "Extracted",
    "Field",
    "FieldMatch",
    "FieldScore",
    "ItemMatch",
    "MatchMode",
    "QueryScorer",
    "Ranked",
    "Ranking",
    "TokenStore",
    "extract_texts",
    "field_ratio",
    "rank_records",
    "score_field",
]

T = TypeVar("T")

MatchMode = Literal["fuzzy", "exact"]

DEFAULT_MIN_SCORE = 0.35
# How near the query's phrase a text's words stand: verbatim (stopwords of the text skipped),
# in order with a few words between, or all close together in another order.
PHRASE_ADJACENT = 1.0
PHRASE_IN_ORDER = 0.6
PHRASE_CLOSE = 0.4
PHRASE_GAP = 2  # words allowed between two query words for "in order" and "close"
PHRASE_PART = 0.5  # how far toward the next phrase level the query's adjacent pairs move a text
# A field's weight counts with diminishing returns, as term frequency does in BM25 (whose usual
# k1 this is): on a scale of 3, weight 1 counts 0.64 of the top field, not a third (ADR 0041).
FIELD_SATURATION = 1.2


def field_ratio(weight: float, scale: float) -> float:
    """What a match in a field of ``weight`` counts on ``scale`` (the highest declared weight):
    1 for the top field, less for a lighter one, ``weight`` saturated as ``w (1 + k) / (w + k)``
    on both sides, so a lighter field never ties the top one."""
    if weight <= 0.0:
        return 0.0
    k = FIELD_SATURATION
    return weight * (scale + k) / (scale * (weight + k))


@dataclass(frozen=True, slots=True)
class Field(Generic[T]):
    """A searchable part of a record. A list-valued field is scored element by element."""

    name: str
    weight: float
    extract: Callable[[T], str | Sequence[str] | None]


@dataclass(frozen=True, slots=True)
class ItemMatch:
    """One matching element of a list-valued field."""

    index: int
    score: float
    snippet: str | None


@dataclass(frozen=True, slots=True)
class FieldMatch:
    """A field that matched: its unweighted score (best element for lists) and an excerpt.

    Field and item scores keep full precision (rounding could show a real match as 0.0); only
    ``Ranked.score``, the one callers sort and display, is rounded.
    """

    field: str
    score: float
    snippet: str | None
    items: tuple[ItemMatch, ...] = ()


@dataclass(frozen=True, slots=True)
class Ranked(Generic[T]):
    """A record with its score (0..1, two decimals, on the call's weight scale) and its matches."""

    record: T
    score: float
    matches: tuple[FieldMatch, ...]

    @property
    def matched_fields(self) -> tuple[str, ...]:
        return tuple(match.field for match in self.matches)


@dataclass(frozen=True, slots=True)
class Ranking(Generic[T]):
    """Ranked records, best first, and the query terms no ranked record matched at all.

    ``whole``: some hit matches every term of the query (false when each hit answers only part of
    it, when a term matches nothing, or when there are no hits).
    """

    hits: list[Ranked[T]]
    unmatched_terms: tuple[str, ...]
    whole: bool = True


@dataclass(frozen=True, slots=True)
class FieldScore:
    """How well one text answers a query on its own."""

    score: float
    token_scores: tuple[float, ...]
    matched_offsets: tuple[int, ...]


# A ranking reading at least this many texts its scorer does not know yet keeps them, with
# their tokens, as one corpus in the store (a repeated search over the same records finds it).
CORPUS_TEXTS = 16
# Query words whose hits a kept corpus remembers; past this, or past as many hits in all as the
# corpus has tokens, it starts again, so what it remembers never outweighs its own token set.
CORPUS_WORDS = 64


class TokenStore(Protocol):
    """Token values of texts kept by the caller between searches (``token_values`` of the text),
    and the corpora of the texts rankings learned together (ADR 0032).

    Asked in batches (a ranking asks for the corpus of all the texts it does not know, then for
    those texts at once), so a store that takes a lock or reads a clock does so once per batch,
    not once per text.
    """

    def get_many(self, texts: Sequence[str]) -> list[Sequence[str] | None]:
        """``[get(text) for text in texts]``."""
        ...

    def put_many(self, entries: Sequence[tuple[str, Sequence[str]]]) -> None:
        """``put(text, values)`` for each entry, in order."""
        ...

    def get_corpus(self, texts: frozenset[str]) -> Corpus | None:
        """What :meth:`put_corpus` kept for exactly these texts."""
        ...

    def put_corpus(self, texts: frozenset[str], corpus: Corpus) -> None:
        """Keep ``corpus``, the token values of ``texts`` read together."""
        ...


@dataclass(frozen=True, slots=True, eq=False)
class Corpus:
    """Texts one ranking learned together, kept by a store so that a later search over the same
    texts learns them at once: each text's token values, their distinct tokens, those tokens
    joined as a :class:`Lexicon` searches them, the ``stem_keys`` of the tokens any search has
    needed so far (filled as searches need them, never more than the tokens) and the tokens
    joined by length, for the edit candidates' scan."""

    values: Mapping[str, Sequence[str]]
    tokens: frozenset[str]
    joined: str
    stems: dict[str, frozenset[str]] = dataclasses.field(default_factory=dict)
    lengths: dict[int, str] = dataclasses.field(default_factory=dict)
    """The tokens joined by length (built when a search first scans them so)."""
    hits: dict[tuple[str, bool], dict[str, float]] = dataclasses.field(default_factory=dict)
    """A query word's ``vocabulary_hits`` among these tokens (with weak hits or without), kept
    for the next search of the word: at most ``CORPUS_WORDS`` words and as many hits in all as
    there are tokens (then emptied)."""


class _TextMatch(NamedTuple):
    """One text against the query terms: best strong / weak score and where they stand.

    Strong is exact or another form of the word; weak is prefix, containment or edits, which
    a term present verbatim among the candidates no longer counts. Positions index the text's
    tokens with its stopwords skipped; they are kept only when two or more terms matched.
    (A named tuple: one is built per matching text, and a tuple is the cheapest to build.)
    """

    strong: tuple[float, ...]
    weak: tuple[float, ...]
    strong_at: tuple[tuple[int, ...], ...] | None
    weak_at: tuple[tuple[int, ...], ...] | None


# (term index, score, strong?) for every token that matches some term.
_Entry = tuple[int, float, bool]


def rank_records(
    records: Iterable[T],
    query: str,
    fields: Sequence[Field[T]],
    *,
    key: Callable[[T], int],
    mode: MatchMode = "fuzzy",
    min_score: float = DEFAULT_MIN_SCORE,
    weight_scale: float | None = None,
    limit: int | None = None,
) -> list[Ranked[T]]:
    """Records matching ``query``, best first (equal scores by the uncapped score, then ascending
    ``key``); see ADR 0016 for the rules.

    ``weight_scale`` is the weight a perfect hit is measured against (default: the highest weight
    in ``fields``); a pipeline ranking shallow and deep fields separately passes the highest
    weight of both, so the two rankings share one scale. ``limit`` cuts after sorting.
    """
    extracted = extract_texts(records, fields)

    def ranked(scorer: QueryScorer) -> Ranking[T]:
        return scorer.rank(
            extracted.records,
            fields,
            key=key,
            min_score=min_score,
            weight_scale=weight_scale,
            limit=limit,
            extracted=extracted,
        )

    scorer = QueryScorer(query, mode=mode)
    ranking = ranked(scorer)
    if mode == "fuzzy":
        # A word no record holds may be an acronym the records spell out (ADR 0046), and words no
        # record holds may be spelled out where the records write their acronym (ADR 0060).
        reading = read_acronyms(query, scorer.unheld_terms(), scorer.holds, extracted.distinct)
        if reading is not None:
            ranking = ranked(QueryScorer(reading.query, mode=mode, acronyms=reading.acronyms))
    return ranking.hits


def score_field(query: Sequence[str], text: str) -> FieldScore:
    """Score ``text`` alone against query words (as from ``query_tokens``; they are folded again).

    The text is its own candidate set, so a word it lacks is an unmatched term and does not
    count. ``matched_offsets`` holds, per matched word, the start of the first token reaching
    that word's best score: the anchors a snippet is cut around.
    """
    words = tuple(dict.fromkeys(normalize(value) for value in query))
    if not words:
        return FieldScore(0.0, (), ())
    scorer = QueryScorer(" ".join(words), plan=QueryPlan(tuple(Term(word, word) for word in words), False))
    field: Field[str] = Field("text", 1.0, lambda value: value)
    hits = scorer.rank([text], [field], key=lambda _: 0, min_score=0.0).hits
    if not hits:
        return FieldScore(0.0, (0.0,) * len(words), ())
    match = scorer.text_match(text)
    best = scorer.effective(match) if match else (0.0,) * len(words)
    return FieldScore(hits[0].matches[0].score, best, tuple(sorted(set(scorer.offsets(text, best)))))


class QueryScorer:
    """One query scored over the rankings of one search; see the module docstring."""

    def __init__(
        self,
        query: str,
        *,
        mode: MatchMode = "fuzzy",
        store: TokenStore | None = None,
        plan: QueryPlan | None = None,
        acronyms: Mapping[str, Sequence[str]] | None = None,
        strong_only: bool = False,
    ) -> None:
        """``acronyms`` maps a token to the query words it also stands for (``mfa`` for ``multi``,
        ``factor``, ``authentication``): a text holding it holds each of them exactly (ADR 0060).
        ``strong_only``: every word meets only itself and its other forms, never a prefix, part or
        typo neighbour, as a word present verbatim does (for weighing evidence, ADR 0069)."""
        if mode not in ("fuzzy", "exact"):
            raise ValueError(f"unknown match mode {mode!r}")
        self._needle = fold_for_containment(query)
        self._plan = plan if plan is not None else plan_query(query, self._needle)
        self._containment = mode == "exact" or not self._needle or not self._plan.terms
        self._store = store
        self._strong_only = strong_only
        terms = self._plan.terms
        self._terms = terms
        self._values: dict[str, Sequence[str]] = {}
        # Token values ``knows`` took from the store, not yet learned into the vocabulary.
        self._fetched: dict[str, Sequence[str]] = {}
        self._absent: set[str] = set()  # texts the store was asked for and lacked
        # Corpora the store had for texts asked about, not yet learned (their values wait there).
        self._corpora: dict[frozenset[str], Corpus] = {}
        self._vocabulary: set[str] = set()
        self._strong: list[dict[str, float]] = [{} for _ in terms]
        self._weak: list[dict[str, float]] = [{} for _ in terms]
        self._sequences: list[set[tuple[str, ...]]] = [set(term.sequences) for term in terms]
        self._joined: dict[str, tuple[int, ...]] = {}
        words = [term.word for term in terms]
        for index in range(len(terms) - 1):
            first, second = words[index], words[index + 1]
            if first and second and terms[index].fuzzy and terms[index + 1].fuzzy:
                self._joined[first + second] = (index, index + 1)
        for acronym, spelled in (acronyms or {}).items():
            standing = tuple(index for index, word in enumerate(words) if word in spelled and terms[index].fuzzy)
            if standing and acronym not in words:
                self._joined[acronym] = standing
        self._matches: dict[str, _TextMatch | None] = {}
        # Every matched text of this search with some effective best: its match and ``effective``
        # bests, while the suppressed terms stay the same (rebuilt from ``_matches`` when they change).
        self._bests: dict[str, tuple[_TextMatch, tuple[float, ...]]] = {}
        # ``_adjacency`` of each matched text on its effective bests (kept and dropped with them).
        self._adjacency_of: dict[str, float] = {}
        self._index: dict[str, list[_Entry]] = {}
        self._index_keys: frozenset[str] = frozenset()
        self._start_keys: frozenset[str] = frozenset()
        # The tokens reaching a term's score, by (term, score): snippet anchors, per vocabulary.
        self._targets: dict[tuple[int, float], frozenset[str]] = {}
        # The union of the targets of every matched term, by a text's bests: where its snippet opens.
        self._anchor_targets: dict[tuple[float, ...], frozenset[str]] = {}
        self._starts: dict[str, list[tuple[int, tuple[str, ...]]]] = {}
        self._any: frozenset[str] = frozenset()
        self._suppressed: tuple[bool, ...] = (False,) * len(terms)
        self._weak_kept: tuple[float, ...] = (1.0,) * len(terms)
        self._roots = tuple(
            sorted({root for term in terms if term.word and term.fuzzy for root in stem_roots(term.word)})
        )
        self.texts_matched = 0  # texts matched against the terms, each at most once per scorer

    @property
    def terms(self) -> tuple[str, ...]:
        return tuple(term.text for term in self._terms)

    def knows(self, text: str) -> bool:
        """Whether ranking ``text`` costs no tokenising: this scorer has its token values already,
        or its store had them (they are taken from there now)."""
        return not self.unknown((text,))

    def unheld_terms(self) -> tuple[str, ...]:
        """The query words that no text ranked so far holds verbatim or in another form (they may
        still reach a prefix or a typo neighbour: ``sla`` in "Slack")."""
        return tuple(
            term.text
            for term, strong in zip(self._terms, self._strong, strict=True)
            if term.word is not None and term.fuzzy and not strong
        )

    def holds(self, token: str) -> bool:
        """Whether a text ranked so far holds ``token`` (a folded token)."""
        return token in self._vocabulary

    def unknown(self, texts: Iterable[str]) -> set[str]:
        """Those of ``texts`` whose ranking costs tokenising: neither held here nor in the store,
        which is asked once, in one batch, about all the others."""
        return self._fetch(texts)

    def _fetch(self, texts: Iterable[str]) -> set[str]:
        """Take from the store, in one batch, the token values of those ``texts`` not yet known
        here (a corpus of exactly those texts, or each text's); those the store lacks are returned."""
        unknown = set(texts).difference(self._values)
        store = self._store
        if not unknown or store is None:
            return unknown
        fetched, absent = self._fetched, self._absent
        if fetched:
            unknown.difference_update(fetched)
        for waiting in self._corpora.values():
            unknown.difference_update(waiting.values)
        wanted = unknown.difference(absent) if absent else unknown
        if not wanted:
            return unknown
        if len(wanted) >= CORPUS_TEXTS:
            key = frozenset(wanted)
            corpus = store.get_corpus(key)
            if corpus is not None:
                self._corpora[key] = corpus
                return unknown.intersection(absent)
        asked = list(wanted)
        for text, stored in zip(asked, store.get_many(asked), strict=True):
            if stored is None:
                absent.add(text)
            else:
                fetched[text] = stored
        return unknown.intersection(absent)

    def rank(
        self,
        records: Iterable[T],
        fields: Sequence[Field[T]],
        *,
        key: Callable[[T], int],
        min_score: float = DEFAULT_MIN_SCORE,
        weight_scale: float | None = None,
        limit: int | None = None,
        details: bool = True,
        extracted: Extracted[T] | None = None,
    ) -> Ranking[T]:
        """Rank ``records``; with ``details`` false, hits carry no matches or snippets (cheaper,
        for a ranking that only orders work, like the pipeline's first phase).

        ``extracted`` is what :func:`extract_texts` read of these records and fields, when the
        caller has read it already (``records`` is then ignored).
        """
        if limit is not None and limit < 0:
            raise ValueError(f"limit must be >= 0, got {limit}")
        scale = _scale(fields, weight_scale)
        texts = extracted if extracted is not None else extract_texts(records, fields)
        candidates = texts.records
        unmatched: tuple[str, ...] = ()
        whole = True
        ordered: list[tuple[Ranked[T], float]]
        if not self._needle:
            ordered = [(Ranked(record, 0.0, ()), 0.0) for record in candidates]
        elif self._containment:
            ordered = [(entry, entry.score) for entry in _rank_containment(texts, self._needle, fields, scale)]
        else:
            ordered, unmatched, whole = self._rank_terms(texts, fields, scale, min_score, details)
        # Equal scores are ordered by the score before the cap at 1 (a verbatim phrase above the
        # same words reordered), then by key.
        ordered.sort(key=lambda entry: (-entry[0].score, -entry[1], key(entry[0].record)))
        ranked = [entry for entry, _ in ordered]
        return Ranking(ranked if limit is None else ranked[:limit], unmatched, whole and bool(ranked))

    # ------------------------------------------------------------------ text level

    def _values_of(self, text: str) -> Sequence[str]:
        found = self._values.get(text)
        if found is None:
            found = self._values[text] = self._read([text])[text]
        return found

    def _read(self, texts: list[str]) -> dict[str, Sequence[str]]:
        """Token values of ``texts`` (none held here yet): the store's, asked in one batch, and
        the others tokenised now (and put in the store in one batch)."""
        if self._store is None:
            return {text: token_values(text) for text in texts}
        self._fetch(texts)
        fetched, waiting = self._fetched, self._corpora
        read: dict[str, Sequence[str]] = {}
        made: list[tuple[str, Sequence[str]]] = []
        for text in texts:
            stored = fetched.pop(text, None)
            if stored is None and waiting:
                stored = next((corpus.values[text] for corpus in waiting.values() if text in corpus.values), None)
            if stored is None:
                stored = token_values(text)
                made.append((text, stored))
            read[text] = stored
        if made:
            self._store.put_many(made)
        return read

    def _corpus(self, texts: frozenset[str]) -> Corpus | None:
        """Put the token values of ``texts`` (none known here yet) among the known ones; the
        corpus they form, when the store keeps one for them (kept now if it had none)."""
        known = self._values
        corpus = self._corpora.pop(texts, None)  # found by ``unknown`` already
        if corpus is None:
            self._fetch(texts)
            corpus = self._corpora.pop(texts, None)
        if corpus is not None:
            known.update(corpus.values)
            return corpus
        read = self._read(list(texts))
        known.update(read)
        if self._store is None or len(texts) < CORPUS_TEXTS:
            return None
        tokens: frozenset[str] = frozenset().union(*read.values())
        corpus = Corpus(read, tokens, Lexicon.join(tokens))
        self._store.put_corpus(texts, corpus)
        return corpus

    def _learn(self, texts: Iterable[str]) -> None:
        """Extend the vocabulary with these texts' tokens and score only the new tokens."""
        known, vocabulary = self._values, self._vocabulary
        unknown = frozenset(texts).difference(known)
        if not unknown:
            return
        corpus = self._corpus(unknown)
        # A corpus found for other texts than these (asked about before, learned otherwise) is
        # not kept waiting: the values it held are known now or will be read again.
        self._corpora.clear()
        fresh: Set[str]
        if corpus is None:
            fresh = set().union(*map(known.__getitem__, unknown))
            fresh.difference_update(vocabulary)
        else:
            fresh = corpus.tokens.difference(vocabulary) if vocabulary else corpus.tokens
        if not fresh:
            return
        vocabulary.update(fresh)
        whole_words = self._plan.whole_words
        lexicon = None
        if not whole_words and corpus is None:
            lexicon = Lexicon(fresh, self._roots)
        for index, term in enumerate(self._terms):
            if term.word is None:
                continue
            # A word present verbatim keeps only exact and word-form hits from now on.
            weak_too = not self._strong_only and term.word not in self._vocabulary
            if whole_words or not term.fuzzy:
                found = {term.word: 1.0} if term.word in fresh else {}
            elif corpus is not None:
                # A word's hits are decided token by token, so its hits among the fresh tokens
                # are its hits among the corpus's tokens that are fresh.
                found = _corpus_hits(corpus, term.word, weak_too)
                if fresh is not corpus.tokens:
                    found = {token: value for token, value in found.items() if token in fresh}
            else:
                assert lexicon is not None
                found = vocabulary_hits(term.word, lexicon, weak=weak_too)
            strong, weak = self._strong[index], self._weak[index]
            for token, value in found.items():
                (strong if is_strong(value) else weak)[token] = value
        for joined in fresh.intersection(self._joined):
            for index in self._joined[joined]:
                self._strong[index][joined] = 1.0
        if not whole_words:
            self._add_splits()
        self._reindex()

    def _add_splits(self) -> None:
        """``email`` also matches ``e`` + ``mail`` standing side by side, when both are words here."""
        vocabulary = self._vocabulary
        for index, term in enumerate(self._terms):
            word = term.word
            if word is None or not term.fuzzy or len(word) < 4 or not word.isalpha():
                continue
            # A plural splits as its singular does: "emails" also finds "e-mail" (ADR 0049).
            for whole in (word, word[:-1]) if word.endswith("s") and len(word) > 4 else (word,):
                for cut in range(1, len(whole) - 1):
                    head, rest = whole[:cut], whole[cut:]
                    if head in vocabulary and rest in vocabulary and head not in STOPWORDS and rest not in STOPWORDS:
                        self._sequences[index].add((head, rest))

    def _reindex(self) -> None:
        index: dict[str, list[_Entry]] = {}
        for position in range(len(self._terms)):
            for token, value in self._strong[position].items():
                index.setdefault(token, []).append((position, value, True))
            for token, value in self._weak[position].items():
                index.setdefault(token, []).append((position, value, False))
        starts: dict[str, list[tuple[int, tuple[str, ...]]]] = {}
        for position, sequences in enumerate(self._sequences):
            for sequence in sequences:
                starts.setdefault(sequence[0], []).append((position, sequence))
        self._index = index
        self._index_keys = frozenset(index)
        self._starts = starts
        self._start_keys = frozenset(starts)
        self._targets = {}
        self._anchor_targets = {}
        self._any = frozenset(index).union(starts)
        suppressed = self._suppressed
        # A word the candidates hold verbatim or in another form is not widened to its prefix,
        # containment and edit neighbours (ADR 0049).
        self._suppressed = tuple(
            term.word is not None and term.fuzzy and (term.word in self._vocabulary or _has_form(strong))
            for term, strong in zip(self._terms, self._strong, strict=True)
        )
        self._weak_kept = tuple(0.0 if suppressed else 1.0 for suppressed in self._suppressed)
        if self._suppressed != suppressed:
            self._adjacency_of.clear()
            self._bests = {}
            for text, match in self._matches.items():
                if match is not None:
                    self._keep_best(text, match)

    def text_match(self, text: str) -> _TextMatch | None:
        """How ``text`` matches the terms (``None``: not at all). A text no ranking of this scorer
        has read is learned first, so its own words are in the vocabulary it is matched with."""
        if text in self._matches:
            return self._matches[text]
        if text not in self._values:
            self._learn((text,))
        values = self._values[text]
        # Most texts share no word with any match; this test stops at the first shared word.
        if self._any.isdisjoint(values):
            self._matches[text] = None
            return None
        return self._match(text, values)

    def _match(self, text: str, values: Sequence[str]) -> _TextMatch | None:
        """``text_match`` of a text known to share a token with some match (remembered, and in
        ``_bests`` when some effective best is above 0)."""
        index, starts = self._index, self._starts
        common = self._index_keys.intersection(values)
        sequence_start = bool(starts) and not self._start_keys.isdisjoint(values)
        self.texts_matched += 1
        count = len(self._terms)
        strong = [0.0] * count
        weak = [0.0] * count
        for token in common:
            for position, score, is_strong_hit in index[token]:
                if is_strong_hit:
                    if score > strong[position]:
                        strong[position] = score
                elif score > weak[position]:
                    weak[position] = score
        matched = count - [*map(max, strong, weak)].count(0.0)
        strong_at: tuple[tuple[int, ...], ...] | None = None
        weak_at: tuple[tuple[int, ...], ...] | None = None
        if matched >= 2 and not sequence_start:
            # Where each matching token stands, found by C-level scans of the token list.
            strong_lists: list[list[int]] = [[] for _ in range(count)]
            weak_lists: list[list[int]] = [[] for _ in range(count)]
            for token in common:
                token_entries = index[token]
                at = -1
                places: list[int] = []
                for _ in range(values.count(token)):
                    at = values.index(token, at + 1)
                    places.append(at)
                for position, _, is_strong_hit in token_entries:
                    (strong_lists if is_strong_hit else weak_lists)[position].extend(places)
            if len(common) > 1:
                for found in strong_lists:
                    found.sort()
                for found in weak_lists:
                    found.sort()
            strong_at = tuple(map(tuple, strong_lists))
            weak_at = tuple(map(tuple, weak_lists))
        elif sequence_start:
            strong_lists = [[] for _ in range(count)]
            weak_lists = [[] for _ in range(count)]
            anything = self._any
            for raw in [raw for raw, token in enumerate(values) if token in anything]:
                token = values[raw]
                entries = index.get(token)
                if entries is not None:
                    for position, _, is_strong_hit in entries:
                        (strong_lists if is_strong_hit else weak_lists)[position].append(raw)
                if sequence_start:
                    for position, sequence in starts.get(token, ()):
                        end = raw + len(sequence)
                        if tuple(values[raw:end]) == sequence:
                            # A version followed by more numbers ("2.3" in "2.3.1") is a prefix.
                            full = self._terms[position].word is not None or not (
                                end < len(values) and values[end].isdigit()
                            )
                            if full:
                                strong[position] = 1.0
                                strong_lists[position].append(raw)
                            else:
                                weak[position] = max(weak[position], PREFIX_SCORE)
                                weak_lists[position].append(raw)
            strong_at = tuple(tuple(found) for found in strong_lists)
            weak_at = tuple(tuple(found) for found in weak_lists)
        result = _TextMatch(tuple(strong), tuple(weak), strong_at, weak_at)
        if not any(result.strong) and not any(result.weak):
            self._matches[text] = None
            return None
        self._matches[text] = result
        self._keep_best(text, result)
        return result

    def effective(self, match: _TextMatch) -> tuple[float, ...]:
        """Best score per term, weak matches dropped for terms present verbatim among the texts."""
        if not any(match.weak):
            return match.strong
        if not any(self._suppressed):
            return tuple(map(max, match.strong, match.weak))
        # A weak score times 0.0 is 0.0 and times 1.0 itself; scores are never negative, so
        # ``max(strong, 0.0)`` is ``strong``: the same values as choosing per term, in C.
        return tuple(map(max, match.strong, map(operator.mul, match.weak, self._weak_kept)))

    def _keep_best(self, text: str, match: _TextMatch) -> None:
        best = self.effective(match)
        if any(best):
            self._bests[text] = (match, best)

    def _adjacency(self, text: str, match: _TextMatch, best: tuple[float, ...]) -> float:
        """How close to the query's phrase the matched terms stand in this text (0..1)."""
        if match.strong_at is None or match.weak_at is None:
            return 0.0
        lists: list[tuple[int, ...]] = []
        for position, value in enumerate(best):
            if value <= 0.0:
                continue
            found = match.strong_at[position]
            if not self._suppressed[position] and match.weak_at[position]:
                found = tuple(sorted(set(found) | set(match.weak_at[position])))
            if not found:
                return 0.0
            lists.append(found)
        if len(lists) < 2:
            return 0.0
        gaps = _Gaps(self._values[text], frozenset() if self._plan.whole_words else STOPWORDS)
        if gaps.chain(lists, 0):
            return PHRASE_ADJACENT
        if gaps.chain(lists, PHRASE_GAP):
            level, upper = PHRASE_IN_ORDER, PHRASE_ADJACENT
        elif gaps.window(lists) <= len(lists) + PHRASE_GAP:
            level, upper = PHRASE_CLOSE, PHRASE_IN_ORDER
        else:
            level, upper = 0.0, PHRASE_CLOSE
        if len(lists) < 3:
            return level
        # Of three or more words, a part of the phrase standing as typed ("night shift" of
        # "handover night shift") moves the text up within its level, never into the next (ADR 0044).
        pairs = sum(1 for first, second in pairwise(lists) if gaps.chain([first, second], 0))
        return level + (upper - level) * PHRASE_PART * pairs / (len(lists) - 1)

    def offsets(self, text: str, best: tuple[float, ...]) -> list[int]:
        """Per matched term, the start of the first token reaching its best score."""
        return [self._token_offset(text, raw) for raw in self._first_tokens(text, best)]

    def anchor(self, text: str, best: tuple[float, ...]) -> list[int]:
        """``[min(offsets(text, best))]``, or ``[]`` when it is empty: what a snippet is cut around.

        Token starts grow with the token index, so only the earliest token needs an offset: the
        first token reaching the best score of any matched term.
        """
        targets = self._anchor_targets.get(best)
        if targets is None:
            targets = self._anchor_targets[best] = frozenset().union(
                *(self._term_targets(position, top) for position, top in enumerate(best) if top > 0.0)
            )
        values = self._values_of(text)
        first = self._earliest(values, targets, [position for position, top in enumerate(best) if top > 0.0])
        return [] if first is None else [self._token_offset(text, first)]

    def _first_tokens(self, text: str, best: tuple[float, ...]) -> list[int]:
        """Per matched term, the index of the first token reaching its best score (or where one of
        its token sequences stands whole)."""
        values = self._values_of(text)
        found: list[int] = []
        for position, top in enumerate(best):
            if top <= 0.0:
                continue
            first = self._earliest(values, self._term_targets(position, top), [position])
            if first is not None:
                found.append(first)
        return found

    def _earliest(self, values: Sequence[str], targets: frozenset[str], positions: list[int]) -> int | None:
        """The first token index holding one of ``targets`` or where a token sequence of a term at
        ``positions`` stands whole; ``None`` where neither is."""
        present = targets.intersection(values)
        first = min(map(values.index, present)) if present else None
        standing = self._sequence_at(values, positions)
        return standing if standing is not None and (first is None or standing < first) else first

    def _sequence_at(self, values: Sequence[str], positions: list[int]) -> int | None:
        """The first token index where a token sequence of one of the terms at ``positions`` stands
        whole (a version's numbers, ``e`` + ``mail``, ``18`` + ``400``), not only its first token."""
        first: int | None = None
        for position in positions:
            for sequence in self._sequences[position]:
                head, length = sequence[0], len(sequence)
                at = -1
                while True:
                    try:
                        at = values.index(head, at + 1)
                    except ValueError:
                        break
                    if first is not None and at >= first:
                        break
                    if tuple(values[at : at + length]) == sequence:
                        first = at
                        break
        return first

    def _term_targets(self, position: int, top: float) -> frozenset[str]:
        """The tokens through which term ``position`` reaches the score ``top`` (its sequences
        are looked for whole, by ``_sequence_at``)."""
        targets = self._targets.get((position, top))
        if targets is None:
            chosen = {token for token, value in self._strong[position].items() if value == top}
            if not self._suppressed[position]:
                chosen.update(token for token, value in self._weak[position].items() if value == top)
            targets = self._targets[(position, top)] = frozenset(chosen)
        return targets

    def _token_offset(self, text: str, raw: int) -> int:
        values = self._values_of(text)
        if values.index(values[raw]) == raw:
            return first_token_start(text, values[raw], raw)
        return token_start(text, raw)  # a sequence standing whole after an earlier lone first token

    # ------------------------------------------------------------------ record level

    def _rank_terms(
        self, read: Extracted[T], fields: Sequence[Field[T]], scale: float, min_score: float, details: bool = True
    ) -> tuple[list[tuple[Ranked[T], float]], tuple[str, ...], bool]:
        """The ranked records with their uncapped scores, the unmatched terms, and whether some
        ranked record matches every term."""
        records, extracted, distinct = read.records, read.per_record, read.distinct
        ranked_texts = frozenset(distinct)
        self._learn(ranked_texts)
        count = len(self._terms)
        # Every distinct text matched once: its match and effective best per term. Most texts
        # share no word with any match; one ``isdisjoint`` each rules them out.
        # A text matched by an earlier ranking of this search keeps its match: the vocabulary
        # grew since only by tokens it does not hold. ``bests`` holds the matching texts of
        # every ranking of the search so far; only this ranking's records are looked up in it.
        values_of, anything = self._values, self._any
        for text in ranked_texts.difference(self._matches):
            values = values_of[text]
            if anything.isdisjoint(values):
                self._matches[text] = None
                continue
            self._match(text, values)  # kept in ``_bests`` when it matches
        bests = self._bests
        # Per record holding a matching text: those texts of each field with their effective
        # bests. The other records are ruled out by one ``isdisjoint`` over all their texts,
        # run by ``map`` over every record at once.
        matching = bests.keys()
        disjoint = map(matching.isdisjoint, map(_FLAT, extracted))
        rows = list(compress(range(len(extracted)), map(operator.not_, disjoint)))
        scored: list[list[tuple[int, str, _TextMatch, tuple[float, ...]]]] = []
        seen: list[tuple[float, ...]] = []
        for row in rows:
            texts_found: list[tuple[int, str, _TextMatch, tuple[float, ...]]] = []
            for position, (_, texts) in enumerate(extracted[row][0]):
                for text in texts:
                    entry = bests.get(text)
                    if entry is not None:
                        texts_found.append((position, text, entry[0], entry[1]))
            # (``map(max, ...)`` needs two or more: ``max`` of one float is an error.)
            seen.append(
                texts_found[0][3] if len(texts_found) == 1 else tuple(map(max, *(entry[3] for entry in texts_found)))
            )
            scored.append(texts_found)
        # Per term, how many records it matches (a term's column of the records' bests).
        document_frequency = [sum(map(bool, column)) for column in zip(*seen, strict=True)] if seen else [0] * count
        unmatched = tuple(term.text for term, df in zip(self._terms, document_frequency, strict=True) if df == 0)
        total = len(records)
        weights = [math.log(1.0 + total / df) if df else 0.0 for df in document_frequency]
        if unmatched and seen and not self._held_as_typed(seen, scored):
            # Words matching nothing are left out only beside a word some record holds as typed
            # (exactly, in another form, or inside a longer word): a typo's neighbours alone
            # ("vorpal": "portal") do not make the rest of the query a question about something
            # else (ADR 0059). They count then as the rarest words.
            absent = math.log(1.0 + total)
            weights = [weight if df else absent for weight, df in zip(weights, document_frequency, strict=True)]
        weight_sum = sum(weights)
        if weight_sum <= 0.0:
            return [], unmatched, False
        in_play = sum(1 for df in document_frequency if df)
        ratios = [field_ratio(field.weight, scale) for field in fields]
        # Per matching text, on this ranking's term weights: its score (capped at 1), before the
        # cap, its gate (with the phrase bonus) and the gate of its terms alone.
        text_scores: dict[str, float] = {}
        text_raw: dict[str, float] = {}
        text_gates: dict[str, float] = {}
        coverage_gates: dict[str, float] = {}
        # What depends on a text's bests alone (many texts have the same), once per ranking.
        by_best: dict[tuple[float, ...], tuple[float, float, float]] = {}
        adjacency_of = self._adjacency_of
        for text, (match, best) in bests.items():
            measures = by_best.get(best)
            if measures is None:
                base, gate = _covered_mean(weights, best, weight_sum)
                share = sum(weight for weight, value in zip(weights, best, strict=True) if value > 0.0) / weight_sum
                measures = by_best[best] = (base, gate, share)
            base, gate, share = measures
            adjacency = 0.0
            if in_play > 1:
                closeness = adjacency_of.get(text)
                if closeness is None:
                    closeness = adjacency_of[text] = self._adjacency(text, match, best)
                adjacency = closeness * share
            raw = text_raw[text] = base + PHRASE_BONUS * adjacency
            text_gates[text] = min(1.0, gate + PHRASE_BONUS * adjacency)
            coverage_gates[text] = gate
            text_scores[text] = min(1.0, raw)
        # A text's snippet, once per ranking however many records hold the text.
        excerpts: dict[str, str | None] = {}

        ranked: list[tuple[Ranked[T], float]] = []
        whole = False  # some ranked record matches every term
        # A record matching in one text of a single-text field scores what any other record
        # matching there alone scores (records sharing a description): computed once.
        alone: dict[tuple[int, str], tuple[float, float, tuple[FieldMatch, ...]] | None] = {}
        # The weighted coverage of one text's bests in a field of a given ratio.
        scaled_coverage: dict[tuple[tuple[float, ...], float], float] = {}
        for row, found in zip(rows, scored, strict=True):
            record, per_field = records[row], extracted[row][0]
            if len(found) == 1:
                # One matching text: the record's term bests are that text's, so its coverage
                # gate is the text's own and its weighted coverage that of the text's bests
                # scaled by the field's ratio (the text's base score when the ratio is 1).
                position, text, match, best = found[0]
                single = not per_field[position][0]
                if single:
                    shared = (position, text)
                    if shared in alone:
                        known = alone[shared]
                        if known is not None:
                            ranked.append((Ranked(record, known[0], known[2]), known[1]))
                        continue
                if max(text_gates[text], coverage_gates[text]) < min_score:
                    if single:
                        alone[shared] = None
                    continue
                value = text_scores[text]
                ratio = ratios[position]
                weighted_coverage = scaled_coverage.get((best, ratio))
                if weighted_coverage is None:
                    weighted_coverage = scaled_coverage[(best, ratio)] = _covered_mean(
                        weights, [term_value * ratio for term_value in best], weight_sum
                    )[0]
                score = round(min(1.0, max(value * ratio, weighted_coverage)), 2)
                matches = (
                    self._matches_of(
                        per_field, fields, [position] if value > 0.0 else [], found, text_scores, ratios, excerpts
                    )
                    if details
                    else ()
                )
                uncapped = max(text_raw[text] * ratio, weighted_coverage)
                if single:
                    alone[shared] = (score, uncapped, matches)
                ranked.append((Ranked(record, score, matches), uncapped))
                whole = whole or all(best)
                continue
            best_field = 0.0
            best_weighted = 0.0
            best_raw = 0.0
            term_best = [0.0] * count
            term_best_weighted = [0.0] * count
            field_top: dict[int, float] = {}
            for position, text, _, best in found:
                value = text_scores[text]
                ratio = ratios[position]
                if value > field_top.get(position, 0.0):
                    field_top[position] = value
                best_field = max(best_field, text_gates[text])
                best_weighted = max(best_weighted, value * ratio)
                best_raw = max(best_raw, text_raw[text] * ratio)
                for term, term_value in enumerate(best):
                    if term_value > term_best[term]:
                        term_best[term] = term_value
                    if term_value * ratio > term_best_weighted[term]:
                        term_best_weighted[term] = term_value * ratio
            # Record-level coverage: words spread over fields (a person in one, a topic in
            # another) count together, on the same weight scale as the per-field scores.
            if max(best_field, _covered_mean(weights, term_best, weight_sum)[1]) < min_score:
                continue
            weighted_coverage = _covered_mean(weights, term_best_weighted, weight_sum)[0]
            score = round(min(1.0, max(best_weighted, weighted_coverage)), 2)
            matches = (
                self._matches_of(per_field, fields, sorted(field_top), found, text_scores, ratios, excerpts)
                if details
                else ()
            )
            ranked.append((Ranked(record, score, matches), max(best_raw, weighted_coverage)))
            whole = whole or all(term_best)
        return ranked, unmatched, whole

    def _held_as_typed(
        self, seen: list[tuple[float, ...]], scored: list[list[tuple[int, str, _TextMatch, tuple[float, ...]]]]
    ) -> bool:
        """Whether a record of the ranking holds a term's word as typed: exactly or in another form
        (a strong best), as the beginning or a part of a longer token (``urlaub`` in
        ``urlaubsantrag``), or a token that is the word less a German plural ending (``rechnung`` of
        ``rechnungen``, which the stemmer does not know; ADR 0065); not only through tokens a few
        letters away from it."""
        if any(is_strong(value) for best in seen for value in best):
            return True
        inside = [
            frozenset(token for token in weak if _typed_in(term.word, token)) if term.word else frozenset()
            for term, weak in zip(self._terms, self._weak, strict=True)
        ]
        if not any(inside):
            return False
        values = self._values
        return any(
            not tokens.isdisjoint(values[text])
            for found in scored
            for _, text, _, best in found
            for tokens, value in zip(inside, best, strict=True)
            if value > 0.0 and tokens
        )

    def _matches_of(
        self,
        per_field: list[tuple[bool, Sequence[str]]],
        fields: Sequence[Field[T]],
        touched: list[int],
        found: list[tuple[int, str, _TextMatch, tuple[float, ...]]],
        text_scores: dict[str, float],
        ratios: list[float],
        excerpts: dict[str, str | None],
    ) -> tuple[FieldMatch, ...]:
        if len(touched) == 1 and len(found) == 1 and not per_field[touched[0]][0]:
            # One text of one single-text field: its match is the whole answer.
            position, text, _, best = found[0]
            return (FieldMatch(fields[position].name, text_scores[text], self._excerpt(text, best, excerpts)),)
        bests = {text: best for _, text, _, best in found}

        def excerpt(text: str) -> str | None:
            return self._excerpt(text, bests[text], excerpts)

        weighted: list[tuple[float, int, FieldMatch]] = []
        for position in touched:
            is_list, texts = per_field[position]
            scored = sorted(
                ((text_scores[text], index, text) for index, text in enumerate(texts) if text in bests),
                key=lambda entry: (-entry[0], entry[1]),
            )
            top_score, top_index, top_text = scored[0]
            top_snippet = excerpt(top_text)
            items: tuple[ItemMatch, ...] = ()
            if is_list:
                items = tuple(
                    ItemMatch(index, score, top_snippet if index == top_index else excerpt(text))
                    for score, index, text in scored
                )
            match = FieldMatch(fields[position].name, top_score, top_snippet, items)
            weighted.append((top_score * ratios[position], position, match))
        weighted.sort(key=lambda entry: (-entry[0], entry[1]))
        return tuple(match for _, _, match in weighted)

    def _excerpt(self, text: str, best: tuple[float, ...], excerpts: dict[str, str | None]) -> str | None:
        """The snippet of a matching text, once per ranking (``excerpts``)."""
        if text in excerpts:
            return excerpts[text]
        cut = excerpts[text] = snippet(text, self.anchor(text, best) if needs_anchor(text) else []) or None
        return cut


def _has_form(strong: Mapping[str, float]) -> bool:
    """Whether a term's strong hits hold another form of its word (scored below exact; an exact
    hit is the word itself or a joined spelling of two query words)."""
    return any(value < 1.0 for value in strong.values())


def _corpus_hits(corpus: Corpus, word: str, weak: bool) -> dict[str, float]:
    """``vocabulary_hits`` of ``word`` among the corpus's tokens, remembered in the corpus.

    The corpus is searched as it was kept (its tokens already joined) and by length, since it is
    searched again and again. The umlaut readings it needs are those starting like the word's own
    stem roots: a token meets the word through one only if its reading starts so.
    """
    key = (word, weak)
    found = corpus.hits.get(key)
    if found is None:
        lexicon = Lexicon(
            corpus.tokens, stem_roots(word), joined=corpus.joined, stems=corpus.stems, lengths=corpus.lengths
        )
        found = vocabulary_hits(word, lexicon, weak=weak)
        kept = corpus.hits
        if len(kept) >= CORPUS_WORDS or sum(map(len, kept.values())) + len(found) > len(corpus.tokens):
            kept.clear()
        kept[key] = found
    return found


# A record token that is the query word less a German plural ending (``rechnungen``: ``rechnung``;
# ``kunden``: ``kunde``), keeping at least this many letters, holds it as typed (ADR 0065). Not
# ``-er``/``-ern``: English agent nouns and comparatives end so (``starter`` is no plural of
# ``start``, ``printer`` none of ``print``), and not a singular of four letters, as English words
# in ``-en`` and ``-n`` are (``golden``, ``wooden``, ``listen``, ``taken``; ADR 0068).
_GERMAN_PLURAL_ENDINGS = ("n", "en", "nen")
MIN_GERMAN_SINGULAR_LETTERS = 5


def _typed_in(word: str, token: str) -> bool:
    """Whether ``token`` holds ``word`` as typed: the word inside it, or it the word less a German
    plural ending (not ``page`` of ``pager``: ``r`` is no such ending)."""
    if word in token:
        return True
    return (
        len(token) >= MIN_GERMAN_SINGULAR_LETTERS
        and word.startswith(token)
        and word[len(token) :] in _GERMAN_PLURAL_ENDINGS
    )


def _covered_mean(weights: Sequence[float], values: Sequence[float], weight_sum: float) -> tuple[float, float]:
    """(rank, gate) values: the information-weighted mean of the values times the information
    share they cover, and times its square root.

    Ranking by the share keeps full coverage first (a complete body match above a title
    holding one word of two); gating by its root lets one exact word of two equally
    informative ones through (0.35), while a typo of one word of two (0.31) or one word of
    three (0.19) stays out.
    """
    total = 0.0
    covered = 0.0
    for weight, value in zip(weights, values, strict=True):
        if value > 0.0:
            total += weight * value
            covered += weight
    mean = total / weight_sum
    share = covered / weight_sum
    return mean * share, mean * math.sqrt(share)


class _Gaps:
    """Distances between token positions of one text, not counting its stopwords.

    Positions are raw token indexes; two query words are adjacent when only stopwords (or
    nothing: one token answering two words, ``maxconnections``) stand between them.
    """

    # Raw tokens looked back from a position: the allowed gap plus room for stopwords.
    REACH = 12

    def __init__(self, values: Sequence[str], skipped: frozenset[str]) -> None:
        self._values = values
        self._skipped = skipped

    def between(self, first: int, last: int) -> int:
        """Counted tokens strictly between ``first`` and ``last`` (``first <= last``)."""
        if last - first <= 1:
            return 0
        skipped = self._skipped
        return sum(1 for token in self._values[first + 1 : last] if token not in skipped)

    def chain(self, lists: list[tuple[int, ...]], gap: int) -> bool:
        """Whether one position per list can be picked in list order, at most ``gap`` apart."""
        current = set(lists[0])
        reach = self.REACH
        for positions in lists[1:]:
            following: set[int] = set()
            for position in positions:
                for earlier in range(max(0, position - reach), position + 1):
                    if earlier in current and self.between(earlier, position) <= gap:
                        following.add(position)
                        break
            if not following:
                return False
            current = following
        return True

    def window(self, lists: list[tuple[int, ...]]) -> int:
        """Counted tokens in the shortest stretch holding one position of every list, any order."""
        events = sorted((position, which) for which, positions in enumerate(lists) for position in positions)
        need = len(lists)
        counts = [0] * need
        covered = 0
        best = 1 << 30
        left = 0
        for position, which in events:
            if counts[which] == 0:
                covered += 1
            counts[which] += 1
            while covered == need:
                start, first = events[left]
                if position - start <= 2 * self.REACH:
                    best = min(best, self.between(start, position) + (2 if position > start else 1))
                counts[first] -= 1
                if counts[first] == 0:
                    covered -= 1
                left += 1
        return best


def _scale(fields: Sequence[Field[T]], weight_scale: float | None) -> float:
    for field in fields:
        if field.weight < 0:
            raise ValueError(f"field {field.name!r} has a negative weight")
    if weight_scale is None:
        weight_scale = max((field.weight for field in fields), default=1.0)
    if weight_scale <= 0:
        raise ValueError(f"weight scale must be > 0, got {weight_scale}")
    return weight_scale


_NO_TEXT: tuple[bool, Sequence[str]] = (False, ())
_FLAT = operator.itemgetter(1)

# Per record: ``(is it a list, its texts)`` of each field, and all its texts in one tuple.
_RecordTexts = tuple[list[tuple[bool, Sequence[str]]], tuple[str, ...]]


@dataclass(frozen=True, slots=True)
class Extracted(Generic[T]):
    """The texts of some records' fields, read once (see :func:`extract_texts`)."""

    records: list[T]
    per_record: list[_RecordTexts]
    distinct: list[str]
    """The distinct non-empty texts, in order of first use."""
    texts_cut: int = 0
    """Texts (a field's, or one element of a list field) cut to ``max_characters``."""
    lists_cut: int = 0
    """List fields cut to ``max_items`` elements."""


def extract_texts(
    records: Iterable[T],
    fields: Sequence[Field[T]],
    *,
    max_characters: int | None = None,
    max_items: int | None = None,
) -> Extracted[T]:
    """Read every field of every record once, each text cut to ``max_characters`` and each list
    field to its first ``max_items`` elements; what was cut is counted."""
    candidates = list(records)
    extracts = [field.extract for field in fields]
    per_record: list[_RecordTexts] = []
    texts_cut = lists_cut = 0
    limit = max_characters if max_characters is not None and max_characters >= 0 else sys.maxsize
    for record in candidates:
        per_field: list[tuple[bool, Sequence[str]]] = []
        flat: list[str] = []
        for extract in extracts:
            raw = extract(record)
            if raw is None:
                per_field.append(_NO_TEXT)
            elif raw.__class__ is str or isinstance(raw, str):
                if len(raw) > limit:
                    raw = raw[:limit]
                    texts_cut += 1
                per_field.append((False, (raw,)))
                flat.append(raw)
            else:
                if max_items is not None and len(raw) > max_items:
                    raw = raw[:max_items]
                    lists_cut += 1
                if raw and max(map(len, raw)) > limit:
                    texts_cut += sum(1 for item in raw if len(item) > limit)
                    raw = [item[:limit] for item in raw]
                per_field.append((True, raw))
                flat += raw
        per_record.append((per_field, tuple(flat)))
    seen = dict.fromkeys(chain.from_iterable(flat for _, flat in per_record))
    seen.pop("", None)
    return Extracted(candidates, per_record, list(seen), texts_cut, lists_cut)


def _rank_containment(
    extracted: Extracted[T], needle: str, fields: Sequence[Field[T]], scale: float
) -> list[Ranked[T]]:
    """Exact mode and very short queries: a field scores 1 when it contains the folded query."""
    folded: dict[str, bool] = {}

    def contains(text: str) -> bool:
        known = folded.get(text)
        if known is None:
            known = folded[text] = needle in fold_for_containment(text)
        return known

    def excerpt(text: str) -> str | None:
        return snippet(text, [locate_folded(text, needle)] if needs_anchor(text) else []) or None

    ranked: list[Ranked[T]] = []
    for record, (per_field, _) in zip(extracted.records, extracted.per_record, strict=True):
        weighted: list[tuple[float, int, FieldMatch]] = []
        for position, field in enumerate(fields):
            is_list, texts = per_field[position]
            indexes = [index for index, text in enumerate(texts) if text and contains(text)]
            if not indexes:
                continue
            top_snippet = excerpt(texts[indexes[0]])
            items: tuple[ItemMatch, ...] = ()
            if is_list:
                items = tuple(
                    ItemMatch(index, 1.0, top_snippet if index == indexes[0] else excerpt(texts[index]))
                    for index in indexes
                )
            match = FieldMatch(field.name, 1.0, top_snippet, items)
            weighted.append((field_ratio(field.weight, scale), position, match))
        best = max((entry[0] for entry in weighted), default=0.0)
        if best > 0.0:
            weighted.sort(key=lambda entry: (-entry[0], entry[1]))
            matches = tuple(match for _, _, match in weighted)
            ranked.append(Ranked(record, round(min(1.0, best), 2), matches))
    return ranked
