"""Reading settings from the process environment, for every part that is configured that way."""

from __future__ import annotations

from collections.abc import Mapping

TRUE_WORDS = frozenset({"1", "true", "yes", "on"})
FALSE_WORDS = frozenset({"0", "false", "no", "off", ""})


class SettingError(ValueError):
    """A setting is invalid; the message names it and says what it must be."""


def read_flag(env: Mapping[str, str], name: str, error: type[ValueError] = SettingError) -> bool:
    raw = env.get(name, "").strip().lower()
    if raw in TRUE_WORDS:
        return True
    if raw in FALSE_WORDS:
        return False
    raise error(f"{name} must be true or false, got {env.get(name)!r}.")


def read_number(
    env: Mapping[str, str],
    name: str,
    default: float,
    minimum: float,
    maximum: float,
    error: type[ValueError] = SettingError,
) -> float:
    raw = env.get(name, "").strip()
    if not raw:
        return default
    try:
        value = float(raw)
    except ValueError:
        raise error(f"{name} must be a number, got {raw!r}.") from None
    if not minimum <= value <= maximum:
        raise error(f"{name} must be between {minimum:g} and {maximum:g}, got {raw}.")
    return value


def read_words(env: Mapping[str, str], name: str) -> tuple[str, ...]:
    """A comma-separated list."""
    return tuple(word.strip() for word in env.get(name, "").split(",") if word.strip())
