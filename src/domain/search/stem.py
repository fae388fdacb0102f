"""Word forms: a light English stemmer and German spelling variants, for folded tokens.

Two words *meet* when their key sets intersect. A key is the word with its inflection removed
(``decided`` -> ``decid``, ``hiring`` -> ``hir``, ``policies`` -> ``polic``), and, where one
applies, a common derivational suffix removed as well (``decision`` -> ``decid``,
``deployment`` -> ``deploy``, ``approval`` -> ``approv``, ``failure`` -> ``fail``). A final
``e`` is always dropped, so ``hire``/``hiring``/``hired`` share ``hir``. Keeping both levels
lets ``documentation`` (``document``) meet ``document`` without ``document`` having to be
``docu`` for everyone.

German folding: a word spelled with ``ae``/``oe``/``ue`` (``Mueller``) also gets the key of its
umlaut-stripped form (``muller``, which is what ``Müller`` folds to). ``ß`` already folds to
``ss`` in ``normalize``.

Rules are deliberately few and conservative: every derivational rule keeps a stem of at least
four letters, and words holding a digit are never stemmed. ADR 0016 lists them with the cases
that motivated each.
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType

__all__ = [
    "MIN_STEM_LENGTH",
    "doubles_before_endings",
    "german_variant",
    "shared_beginning",
    "stem_keys",
    "stem_root",
]

# Inflection may leave three letters ("hir"); derivation must leave four ("fail", "approv").
MIN_STEM_LENGTH = 3
MIN_DERIVED_LENGTH = 4
_VOWELS = frozenset("aeiouy")
# Consonants that double before -ing/-ed ("planned", "running") and are undoubled again.
_UNDOUBLE = frozenset("bdfgklmnprtvz")

# (suffix, replacement) in the order tried; the first that leaves a long enough stem wins.
_DERIVATIONS: tuple[tuple[str, str], ...] = (
    ("ization", "iz"),
    ("isation", "iz"),
    ("ations", ""),
    ("ation", ""),
    ("itions", ""),
    ("ition", ""),
    ("nsions", "nd"),
    ("nsion", "nd"),  # extension ~ extend, suspension ~ suspend
    ("isions", "id"),
    ("ision", "id"),  # decision ~ decide, division ~ divide
    ("sions", "s"),
    ("sion", "s"),  # expression ~ express, conclusion ~ conclus(e)
    ("tions", "t"),
    ("tion", "t"),  # connection ~ connect, completion ~ complet(e)
    ("ments", ""),
    ("ment", ""),  # deployment ~ deploy, reimbursement ~ reimburs(e)
    ("ilures", "il"),
    ("ilure", "il"),  # failure ~ fail
    ("sures", "s"),
    ("sure", "s"),  # closure ~ clos(e)
    ("vals", "v"),
    ("val", "v"),  # approval ~ approv(e), removal, arrival
    ("sals", "s"),
    ("sal", "s"),  # proposal ~ propos(e), refusal
    ("wals", "w"),
    ("wal", "w"),  # renewal ~ renew
    ("ators", ""),
    ("ator", ""),  # migrator ~ migr(ate)
    ("ates", ""),
    ("ated", ""),
    ("ating", ""),
    ("ate", ""),  # migrate ~ migration, validate ~ validation
    ("ables", ""),
    ("able", ""),  # configurable ~ configur(e)
    ("ances", ""),
    ("ance", ""),  # performance ~ perform
    ("ences", ""),
    ("ence", ""),  # reference ~ refer
    ("ly", ""),
)


def _trim_e(word: str) -> str:
    return word[:-1] if len(word) > MIN_STEM_LENGTH and word.endswith("e") else word


def _inflection(word: str) -> str:
    """The word without a plural, past or progressive ending, final ``e`` dropped."""
    if len(word) <= MIN_STEM_LENGTH:
        return word
    base = word
    if word.endswith(("ies", "ied")) and len(word) > 4:
        base = word[:-3] + "y"
    elif word.endswith("sses"):
        base = word[:-2]
    elif word.endswith("ing") and len(word) - 3 >= MIN_STEM_LENGTH and _VOWELS.intersection(word[:-3]):
        base = _undouble(word[:-3])
    elif word.endswith("ed") and len(word) - 2 >= MIN_STEM_LENGTH and _VOWELS.intersection(word[:-2]):
        base = _undouble(word[:-2])
    elif word.endswith("es") and len(word) > 4 and word[-3] in "sxz":
        base = word[:-2]  # boxes, fixes, statuses
    elif word in _ABBREVIATION_PLURALS or (
        word.endswith("s") and not word.endswith(("ss", "us", "is")) and _may_be_plural(word)
    ):
        base = word[:-1]
    if base.endswith("y") and len(base) > MIN_STEM_LENGTH and base[-2] not in _VOWELS:
        base = base[:-1] + "i"  # policy ~ policies ~ polici
    return _trim_e(base)


# Four-letter words ending in ``s`` that are no plural of a three-letter word (``news`` is not
# ``new``s; ``mars`` is not the ``mar`` of a date; names; German and French words): any other
# four-letter one is (``logs``, ``jobs``, ``keys``, ``pays``: ADRs 0052, 0054).
_NOT_PLURALS = frozenset(
    {
        *("alas", "bias", "bios", "does", "goes", "hers", "lens", "mars", "news", "odds", "oops", "ours", "this"),
        *("hans", "jens", "lars", "nils"),  # names
        *("dans", "dies", "eins", "kurs", "sans"),  # German and French words
    }
)


# Plurals of abbreviations that end in ``is`` or ``us``, which the plural rule leaves alone for
# ``axis``, ``plus`` and ``status`` (ADR 0056).
_ABBREVIATION_PLURALS = frozenset({"apis", "cpus", "gpus", "kpis", "skus", "uris"})


def _may_be_plural(word: str) -> bool:
    """Whether a word ending in ``s`` (not ``ss``, ``us``, ``is``) may be a plural: from five
    letters, and a four-letter word unless it is one of ``_NOT_PLURALS``."""
    return len(word) > 4 or (len(word) == 4 and word not in _NOT_PLURALS)


def doubles_before_endings(word: str) -> bool:
    """Whether a three-letter word is consonant, vowel and a consonant it doubles before
    ``-ing``/``-ed`` (``hop`` -> ``hopping``), so that the same letters followed by ``ing`` or ``ed``
    (``hoping``) are the forms of another word, the one with ``e`` (``hope``)."""
    return len(word) == MIN_STEM_LENGTH and word[0] not in _VOWELS and word[1] in _VOWELS and word[2] in _UNDOUBLE


def _undouble(stem: str) -> str:
    if len(stem) > MIN_STEM_LENGTH and stem[-1] == stem[-2] and stem[-1] in _UNDOUBLE:
        return stem[:-1]
    return stem


# No suffix above ends with another listed after it, so the longest match is the first in order.
_BY_SUFFIX: Mapping[str, str] = MappingProxyType(dict(_DERIVATIONS))
_SUFFIX_LENGTHS = tuple(sorted({len(suffix) for suffix, _ in _DERIVATIONS}, reverse=True))
# The last two letters of every suffix: a word ending otherwise has none of them.
_SUFFIX_ENDINGS = frozenset(suffix[-2:] for suffix, _ in _DERIVATIONS)
# "-ation" whose root is too short to stand alone ("rot"): the key keeps "at" ("rotat", as
# "rotate" and "rotating" give), from five letters, so "station" does not meet "stats".
_SHORT_ROOT_ATIONS = frozenset({"ation", "ations"})
MIN_SHORT_ROOT_AT_LENGTH = 5


def _derivation(word: str) -> str | None:
    if word[-2:] not in _SUFFIX_ENDINGS:
        return None
    for length in _SUFFIX_LENGTHS:
        suffix = word[-length:]
        replacement = _BY_SUFFIX.get(suffix)
        if replacement is not None:
            stem = word[: len(word) - length] + replacement
            if len(stem) >= MIN_DERIVED_LENGTH:
                return _trim_e(stem)
            if suffix in _SHORT_ROOT_ATIONS:
                # A short root keeps the "at" its verb has: rotation ~ rotate, location ~ locate (ADR 0048).
                kept = word[: len(word) - length] + "at"
                return kept if len(kept) >= MIN_SHORT_ROOT_AT_LENGTH else None
            return None
    return None


def _german(word: str) -> str | None:
    """``mueller`` -> ``muller``: the word as its umlaut spelling folds, when it has one."""
    if len(word) < 5 or not ("ae" in word or "oe" in word or "ue" in word):
        return None
    out: list[str] = []
    index = 0
    changed = False
    while index < len(word):
        char = word[index]
        if (
            char in "aou"
            and index + 1 < len(word)
            and word[index + 1] == "e"
            and index > 0
            and word[index - 1] != "q"
            and (char != "u" or word[index - 1] not in "aeiou")
        ):
            out.append(char)
            index += 2
            changed = True
            continue
        out.append(char)
        index += 1
    return "".join(out) if changed else None


def _add_ing_singular(word: str, inflected: str, keys: set[str]) -> None:
    """The plural of a word in -ing meets it: ``bookings`` and ``booking`` share ``book`` (ADR 0067)."""
    if inflected.endswith("ing") and word.endswith("ings"):
        keys.add(_inflection(inflected))


def stem_keys(word: str) -> frozenset[str]:
    """The keys under which ``word`` (a folded token) meets its other forms; empty if none apply."""
    if len(word) < MIN_STEM_LENGTH or not word.isalpha():
        return frozenset()
    if len(word) == MIN_STEM_LENGTH:
        return frozenset((word,))
    inflected = _inflection(word)
    keys = {inflected}
    _add_ing_singular(word, inflected, keys)
    derived = _derivation(inflected)
    if derived is not None:
        keys.add(derived)
    direct = _derivation(word)
    if direct is not None:
        keys.add(direct)
    german = _german(word)
    if german is not None:
        keys.add(german)
        inflected_german = _inflection(german)
        keys.add(inflected_german)
        _add_ing_singular(german, inflected_german, keys)
    _add_doubling(word, keys)
    _add_z_spelling(word, keys)
    return frozenset(key for key in keys if len(key) >= MIN_STEM_LENGTH)


# The endings of a verb spelled with -ise or -yse (standardise, analysed, organising), whose key
# ends in ``is`` or ``ys``.
_S_SPELLINGS = ("ise", "ised", "ises", "ising", "yse", "ysed", "yses", "ysing")
MIN_Z_KEY_LENGTH = 5
# A leg cut to the beginning a verb's -ise and -ize spellings share keeps this many letters at
# least; a shorter one is in too many other words (ADR 0065).
MIN_Z_LEG_LETTERS = 6


def _add_z_spelling(word: str, keys: set[str]) -> None:
    """A verb spelled with -ise or -yse also has the key of its -ize or -yze spelling, so British
    and American spellings meet: ``standardise`` and ``standardizing`` (``standardiz``), ``analyse``
    and ``analyzed`` (``analyz``), ``organise`` and ``organization``, as ``-isation`` and ``-ization``
    already do (ADR 0058). Short keys are left alone (``rise`` is not ``rize``)."""
    if not word.endswith(_S_SPELLINGS):
        return
    for key in tuple(keys):
        if len(key) >= MIN_Z_KEY_LENGTH and key.endswith(("is", "ys")):
            keys.add(key[:-1] + "z")


def _add_doubling(word: str, keys: set[str]) -> None:
    """A stem ending in a doubled consonant also meets it single, and the reverse: ``install``
    and ``installed`` (``instal`` once the ending's doubling is undone), ``cancellation``
    (``cancell``) and ``cancelled`` (``cancel``), ``enrol`` and ``enrollment``. The single form is
    added only where it keeps four letters (``call`` does not also read as ``cal``)."""
    for key in tuple(keys):
        if len(key) > MIN_DERIVED_LENGTH and key[-1] == key[-2] and key[-1] in _UNDOUBLE:
            keys.add(key[:-1])
    # ``-ing``/``-ed`` undoubled the stem's last consonant; the doubled stem is a key too, so
    # ``called`` meets ``call`` and ``spelled`` meets ``spell``.
    for ending in ("ing", "ed"):
        stem = word[: -len(ending)]
        if word.endswith(ending) and len(stem) > MIN_STEM_LENGTH and stem[-1] == stem[-2] and stem[-1] in _UNDOUBLE:
            keys.add(stem)


def stem_root(keys: frozenset[str]) -> str:
    """A prefix every word sharing one of ``keys`` starts with, unless it meets by its German
    variant (``german_variant``); used to skip the rest of a vocabulary cheaply.

    A key keeps its word's letters except for the last one or two (a ``y`` turned ``i``, an
    ``e`` dropped, ``-ision`` turned ``-id``), so the shortest key less two letters is shared.
    """
    shortest = min(keys, key=len)
    return shortest[: max(2, len(shortest) - 2)]


def german_variant(word: str) -> str | None:
    """``word`` with ``ae``/``oe``/``ue`` read as umlauts (``mueller`` -> ``muller``), or None."""
    return _german(word)


# A key's last letters that a rule may have written itself, absent from another form of the word,
# and how many of them to leave out: policy -> polici (policy has no "i"), decision -> decid,
# extension -> extend, expansion -> expand, organisation -> organiz, analyse -> analyz.
_WRITTEN_ENDINGS: tuple[tuple[str, int], ...] = (("end", 2), ("and", 2), ("iz", 1), ("yz", 1), ("id", 1), ("i", 1))


def shared_beginning(word: str) -> int:
    """How many of ``word``'s first letters its other forms share, for a server search by
    containment (``ILIKE '%...%'``): a text holding any of the forms holds that beginning.

    A four-letter plural is the exception: it is sent whole (``logs``), so its leg does not find
    the singular (``log`` is inside ``blog`` and ``login``; ADR 0052).

    It is the shortest common beginning of the word and one of its keys, less the letters a rule
    may have written (``migrate``: ``migr``; ``decide``: ``deci``, as in ``decision``;
    ``policies``: ``polic``, as in ``policy``; ``approval``: ``approv``), and at least four
    letters, or three for a word of four (``hire``), so it matches few unrelated words; otherwise
    the whole word (``hiring``: its key ``hir`` is too short). A German variant's key
    (``mueller`` -> ``muller``) shares too little to count.
    """
    if len(word) <= 4 and word.endswith("s"):
        return len(word)  # ``logs``: its singular ``log`` is inside too many words (``blog``, ``login``)
    least = 3 if len(word) <= 4 else 4
    shared = len(word)
    spelled_with_s = word.endswith(_S_SPELLINGS)
    for key in stem_keys(word):
        cut = next((n for ending, n in _WRITTEN_ENDINGS if key.endswith(ending)), 0)
        kept = key[: len(key) - cut]
        common = 0
        for mine, theirs in zip(word, kept, strict=False):
            if mine != theirs:
                break
            common += 1
        if spelled_with_s and key.endswith(("iz", "yz")) and common < MIN_Z_LEG_LETTERS:
            continue  # ``revised`` is not sent as ``revi`` (review, previous) for its -ize key (ADR 0065)
        if least <= common < shared:
            shared = common
    return shared
