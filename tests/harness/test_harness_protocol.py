"""The protocol's published schemas, the harness's own messages, and adapter specs."""

from __future__ import annotations

import json
import shutil
import sys
from pathlib import Path

import pytest
from jsonschema import Draft202012Validator

from pokercert.harness.adapters import SpecError, parse_spec
from pokercert.harness.adapters.spec import shipped_adapters
from pokercert.harness.protocol import (
    SCHEMAS,
    ProtocolError,
    batch_request,
    check_item,
    check_many,
    configure_request,
    hand_answer,
    hello_request,
    negotiated,
    parse_batch_reply,
    parse_hello_reply,
    schema,
    stop_request,
    validate,
)
from pokercert.harness.scoring import request_for
from tests.helpers.harness_vectors import VECTORS

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize("name", sorted(SCHEMAS))
def test_every_schema_is_a_valid_json_schema(name):
    Draft202012Validator.check_schema(schema(name))


def test_the_harness_sends_only_what_the_schemas_allow():
    validate("hello-request", hello_request("1.0"))
    validate("configure-request", configure_request("nj-poker-high-5", {"suits-equal": "x"}))
    validate("stop-request", stop_request())
    msg = batch_request(3, list(enumerate(request_for(v) for v in VECTORS)))
    validate("batch-request", msg)
    # never an expectation, never a vector id
    text = json.dumps(msg)
    assert "expect" not in text and "nj-poker-high-5/" not in text and "royal" not in text


ITEMS = [  # (op, item)
    ("classify", {"id": 1, "category": "flush"}),
    ("classify", {"id": 1, "rejected": "bad-card", "message": "Zz"}),
    ("classify", {"id": 1, "rejected": None}),
    ("classify", {"id": 1, "error": "boom"}),
    ("classify", {"id": 1, "category": 3}),
    ("classify", {"id": 1}),
    ("classify", {"id": 1, "category": "flush", "error": "both"}),
    ("classify", {"id": 1, "rejected": 7}),
    ("compare", {"id": 1, "winners": [0, 1]}),
    ("compare", {"id": 1, "winners": "0"}),
    ("compare", {"id": 1, "winners": [True]}),
    ("compare", {"id": 1, "winners": [0], "category": "flush"}),
    ("best_hand", {"id": 1, "cards": "As Ks Qs", "category": "flush"}),
    ("best_hand", {"id": 1, "cards": ["As", "Ks"], "category": "flush"}),
    ("best_hand", {"id": 1, "category": "flush"}),
    ("showdown", {"id": 1, "high": [0], "low": [], "shares": ["1", "0"]}),
    ("showdown", {"id": 1, "high": [1], "low": [0, 1], "shares": ["1/4", "3/4"]}),
    ("showdown", {"id": 1, "high": [1], "low": None, "shares": ["0", "1"]}),
    ("showdown", {"id": 1, "high": [1], "low": [], "shares": [0, 1]}),
    ("showdown", {"id": 1, "high": [1], "low": [], "shares": ["0.5", "0.5"]}),
    ("showdown", {"id": 1, "high": [1], "low": [], "shares": ["1/0", "1"]}),
    ("showdown", {"id": 1, "high": [1], "shares": ["0", "1"]}),
    ("showdown", {"id": 1, "high": [True], "low": [], "shares": ["0", "1"]}),
    ("showdown", {"id": 1, "high": [1], "low": [], "shares": ["0", "1"], "winners": [1]}),
    ("qualifies", {"id": 1, "qualifies": True}),
    ("qualifies", {"id": 1, "qualifies": "yes"}),
    ("qualifies", {"id": 1, "qualifies": False, "category": "flush"}),
    ("qualifies", {"id": 1, "rejected": "bad-card"}),
]


def test_showdown_replies_are_checked_exactly():
    """A pot answer needs integer winner lists and shares written as exact fractions."""
    assert (
        check_item("showdown", {"id": 1, "high": [1], "low": [0, 1], "shares": ["1/4", "3/4"]})
        is None
    )
    assert check_item("showdown", {"id": 1, "high": [0], "low": [], "shares": ["1", "0"]}) is None
    for bad in (
        {"high": [1], "low": None, "shares": ["0", "1"]},
        {"high": [1], "low": [], "shares": [0, 1]},
        {"high": [1], "low": [], "shares": ["0.5", "0.5"]},
        {"high": [1], "low": [], "shares": ["1/0", "1"]},
        {"high": [True], "low": [], "shares": ["0", "1"]},
        {"high": [1], "low": [], "shares": ["0", "1"], "winners": [1]},
    ):
        assert check_item("showdown", bad), bad


@pytest.mark.parametrize("op, item", ITEMS)
def test_the_fast_reply_check_is_never_laxer_than_the_schema(op, item):
    schema_ok = not list(
        Draft202012Validator(schema("batch-reply")).iter_errors(
            {"type": "batch", "id": 0, "replies": [item]}
        )
    )
    fast_ok = check_item(op, item) is None
    assert fast_ok <= schema_ok  # whatever the harness accepts, the schema accepts


MANY = [  # (op, item) for a request of two hands
    ("classify_many", {"id": 1, "categories": ["flush", "straight"]}),
    ("classify_many", {"id": 1, "categories": ["flush", {"rejected": "bad-card"}]}),
    ("classify_many", {"id": 1, "categories": ["flush", {"rejected": None, "message": "x"}]}),
    ("classify_many", {"id": 1, "categories": ["flush", {"error": "boom"}]}),
    ("classify_many", {"id": 1, "categories": ["flush", {"error": "boom", "rejected": None}]}),
    ("classify_many", {"id": 1, "categories": ["flush", 3]}),
    ("classify_many", {"id": 1, "categories": ["flush"]}),
    ("classify_many", {"id": 1, "categories": "flush"}),
    ("classify_many", {"id": 1, "error": "boom"}),
    ("classify_many", {"id": 1, "categories": ["flush", "flush"], "category": "flush"}),
    ("evaluate_many", {"id": 1, "categories": ["flush", "straight"], "keys": [5, [1, 2]]}),
    ("evaluate_many", {"id": 1, "categories": ["flush", {"rejected": None}], "keys": [5, None]}),
    ("evaluate_many", {"id": 1, "categories": ["flush", "straight"], "keys": [5, "6"]}),
    ("evaluate_many", {"id": 1, "categories": ["flush", "straight"], "keys": [5, 1.5]}),
    ("evaluate_many", {"id": 1, "categories": ["flush", "straight"], "keys": [5]}),
    ("evaluate_many", {"id": 1, "categories": ["flush", "straight"]}),
]


@pytest.mark.parametrize("op, item", MANY)
def test_the_many_hands_checks_are_never_laxer_than_the_schema(op, item):
    schema_ok = not list(
        Draft202012Validator(schema("batch-reply")).iter_errors(
            {"type": "batch", "id": 0, "replies": [item]}
        )
    )
    whole = check_many(op, item, 2)
    entries = (
        []
        if whole or "error" in item
        else [
            hand_answer(c, k, op == "evaluate_many")[0]
            for c, k in zip(item["categories"], item.get("keys") or [None, None], strict=True)
        ]
    )
    fast_ok = whole is None and "error" not in item and "error" not in entries
    assert fast_ok <= schema_ok


def test_features_are_negotiated_by_name_and_version():
    assert negotiated({"features": {"classify_many": 1, "evaluate_many": 2, "x": 1}}) == {
        "classify_many"
    }
    assert negotiated({}) == set() and negotiated({"features": ["classify_many"]}) == set()
    validate("hello-request", hello_request("1.0"))  # announces them (schema allows)


def test_replies_to_earlier_batches_are_skipped_and_later_ones_refused():
    assert parse_batch_reply('{"type":"batch","id":3,"replies":[]}', 4) is None
    with pytest.raises(ProtocolError, match="batch 5"):
        parse_batch_reply('{"type":"batch","id":5,"replies":[]}', 4)
    with pytest.raises(ProtocolError, match="error"):
        parse_batch_reply('{"type":"error","message":"nope"}', 4)


def test_hello_replies_are_checked_against_the_schema():
    good = {
        "type": "hello",
        "protocol": 1,
        "adapter": {"name": "a", "version": "1"},
        "evaluator": {"vendor": "v", "name": "n", "version": "1"},
        "capabilities": {"nj-poker-high-5": ["classify"]},
    }
    assert parse_hello_reply(json.dumps(good))["evaluator"]["name"] == "n"
    with pytest.raises(ProtocolError, match="capabilities"):
        parse_hello_reply(json.dumps({**good, "capabilities": {"x": ["guess"]}}))
    with pytest.raises(ProtocolError, match="evaluator"):
        parse_hello_reply(json.dumps({k: v for k, v in good.items() if k != "evaluator"}))


@pytest.mark.parametrize(
    "text, kind, target",
    [
        ("reference", "name", "reference"),
        ("py:pkg.mod:Cls", "py", "pkg.mod:Cls"),
        ("pkg.mod:factory", "py", "pkg.mod:factory"),
        ("exec:node 'my dir/adapter.js' --fast", "exec", "node 'my dir/adapter.js' --fast"),
    ],
)
def test_spec_syntax(text, kind, target):
    spec = parse_spec(text)
    assert (spec.kind, spec.target) == (kind, target)
    if kind == "exec":
        assert spec.argv == ("node", "my dir/adapter.js", "--fast")


@pytest.mark.parametrize("text", ["exec:", "exec:node 'unclosed", "py:no-colon", "a b"])
def test_bad_specs_are_refused(text):
    with pytest.raises(SpecError):
        parse_spec(text)


def test_the_reference_is_a_shipped_adapter():
    assert shipped_adapters()["reference"] == "pokercert.harness.peers.reference:ReferenceEvaluator"


def test_the_python_serve_bridge_speaks_the_protocol(capsys):
    from pokercert.cli.main import main

    spec = f"exec:{sys.executable} -m pokercert.harness.adapters.serve reference"
    assert main(["smoke", "--adapter", spec, "--ruleset", "nj-mini-tex-3"]) == 0
    assert "ADAPTER OK" in capsys.readouterr().out


@pytest.mark.skipif(shutil.which("node") is None, reason="Node.js is not installed")
def test_protocol_doc_example_transcript_is_what_the_js_adapter_answers():
    """The worked example of PROTOCOL.md, replayed against the JavaScript adapter."""
    import subprocess

    doc = (ROOT / "harness" / "PROTOCOL.md").read_text()
    sent = [json.loads(line[3:]) for line in doc.splitlines() if line.startswith(">> ")]
    shown = [json.loads(line[3:]) for line in doc.splitlines() if line.startswith("<< ")]
    assert sent and shown
    proc = subprocess.run(
        ["node", str(ROOT / "examples" / "js-evaluator" / "adapter.js")],
        input="".join(json.dumps(m) + "\n" for m in sent),
        text=True,
        capture_output=True,
        timeout=30,
        check=True,
    )
    got = [json.loads(line) for line in proc.stdout.splitlines()]
    # the build digest changes with every edit of evaluator.js: compare it by shape only
    assert len(got[0]["evaluator"].pop("build")) == len(shown[0]["evaluator"].pop("build"))
    assert got == shown
    for msg in sent:
        validate(f"{msg['type']}-request", msg)
    names = {"hello": "hello-reply", "configure": "configure-reply", "batch": "batch-reply"}
    for msg in got:
        validate(names[msg["type"]], msg)
    assert len(sent) == len(got) + 1  # every message but stop is answered
