"""One folding path for query and field text: normalise, tokenise, query tokens, literal lookup.

Folding is NFKD, then combining marks (canonical combining class != 0) dropped, then casefold.
Each step works character by character (NFKD only reorders marks, which are dropped), so
``normalize(a + b) == normalize(a) + normalize(b)``. Everything below leans on that: token
values can be folded in one batch, and a literal match can be mapped back to the original text.
"""

from __future__ import annotations

import codecs
import re
import unicodedata
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from itertools import islice
from types import MappingProxyType

__all__ = [
    "STOPWORDS",
    "Token",
    "first_token_start",
    "fold_for_containment",
    "iter_tokens",
    "locate_folded",
    "normalize",
    "query_spellings",
    "query_tokens",
    "token_start",
    "token_values",
    "tokenize",
]

# A standard English list (the usual NLTK-style set plus contraction fragments), because
# coverage-based scoring would otherwise push "what did we decide about hiring" towards zero.
# Field text keeps these words; only query tokens drop them. A word list reads and diffs better
# than 150 quoted literals, hence the split.
STOPWORDS: frozenset[str] = frozenset(
    """
    a about above after again against ain all am an and any are aren as at be because been before
    being below between both but by can couldn d did didn do does doesn doing don down during each
    few for from further had hadn has hasn have haven having he her here hers herself him himself
    his how i if in into is isn it its itself just ll m ma me mightn more most mustn my myself
    needn no nor not now o of off on once only or other our ours ourselves out over own re s same
    shan she should shouldn so some such t than that the their theirs them themselves then there
    these they this those through to too under until up ve very was wasn we were weren what when
    where which while who whom why will with won wouldn y you your yours yourself yourselves
    """.split()  # noqa: SIM905
) | frozenset(
    # German function words, folded (``für`` -> ``fur``, ``können`` -> ``konnen``), for the questions
    # of German teams (ADR 0055). Left out where the folded word is also an English word, prefix
    # or abbreviation a search may mean: war (room), bin, man, hat, er, es, im, da, uber, dir
    # (directory), mir (mirror), and with them mich and dich.
    """
    aber als auch auf aus bei dann dass das dem den denn der des die doch du ein eine einem einen
    einer eines euch fuer fur gibt habe haben hatte ich ihr ist ja kann kein keine koennen konnen mit
    muss nach nein nicht noch nur ob oder schon sehr sein sich sie sind soll uns und unter vom von
    wann warum welche welcher welches wenn wer werden wie wieso wir wird wo wurde wurden zu zum zur
    """.split()  # noqa: SIM905
)

_NON_ASCII_RUN = re.compile(r"[^\x00-\x7f]+")
# Combining diacritics of Latin script, all of combining class != 0 (U+034F, a joiner of class 0,
# is left out), removable in one regex pass.
_LATIN_MARKS = re.compile("[\u0300-\u034e\u0350-\u036f]+")
_ASCII_TOKEN = re.compile(r"[a-z0-9]+")
# `re` has no class for Unicode marks, so a letter/digit run is allowed to swallow any non-ASCII
# symbol that glues it to more letters; the rare glued segments are split exactly in Python.
# Latin-1 symbols and General Punctuation (typographic quotes, dashes) hold no marks, so they
# are never glue: "it’s" stays two plain segments and off the slow path.
_TOKEN_SEGMENT = re.compile(r"[^\W_]+(?:[^\w\s\x00-\xbf\u2000-\u206f][^\W_]*)*")
# ASCII letters lower-cased, digits kept, everything else a space: a byte table beats a regex
# by about four times on long text.
_ASCII_FOLD = bytes(
    code + 32 if 65 <= code <= 90 else code if (48 <= code <= 57 or 97 <= code <= 122) else 32 for code in range(256)
)
# Past this many extra UTF-8 bytes, chunking costs more than folding the whole text at once.
_MAX_NON_ASCII_BYTES = 24
# The letters whose fold is empty or only spaces (halfwidth katakana sound marks, the Greek
# ypogegrammeni, Arabic shadda and harakat forms): a segment holding one of them may not be a
# token. Found by folding every letter and digit of Unicode.
_FOLDS_TO_NOTHING = frozenset(
    "\u037a\ufc5e\ufc5f\ufc60\ufc61\ufc62\ufc63\ufe70\ufe72\ufe74\ufe76\ufe78\ufe7a\ufe7c\ufe7e\uff9e\uff9f"
)
# Never produced by folding a letter or digit, so it can join token values for one batch fold.
_JOIN = "\x00"


@dataclass(frozen=True, slots=True)
class Token:
    """A normalised token and where its characters sit in the original text."""

    value: str
    start: int
    end: int


def normalize(text: str) -> str:
    """Case- and accent-folded text: NFKD, combining marks dropped, casefolded."""
    if text.isascii():
        return text.lower()
    # The Latin diacritics go in one C-level pass; only what is left needs a look per character.
    decomposed = _LATIN_MARKS.sub("", unicodedata.normalize("NFKD", text))
    if not decomposed.isascii():
        decomposed = _NON_ASCII_RUN.sub(_drop_marks, decomposed)
    return decomposed.casefold()


def _token_fold(text: str) -> str:
    """``normalize`` of one token's text, without the spaces a few letters fold with (U+037A
    folds to a space, U+FDFA to a phrase): a token value never holds a space."""
    value = normalize(text)
    return value.replace(" ", "") if " " in value else value


def _drop_marks(run: re.Match[str]) -> str:
    return "".join(char for char in run.group() if not unicodedata.combining(char))


def _ascii_fold(text: str) -> str:
    """NFKD with sharp s spelled out and Latin diacritics dropped: ``normalize`` up to case, for
    text whose non-ASCII characters are all in ``_ASCII_FOLDABLE``."""
    return _LATIN_MARKS.sub("", unicodedata.normalize("NFKD", text).replace("ß", "ss"))


def _ascii_foldable(char: str) -> bool:
    """Whether ``_ascii_fold`` plus the ASCII byte table treats ``char`` exactly like ``tokenize``."""
    folded = _ascii_fold(char)
    if char.isalnum():
        return folded.isascii() and folded.isalnum() and folded.lower() == normalize(char)
    if unicodedata.combining(char):
        return not folded
    # A separator must stay one: no letters in its fold, and not a mark that would join a word.
    return not unicodedata.category(char).startswith("M") and not any(part.isalnum() for part in folded)


# Computed once at import (about a millisecond): Latin letters, their combining diacritics,
# ligatures, typographic punctuation and currency signs. Anything else takes the exact path.
_ASCII_FOLDABLE: frozenset[str] = frozenset(
    chr(code)
    for first, last in (
        (0x80, 0x24F),
        (0x300, 0x36F),
        (0x1E00, 0x1EFF),
        (0x2000, 0x206F),
        (0x20A0, 0x20BF),
        (0xFB00, 0xFB06),
    )
    for code in range(first, last + 1)
    if _ascii_foldable(chr(code))
)
# What each of those characters becomes on the way to ASCII tokens: ``_ascii_fold`` of the
# character alone, anything left non-ASCII (a typographic quote) as "?", which the byte table
# turns into a space. ``_ascii_fold`` works character by character (NFKD only reorders marks,
# and it drops them all), so folding a text is folding its characters one by one.
_FOLDED_CHARACTER: Mapping[str, str] = MappingProxyType(
    {char: _ascii_fold(char).encode("ascii", "replace").decode("ascii") for char in _ASCII_FOLDABLE}
)


class _NotFoldableError(Exception):
    """A character outside ``_ASCII_FOLDABLE``: the text takes the exact path."""


def _fold_run(error: UnicodeError) -> tuple[str, int]:
    """Encoding error handler: a run of non-ASCII characters, folded character by character."""
    if not isinstance(error, UnicodeEncodeError):
        raise error
    try:
        return "".join([_FOLDED_CHARACTER[char] for char in error.object[error.start : error.end]]), error.end
    except KeyError:
        raise _NotFoldableError from None


# ``text.encode("ascii", _FOLD_ERRORS)`` copies ASCII in C and calls ``_fold_run`` only for the
# non-ASCII runs (a name with an umlaut, a quote), instead of normalising the whole text.
_FOLD_ERRORS = "openproject-mcp-search-fold"
codecs.register_error(_FOLD_ERRORS, _fold_run)


def _spans(segment: str) -> Iterator[tuple[int, int]]:
    """Letter/digit runs inside one regex segment; a mark continues the run it follows."""
    if segment.isalnum():
        yield 0, len(segment)
        return
    start = -1
    for index, char in enumerate(segment):
        if char.isalnum():
            if start < 0:
                start = index
        elif start >= 0 and not unicodedata.category(char).startswith("M"):
            yield start, index
            start = -1
    if start >= 0:
        yield start, len(segment)


def tokenize(text: str) -> tuple[Token, ...]:
    """Runs of Unicode letters and digits, with offsets into ``text`` itself."""
    return tuple(iter_tokens(text))


def iter_tokens(text: str) -> Iterator[Token]:
    """``tokenize`` one token at a time, for callers that can stop early."""
    if text.isascii():
        # Lower-casing ASCII keeps every offset, so the folded text can be scanned directly.
        for match in _ASCII_TOKEN.finditer(text.lower()):
            yield Token(match.group(), match.start(), match.end())
        return
    for match in _TOKEN_SEGMENT.finditer(text):
        base = match.start()
        for start, end in _spans(match.group()):
            value = _token_fold(text[base + start : base + end])
            # Two halfwidth katakana sound marks are letters that fold to nothing.
            if value:
                yield Token(value, base + start, base + end)


def token_values(text: str) -> list[str]:
    """The values of ``tokenize(text)`` without building offsets: the ranking hot path."""
    if text.isascii():
        return _ascii_values(text)
    folded = _folded_values(text)
    if folded is not None:
        return folded
    values: list[str] = []
    for _, part, plain in _parts(text):
        values += _ascii_values(part) if plain else _unicode_values(part)
    return values


def token_start(text: str, index: int) -> int:
    """The start of ``tokenize(text)[index]``, counting tokens part by part instead of building them."""
    if not text.isascii():
        found = _folded_start(text, index)
        if found is not None:
            return found
    for base, part, plain in _parts(text):
        if plain:
            count = len(_ascii_values(part))
            if index < count:
                return base + next(islice(_ASCII_TOKEN.finditer(part.lower()), index, None)).start()
        else:
            segments: list[str] = _TOKEN_SEGMENT.findall(part)
            if "".join(segments).isalnum() and _FOLDS_TO_NOTHING.isdisjoint(part):
                # One token per segment: skip to it without folding anything.
                count = len(segments)
                if index < count:
                    return base + next(islice(_TOKEN_SEGMENT.finditer(part), index, None)).start()
            else:
                count = len(_unicode_values(part))
                if index < count:
                    return base + next(islice(iter_tokens(part), index, None)).start
        index -= count
    raise IndexError("token index out of range")


def first_token_start(text: str, value: str, index: int) -> int:
    """``token_start(text, index)`` where ``tokenize(text)[index]`` is the first token of ``text``
    with this ``value``: found by a search for the value in the folded text, not by counting
    tokens up to it."""
    # The folded text holds lower-case letters, digits and spaces only; ASCII keeps its offsets.
    mapped = (text.encode("ascii").translate(_ASCII_FOLD).decode("ascii"), []) if text.isascii() else _folded_map(text)
    if mapped is not None:
        folded, runs = mapped
        at = f" {folded} ".find(f" {value} ")
        if at >= 0:
            return _original_offset(runs, at)
    return token_start(text, index)


def _folded_start(text: str, index: int) -> int | None:
    """``token_start`` for text on the folded path (``_folded_values``); None when it is not."""
    mapped = _folded_map(text)
    if mapped is None:
        return None
    folded, runs = mapped
    token = next(islice(_ASCII_TOKEN.finditer(folded), index, None), None)
    if token is None:
        raise IndexError("token index out of range")
    return _original_offset(runs, token.start())


# (original start, folded start, folds) of each non-ASCII run of a text.
_Runs = list[tuple[int, int, tuple[str, ...]]]


def _folded_map(text: str) -> tuple[str, _Runs] | None:
    """The text folded (each non-ASCII character replaced by its fold, then the byte table) and
    its non-ASCII runs; None when a character needs the exact path."""
    folded_parts: list[str] = []
    runs: _Runs = []
    cursor = 0
    shift = 0  # folded length minus original length, so far
    for run in _NON_ASCII_RUN.finditer(text):
        folds = tuple(_FOLDED_CHARACTER.get(char, "") for char in run.group())
        if any(char not in _FOLDED_CHARACTER for char in run.group()):
            return None
        folded_parts.append(text[cursor : run.start()])
        runs.append((run.start(), run.start() + shift, folds))
        joined = "".join(folds)
        folded_parts.append(joined)
        shift += len(joined) - (run.end() - run.start())
        cursor = run.end()
    folded_parts.append(text[cursor:])
    return "".join(folded_parts).encode("ascii").translate(_ASCII_FOLD).decode("ascii"), runs


def _original_offset(runs: _Runs, offset: int) -> int:
    """Where the folded text's ``offset`` stands in the original text.

    The folded text is the original with each non-ASCII character replaced by its fold, so an
    offset there maps back by the runs before it; a token starting inside a run starts at the
    character whose fold it begins with (a mark folds to nothing and never starts a token).
    """
    shift = 0
    for original, start, folds in runs:
        if start > offset:
            break
        width = sum(map(len, folds))
        if offset < start + width:
            for position, fold in enumerate(folds):
                if offset < start + len(fold):
                    return original + position
                start += len(fold)
        shift = start + width - (original + len(folds))
    return offset - shift


def _parts(text: str) -> Iterator[tuple[int, str, bool]]:
    """(offset, substring, is it ASCII) pieces of ``text`` that tokenise independently.

    Mostly-ASCII text (a name with an umlaut, a typographic quote) keeps the fast path for all
    but the whitespace-delimited chunks holding non-ASCII characters: tokens never cross
    whitespace, so part by part gives the same tokens as the whole text at once.
    """
    if text.isascii():
        yield 0, text, True
        return
    if len(text.encode("utf-8")) - len(text) > _MAX_NON_ASCII_BYTES:
        yield 0, text, False
        return
    cursor = 0
    for match in _NON_ASCII_RUN.finditer(text):
        if match.end() <= cursor:
            continue
        start, end = max(match.start(), cursor), match.end()
        while start > cursor and not text[start - 1].isspace():
            start -= 1
        while end < len(text) and not text[end].isspace():
            end += 1
        if start > cursor:
            yield cursor, text[cursor:start], True
        yield start, text[start:end], False
        cursor = end
    if cursor < len(text):
        yield cursor, text[cursor:], True


def _ascii_values(text: str) -> list[str]:
    return text.encode("ascii").translate(_ASCII_FOLD).decode("ascii").split()


def _folded_values(text: str) -> list[str] | None:
    """Western European text: each non-ASCII run folded on its own, then split like ASCII; None
    when a character needs the exact path."""
    try:
        return text.encode("ascii", _FOLD_ERRORS).translate(_ASCII_FOLD).decode("ascii").split()
    except _NotFoldableError:
        return None


def _unicode_values(text: str) -> list[str]:
    folded = _folded_values(text)
    if folded is not None:
        return folded
    segments: list[str] = _TOKEN_SEGMENT.findall(text)
    if not segments:
        return []
    if not "".join(segments).isalnum():
        split: list[str] = []
        for segment in segments:
            if segment.isalnum():
                split.append(segment)
            else:
                split.extend(segment[start:end] for start, end in _spans(segment))
        segments = split
    batch = normalize(_JOIN.join(segments))
    if " " in batch:  # a letter that folds with a space (see ``_token_fold``)
        batch = batch.replace(" ", "")
    values = batch.split(_JOIN)
    return [value for value in values if value] if "" in values else values


def query_tokens(query: str) -> tuple[str, ...]:
    """Distinct query tokens in order of first use, without stopwords unless nothing else is left."""
    distinct = tuple(dict.fromkeys(token_values(query)))
    significant = tuple(value for value in distinct if value not in STOPWORDS)
    return significant or distinct


def query_spellings(query: str) -> dict[str, str]:
    """``query_tokens(query)`` (the keys, in the same order), each with the query's own spelling of
    its first occurrence: case and accents as typed, for a server that does not fold them."""
    spelled: dict[str, str] = {}
    for token in iter_tokens(query):
        spelled.setdefault(token.value, query[token.start : token.end])
    significant = {value: text for value, text in spelled.items() if value not in STOPWORDS}
    return significant or spelled


def fold_for_containment(text: str) -> str:
    """Folded text with whitespace runs collapsed to one space and the ends trimmed."""
    return " ".join(normalize(text).split())


def locate_folded(text: str, needle: str) -> int:
    """Original offset of the first ``needle`` in ``fold_for_containment(text)``, or -1.

    Whitespace is judged after folding (a spacing diaeresis folds to a space), so the map is
    built from each character's own fold; it stops as soon as the match position is covered.
    """
    position = fold_for_containment(text).find(needle) if needle else -1
    if position < 0:
        return -1
    emitted = 0
    pending_space = -1
    for index, char in enumerate(text):
        for folded in char.lower() if char.isascii() else normalize(char):
            if folded.isspace():
                if emitted and pending_space < 0:
                    pending_space = index
                continue
            if pending_space >= 0:
                if emitted == position:
                    return pending_space
                emitted += 1
                pending_space = -1
            if emitted == position:
                return index
            emitted += 1
    return -1
