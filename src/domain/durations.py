"""Durations in hours, as the write tools accept them and as OpenProject's API writes them.

OpenProject's API represents hours (a time entry's ``hours``, a work package's ``estimatedTime``)
as ISO 8601 durations such as ``PT1H30M``; people write ``1.5``. Both are read here.
"""

from __future__ import annotations

import math
import re
from collections.abc import Mapping
from types import MappingProxyType

_ISO = re.compile(
    r"P(?:(?P<weeks>\d+(?:[.,]\d+)?)W)?(?:(?P<days>\d+(?:[.,]\d+)?)D)?"
    r"(?:T(?:(?P<hours>\d+(?:[.,]\d+)?)H)?(?:(?P<minutes>\d+(?:[.,]\d+)?)M)?(?:(?P<seconds>\d+(?:[.,]\d+)?)S)?)?",
    re.IGNORECASE,
)
_FACTORS: Mapping[str, float] = MappingProxyType(
    {"weeks": 7 * 24.0, "days": 24.0, "hours": 1.0, "minutes": 1 / 60, "seconds": 1 / 3600}
)


def parse_hours(value: float | int | str) -> float | None:
    """Hours from a number (``1.5``), a numeric string or an ISO 8601 duration (``PT1H30M``);
    ``None`` if it is none of these or is negative or not finite."""
    if isinstance(value, bool):
        return None
    if isinstance(value, int | float):
        hours = float(value)
        return hours if math.isfinite(hours) and hours >= 0 else None
    text = value.strip()
    try:
        hours = float(text.replace(",", "."))
    except ValueError:
        pass
    else:
        return hours if math.isfinite(hours) and hours >= 0 else None
    match = _ISO.fullmatch(text)
    if match is None or text.upper() in ("P", "PT") or text.upper().endswith("T"):
        return None
    return sum(float(amount.replace(",", ".")) * _FACTORS[unit] for unit, amount in match.groupdict().items() if amount)


def iso_hours(hours: float) -> str:
    """An ISO 8601 duration for a number of hours, to the second: ``1.5`` -> ``PT1H30M``."""
    total = round(hours * 3600)
    whole, rest = divmod(total, 3600)
    minutes, seconds = divmod(rest, 60)
    text = (
        "PT" + (f"{whole}H" if whole else "") + (f"{minutes}M" if minutes else "") + (f"{seconds}S" if seconds else "")
    )
    return text if text != "PT" else "PT0S"
