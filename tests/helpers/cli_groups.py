"""Command modules for tests of the command list (``pokercert.cli.main.COMMAND_GROUPS``):
real ``register`` functions, as a command module of the package has one."""

from __future__ import annotations

from typing import Any


def register(sub: Any) -> None:
    """Adds ``listed``, then ``unlisted`` (which the test's group does not list)."""
    sub.add_parser("listed").set_defaults(func=lambda args: 0)
    sub.add_parser("unlisted").set_defaults(func=lambda args: 0)
