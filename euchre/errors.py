"""The library's exceptions: each says what was wrong and what is allowed."""

from __future__ import annotations


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
