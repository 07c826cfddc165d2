"""The library's exceptions: each says what was wrong and what is allowed."""

from __future__ import annotations

from typing import Final


class EuchreError(Exception):
    """Base of every error the library raises on purpose."""


class RulesError(EuchreError, ValueError):
    """An impossible or malformed rules configuration."""


class IllegalActionError(EuchreError, ValueError):
    """An action that the rules do not allow now; the state is left unchanged."""


class NotationError(EuchreError, ValueError):
    """Text that is not a card, suit or action in the documented notation."""


class RecordError(EuchreError, ValueError):
    """A game record that is malformed, of an unknown version, or does not replay."""


#: How much of an untrusted value an error message repeats.
QUOTE_LIMIT: Final = 60


def quote(value: object, limit: int = QUOTE_LIMIT) -> str:
    """``value`` as it may appear in a one-line error message built from untrusted input.

    ``repr`` escapes every non-printable character (a newline, ``\\x1b[2J``), so a hostile key
    can neither break the message over two lines nor drive the user's terminal; the result is
    cut to ``limit`` characters so a megabyte of input is not echoed back. An object whose
    ``repr`` itself fails is named by its type."""
    kind = "".join(ch if ch.isprintable() else "?" for ch in str(type(value).__name__))
    try:
        text = repr(value)
    except Exception:  # a hostile object: its repr is untrusted code
        text = f"<{kind} object>"
    if not isinstance(text, str) or not text.isprintable():  # a __repr__ that is not repr's
        text = f"<{kind} object>"
    if len(text) > limit:
        text = text[: limit - 3] + "..."
    return text
