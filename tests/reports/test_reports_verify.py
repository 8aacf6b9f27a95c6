"""verify: any changed byte of a report (or of a view) is caught; signatures hold or fail."""

from __future__ import annotations

import importlib.util
import json
import random
import shutil
import stat
from pathlib import Path

import pytest

from pokercert.cli.main import main
from pokercert.harness.run.results import write_header
from pokercert.reports.canonical import canonical_bytes, compute_digest
from pokercert.reports.output import load, write_default_reports
from pokercert.reports.signing import keygen
from pokercert.reports.verify import (
    FAILED,
    OK,
    SKIPPED,
    conclude,
    passed,
    verify,
    verify_bytes,
    verify_report,
)
from tests.helpers.reports_fixtures import H3_ROYAL, PASSING, header, make_runs, write_run

HAS_CRYPTOGRAPHY = importlib.util.find_spec("cryptography") is not None
needs_cryptography = pytest.mark.skipif(
    not HAS_CRYPTOGRAPHY, reason="signing needs the 'cryptography' package (pokercert[sign])"
)


@pytest.fixture(scope="module")
def keys(tmp_path_factory):
    if not HAS_CRYPTOGRAPHY:
        pytest.skip("signing needs the 'cryptography' package (pokercert[sign])")
    folder = tmp_path_factory.mktemp("keys")
    return keygen(folder / "lab.pem"), keygen(folder / "other.pem")


@pytest.fixture
def reported(tmp_path):
    """The failing fixture run with its default report set."""
    folder = make_runs(tmp_path)["failing"]
    write_default_reports(folder)
    return folder


@pytest.fixture
def signed(tmp_path, keys):
    """The failing fixture run with its default report set, the JSON signed."""
    (private, _), _ = keys
    folder = make_runs(tmp_path)["failing"]
    write_default_reports(folder, sign_key=private)
    return folder


def statuses(checks):
    return {c.name: c.status for c in checks}


def test_a_genuine_report_and_each_view_verify(reported):
    for name in ("report.json", "report.md", "report.html", "report.junit.xml"):
        checks = verify(reported / name)
        assert passed(checks), (name, checks)
    assert statuses(verify(reported / "report.html"))["view"] == OK


def test_the_corpus_is_checked_against_the_release_registry_not_the_installed_files(tmp_path):
    """The fixtures' corpus is the published 1.11.0 (its digest from MANIFEST.json of
    release commit 86193ac): ok.  The same run on a corpus with other files under the same
    version name is reported as modified, the verdict NOT CERTIFIED, and verify names it
    while the report stays genuine (it tells the truth)."""
    published = make_runs(tmp_path / "ok")["passing"]
    write_default_reports(published)
    checks = verify(published / "report.json")
    assert statuses(checks)["corpus"] == OK and passed(checks)
    folder = write_run(tmp_path / "edited", PASSING, corpus=("1.11.0", "e" * 64))
    write_default_reports(folder)
    checks, report = verify_report(folder / "report.json")
    corpus = next(c for c in checks if c.name == "corpus")
    assert corpus.status == FAILED
    assert corpus.detail.startswith(
        "modified corpus (digest eeeeeeeeeeeeeeee; 1.11.0 is f5307c856701da85)"
    )
    found = conclude(checks, report)
    assert (found.genuine, found.verdict, found.exit_code) == (True, "NOT CERTIFIED", 1)
    assert found.words == (
        "GENUINE: NOT CERTIFIED (modified corpus (digest eeeeeeeeeeeeeeee; "
        "1.11.0 is f5307c856701da85))"
    )


def test_every_single_byte_change_is_caught(tmp_path):
    """Exhaustive over a small report (one ruleset, one vector): change each byte in turn."""
    folder = write_run(tmp_path, [H3_ROYAL])
    write_header(folder, header([H3_ROYAL.vector_id], rulesets=[H3_ROYAL.ruleset]))
    raw = canonical_bytes(load(folder))
    assert passed(verify_bytes(raw)[1])
    for i in range(len(raw)):
        tampered = raw[:i] + bytes([raw[i] ^ 0x01]) + raw[i + 1 :]
        assert not passed(verify_bytes(tampered)[1]), (i, raw[i : i + 20])


def test_inserted_deleted_and_reordered_bytes_are_caught(reported):
    raw = (reported / "report.json").read_bytes()
    rng = random.Random(5)
    for i in rng.sample(range(len(raw)), 100):
        assert not passed(verify_bytes(raw[:i] + raw[i + 1 :])[1])
        assert not passed(verify_bytes(raw[:i] + b" " + raw[i:])[1])
    # same content, other layout: not the canonical bytes
    report = json.loads(raw)
    assert not passed(verify_bytes(json.dumps(report, sort_keys=True).encode())[1])


def test_an_edited_and_resealed_report_passes_the_digest_but_not_the_signature(signed, keys):
    (_, public), _ = keys
    path = signed / "report.json"
    report = json.loads(path.read_bytes())
    report["verdict"], report["exit_code"] = "CERTIFIED", 0
    report["digest"] = compute_digest(report)
    path.write_bytes(canonical_bytes(report))
    checks = statuses(verify(path, key=public))
    assert checks["digest"] == OK  # anyone can recompute a digest...
    assert checks["signature"] == FAILED  # ...only the lab's key signs


def test_signature_holds_with_the_right_key_only(signed, keys):
    (_, public), (_, other_public) = keys
    assert statuses(verify(signed / "report.json", key=public))["signature"] == OK
    assert statuses(verify(signed / "report.html", key=public))["signature"] == OK
    assert statuses(verify(signed / "report.json", key=other_public))["signature"] == FAILED
    (signed / "report.json.sig").unlink()
    assert statuses(verify(signed / "report.json", key=public))["signature"] == FAILED


def test_signing_is_deterministic(signed, keys, tmp_path):
    (private, _), _ = keys
    again = tmp_path / "again"
    shutil.copytree(signed, again)
    write_default_reports(again, sign_key=private)
    for name in ("report.json", "report.json.sig", "report.md", "report.html", "report.junit.xml"):
        assert (again / name).read_bytes() == (signed / name).read_bytes(), name


def test_private_key_is_private_and_never_overwritten(keys):
    (private, public), _ = keys
    assert stat.S_IMODE(private.stat().st_mode) == 0o600
    assert b"PUBLIC KEY" in public.read_bytes()
    with pytest.raises(Exception, match="exists"):
        keygen(private)


@pytest.mark.parametrize("name", ["report.md", "report.html", "report.junit.xml"])
def test_a_changed_view_is_caught(reported, name):
    path = reported / name
    raw = path.read_bytes()
    for i in random.Random(name).sample(range(len(raw)), 15):
        path.write_bytes(raw[:i] + bytes([raw[i] ^ 0x01]) + raw[i + 1 :])
        assert statuses(verify(path))["view"] == FAILED


def test_a_view_is_not_trusted_when_its_json_was_edited(reported):
    json_path = reported / "report.json"
    json_path.write_bytes(json_path.read_bytes().replace(b'"NOT CERTIFIED"', b'"CERTIFIED"', 1))
    checks = statuses(verify(reported / "report.html"))
    assert checks["digest"] == FAILED and checks["view"] == SKIPPED


def test_cli_verify_exit_codes_and_json(signed, keys, capsys):
    """A genuine report of a failing run is GENUINE: NOT CERTIFIED and exits 1, as
    `pokercert report` does for it (before issue 26: VERIFIED, exit 0); a changed byte
    makes it NOT GENUINE, exit 1, naming the check."""
    (_, public), _ = keys
    assert main(["verify", str(signed / "report.json"), "--key", str(public), "--json"]) == 1
    out = json.loads(capsys.readouterr().out)
    assert (out["genuine"], out["verdict"], out["outcome"], out["exit_code"]) == (
        True,
        "NOT CERTIFIED",
        "GENUINE: NOT CERTIFIED",
        1,
    )
    assert [c["name"] for c in out["checks"]] == [
        "canonical",
        "digest",
        "schema",
        "consistent",
        "corpus",
        "signature",
    ]
    report = signed / "report.json"
    report.write_bytes(report.read_bytes().replace(b"acme-fives", b"acme-fivez", 1))
    assert main(["verify", str(report)]) == 1
    assert (
        capsys.readouterr()
        .out.rstrip()
        .splitlines()[-1]
        .startswith(f"{report}: NOT GENUINE: digest: recorded 'sha256:")
    )


@pytest.mark.parametrize(
    ("run", "code", "words"),
    [
        ("passing", 0, "GENUINE: CERTIFIED"),
        ("failing", 1, "GENUINE: NOT CERTIFIED"),
        ("incomplete", 2, "GENUINE: INCOMPLETE"),
    ],
)
def test_cli_verify_says_genuine_and_the_verdict_apart(tmp_path, capsys, run, code, words):
    folder = make_runs(tmp_path)[run]
    write_default_reports(folder)
    assert main(["verify", str(folder / "report.json")]) == code
    assert capsys.readouterr().out.rstrip().splitlines()[-1] == f"{folder / 'report.json'}: {words}"


@needs_cryptography
def test_cli_keygen_then_sign_then_verify(tmp_path, capsys):
    key = tmp_path / "k" / "lab.pem"
    assert main(["keygen", "--out", str(key)]) == 0
    folder = write_run(tmp_path / "run", PASSING)
    assert main(["report", str(folder), "--sign", str(key)]) == 0
    assert (folder / "report.json.sig").is_file()
    assert main(["verify", str(folder / "report.md"), "--key", f"{key}.pub"]) == 0
    assert main(["keygen", "--out", str(key)]) == 3  # refuses to overwrite
    capsys.readouterr()


def test_load_refuses_a_tampered_json_report(reported, capsys):
    path = reported / "report.json"
    path.write_bytes(path.read_bytes().replace(b"h5-wheel-001", b"h5-wheel-002", 1))
    assert main(["report", str(path), "--format", "markdown"]) == 1  # refused
    assert "not a genuine report" in capsys.readouterr().err


def test_cli_verify_of_a_view_without_its_json(tmp_path, reported, capsys):
    lone = tmp_path / "lone"
    lone.mkdir()
    shutil.copy(reported / "report.md", lone / "report.md")
    assert main(["verify", str(lone / "report.md")]) == 3
    assert "--report-json" in capsys.readouterr().err
    assert (
        main(["verify", str(lone / "report.md"), "--report-json", str(reported / "report.json")])
        == 1
    )  # the failing run: genuine
    assert capsys.readouterr().out.rstrip().endswith(": GENUINE: NOT CERTIFIED")


def test_rerun_is_skipped_for_a_report_that_is_not_genuine(reported):
    path = reported / "report.json"
    path.write_bytes(path.read_bytes() + b"\n")
    assert statuses(verify(path, rerun_spec="reference"))["rerun"] == SKIPPED


def test_verify_bytes_survives_json_a_report_cannot_hold():
    assert not passed(verify_bytes(b'{"digest": NaN}')[1])
    assert not passed(verify_bytes(b"[1, 2]")[1])
    assert not passed(verify_bytes(b"\xff\xfe")[1])


def test_default_report_files(tmp_path):
    folder = write_run(tmp_path, PASSING)
    paths = write_default_reports(folder)
    assert [p.name for p in paths] == [
        "report.json",
        "report.md",
        "report.html",
        "report.junit.xml",
    ]
    assert all(isinstance(p, Path) and p.parent == folder for p in paths)
