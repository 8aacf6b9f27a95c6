"""The new-adapter skeletons on hostile input (hostile30): a line that is no protocol
message gets an error line and the adapter goes on answering; nothing crashes it, and the
C skeleton's JSON reader never reads or writes past a line's end (built with
AddressSanitizer and UndefinedBehaviorSanitizer when the compiler has them)."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from pokercert.cli.main import main

HELLO = b'{"type":"hello","features":{}}\n'
# each line ends the input as it stands (a truncated last line has no newline), and is
# followed by a hello the adapter must still answer
HOSTILE = [
    b'{"a":"\\u',  # an escape cut off at the end of the input
    b'{"a":"\\',  # a backslash ending the input
    b'{"a":"\\ud800\\u0041"}\n',  # a high surrogate with no low one
    b'[{"a"',  # an object key cut off before its colon
    b"null\n",
    b"[1,2]\n",
    b'"x"\n',
    b"\n",
    b"\xff\xfe\n",
    b"[" * 5000 + b"\n",
    b'{"type":"hello","features":"x"}\n',
    b'{"type":"batch","id":1,"requests":5}\n',
    b'{"type":"batch","id":1,"requests":[5,null,[],{"op":5},{"id":1,"op":"classify",'
    b'"hand":5},{"id":2,"op":"compare","hands":"As"},{"id":3,"op":"classify_many",'
    b'"hands":[null,7]}]}\n',
    b'{"type":"batch","id":1,"requests":[{"id":1,"op":"classify","hand":"'
    + b"As " * 40000
    + b'Ks"}]}\n',
]


def _built(tmp_path: Path, lang: str) -> list[str]:
    """The skeleton of ``lang`` for nj-omaha-hi-lo (a board, two halves), ready to run."""
    out = tmp_path / lang
    assert main(["new-adapter", "--lang", lang, "--ruleset", "nj-omaha-hi-lo", str(out)]) == 0
    if lang == "python":
        return [sys.executable, str(out / "adapter.py")]
    if lang == "node":
        if shutil.which("node") is None:
            pytest.skip("node is not installed")
        return ["node", str(out / "adapter.js")]
    cc = shutil.which("cc") or shutil.which("gcc")
    if cc is None:
        pytest.skip("no C compiler")
    binary = out / "adapter"
    sanitized = [
        cc,
        "-g",
        "-O1",
        "-std=c99",
        "-fsanitize=address,undefined",
        "-fno-sanitize-recover=all",
        "-fno-omit-frame-pointer",
    ]
    done = subprocess.run(
        [*sanitized, "-o", str(binary), str(out / "adapter.c")],
        capture_output=True,
        text=True,
        check=False,
    )
    if done.returncode != 0:  # no sanitizer runtime here: the plain build still runs
        subprocess.run(
            [cc, "-O2", "-std=c99", "-o", str(binary), str(out / "adapter.c")], check=True
        )
    return [str(binary)]


@pytest.mark.parametrize("lang", ["python", "node", "c"])
def test_hostile_lines_get_an_error_and_the_adapter_answers_on(tmp_path, lang):
    command = _built(tmp_path, lang)
    for i, line in enumerate(HOSTILE):
        ends = line if line.endswith(b"\n") else line + b"\n"  # the hello on a line of its own
        done = subprocess.run(
            command,
            input=(line if line.endswith(b"\n") else ends) + HELLO,
            capture_output=True,
            timeout=60,
            check=False,
        )
        stderr = done.stderr.decode(errors="replace")
        assert done.returncode == 0, (i, line[:60], stderr[-1500:])
        assert "Sanitizer" not in stderr and "runtime error" not in stderr, (i, stderr[-1500:])
        replies = [json.loads(x) for x in done.stdout.decode().splitlines()]
        assert replies and replies[-1]["type"] == "hello", (i, line[:60], replies[-2:])
        if len(replies) > 1:  # what the hostile line got: an error, or a batch of items
            assert replies[0]["type"] in ("error", "batch", "hello"), (i, replies[0])


def test_a_truncated_escape_at_the_very_end_of_input_is_an_error_in_c(tmp_path):
    """The line exactly as the input ends (no newline, nothing after): the reader hit
    the string's end inside an escape and read on past it."""
    command = _built(tmp_path, "c")
    for line in (b'{"a":"\\u', b'{"a":"\\', b'{"a":"\\u12'):
        done = subprocess.run(command, input=line, capture_output=True, timeout=60, check=False)
        stderr = done.stderr.decode(errors="replace")
        assert done.returncode == 0 and "Sanitizer" not in stderr, stderr[-1500:]
        assert json.loads(done.stdout.decode())["type"] == "error"
