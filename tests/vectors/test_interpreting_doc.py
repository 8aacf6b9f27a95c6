"""INTERPRETING.md is generated from the data; it must never drift from it."""

from pathlib import Path

from pokercert.cli.main import main
from pokercert.reference import all_regulations, catalogue
from pokercert.vectors.interpreting import interpretations_markdown, open_questions

ROOT = Path(__file__).resolve().parents[2]


def test_interpreting_md_is_up_to_date():
    committed = (ROOT / "INTERPRETING.md").read_text(encoding="utf-8")
    assert committed == interpretations_markdown(), (
        "INTERPRETING.md is stale: run `pokercert interpretations --markdown > INTERPRETING.md`"
    )


def test_every_interpretation_with_divergent_readings_names_its_vectors():
    doc = interpretations_markdown()
    for iid in catalogue():
        assert f"## `{iid}`" in doc


def test_open_questions_quote_existing_clauses_and_vectors():
    from pokercert.vectors.corpus import load_corpus

    labels = {c.label for reg in all_regulations() for c in reg.clauses}
    ids = set(load_corpus().by_id)
    for q in open_questions():
        assert set(q["clauses"]) <= labels, q
        assert set(q.get("vectors", [])) <= ids, q


def test_interpretations_json(capsys):
    import json

    assert main(["interpretations", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)["interpretations"]
    assert {i["id"] for i in data} == set(catalogue())
    tiebreak = next(i for i in data if i["id"] == "identical-rank-tiebreak")
    assert tiebreak["readings"]["literal"]["sets"] == {"tiebreak": "card_by_card"}
    assert tiebreak["vectors"], "the literal tie-break reading must have vectors"
