"""The words a query names a date with, and the names a day answers to (ADR 0070): pure text rules
for the searches that rank records by their dates."""

from __future__ import annotations

import re
from collections.abc import Mapping
from datetime import datetime
from types import MappingProxyType

from openproject_mcp.domain.search.normalize import token_values

__all__ = ["date_names", "date_words"]

_MONTHS = (
    *("january", "february", "march", "april", "may", "june", "july"),
    *("august", "september", "october", "november", "december"),
)
_WEEKDAYS = ("monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday")
# The month, weekday or day a query word names: names, their usual short forms and plurals
# ("Mondays"), day numbers with or without a leading zero or an ordinal ending ("03", "17th").
_MONTH_OF: Mapping[str, str] = MappingProxyType(
    {
        **{month: month for month in _MONTHS},
        **{month[:3]: month for month in _MONTHS if month != "may"},
        "sept": "september",
    }
)
_WEEKDAY_OF: Mapping[str, str] = MappingProxyType(
    {
        **{day: day for day in _WEEKDAYS},
        **{day + "s": day for day in _WEEKDAYS},
        **{day[:3]: day for day in _WEEKDAYS},
    }
)
_YEAR = re.compile(r"(?:19|20)\d\d")
_DAY = re.compile(r"0?([1-9]|[12]\d|3[01])(?:st|nd|rd|th)?")


def date_words(query: str) -> dict[str, str]:
    """The words of ``query`` that name a meeting's date, folded, each under what it names (``3``,
    ``march``, ``monday``, ``2025``): month and weekday names and their short forms, years, and day
    numbers next to a month ("on 17 March", "March 17th", "5th of June"). ``may`` names a month
    only beside a year or a day number ("in May 2025", "on 3 May"), being a verb as often."""
    words = token_values(query)
    named: dict[str, str] = {}
    for at, word in enumerate(words):
        month = _MONTH_OF.get(word)
        if month is None:
            continue
        # Next to the month, or before it with "of" between ("5th of June").
        around = [words[i] for i in (at - 1, at + 1) if 0 <= i < len(words)]
        if at >= 2 and words[at - 1] == "of":
            around.append(words[at - 2])
        days = [(w, found.group(1)) for w in around if (found := _DAY.fullmatch(w))]
        if month == "may" and not (days or any(_YEAR.fullmatch(w) for w in around)):
            continue
        named[month] = word
        for spelled, number in days:
            named.setdefault(number, spelled)
    for word in words:
        if word in _WEEKDAY_OF:
            named.setdefault(_WEEKDAY_OF[word], word)
        elif _YEAR.fullmatch(word):
            named.setdefault(word, word)
    return named


def date_names(moment: datetime) -> tuple[str, str, str, str]:
    """What ``date_words`` names ``moment``'s day by, folded: weekday, day number, month, year."""
    return _WEEKDAYS[moment.weekday()], str(moment.day), _MONTHS[moment.month - 1], str(moment.year)
