"""The JSON Schemas of every output pokercert writes, and a validator for each.

Each layer ships the schemas of what it writes in its ``schema/`` folder (Draft 2020-12,
each with an ``$id`` of the form ``urn:pokercert:LAYER:NAME``):

* ``harness/schema/``: ``results-line`` (a line of results.jsonl), ``run`` (run.json),
  ``exhaustive`` (exhaustive.json, live and final), ``fuzz`` (fuzz-RULESET.json), and
  the protocol's messages;
* ``reports/schema/report.schema.json``: report.json;
* ``vectors/schema/vector.schema.json``: a corpus file;
* ``cli/schema/COMMAND.schema.json``: what ``pokercert COMMAND --json`` prints
  (``vectors-check`` for ``pokercert vectors check``).

Schemas refer to each other by ``$id``; :func:`registry` holds them all, so a validator
resolves those references without any network access.
"""

from __future__ import annotations

import json
from functools import cache
from importlib import resources
from typing import Any

from jsonschema import Draft202012Validator
from referencing import Registry, Resource

# package -> its schema folder
SCHEMA_PACKAGES = ("pokercert.harness", "pokercert.reports", "pokercert.vectors", "pokercert.cli")

__all__ = ["SCHEMA_PACKAGES", "output_schemas", "registry", "validator"]


@cache
def output_schemas() -> dict[str, dict[str, Any]]:
    """Every shipped schema that has an ``$id``, by that id."""
    found: dict[str, dict[str, Any]] = {}
    for package in SCHEMA_PACKAGES:
        folder = resources.files(package) / "schema"
        for entry in sorted(folder.iterdir(), key=lambda e: e.name):
            if not entry.name.endswith(".json"):
                continue
            document = json.loads(entry.read_text(encoding="utf-8"))  # files of ours
            if isinstance(document, dict) and "$id" in document:
                found[document["$id"]] = document
    return found


@cache
def registry() -> Registry[Any]:
    """Every schema of :func:`output_schemas`, for resolving ``$ref`` between them."""
    return Registry().with_resources(
        (sid, Resource.from_contents(doc)) for sid, doc in output_schemas().items()
    )


def validator(schema_id: str) -> Draft202012Validator:
    """A validator for the schema with this ``$id`` (``urn:pokercert:cli:smoke``, ...)."""
    return Draft202012Validator(output_schemas()[schema_id], registry=registry())
