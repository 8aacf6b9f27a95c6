"""The corpus's words for a JSON Schema error in a vector file: what to change, in the
author's terms, not the schema's mechanics."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    import jsonschema


def schema_message(error: jsonschema.ValidationError) -> str:
    """The message a vector file's author reads for one JSON Schema ``error``: the
    schema's own words, except where they name its mechanics (``oneOf``, ``not``)."""
    if error.validator == "additionalProperties":
        return error.message.replace(
            "Additional properties are not allowed", "unknown key(s) not allowed"
        )
    if error.validator == "not" and isinstance(error.validator_value, dict):
        keys = _required_keys(error.validator_value)
        if isinstance(error.instance, dict):
            keys &= set(error.instance)
        if keys:
            return f"key(s) not allowed here: {', '.join(sorted(keys))}"
    if error.validator == "oneOf":
        return (
            "give either 'expect', or 'interpretations' (one id) with "
            "'expect_by_reading' (one expectation per reading)"
        )
    return error.message


def _required_keys(schema: dict[str, Any]) -> set[str]:
    keys = set(schema.get("required", ()))
    for sub in schema.get("anyOf", ()):
        keys |= _required_keys(sub)
    return keys
