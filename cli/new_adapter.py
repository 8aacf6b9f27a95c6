"""``pokercert new-adapter``: write a skeleton adapter a vendor starts from.

The skeleton (Python, Node.js or C; templates in ``cli/templates/new_adapter/``, each
``{{NAME}}`` filled in from the ruleset by :func:`render`) speaks
the whole protocol of harness/PROTOCOL.md and validates input as its section 3 says,
around a stub evaluator: ``pokercert smoke`` on it says EVALUATOR NON-COMPLIANT (exit 1),
never ADAPTER BROKEN, so a vendor replaces the stub and keeps a working protocol layer.
"""

from __future__ import annotations

import argparse
import json
from importlib import resources
from pathlib import Path

from pokercert.cli.options import Subparsers, UsageError, out_folder
from pokercert.reference import get_ruleset
from pokercert.vectors.model import Kind

# language -> (template file, file written, how to run it: the spec's command line)
LANGUAGES = {
    "python": ("adapter.py.tmpl", "adapter.py", "python3 {path}"),
    "node": ("adapter.js.tmpl", "adapter.js", "node {path}"),
    "c": ("adapter.c.tmpl", "adapter.c", "{folder}/adapter"),
}
BUILD = {"c": "cc -O2 -std=c99 -o {folder}/adapter {path}"}


def register(sub: Subparsers) -> None:
    p = sub.add_parser("new-adapter",
                       description="Write a working skeleton adapter in OUT: the protocol "
                       "loop, input validation with the reason codes of PROTOCOL.md section "
                       "3, and a stub evaluator to replace (smoke says EVALUATOR "
                       "NON-COMPLIANT until then). Exit 3 if OUT holds the file already.")
    p.add_argument("out", type=Path, metavar="OUT", help="folder to write the adapter in")
    p.add_argument("--lang", choices=sorted(LANGUAGES), required=True)
    p.add_argument("--ruleset", metavar="ID", default="nj-poker-high-5",
                   help="the ruleset the skeleton claims (default: %(default)s)")
    p.set_defaults(func=cmd_new_adapter)


def render(lang: str, ruleset_id: str, path: Path) -> str:
    """The skeleton's source for ``lang`` and the ruleset, to be written at ``path``."""
    rs = get_ruleset(ruleset_id)
    kinds = [Kind.CLASSIFY.value, Kind.COMPARE.value, Kind.REJECT.value]
    if rs.selection is not None:
        kinds.insert(2, Kind.BEST_HAND.value)
    template = resources.files("pokercert.cli") / "templates" / "new_adapter" / lang / \
        LANGUAGES[lang][0]
    values = {
        "RULESET": rs.id, "HAND_SIZE": str(rs.hand_size),
        "HOLE": str(rs.selection.hole if rs.selection else 0),
        "BOARD": str(rs.selection.board if rs.selection else 0),
        "JOKERS": str(rs.jokers), "KINDS": json.dumps(kinds),
        "C_KINDS": json.dumps(json.dumps(kinds, separators=(",", ":"))),
        "WORST": rs.category_names[-1], "FILE": str(path),
    }
    text = template.read_text(encoding="utf-8")
    for name, value in values.items():
        text = text.replace("{{" + name + "}}", value)
    return text


def cmd_new_adapter(args: argparse.Namespace) -> int:
    get_ruleset(args.ruleset)          # an unknown id: a usage error before writing
    folder = out_folder(args.out, option="OUT")
    name = LANGUAGES[args.lang][1]
    path = folder / name
    if path.exists():
        raise UsageError(f"OUT {args.out}: {name} exists already; choose another folder")
    folder.mkdir(parents=True, exist_ok=True)
    path.write_text(render(args.lang, args.ruleset, path.resolve()), encoding="utf-8")
    path.chmod(0o755)
    where = {"path": path.resolve(), "folder": folder.resolve()}
    print(f"wrote {path} ({args.lang}, claims {args.ruleset}; the evaluator is a stub)")
    if args.lang in BUILD:
        print(f"build it:   {BUILD[args.lang].format(**where)}")
    command = LANGUAGES[args.lang][2].format(**where)
    print(f'check it:   pokercert smoke --adapter "exec:{command}"')
    print("then replace the functions under YOUR EVALUATOR; smoke says EVALUATOR "
          "NON-COMPLIANT until they answer right")
    return 0
