"""Whether a display name may be used: one that looks like a name already shown (another
player's, a computer's label) is refused, so nobody can pass for someone else.

"Looks like" is Unicode's own definition (UTS 39, Unicode Security Mechanisms): two strings are
confusable when their *skeletons* are equal. The skeleton maps every character to the prototype
of its confusable class (Cyrillic "Е" and Greek "Ε" to Latin "E", "1" and "I" to "l", "m" to
"rn", ...). It comes from ICU's ``SpoofChecker`` (through PyICU): ICU is Unicode's reference
implementation of UTS 39 and carries the confusables data of its Unicode version, kept up by
the Unicode Consortium, where the pure-Python packages compared each fell short
(``confusable_homoglyphs`` only reports characters that have look-alikes in other scripts and
computes no skeleton; ``confusables`` ships Unicode 13's data, last released in 2021, and its
``normalize`` lists every combination of look-alikes, exponential in a name's length;
``precis-i18n`` normalizes by RFC 8264/8266 but knows nothing of confusables).

Before the skeleton a name is NFKC-normalized (full-width and other compatibility forms become
their plain letters: "（" is "("), and after it NFKC_Casefold (case, and the default-ignorable
characters such as zero-width spaces, drop out), and skeletonized again, since UTS 39's mapping
is case-sensitive (Greek "Ε" is confusable with "E", but its lower case "ε" is not confusable
with "e"). Spaces are dropped last: "East(rule)" passes for "East (rule)".

``name_key`` is the comparison form, ``name_refusal`` the one check every place that accepts a
name uses (a seat's name at a table today; a player's name on the whole site once there are
accounts: store the key beside each name and make it unique).
"""

from __future__ import annotations

import unicodedata
from collections.abc import Iterable

import icu

from euchre.seats import Seat
from euchre.state import seat_name

__all__ = ["computer_name", "look_alike_letters", "name_key", "name_refusal", "reads_like"]

_nfkc = icu.Normalizer2.getNFKCInstance()
_casefold = icu.Normalizer2.getNFKCCasefoldInstance()
_spoof = icu.SpoofChecker()


def _skeleton(text: str) -> str:
    return str(_spoof.getSkeleton(0, text))


def computer_name(seat: Seat, n: int, level: str) -> str:
    """How the computer in ``seat`` at a table of ``n`` is shown: "East (club)"."""
    return f"{seat_name(seat, n)} ({level})"


def name_key(name: str) -> str:
    """The form two names are compared in: equal keys mean the names look alike."""
    key = _skeleton(str(_casefold.normalize(_skeleton(str(_nfkc.normalize(name))))))
    return "".join(key.split())


def _letter(ch: str) -> str:
    """A character as a reader would name it: "Cyrillic А", "Latin l", "fullwidth left
    parenthesis （"."""
    full = unicodedata.name(ch, "")
    if " LETTER " in full:
        return f"{full.split(' ')[0].capitalize()} {ch}"
    return f"{full.lower() or 'character'} {ch}"


def look_alike_letters(name: str, other: str) -> list[str]:
    """The characters of ``name`` that make it look like ``other`` without being the same,
    each with the one it passes for ("a Cyrillic А that looks like Latin A"): what a refusal
    must say, since the two names may show identically. Differences of case and spacing, and
    invisible characters, are not look-alikes and are not listed."""
    out: list[str] = []
    folded = str(_casefold.normalize(other))
    for ch in dict.fromkeys(name):
        if ch in other or ch.isspace() or not str(_casefold.normalize(ch)):
            continue
        proto = _skeleton(str(_nfkc.normalize(ch)))
        if proto == ch or not (proto in other or str(_casefold.normalize(proto)) in folded):
            continue
        like = _letter(proto) if len(proto) == 1 else f"{proto!r}"
        out.append(f"a {_letter(ch)} that looks like {like}")
    return out


def reads_like(name: str, other: str, whose: str) -> str:
    """Why ``name`` may not be used when it reads like ``other`` (``whose`` it is: "another
    player's name", "how a computer player is shown"), in words that show the difference where
    the two names look identical: "'Аnn' has a Cyrillic А that looks like Latin A, so it reads
    like 'Ann', another player's name"."""
    if name == other:
        return f"{name!r} is {whose}"
    letters = look_alike_letters(name, other)
    if letters:
        return f"{name!r} has {' and '.join(letters)}, so it reads like {other!r}, {whose}"
    return f"{name!r} reads like {other!r}, {whose}"


def name_refusal(name: str, taken: Iterable[tuple[str, str]]) -> str | None:
    """Why ``name`` may not be used, or None: ``taken`` holds each name already shown with
    whose it is ("the name of East", "how a computer player is shown"), and the first one that
    ``name`` looks like (``name_key``) is named in the refusal (``reads_like``)."""
    key = name_key(name)
    for other, whose in taken:
        if name_key(other) == key:
            return f"{reads_like(name, other, whose)}; choose another name"
    return None
