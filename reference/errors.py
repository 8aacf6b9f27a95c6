"""The one root of every error pokercert raises on purpose, and its kinds.

Libraries raise these; only the command line (:mod:`pokercert.cli.main`) turns them
into exit codes, in one table:

* :class:`InputError`: bad input from the user or a file (a card, a ruleset id, an
  adapter spec, a corpus file, a run folder, a report...): exit code 3;
* ``ReportRefused`` (:mod:`pokercert.reports.model`): a report or results folder that
  contradicts itself or is not genuine: exit code 1;
* ``AdapterError`` (:mod:`pokercert.harness.adapters`) and every other
  :class:`PokercertError`: the adapter or the harness failed: exit code 2.

Each kind is defined where it is raised and derives from this root, so a caller can
catch ``PokercertError`` for "anything pokercert refused" and a narrower class for one
cause.
"""

from __future__ import annotations

from enum import IntEnum

__all__ = ["ExitCode", "InputError", "PokercertError"]


class ExitCode(IntEnum):
    """The outcome of a pokercert check, numbered as the ``pokercert`` process exits.

    One vocabulary for the CLI, a run's outcome and the ``exit_code`` field of a
    certification report (like pytest's ``ExitCode``).
    """

    OK = 0  # compliant, CERTIFIED, nothing wrong
    NONCOMPLIANT = 1  # a rule breach, NOT CERTIFIED, a report refused, a corpus problem
    ERROR = 2  # the adapter or the harness failed: the run is INCOMPLETE
    USAGE = 3  # bad input: an option, a file, a card, a spec


class PokercertError(Exception):
    """The root of every error pokercert raises on purpose."""


class InputError(PokercertError):
    """Bad input from the user or from a file they named: the message says which file,
    line or token, and what is wrong (exit code 3 on the command line)."""
