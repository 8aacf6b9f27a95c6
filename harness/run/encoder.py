"""JSON text of plain data at the C encoder's speed, for the run's many small records.

``json.JSONEncoder.encode`` builds the standard library's C encoder anew on every call;
writing thousands of records (results.jsonl lines, the challenge set whose SHA-256 a run
records) spends a good part of its time in that set-up.  :func:`built_once` builds it
once for a given set of options and checks it on a probe against ``options.encode``.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

__all__ = ["built_once"]

# a probe of every JSON type, a non-ASCII and a control character, keys out of order
_PROBE = {"b": [1, 2.5e-05, None, True, "é\n\u202e"], "a": {"c": {}, "d": []}}


def built_once(options: json.JSONEncoder) -> Callable[[Any], str]:
    """``options.encode`` with the C encoder built once, and without the check for
    circular references (what is encoded is plain data: values read from JSON or TOML,
    tuples and dicts of them).  ``options.encode`` itself where the C accelerator is
    missing, where ``options`` indent (the C encoder does not), or where the built
    encoder does not write the probe exactly as ``options.encode`` does (a Python whose
    encoder takes other arguments)."""
    make: Any = getattr(json.encoder, "c_make_encoder", None)  # None: no accelerator
    if make is None or options.indent is not None:
        return options.encode
    strings = (
        json.encoder.encode_basestring_ascii
        if options.ensure_ascii
        else json.encoder.encode_basestring
    )
    try:
        encode = make(
            None,
            options.default,
            strings,
            None,
            options.key_separator,
            options.item_separator,
            options.sort_keys,
            options.skipkeys,
            options.allow_nan,
        )
        if "".join(encode(_PROBE, 0)) == options.encode(_PROBE):
            return lambda value: "".join(encode(value, 0))
    except (TypeError, ValueError):
        pass
    return options.encode
