"""The one message for a name pokercert does not know (a ruleset, an interpretation, a
profile, a flag, an adapter, a format...): the name asked for, the closest known names
("did you mean"), and the names known.  Every place that resolves an id says it so."""

from __future__ import annotations

from collections.abc import Iterable

__all__ = ["did_you_mean", "unknown_name"]


def did_you_mean(name: str, known: Iterable[str], prefix: str = "") -> str:
    """``"; did you mean 'x'?"`` naming the known names closest to ``name`` (up to
    three, by :func:`difflib.get_close_matches`), or ``""`` when none is close;
    ``prefix`` is shown before each name, not compared (the ``--`` of an option)."""
    import difflib  # only when a name was mistyped

    names = list(known)
    close = difflib.get_close_matches(name, names, n=3)
    if not close:
        lowered = {n.lower(): n for n in names}
        close = [lowered[n] for n in difflib.get_close_matches(name.lower(), lowered, n=3)]
    return f"; did you mean {' or '.join(repr(prefix + c) for c in close)}?" if close else ""


def unknown_name(what: str, name: str, known: Iterable[str]) -> str:
    """``unknown ruleset 'nj-omaha-hilo'; did you mean 'nj-omaha-hi-lo'? (known: ...)``."""
    names = list(known)
    return (
        f"unknown {what} {name!r}{did_you_mean(name, names)} (known: {', '.join(names) or 'none'})"
    )
