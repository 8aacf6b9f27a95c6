"""Issue 11, case 6: identity is what the harness measures, not only what the vendor says.

A faux exec: adapter (tests/helpers/faux/identity_adapter.py) is copied into tmp_path and run;
changing one byte of the copy, or letting its hello declare another build, must make
``verify --rerun`` fail and name what differs.  ``py:`` and named adapters are measured
by their installed distribution, each file checked against RECORD.  Every expected hash
here is computed by the test itself (hashlib over the file, or RECORD's own text).
"""

from __future__ import annotations

import base64
import hashlib
import json
import os
import shutil
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from pokercert.cli.main import main
from pokercert.harness.run.limits import Limits
from pokercert.harness.run.results import read_header
from pokercert.harness.run.runner import RunConfig, RunError, run
from pokercert.reports import write_default_reports
from pokercert.reports.verify import FAILED, OK, verify
from tests import helpers

FAUX = helpers.FAUX / "identity_adapter.py"
RULESET = "nj-poker-high-5"


def sha256(path: Path) -> str:
    return hashlib.sha256(Path(path).read_bytes()).hexdigest()


@pytest.fixture
def script(tmp_path: Path) -> Path:
    """A private copy of the faux adapter, free to be changed."""
    target = tmp_path / "vendor" / "adapter.py"
    target.parent.mkdir()
    shutil.copyfile(FAUX, target)
    return target


def exec_spec(script: Path, *extra: str) -> str:
    return " ".join(["exec:" + sys.executable, str(script), *extra])


def certify(spec: str, out: Path, corpus, **kwargs) -> Path:
    outcome = run(
        RunConfig(
            adapter=spec,
            out=out,
            rulesets=[RULESET],
            flags=["wheel"],
            command=["pokercert", "run"],
            **kwargs,
        ),
        corpus=corpus,
    )
    assert outcome.exit_code == 0, outcome.header.aborted
    write_default_reports(out)
    return out


def flip_one_byte(path: Path) -> None:
    data = bytearray(path.read_bytes())
    at = data.index(b"A faux")  # inside the docstring: behaviour stays the same
    data[at] = ord("a")
    path.write_bytes(bytes(data))


def rerun_check(report: Path, spec: str, allow: bool = False):
    options = {"allow_identity_change": True} if allow else {}
    return next(c for c in verify(report, rerun_spec=spec, **options) if c.name == "rerun")


# ----------------------------------------------------------------------------- exec:
def test_exec_identity_hashes_the_interpreter_and_the_script(tmp_path, script, corpus_once):
    out = certify(exec_spec(script), tmp_path / "run", corpus_once)
    measured = read_header(out).measured_identity
    files = {f["name"]: f for f in measured["files"]}
    interpreter = Path(os.path.realpath(sys.executable))
    assert files["executable"]["path"] == str(interpreter)
    assert files["executable"]["sha256"] == sha256(interpreter)
    assert files["argv[1]"]["path"] == str(script.resolve())
    assert files["argv[1]"]["sha256"] == sha256(script)
    assert measured["kind"] == "exec" and len(measured["digest"]) == 64
    assert measured["problems"] == []


def test_rerun_after_one_changed_byte_fails_naming_the_file(tmp_path, script, corpus_once):
    spec = exec_spec(script)
    out = certify(spec, tmp_path / "run", corpus_once)
    before = sha256(script)
    assert rerun_check(out / "report.json", spec).status == OK
    flip_one_byte(script)
    after = sha256(script)
    check = rerun_check(out / "report.json", spec)
    assert check.status == FAILED, check.detail
    assert str(script.resolve()) in check.detail
    assert before[:16] in check.detail and after[:16] in check.detail
    # and through the CLI: exit 1, NOT GENUINE
    assert main(["verify", str(out / "report.json"), "--rerun", spec]) == 1


def test_rerun_whose_hello_declares_another_build_fails(tmp_path, script, corpus_once):
    out = certify(exec_spec(script, "--build", "1"), tmp_path / "run", corpus_once)
    check = rerun_check(out / "report.json", exec_spec(script, "--build", "2"))
    assert check.status == FAILED, check.detail
    assert "declared build: '1' -> '2'" in check.detail


def test_allow_identity_change_passes_and_says_what_changed(tmp_path, script, corpus_once, capsys):
    spec = exec_spec(script)
    out = certify(spec, tmp_path / "run", corpus_once)
    flip_one_byte(script)
    check = rerun_check(out / "report.json", spec, allow=True)
    assert check.status == OK, check.detail
    assert "--allow-identity-change" in check.detail and "argv[1]" in check.detail
    capsys.readouterr()
    assert (
        main(
            [
                "verify",
                str(out / "report.json"),
                "--rerun",
                spec,
                "--allow-identity-change",
                "--json",
            ]
        )
        == 0
    )
    printed = json.loads(capsys.readouterr().out)
    rerun = next(c for c in printed["checks"] if c["name"] == "rerun")
    assert "identity change allowed" in rerun["detail"]
    # without --rerun the option means nothing: a usage error
    assert main(["verify", str(out / "report.json"), "--allow-identity-change"]) == 3


def test_resume_refuses_a_run_whose_measured_identity_changed(tmp_path, script, corpus_once):
    spec = exec_spec(script)
    out = certify(spec, tmp_path / "run", corpus_once)
    flip_one_byte(script)
    with pytest.raises(RunError, match=r"measured identity .* changed.*argv\[1\]"):
        run(
            RunConfig(
                adapter=spec,
                out=out,
                rulesets=[RULESET],
                flags=["wheel"],
                resume=True,
                command=["pokercert", "run"],
            ),
            corpus=corpus_once,
        )


def test_merge_refuses_shards_of_different_measured_software(tmp_path, script, corpus_once):
    spec = exec_spec(script)
    for k in (1, 2):
        if k == 2:
            flip_one_byte(script)  # shard 2 ran another build that declares the same
        run(
            RunConfig(
                adapter=spec,
                out=tmp_path / f"s{k}",
                rulesets=[RULESET],
                flags=["wheel"],
                shard=f"{k}/2",
                challenge_seed=1,
                command=["pokercert", "run"],
            ),
            corpus=corpus_once,
        )
    code = main(["merge", str(tmp_path / "merged"), str(tmp_path / "s1"), str(tmp_path / "s2")])
    assert code == 3


@pytest.mark.parametrize("when", ["0", "2"])  # at hello (before a naive measurement), batch 2
def test_adapter_rewriting_itself_after_launch_ends_the_run(tmp_path, script, corpus_once, when):
    # sandbox off: its read-only file system stops the rewrite itself (test_trust_sandbox);
    # this is the defence behind it, for a run without one
    outcome = run(
        RunConfig(
            adapter=exec_spec(script, "--rewrite-self-at", when),
            out=tmp_path / "run",
            rulesets=[RULESET],
            flags=["wheel"],
            limits=Limits(batch_size=4),
            command=["pokercert", "run"],
            sandbox=False,
        ),
        corpus=corpus_once,
    )
    assert outcome.exit_code == 2
    assert "changed during the run" in (outcome.header.aborted or "")
    assert "argv[1]" in outcome.header.aborted


def test_identity_files_are_hashed_file_by_file(tmp_path, script, corpus_once):
    tables = tmp_path / "vendor" / "tables"
    (tables / "sub").mkdir(parents=True)
    (tables / "b.bin").write_bytes(b"\x00\x01 ranks")
    (tables / "sub" / "a.bin").write_bytes(b"flushes")
    extra = tmp_path / "vendor" / "lib.so"
    extra.write_bytes(b"\x7fELF not really")
    out = certify(
        exec_spec(script), tmp_path / "run", corpus_once, identity_files=[str(extra), str(tables)]
    )
    measured = read_header(out).measured_identity
    files = {f["name"]: f for f in measured["files"] if f["role"] == "identity-file"}
    assert files[str(extra)]["sha256"] == sha256(extra)
    assert files[f"{tables}/b.bin"]["sha256"] == sha256(tables / "b.bin")
    assert files[f"{tables}/sub/a.bin"]["sha256"] == sha256(tables / "sub" / "a.bin")
    assert measured["identity_files"] == [str(extra), str(tables)]
    # the rerun measures the same files again: changing one is caught
    (tables / "sub" / "a.bin").write_bytes(b"flushes!")
    check = rerun_check(out / "report.json", exec_spec(script))
    assert check.status == FAILED and f"{tables}/sub/a.bin" in check.detail


def test_a_missing_identity_file_is_a_usage_error(tmp_path, script):
    code = main(
        [
            "run",
            "--adapter",
            exec_spec(script),
            "--ruleset",
            RULESET,
            "--flags",
            "wheel",
            "--out",
            str(tmp_path / "run"),
            "--identity-file",
            str(tmp_path / "nope"),
        ]
    )
    assert code == 3


def test_the_hello_manifest_is_hashed_by_the_harness(tmp_path, script, corpus_once):
    table = tmp_path / "vendor" / "table.dat"
    table.write_bytes(b"lookup table v1")
    out = certify(
        exec_spec(script, "--manifest", str(table), "--manifest", "relative.dat"),
        tmp_path / "run",
        corpus_once,
    )
    measured = read_header(out).measured_identity
    entry = next(f for f in measured["files"] if f["role"] == "manifest")
    assert entry["path"] == str(table.resolve()) and entry["sha256"] == sha256(table)
    assert any("relative.dat" in p and "absolute" in p for p in measured["problems"])


# ----------------------------------------------------------------------------- py:
def _record_hashes(dist_name: str) -> dict[str, str]:
    """RECORD path -> hex SHA-256, read from RECORD's own text."""
    from importlib.metadata import distribution

    out = {}
    for line in (distribution(dist_name).read_text("RECORD") or "").splitlines():
        path, digest, _ = line.rsplit(",", 2)
        if digest.startswith("sha256="):
            b64 = digest[7:]
            out[path] = base64.urlsafe_b64decode(b64 + "=" * (-len(b64) % 4)).hex()
    return out


def test_named_adapter_identity_holds_the_distribution_and_record(tmp_path, corpus_once):
    pytest.importorskip("treys")
    from importlib.metadata import distribution, version

    out = certify("treys", tmp_path / "run", corpus_once)
    measured = read_header(out).measured_identity
    assert measured["kind"] == "python"
    dist = next(d for d in measured["distributions"] if d["name"] == "treys")
    assert dist["version"] == version("treys")
    assert dist["modified"] == [] and dist["missing"] == []
    files = {f["name"]: f for f in measured["files"]}
    record = _record_hashes("treys")
    assert "treys/evaluator.py" in record
    for path, digest in record.items():
        entry = files[f"treys:{path}"]
        assert entry["sha256"] == digest, path
        assert entry["sha256"] == sha256(Path(distribution("treys").locate_file(path)))
    # RECORD itself has no hash in RECORD: the harness hashed it
    record_file = next(n for n in files if n.startswith("treys:") and n.endswith("/RECORD"))
    assert files[record_file]["sha256"] is not None


def _fake_distribution(root: Path, tampered: bool) -> None:
    """An installed distribution ``acmeeval`` in ``root`` (a site-packages of its own)."""
    pkg = root / "acmeeval"
    pkg.mkdir(parents=True)
    source = b"class AcmeEvaluator:\n    pass\n"
    (pkg / "__init__.py").write_bytes(source)
    info = root / "acmeeval-4.2.dist-info"
    info.mkdir()
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: acmeeval\nVersion: 4.2\n")
    (info / "top_level.txt").write_text("acmeeval\n")
    digest = base64.urlsafe_b64encode(hashlib.sha256(source).digest()).rstrip(b"=").decode()
    (info / "RECORD").write_text(
        f"acmeeval/__init__.py,sha256={digest},{len(source)}\n"
        "acmeeval-4.2.dist-info/METADATA,,\n"
        "acmeeval-4.2.dist-info/RECORD,,\n"
    )
    if tampered:
        (pkg / "__init__.py").write_bytes(source.replace(b"pass", b"...."))


@pytest.mark.parametrize("tampered", [False, True])
def test_a_file_that_differs_from_record_is_reported_modified(tmp_path, monkeypatch, tampered):
    from pokercert.harness.identity import MODIFIED, PYTHON, measure

    _fake_distribution(tmp_path / "site", tampered)
    monkeypatch.syspath_prepend(str(tmp_path / "site"))
    measured = measure(PYTHON, "acmeeval")
    dist = next(d for d in measured["distributions"] if d["name"] == "acmeeval")
    entry = next(f for f in measured["files"] if f["name"] == "acmeeval:acmeeval/__init__.py")
    assert dist["version"] == "4.2"
    assert entry["sha256"] == sha256(tmp_path / "site" / "acmeeval" / "__init__.py")
    if tampered:
        assert entry["status"] == MODIFIED and dist["modified"] == [entry["name"]]
        assert any("differ from the hash in RECORD" in p for p in measured["problems"])
    else:
        assert entry["status"] == "ok" and dist["modified"] == [] and not measured["problems"]


def test_a_module_in_no_distribution_is_measured_by_its_files(tmp_path, monkeypatch):
    from pokercert.harness.identity import PYTHON, measure

    pkg = tmp_path / "loose" / "looseeval"
    (pkg / "core").mkdir(parents=True)
    (pkg / "__init__.py").write_text("from looseeval.core import rank\n")
    (pkg / "core" / "__init__.py").write_text("def rank(hand):\n    return 0\n")
    (pkg / "notes.txt").write_text("not code")
    monkeypatch.syspath_prepend(str(tmp_path / "loose"))
    measured = measure(PYTHON, "looseeval")
    files = {f["name"]: f["sha256"] for f in measured["files"]}
    assert files == {
        "looseeval/__init__.py": sha256(pkg / "__init__.py"),
        "looseeval/core/__init__.py": sha256(pkg / "core" / "__init__.py"),
    }
    assert "looseeval" not in sys.modules  # measured without importing vendor code


# ----------------------------------------------------------------------------- reports
def test_every_report_format_shows_declared_and_measured_identity(tmp_path, script, corpus_once):
    out = certify(exec_spec(script, "--build", "b7"), tmp_path / "run", corpus_once)
    digest = read_header(out).measured_identity["digest"]
    report = json.loads((out / "report.json").read_bytes())
    ident = report["identification"]
    assert ident["measured_identity"]["digest"] == digest
    assert ident["evaluator"]["build"] == "b7"
    script_hash = sha256(script)
    for name in ("report.md", "report.html"):
        text = (out / name).read_text(encoding="utf-8")
        assert "declared by the vendor" in text and "measured by the harness" in text, name
        assert digest in text and script_hash in text, name
    root = ET.fromstring((out / "report.junit.xml").read_bytes())
    props = {p.get("name"): p.get("value") for p in root.iter("property")}
    assert props["measured_identity_sha256"] == digest
    assert "build b7" in props["evaluator_declared_by_vendor"]
    assert digest in props["identity_measured_by_harness"]
