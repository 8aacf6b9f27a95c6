"""JUnit XML view: one testsuite per ruleset, one testcase per vector (its id as name);
the challenge vectors of each ruleset in a suite of their own (``<ruleset> challenge``),
and each attached mode (``fuzz``, ``exhaustive``) in a suite with a testcase per ruleset.

FAIL, WRONG_REASON and XPASS are ``<failure>``; ERROR, CRASH and TIMEOUT are
``<error>``; NOT_APPLICABLE and XFAIL are ``<skipped>`` (as pytest writes xfail).  The
message carries the outcome, the clause labels and the vector's ``why``; the element
text carries the whole finding.  Any CI that reads JUnit shows the run natively.

Written as text, element by element (:class:`_Element`), in exactly the form
ElementTree gives the same tree after ``ET.indent`` (two spaces a level, ``" />"`` for
an empty element, attributes in the order set, ElementTree's escaping): building 14,000
elements for a default run and serialising them through ElementTree's pure-Python writer
cost 0.11-0.22 s of CPU.  tests/reports/test_junit_text.py holds the text to what
ElementTree writes for the tree it denotes.
"""

from __future__ import annotations

from typing import Any

from pokercert.harness.run.results import Outcome
from pokercert.reports import text as T

AS_FAILURE = frozenset({Outcome.FAIL, Outcome.WRONG_REASON, Outcome.XPASS})
AS_ERROR = frozenset({Outcome.ERROR, Outcome.CRASH, Outcome.TIMEOUT})
AS_SKIPPED = frozenset({Outcome.NOT_APPLICABLE, Outcome.XFAIL})
DECLARATION = "<?xml version='1.0' encoding='utf-8'?>"  # as ElementTree declares a str


# what ElementTree replaces, in its order: in element text, and in attribute values
_IN_TEXT = (("&", "&amp;"), ("<", "&lt;"), (">", "&gt;"))
_IN_ATTRIBUTE = (*_IN_TEXT, ('"', "&quot;"), ("\r", "&#13;"), ("\n", "&#10;"), ("\t", "&#09;"))


def _escaped(text: str, table: tuple[tuple[str, str], ...]) -> str:
    for raw, entity in table:
        if raw in text:
            text = text.replace(raw, entity)
    return text


def _cdata(text: str) -> str:
    """Element text escaped as ElementTree escapes it."""
    return _escaped(text, _IN_TEXT)


def _attr(text: str) -> str:
    """An attribute value escaped as ElementTree escapes it."""
    return _escaped(text, _IN_ATTRIBUTE)


class _Element:
    """An element to write: tag, attributes in order, text, children (elements, or
    testcase lines already written: :func:`_case_line`)."""

    __slots__ = ("attrs", "children", "tag", "text")

    def __init__(self, tag: str, **attrs: str) -> None:
        self.tag = tag
        self.attrs: dict[str, str] = dict(attrs)
        self.text: str | None = None
        self.children: list[_Element | str] = []

    def set(self, name: str, value: str) -> None:
        self.attrs[name] = value

    def get(self, name: str, default: str) -> str:
        return self.attrs.get(name, default)

    def add(self, tag: str, **attrs: str) -> _Element:
        child = _Element(tag, **attrs)
        self.children.append(child)
        return child

    def write(self, out: list[str], indent: str) -> None:
        """Append the element's text to ``out``; its lines after the first start with
        ``indent`` (the depth it stands at)."""
        out.append("<" + self.tag + "".join(f' {k}="{_attr(v)}"' for k, v in self.attrs.items()))
        if not self.children:
            out.append(f">{_cdata(self.text)}</{self.tag}>" if self.text else " />")
            return
        out.append(">")  # (no element with children has text of its own here)
        inner = "\n" + indent + "  "
        for child in self.children:
            out.append(inner)
            if isinstance(child, str):
                out.append(child)
            else:
                child.write(out, indent + "  ")
        out.append("\n" + indent + "</" + self.tag + ">")


def _seconds(us: int) -> str:
    return f"{us / 1e6:.6f}"


def _totals(element: _Element, vectors: list[dict[str, Any]]) -> None:
    outcomes = [v["outcome"] for v in vectors]
    element.set("tests", str(len(outcomes)))
    element.set("failures", str(sum(o in AS_FAILURE for o in outcomes)))
    element.set("errors", str(sum(o in AS_ERROR for o in outcomes)))
    element.set("skipped", str(sum(o in AS_SKIPPED for o in outcomes)))
    element.set("time", _seconds(sum(v["duration_us"] for v in vectors)))


def _case_line(v: dict[str, Any]) -> str:
    """A passed vector's testcase, written at once (most of a report's testcases)."""
    classname = _attr(f"pokercert.{v['ruleset']}.{v['kind']}")
    return (
        f'<testcase name="{_attr(v["id"])}" classname="{classname}" '
        f'time="{_seconds(v["duration_us"])}" />'
    )


def _testcase(parent: _Element, v: dict[str, Any], finding: dict[str, Any] | None) -> None:
    outcome = v["outcome"]
    if finding is None and outcome != Outcome.NOT_APPLICABLE:
        parent.children.append(_case_line(v))  # PASS
        return
    case = parent.add(
        "testcase",
        name=v["id"],
        classname=f"pokercert.{v['ruleset']}.{v['kind']}",
        time=_seconds(v["duration_us"]),
    )
    if outcome == Outcome.NOT_APPLICABLE:
        case.add(
            "skipped",
            type=Outcome.NOT_APPLICABLE.value,
            message="not claimed by the adapter: not certified",
        )
        return
    assert finding is not None
    message = T.printable(f"{outcome} {T.clauses_line(finding)}: {finding['why']}")
    tag = "failure" if outcome in AS_FAILURE else "error" if outcome in AS_ERROR else "skipped"
    element = case.add(tag, type=outcome, message=message)
    element.text = T.failure_message(finding)
    if finding["stderr"]:
        case.add("system-err").text = T.printable(finding["stderr"])


_MODE_TAGS = {"failed": "failure", "incomplete": "error", "skipped": "skipped"}


def _mode_suite(root: _Element, report: dict[str, Any], mode: str, block: dict[str, Any]) -> None:
    """An attached mode as a suite of its own (``fuzz``, ``exhaustive``): one testcase
    per ruleset, a failure where it found a disagreement (the counterexamples in the
    text), an error where it did not finish, skipped where it could not cover the
    ruleset; the suite's properties say the seed and how to replay it."""
    rows = block["rulesets"]
    suite = root.add("testsuite", name=mode)
    counts = {
        tag: sum(_MODE_TAGS.get(r["status"]) == tag for r in rows)
        for tag in ("failure", "error", "skipped")
    }
    for attr, n in (
        ("tests", len(rows)),
        ("failures", counts["failure"]),
        ("errors", counts["error"]),
        ("skipped", counts["skipped"]),
    ):
        suite.set(attr, str(n))
        root.set(attr, str(int(root.get(attr, "0")) + n))
    suite.set("time", _seconds(0))
    props = suite.add("properties")
    for name, val in (
        ("mode", mode),
        ("summary", T.mode_line(report, mode, block)),
        ("replay", block["replay"]),
        ("overall_verdict", report["verdict"]),
        *((k, block[k]) for k in ("seed", "examples", "order_seed") if k in block),
    ):
        props.add("property", name=name, value=T.printable(str(val)))
    found = T.mode_findings(report, mode)
    for r in rows:
        case = suite.add(
            "testcase",
            name=f"{r['id']} {mode}",
            classname=f"pokercert.{r['id']}.{mode}",
            time=_seconds(0),
        )
        tag = _MODE_TAGS.get(r["status"])
        if tag is None:
            continue  # passed
        element = case.add(
            tag,
            type=r["status"],
            message=T.printable(
                f"{r['status']}: {r['disagreements']} disagreement(s) in {r['checked']} of "
                f"{r['of']}" + (f"; {r['why']}" if r["why"] else "")
            ),
        )
        element.text = (
            "\n".join(" · ".join(x for x in f[1:] if x) for f in found if f[0] == r["id"]) or None
        )


def _covers_properties(report: dict[str, Any]) -> list[tuple[str, Any]]:
    """What the certificate covers, one property per row (``covers_corpus``, ...), the
    corpus status, and each warning (``covers_warning``)."""
    rows = [
        (f"covers_{what.lower().replace(' ', '_')}", words) for what, words in T.covers_rows(report)
    ]
    return [
        ("corpus_status", report["covers"]["corpus"]["status"]),
        *rows,
        *(("covers_warning", w) for w in T.covers_warnings(report)),
    ]


def render(report: dict[str, Any]) -> str:
    """The JUnit XML view of a sealed report."""
    ident = report["identification"]
    findings = {f["id"]: f for f in report["failures"]}
    root = _Element("testsuites", name=T.printable(f"pokercert {T.evaluator_line(ident)}"))
    _totals(root, report["vectors"])
    # one suite per ruleset for the curated vectors, then one per ruleset for its
    # challenge vectors (named "<ruleset> challenge")
    by_ruleset: dict[str, list[dict[str, Any]]] = {rs["id"]: [] for rs in report["rulesets"]}
    challenge: dict[str, list[dict[str, Any]]] = {}
    for v in report["vectors"]:
        (challenge if v.get("origin") else by_ruleset).setdefault(v["ruleset"], []).append(v)
    verdicts = {rs["id"]: rs["verdict"] for rs in report["rulesets"]}
    suites = [(rid, rid, vectors) for rid, vectors in by_ruleset.items()]
    suites += [(f"{rid} challenge", rid, vectors) for rid, vectors in challenge.items()]
    for name, rid, vectors in suites:
        suite = root.add("testsuite", name=name)
        _totals(suite, vectors)
        suite.set("timestamp", ident["started_at"])
        props = suite.add("properties")
        for name, val in (
            ("verdict", verdicts.get(rid, "")),
            ("overall_verdict", report["verdict"]),
            ("adapter_spec", ident["adapter_spec"]),
            ("evaluator_declared_by_vendor", T.evaluator_line(ident)),
            ("identity_measured_by_harness", T.measured_line(ident)),
            ("measured_identity_sha256", ident["measured_identity"]["digest"]),
            ("isolation", ident.get("isolation", "in-process")),
            ("profile", ident["profile"]["name"]),
            ("corpus_version", ident["corpus"]["version"]),
            ("corpus_sha256", ident["corpus"]["sha256"]),
            *_covers_properties(report),
            ("report_digest", report["digest"]),
            (
                "citation",
                T.citation_line(next((rs for rs in report["rulesets"] if rs["id"] == rid), {})),
            ),
            ("challenge", T.challenge_line(report)),
            ("challenge_seed", report["challenge"]["seed"]),
            *T.lab_items(ident),
        ):
            props.add("property", name=name, value=T.printable(str(val)))
        for v in vectors:
            _testcase(suite, v, findings.get(v["id"]))
    for mode, block in T.attached_modes(report):
        _mode_suite(root, report, mode, block)
    out = [DECLARATION, "\n"]
    root.write(out, "")
    out.append("\n")
    return "".join(out)
