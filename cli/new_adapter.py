"""``pokercert new-adapter``: write a skeleton adapter a vendor starts from.

The skeleton (Python, Node.js or C; templates in ``cli/templates/new_adapter/``, each
``{{NAME}}`` filled in from the ruleset by :func:`render`) speaks
the whole protocol of harness/PROTOCOL.md and validates input as its section 3 says:
every operation it claims (:func:`claimed_kinds`: best_hand per half and showdown with
its low half where the game has them) and the batch operations (:func:`features`),
around a stub evaluator: ``pokercert smoke`` on it says EVALUATOR NON-COMPLIANT (exit 1),
never ADAPTER BROKEN, so a vendor replaces the stub and keeps a working protocol layer.
PROTOCOL.md section 9 says what each part does.

The command it suggests names the interpreter by absolute path (:func:`interpreter`): a
bare ``python3`` runs whatever is first on ``PATH`` when the run starts, and with
pokercert's own virtual environment active that is the harness's environment, whose copy
of the evaluator's library is not the vendor's.  It warns when the interpreter it names
is pokercert's own environment.
"""

from __future__ import annotations

import argparse
import json
import shutil
import subprocess
import sys
from importlib import resources
from pathlib import Path

from pokercert.cli.options import Subparsers, UsageError, out_folder
from pokercert.harness.protocol import HALF_FEATURE
from pokercert.reference import Ruleset, get_ruleset
from pokercert.reference.pai_gow import pai_gow_rules
from pokercert.vectors.model import PAI_GOW_KINDS, Kind

# language -> (template file, file written, how to run it: the spec's command line)
LANGUAGES = {
    "python": ("adapter.py.tmpl", "adapter.py", "{interpreter} {path}"),
    "node": ("adapter.js.tmpl", "adapter.js", "{interpreter} {path}"),
    "c": ("adapter.c.tmpl", "adapter.c", "{folder}/adapter"),
}
INTERPRETERS = {"python": "python3", "node": "node"}
# named in the commands when the only python found is pokercert's own environment's
YOUR_PYTHON = "/path/to/your-evaluator-env/bin/python"
# what a Python interpreter says it is: the executable it runs as (a virtual
# environment's own bin/python, not the binary behind it) and its environment's prefix
_ASK_PYTHON = "import sys; print(sys.executable); print(sys.prefix)"
# the protocol features every skeleton speaks (best_hand_half too in a split-pot game)
FEATURES = ("classify_many", "evaluate_many", "input_rules")
BUILD = {"c": "cc -O2 -std=c99 -o {folder}/adapter {path}"}
# the skeletons that answer pai gow's kinds (all three)
PAI_GOW_LANGUAGES = ("python", "node", "c")


def register(sub: Subparsers) -> None:
    p = sub.add_parser(
        "new-adapter",
        description="Write a working skeleton adapter in OUT: the protocol "
        "loop, input validation with the reason codes of PROTOCOL.md section "
        "3, every operation the ruleset has (best_hand and showdown with its "
        "low half in a dealt game) and the batch operations, around a stub "
        "evaluator to replace (smoke says EVALUATOR NON-COMPLIANT until then; "
        "PROTOCOL.md section 9). Exit 3 if OUT holds the file already.",
    )
    p.add_argument("out", type=Path, metavar="OUT", help="folder to write the adapter in")
    p.add_argument("--lang", choices=sorted(LANGUAGES), required=True)
    p.add_argument(
        "--ruleset",
        metavar="ID",
        default="nj-poker-high-5",
        help="the ruleset the skeleton claims (default: %(default)s)",
    )
    p.set_defaults(func=cmd_new_adapter)


def interpreter(lang: str) -> tuple[str, str]:
    """The interpreter the skeleton of ``lang`` should be run with, by absolute path, and
    a warning ("" if none): the one first on ``PATH`` (for Python, the executable it says
    it is, so a pyenv shim or a launcher script is named by what it starts), flagged
    when it is pokercert's own environment (``sys.prefix`` of this process): then a
    placeholder, :data:`YOUR_PYTHON`, is named, never the harness's own python."""
    name = INTERPRETERS[lang]
    found = shutil.which(name)
    if found is None:
        return name, (
            f"no {name} on PATH: write the absolute path of the interpreter your "
            "evaluator is installed for in the command"
        )
    if lang != "python":
        return str(Path(found).absolute()), ""
    try:
        said = subprocess.run(
            [found, "-c", _ASK_PYTHON],
            capture_output=True,
            text=True,
            timeout=30,
            stdin=subprocess.DEVNULL,
        ).stdout.splitlines()
    except (OSError, subprocess.SubprocessError):
        said = []
    executable = (
        said[0] if len(said) == 2 and Path(said[0]).is_absolute() else str(Path(found).absolute())
    )
    if len(said) == 2 and Path(said[1]).resolve() == Path(sys.prefix).resolve():
        return YOUR_PYTHON, (
            f"the python on PATH, {executable}, is pokercert's own "
            f"environment ({sys.prefix}): an adapter run with it imports the "
            "harness environment's copy of your evaluator's libraries, not "
            f"yours; put the python of your evaluator's environment (its "
            f"bin/python) where the commands say {YOUR_PYTHON}"
        )
    return executable, ""


def claimed_kinds(rs: Ruleset, lang: str = "python") -> list[str]:
    """The vector kinds a skeleton claims for ``rs``: classify, compare and reject always;
    best_hand where the game deals more cards than a hand (a selection rule); showdown
    where the corpus settles whole pots (the ruleset names the halves of its pot); in a
    pai gow game the pai gow kinds (every skeleton of :data:`PAI_GOW_LANGUAGES` has them)."""
    kinds = [Kind.CLASSIFY.value, Kind.COMPARE.value]
    if rs.selection is not None:
        kinds.append(Kind.BEST_HAND.value)
        if rs.halves:
            kinds.append(Kind.SHOWDOWN.value)
    if lang in PAI_GOW_LANGUAGES and pai_gow_rules(rs.id) is not None:
        kinds.extend(str(k) for k in PAI_GOW_KINDS)
    return [*kinds, Kind.REJECT.value]


def features(rs: Ruleset) -> list[str]:
    """The protocol features a skeleton for ``rs`` names (when the harness offers them)."""
    split = len(rs.pot_halves) > 1 and Kind.BEST_HAND in claimed_kinds(rs)
    return [*FEATURES, *([HALF_FEATURE] if split else [])]


def unclaimed(rs: Ruleset) -> dict[str, str]:
    """Why a skeleton for ``rs`` claims no best_hand or showdown (kind -> the reason):
    a best hand is chosen only in a game that deals more cards than a hand, and a whole
    pot is settled only in a game whose ruleset names the halves of its pot."""
    out = {}
    if rs.selection is None:
        out[Kind.BEST_HAND.value] = (
            f"a hand of {rs.id} is all the cards dealt to a player "
            "(no selection rule: nothing to choose from)"
        )
    if Kind.SHOWDOWN not in claimed_kinds(rs):
        out[Kind.SHOWDOWN.value] = (
            f"{rs.id} settles no pot of dealt hands (its ruleset "
            "names no halves of a pot: hands meet in compare)"
        )
    return out


def seven_dealt(rs: Ruleset) -> int:
    """7 in a game that deals a player seven cards and plays their best five (stud, razz,
    hold'em: the bulk checks of an exhaustive pass send the seven, PROTOCOL.md 4.6.1),
    else 0."""
    sel = rs.selection
    return 7 if sel is not None and sel.hole + sel.board == 7 and rs.hand_size == 5 else 0


def _c_array(words: list[str]) -> str:
    """A C array initialiser of string literals (``{"high", "low"}``)."""
    return "{" + ", ".join(json.dumps(w) for w in words) + "}"


def render(lang: str, ruleset_id: str, path: Path, interpreter_path: str = "") -> str:
    """The skeleton's source for ``lang`` and the ruleset, to be written at ``path``
    (``interpreter_path``: the interpreter its usage line names)."""
    rs = get_ruleset(ruleset_id)
    kinds = claimed_kinds(rs, lang)
    halves = [h.name for h in rs.pot_halves]
    named = features(rs)
    template = (
        resources.files("pokercert.cli") / "templates" / "new_adapter" / lang / LANGUAGES[lang][0]
    )
    values = {
        "RULESET": rs.id,
        "HAND_SIZE": str(rs.hand_size),
        "SEVEN": str(seven_dealt(rs)),
        "HOLE": str(rs.selection.hole if rs.selection else 0),
        "BOARD": str(rs.selection.board if rs.selection else 0),
        "JOKERS": str(rs.jokers),
        "KINDS": json.dumps(kinds),
        "C_KINDS": json.dumps(json.dumps(kinds, separators=(",", ":"))),
        "KINDS_TEXT": ", ".join(kinds),
        "HALVES": json.dumps(halves),
        "C_HALVES": _c_array(halves),
        "N_HALVES": str(len(halves)),
        "FEATURES": json.dumps(named),
        "C_FEATURES": _c_array(named),
        "N_FEATURES": str(len(named)),
        "HALF_TEXT": f", {HALF_FEATURE}" if HALF_FEATURE in named else "",
        "WORST": rs.category_names[-1],
        "FILE": str(path),
        "INTERPRETER": interpreter_path or INTERPRETERS.get(lang, ""),
    }
    text = template.read_text(encoding="utf-8")
    for name, value in values.items():
        text = text.replace("{{" + name + "}}", value)
    return text


def cmd_new_adapter(args: argparse.Namespace) -> int:
    get_ruleset(args.ruleset)  # an unknown id: a usage error before writing
    folder = out_folder(args.out, option="OUT")
    name = LANGUAGES[args.lang][1]
    path = folder / name
    if path.exists():
        raise UsageError(f"OUT {args.out}: {name} exists already; choose another folder")
    folder.mkdir(parents=True, exist_ok=True)
    run_with, warning = interpreter(args.lang) if args.lang in INTERPRETERS else ("", "")
    path.write_text(render(args.lang, args.ruleset, path.resolve(), run_with), encoding="utf-8")
    path.chmod(0o755)
    where = {"path": path.resolve(), "folder": folder.resolve(), "interpreter": run_with}
    rs = get_ruleset(args.ruleset)
    print(f"wrote {path} ({args.lang}, claims {args.ruleset}; the evaluator is a stub)")
    kinds = ", ".join(claimed_kinds(rs, args.lang))
    print(f"operations: {kinds}; features: {', '.join(features(rs))}")
    for kind, why in unclaimed(rs).items():
        print(f"no {kind}: {why}")
    if args.lang in BUILD:
        print(f"build it:   {BUILD[args.lang].format(**where)}")
    command = LANGUAGES[args.lang][2].format(**where)
    print(f'check it:   pokercert smoke --adapter "exec:{command}"')
    if warning:
        print(f"warning: {warning}", file=sys.stderr)
    print(
        "then replace the functions under YOUR EVALUATOR; smoke says EVALUATOR "
        "NON-COMPLIANT until they answer right"
    )
    return 0
