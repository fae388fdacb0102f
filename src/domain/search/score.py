"""Token scores: the seed's rules plus word forms and digits, and the batch form the ranker uses."""

from __future__ import annotations

from collections.abc import Iterable
from itertools import groupby

from openproject_mcp.domain.search.distance import bounded_distance
from openproject_mcp.domain.search.normalize import STOPWORDS
from openproject_mcp.domain.search.stem import MIN_STEM_LENGTH, doubles_before_endings, german_variant, stem_keys

__all__ = [
    "CONTAINS_SCORE",
    "EDIT_PENALTY",
    "PHRASE_BONUS",
    "PREFIX_SCORE",
    "STEM_SCORE",
    "Lexicon",
    "edit_limit",
    "is_strong",
    "score_token",
    "stem_roots",
    "vocabulary_hits",
]

PHRASE_BONUS = 0.15
EDIT_PENALTY = 0.6

# Another form of the same word (decided ~ decision): below exact, above any prefix or typo
# (one edit on a 12-letter word scores 0.95).
STEM_SCORE = 0.96
PREFIX_SCORE = 0.9
CONTAINS_SCORE = 0.75
# Below this length a query token only matches itself: "cat" is one edit from far too much.
MIN_FUZZY_LENGTH = 3
# Containment of a 3-letter token ("art" in "start") is noise; from 4 letters it is a word part.
MIN_CONTAINS_LENGTH = 4
# Longer words tolerate two typos; shorter ones one, so "brain" never reaches "brazil".
LONG_TOKEN_LENGTH = 6
# A number of two digits or more meets its padded form (12 ~ 0012) and its plural (429s ~ 429).
MIN_NUMBER_DIGITS = 2
# Three-letter English words a query writes as meant: none is read as a typo of a neighbour one
# letter away (``may`` is not ``bay``, ``old`` not ``cold``, ``say`` not ``day``); a three-letter
# word outside the list (``vpm``) still is (ADR 0071). Stopwords are left out of queries already.
COMMON_SHORT_WORDS: frozenset[str] = frozenset(
    """
    act add age ago aid aim air app arm art ask ate bad bag bar bed big bit box boy bus buy car cat
    cut day die dog dry due ear eat egg end eye far fat fee few fit fix fly fun gas get got gun guy
    hat hit hot ice ill job joy key kid lab law lay led leg let lie lit log lot low mad man map may
    men mix net new odd oil old one pay per pet pop pot put ran raw red rid row run sad sat saw say
    sea see set sit six sky son sum sun tax tea ten tie tip top toy try two use van war way web wet
    win won yes yet
    """.split()  # noqa: SIM905
)


def edit_limit(query_length: int) -> int:
    """How many edits a query token of this length may absorb."""
    return 1 if query_length < LONG_TOKEN_LENGTH else 2


def _has_digit(token: str) -> bool:
    return not token.isalpha() and any(char.isdigit() for char in token)


def _is_number(token: str) -> bool:
    """Two ASCII digits or more: a number another form may be written for (``07`` is in every date)."""
    return len(token) >= MIN_NUMBER_DIGITS and token.isascii() and token.isdigit()


def _may_be_padded(query_token: str) -> bool:
    """A number that ids may write with leading zeros, with no zero of its own in front (a
    padded query number, ``0012``, meets only itself, not the ``12`` of a version ``3.12``)."""
    return _is_number(query_token) and query_token[0] != "0"


def padded_number(query_token: str, field_token: str) -> bool:
    """Whether the field token is the query's number written with leading zeros: ``0012`` for
    ``12`` (ids are padded; the query drops the zeros)."""
    return (
        len(field_token) > len(query_token)
        and field_token.endswith(query_token)
        and _may_be_padded(query_token)
        and not field_token[: len(field_token) - len(query_token)].strip("0")
    )


def number_plural(query_token: str, field_token: str) -> bool:
    """Whether one token is the other, a number of two digits or more, with a plural ``s``:
    ``429s`` and ``429``, ``1990s`` and ``1990`` (people count errors and decades so)."""
    short, long = (query_token, field_token) if len(query_token) < len(field_token) else (field_token, query_token)
    return long == short + "s" and _is_number(short)


def _number_plurals(query_token: str) -> tuple[str, ...]:
    """The tokens ``number_plural`` pairs with ``query_token``."""
    if query_token.endswith("s"):
        return (query_token[:-1],) if number_plural(query_token, query_token[:-1]) else ()
    return (query_token + "s",) if number_plural(query_token, query_token + "s") else ()


def score_token(query_token: str, field_token: str) -> float:
    """How well one field token answers one query token, 0..1; the first applicable rule wins.

    Exact 1; a query token holding a digit matches only itself (``0012`` is not ``0011``), or
    a number its padded form (``12`` meets ``0012``) and a number its plural (``429s`` and
    ``429``) as another form, 0.96; under 3
    letters only exact; another form of the word (``stem_keys`` meet) 0.96; prefix 0.9;
    contained 0.75 (from 4 letters); bounded edit distance ``1 - d/len * 0.6``, never against a
    token holding a digit, nor for a common three-letter word (``COMMON_SHORT_WORDS``, ADR 0071).
    A stopword of the field text (``but``, ``the``) meets a query word only exactly or as one of
    its forms, never as its prefix, a part of it or a typo (ADR 0057).
    """
    if query_token == field_token:
        return 1.0
    length = len(query_token)
    if length < MIN_FUZZY_LENGTH or _has_digit(query_token):
        return STEM_SCORE if padded_number(query_token, field_token) or number_plural(query_token, field_token) else 0.0
    digits = _has_digit(field_token)
    if (
        not digits
        and not stem_keys(query_token).isdisjoint(stem_keys(field_token))
        and not _another_word_with_e(query_token, field_token)
    ):
        return STEM_SCORE
    if field_token in STOPWORDS:
        return 0.0  # a record's "but" is no typo, prefix or part of a query's "bug" (ADR 0057)
    if field_token.startswith(query_token):
        return PREFIX_SCORE
    if length >= MIN_CONTAINS_LENGTH and query_token in field_token:
        return CONTAINS_SCORE
    if digits or query_token in COMMON_SHORT_WORDS:
        return 0.0
    limit = edit_limit(length)
    distance = bounded_distance(query_token, field_token, limit)
    if distance > limit:
        return 0.0
    return 1.0 - distance / length * EDIT_PENALTY


def is_strong(score: float) -> bool:
    """Exact or another form of the word: what a query word present verbatim still expands to."""
    return score >= STEM_SCORE


def _pieces(token: str, limit: int) -> tuple[str, ...]:
    """``limit + 1`` contiguous parts: within ``limit`` edits, one part survives intact."""
    count = limit + 1
    size, extra = divmod(len(token), count)
    parts: list[str] = []
    start = 0
    for index in range(count):
        end = start + size + (1 if index < extra else 0)
        parts.append(token[start:end])
        start = end
    return tuple(part for part in parts if part)


def stem_roots(word: str) -> tuple[str, ...]:
    """Prefixes every other form of ``word`` starts with (or reads as, through German spelling).

    A word starts with all but the last letter of each of its stem keys, and two forms meet
    on a shared key, so another form starts with one of these.
    """
    return _roots_of(stem_keys(word))


def _roots_of(keys: frozenset[str]) -> tuple[str, ...]:
    return tuple(sorted({key[:-1] for key in keys}))


class Lexicon:
    """The tokens of one ranking call, indexed for the token rules; lives for one search only.

    The tokens are joined into one space-separated string, so "which tokens contain this"
    (a query word, one of its edit pieces, a stem root at a word start) is answered by
    ``str.find`` in C rather than a Python loop over the vocabulary. ``german`` maps the umlaut
    reading of each token spelled with ``ae``/``oe``/``ue`` that starts like one of ``roots``
    (the ``stem_roots`` of the query words) to its tokens.
    """

    __slots__ = ("german", "joined", "lengths", "roots", "stems", "tokens")

    def __init__(
        self,
        tokens: Iterable[str],
        roots: Iterable[str] = (),
        *,
        joined: str | None = None,
        stems: dict[str, frozenset[str]] | None = None,
        lengths: dict[int, str] | None = None,
    ) -> None:
        self.tokens = tokens if isinstance(tokens, set | frozenset) else frozenset(tokens)
        self.roots = tuple(roots)
        self.joined = joined if joined is not None else self.join(self.tokens)
        self.stems = stems if stems is not None else {}
        # The tokens joined by length, for a lexicon searched again and again (a kept corpus's):
        # filled on first use; ``None`` scans ``joined`` instead.
        self.lengths = lengths
        self.german: dict[str, list[str]] = {}
        if not self.roots:
            return
        # The umlaut reading keeps a word up to its first ``ae``/``oe``/``ue``, so a token whose
        # reading starts with a root starts with that root up to the root's first a, o or u.
        spelled: set[str] = set()
        for lead in {_up_to_umlaut_letter(root) for root in self.roots}:
            spelled.update(token for token in self.containing(" " + lead) if _has_umlaut_spelling(token))
        for token in sorted(spelled):
            variant = german_variant(token)
            if variant is not None and variant.startswith(self.roots):
                self.german.setdefault(variant, []).append(token)

    def stem_keys(self, token: str) -> frozenset[str]:
        """``stem_keys(token)``, remembered in ``stems``."""
        keys = self.stems.get(token)
        if keys is None:
            keys = self.stems[token] = stem_keys(token)
        return keys

    @staticmethod
    def join(tokens: Iterable[str]) -> str:
        """``tokens`` as the lexicon searches them: each between spaces."""
        return f" {' '.join(tokens)} "

    def containing(self, part: str, shortest: int = 0, longest: int | None = None) -> set[str]:
        """The tokens holding ``part`` (``" " + prefix`` for the tokens starting with one), of
        ``shortest`` to ``longest`` characters."""
        if longest is not None and self.lengths is not None:
            return self._containing_by_length(self.lengths, part, shortest, longest)
        joined = self.joined
        most = len(joined) if longest is None else longest
        found: set[str] = set()
        at = joined.find(part)
        while at >= 0:
            end = joined.find(" ", at + 1)
            if end < 0:  # found in the closing space: no token holds it
                break
            start = joined.rfind(" ", 0, at + 1) + 1
            if shortest <= end - start <= most:
                found.add(joined[start:end])
            at = joined.find(part, end)
        return found

    def _containing_by_length(self, lengths: dict[int, str], part: str, shortest: int, longest: int) -> set[str]:
        """``containing(part, shortest, longest)`` for a part without spaces, scanning only the
        tokens of those lengths: in a string of tokens of one length, a token's bounds follow
        from where the part was found, with no search for the spaces around it."""
        if not lengths:
            # The pieces between the spaces of ``joined``, as the plain scan sees them (a token
            # folded from a ligature such as U+FDFA holds spaces). Built whole, then added in one
            # step: a ranking on another thread sees all of it or none.
            pieces = sorted(frozenset(self.joined.split()), key=len)
            built = {length: self.join(group) for length, group in groupby(pieces, key=len)}
            lengths.update(built)
        width = len(part)
        found: set[str] = set()
        for length in range(max(shortest, width), longest + 1):
            joined = lengths.get(length)
            if joined is None:
                continue
            step = length + 1
            at = joined.find(part)
            while at >= 0:
                offset = (at - 1) % step
                if offset + width <= length:
                    start = at - offset
                    found.add(joined[start : start + length])
                    at = joined.find(part, start + step)
                else:  # the part runs over a space: look on from the next character
                    at = joined.find(part, at + 1)
        return found


def _up_to_umlaut_letter(root: str) -> str:
    """``root`` up to and including its first ``a``, ``o`` or ``u`` (all of it when it has none)."""
    for index, char in enumerate(root):
        if char in "aou":
            return root[: index + 1]
    return root


def _has_umlaut_spelling(token: str) -> bool:
    return "ae" in token or "oe" in token or "ue" in token


def _another_word_with_e(one: str, other: str) -> bool:
    """Whether one word is a three-letter word and the other it with an ``e`` (``cod``/``code``,
    ``pin``/``pine``, ``cor``/``core``): dropping the final ``e`` gives them one stem key, yet
    they are different words, not forms of one. Also, for a three-letter word of consonant,
    vowel and a consonant that doubles (``car``, ``sit``, ``hop``): the word or its plural
    (``cars``, ``sits``) against the forms of the word with ``e`` (``care``, ``cares``, ``cared``,
    ``caring``; ``site``; ``hoping``), which do not double it as its own forms do (``hopping``)."""
    short, long = (one, other) if len(one) < len(other) else (other, one)
    if len(short) == MIN_STEM_LENGTH and (long == short + "e" or (long == short + "es" and short[-1] not in "sxz")):
        # ``fixes`` is fix's plural, not a word ``fixe``'s.
        return True
    return _plain_against_e_form(one, other) or _plain_against_e_form(other, one)


def _plain_against_e_form(plain: str, other: str) -> bool:
    """Whether ``plain`` is a three-letter consonant-vowel-consonant word or its plural and
    ``other`` a form of that word with ``e`` (ADR 0054)."""
    stem = plain[:-1] if len(plain) == MIN_STEM_LENGTH + 1 and plain[-1] == "s" else plain
    return doubles_before_endings(stem) and other in (stem + "e", stem + "es", stem + "ed", stem + "ing")


def vocabulary_hits(query_token: str, vocabulary: Iterable[str] | Lexicon, *, weak: bool = True) -> dict[str, float]:
    """``{token: score_token(query_token, token)}`` for every vocabulary token scoring above 0.

    With ``weak`` false only exact and word-form hits are returned (prefix, containment and
    edits are skipped: the ranker drops them for a word present verbatim), and none of those
    weak rules lands on a stopword (ADR 0057). Filters prove a
    zero before the rules run: a word form shares a stem key, so it starts with one of the
    query's ``stem_roots``; a prefix or containment holds the query word; an edit match lies
    within the length window, holds (pigeonhole) one of ``limit + 1`` query parts verbatim and
    lacks or adds no more than ``limit`` distinct letters.
    """
    length = len(query_token)
    if length < MIN_FUZZY_LENGTH or _has_digit(query_token):
        tokens = vocabulary.tokens if isinstance(vocabulary, Lexicon) else vocabulary
        found = {query_token: 1.0} if query_token in tokens else {}
        if _may_be_padded(query_token):
            # The number's padded forms hold it.
            holding = vocabulary.containing(query_token) if isinstance(vocabulary, Lexicon) else tokens
            found.update((token, STEM_SCORE) for token in holding if padded_number(query_token, token))
        found.update((token, STEM_SCORE) for token in _number_plurals(query_token) if token in tokens)
        return found
    keys = stem_keys(query_token)
    roots = _roots_of(keys)
    lexicon = vocabulary if isinstance(vocabulary, Lexicon) else Lexicon(vocabulary, roots)
    hits: dict[str, float] = {}
    if keys:
        for root in roots:
            for token in lexicon.containing(" " + root):
                if (
                    token != query_token
                    and not keys.isdisjoint(lexicon.stem_keys(token))
                    and not _another_word_with_e(query_token, token)
                ):
                    hits[token] = STEM_SCORE
        for variant, spelled in lexicon.german.items():
            if variant.startswith(roots) and not keys.isdisjoint(stem_keys(variant)):
                for token in spelled:
                    if token != query_token and not _another_word_with_e(query_token, token):
                        hits[token] = STEM_SCORE
    if query_token in lexicon.tokens:
        hits[query_token] = 1.0
    if not weak:
        return hits
    limit = edit_limit(length)
    typos = query_token not in COMMON_SHORT_WORDS  # a common three-letter word has none (ADR 0071)
    for token in lexicon.containing(query_token):
        if token in hits or token in STOPWORDS:
            continue
        if token.startswith(query_token):
            hits[token] = PREFIX_SCORE
        elif length >= MIN_CONTAINS_LENGTH:
            hits[token] = CONTAINS_SCORE
        elif typos and (score := _edit_score(query_token, token, limit)) > 0.0:
            hits[token] = score
    if not typos:
        return hits
    shortest, longest = length - limit, length + limit
    letters = frozenset(query_token)
    candidates: set[str] = set()
    for piece in _pieces(query_token, limit):
        candidates.update(lexicon.containing(piece, shortest, longest))
    for token in candidates:
        if token in hits or token in STOPWORDS:
            continue
        # Each letter one word has and the other lacks costs at least one edit.
        if len(letters.difference(token)) > limit or len(frozenset(token).difference(letters)) > limit:
            continue
        score = _edit_score(query_token, token, limit)
        if score > 0.0:
            hits[token] = score
    return hits


def _edit_score(query_token: str, field_token: str, limit: int) -> float:
    if _has_digit(field_token):
        return 0.0
    distance = bounded_distance(query_token, field_token, limit)
    return 0.0 if distance > limit else 1.0 - distance / len(query_token) * EDIT_PENALTY
