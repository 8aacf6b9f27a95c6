"""The site's pages, rendered from the Jinja2 templates in ``templates/``.

Autoescaping is on for every template, and every value a page prints is shown printable
(:func:`pokercert.reports.text.printable`) before it is escaped, so a vendor's name, an
adapter's stderr or a message holding ``<script>`` is text on every page.  Cards are
drawn by :mod:`pokercert.reports.cards_html` and findings read by
:mod:`pokercert.reports.plain`, as in the HTML report.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from functools import cache
from typing import Any

import jinja2
from markupsafe import Markup, escape

from pokercert.harness.run.results import Outcome
from pokercert.reference.interpretations import get_interpretation
from pokercert.reference.rulesets import Ruleset
from pokercert.reports import plain
from pokercert.reports import text as T
from pokercert.reports import verdict as V
from pokercert.reports.cards_html import answer_html, cut, hand_html
from pokercert.reports.site.data import Site, SiteEvaluator, clause_slug, example_hand
from pokercert.vectors.model import Vector

NOT_RUN = "not run"
NOT_CLAIMED = "not claimed"


def _shown(value: Any) -> Any:
    """Every printed value: text cut to its head and tail when huge and made printable
    (our own markup passes as it is)."""
    if isinstance(value, Markup) or not isinstance(value, str):
        return value
    return T.printable(cut(value))


@cache
def environment() -> jinja2.Environment:
    """The one Jinja2 environment: package templates, autoescaping on, undefined names
    an error (a template typo fails the build, not a page silently)."""
    env = jinja2.Environment(
        loader=jinja2.PackageLoader("pokercert.reports.site", "templates"),
        autoescape=True,
        undefined=jinja2.StrictUndefined,
        finalize=_shown,
        trim_blocks=True,
        lstrip_blocks=True,
        keep_trailing_newline=True,
    )
    env.filters["cards"] = lambda v: Markup(hand_html(v))
    env.filters["answer"] = lambda d: Markup(answer_html(None if d is None else dict(d)))
    env.filters["plain"] = plain.plain_reading
    env.filters["slug"] = lambda word: str(word).lower().replace(" ", "-")
    return env


def render(template: str, **context: Any) -> str:
    """One page: ``template`` with ``context``."""
    return environment().get_template(template).render(**context)


def cell_state(
    ev: SiteEvaluator, rid: str, corpus_ids: frozenset[str] | None = None
) -> dict[str, Any]:
    """A matrix cell: the verdict word, its counts, and whether it has a page.  Given the
    ids of the ruleset's corpus vectors, a run that has outcomes for fewer of them says
    how few (a verdict on 1 of 535 vectors is not the ruleset's)."""
    entry = ev.ruleset(rid)
    if entry is None:
        return {"word": NOT_RUN, "counts": "", "page": False}
    if entry["verdict"] == V.NOT_APPLICABLE:
        return {"word": NOT_CLAIMED, "counts": "", "page": False}
    counts = entry["counts"]
    run = sum(n for o, n in counts.items() if o != Outcome.NOT_APPLICABLE)
    text = f"{counts[Outcome.PASS]}/{run} passed"
    if corpus_ids:
        ran = len(corpus_ids.intersection(ev.outcomes))
        if ran < len(corpus_ids):
            text += f"; only {ran} of the corpus's {len(corpus_ids)} vectors"
    return {"word": entry["verdict"], "counts": text, "page": True}


def home(site: Site) -> str:
    """index.html: jurisdictions and rulesets with coverage, and the matrix."""
    rows = []
    for rs in site.rulesets:
        vectors = site.by_ruleset.get(rs.id, [])
        ids = frozenset(v.id for v in vectors)
        rows.append(
            {
                "rs": rs,
                "vectors": len(vectors),
                "cells": [cell_state(ev, rs.id, ids) for ev in site.evaluators],
            }
        )
    jurisdictions = sorted({rs.regulation.jurisdiction for rs in site.rulesets})
    return render(
        "index.html",
        root="",
        title="pokercert conformance",
        rows=rows,
        jurisdictions=jurisdictions,
        evaluators=site.evaluators,
        corpus=site.corpus,
        confidence=plain.CONFIDENCE_WORDS,
    )


def _expectations(v: Vector) -> list[tuple[str, Mapping[str, Any]]]:
    if v.expect_by_reading is not None:
        (iid,) = v.interpretations
        return [(f"{iid}={name}", e) for name, e in v.expect_by_reading.items()]
    return [("", v.expect or {})]


def _differing(vectors: Sequence[Vector], iid: str) -> list[Vector]:
    return [v for v in vectors if v.expect_by_reading is not None and iid in v.interpretations]


def ruleset_page(site: Site, rs: Ruleset) -> str:
    """rulesets/ID/index.html: categories with examples, clauses, interpretations,
    the dealer qualifier and the source."""
    vectors = site.by_ruleset.get(rs.id, [])
    categories = [{"c": c, "example": example_hand(vectors, c.name)} for c in rs.categories]
    clauses = [
        {
            "c": c,
            "page": clause_slug(i, c.label),
            "vectors": len(site.clause_vectors(rs.id, c.label)),
        }
        for i, c in enumerate(rs.clauses, 1)
    ]
    interpretations = []
    for iid in rs.interpretations:
        changed = _differing(vectors, iid)
        interpretations.append(
            {"i": get_interpretation(iid), "changed": changed[:5], "count": len(changed)}
        )
    return render(
        "ruleset.html",
        root="../../",
        title=f"{rs.id}: {rs.title}",
        rs=rs,
        categories=categories,
        clauses=clauses,
        interpretations=interpretations,
        expectations=_expectations,
        confidence=plain.CONFIDENCE_WORDS,
        vectors=len(vectors),
    )


def clause_page(site: Site, rs: Ruleset, index: int) -> str:
    """rulesets/ID/clause-NN-LABEL.html: every vector tagged with the clause, and each
    evaluator's outcome on it."""
    clause = rs.clauses[index - 1]
    vectors = site.clause_vectors(rs.id, clause.label)
    rows = [
        {"v": v, "drawn": _drawn(site, v), "outcomes": [_outcome(ev, v) for ev in site.evaluators]}
        for v in vectors
    ]
    return render(
        "clause.html",
        root="../../",
        title=f"{rs.id} {clause.label}",
        rs=rs,
        clause=clause,
        rows=rows,
        evaluators=site.evaluators,
    )


def _drawn(site: Site, v: Vector) -> tuple[Markup, list[tuple[str, Markup]]]:
    """A vector's inputs and expected answers (per reading) as HTML, drawn once."""
    found = site.drawn.get(v.id)
    if found is None:
        found = site.drawn[v.id] = (
            Markup(answer_html(dict(v.inputs))),
            [(reading, Markup(answer_html(dict(e)))) for reading, e in _expectations(v)],
        )
    return found


def badge(word: str) -> Markup:
    """An outcome or verdict word as a badge (the macro of the same name, for loops that
    draw tens of thousands: a Jinja2 macro call costs more than the rest of a row)."""
    shown = escape(word)
    slug = escape(str(word).lower().replace(" ", "-"))
    return Markup(f'<span class="badge b-{slug} b-{shown}">{shown}</span>')


def _outcome(ev: SiteEvaluator, v: Vector) -> Markup:
    """An evaluator's outcome on a vector: a badge, linked to the finding if it is one."""
    word = ev.outcomes.get(v.id, NOT_RUN)
    if word in (Outcome.PASS, Outcome.NOT_APPLICABLE, NOT_RUN):
        return badge(word)
    link = escape(f"../../evaluators/{ev.key}/{v.ruleset}.html#v-{v.id}")
    return Markup(f'<a href="{link}">{badge(word)}</a>')


def replay(ev: SiteEvaluator, rid: str, finding: Mapping[str, Any]) -> str:
    """The command that runs a finding's ruleset again against the same adapter (with the
    run's challenge seed for a challenge vector): the report's own
    :func:`~pokercert.reports.text.finding_replay`."""
    return T.finding_replay(dict(ev.report), {**finding, "ruleset": rid})


def cell_page(site: Site, ev: SiteEvaluator, rs: Ruleset) -> str:
    """evaluators/eN/ID.html: what failed, grouped by clause, each with its plain
    reading and the replay command."""
    groups: dict[str, list[dict[str, Any]]] = {}
    for f in plain.grouped_findings(ev.failures(rs.id)):
        label = f["clauses"][0]["label"] if f["clauses"] else "(no clause)"
        groups.setdefault(label, []).append(f)
    summaries = {c.label: c.summary for c in rs.clauses}
    entry = ev.ruleset(rs.id)
    assert entry is not None, "a cell page is made only for a ruleset the run selected"
    return render(
        "cell.html",
        root="../../",
        title=f"{ev.name} on {rs.id}",
        ev=ev,
        rs=rs,
        entry=entry,
        counts=T.counts_line(entry["counts"]),
        groups=groups,
        summaries=summaries,
        replay=lambda f: replay(ev, rs.id, f),
        twin=plain.twin_source,
        outcome_words=T.OUTCOME_WORDS,
    )
