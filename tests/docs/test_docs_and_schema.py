"""The project's own documents are in docs/ and everything points at them; `schema findings` describes
what `json` and `jsonl` really write."""

from __future__ import annotations

import contextlib
import json
import re
from pathlib import Path
from types import SimpleNamespace

import jsonschema
import pytest
from typer.testing import CliRunner

from validator.cli import app
from validator.formats.schema import DOCUMENT_VERSION, findings_schema
from validator.house.lint import SPEC_REF
from validator.logs.reader import FORMAT_REF
from validator.rulebook.registry import default_registry

ROOT = Path(__file__).resolve().parents[2]
DOCS = ("hand-log.md", "house-rules.md", "findings.md")
SEED_NAME = re.compile(r"\b00\d_[0-9a-f]{16}\.txt\b")


@pytest.mark.parametrize("name", DOCS)
def test_each_document_is_in_the_repository(name: str) -> None:
    text = (ROOT / "docs" / name).read_text(encoding="utf-8")
    assert text.startswith("# ")
    assert len(text) > 2000


def test_format_findings_cite_the_documents_in_docs() -> None:
    assert FORMAT_REF == "hand-log/1 (docs/hand-log.md)"
    assert SPEC_REF == "house-rules/1 (docs/house-rules.md)"
    golden = (ROOT / "tests/report/golden").iterdir()
    pages = (ROOT / "docs").glob("*.md")
    for path in [ROOT / "README.md", *pages, *(ROOT / "validator").rglob("*.py"), *golden]:
        text = path.read_text(encoding="utf-8")
        assert "spec/" not in text.replace("sarif-spec", ""), path


def test_the_blackjack_logs_no_stand() -> None:
    assert "A blackjack logs no `stand`" in (ROOT / "docs/hand-log.md").read_text(encoding="utf-8")


def test_exit_statuses_are_documented() -> None:
    text = (ROOT / "docs/findings.md").read_text(encoding="utf-8")
    for status in ("`0`", "`1`", "`2`", "`3`"):
        assert f"| {status} |" in text


def test_every_ruleset_names_its_official_text_not_a_file() -> None:
    for ruleset in default_registry().all():
        assert not SEED_NAME.search(ruleset.source), ruleset.version
        assert not ruleset.source.endswith(".txt"), ruleset.version
    sources = {r.version: r.source for r in default_registry().all()}
    assert sources["fr/blackjack@2024-11-01"] == (
        "Arrêté du 14 mai 2007, art. 55-4 et 55-5, version en vigueur au 24 juin 2025 (Légifrance)"
    )


def _run(*args: str) -> SimpleNamespace:
    with contextlib.chdir(ROOT):
        result = CliRunner().invoke(app, list(args))
    return SimpleNamespace(returncode=result.exit_code, stdout=result.stdout)


def test_schema_findings_validates_json_and_jsonl_output() -> None:
    printed = _run("schema", "findings")
    assert printed.returncode == 0
    schema = json.loads(printed.stdout)
    assert schema == findings_schema()
    jsonschema.Draft202012Validator.check_schema(schema)
    log = "samples/logs/disputes"
    document = _run("check", log, "--format", "json", "-q")
    assert document.returncode == 1
    doc = json.loads(document.stdout)
    assert doc["version"] == DOCUMENT_VERSION
    assert next(iter(doc)) == "version"
    jsonschema.validate(doc, schema)
    line_schema = {"$ref": "#/$defs/finding", "$defs": schema["$defs"]}
    lines = _run("check", log, "--format", "jsonl", "-q").stdout.splitlines()
    assert len(lines) == doc["summary"]["findings"]["total"] > 5
    for line in lines:
        jsonschema.validate(json.loads(line), line_schema)
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate({**json.loads(lines[0]), "kind": "nonsense"}, line_schema)
    lint = _run("lint", "samples/house/mistakes.yaml", "--format", "json")
    assert lint.returncode == 1
    jsonschema.validate(json.loads(lint.stdout), schema)


def test_every_python_side_rule_id_has_docs_and_a_line_in_the_project_docs():
    # A rule id written in validator/ (a format or house check) must be a rule of its own: docs for
    # `rules show` and SARIF (validator/catalogue/builtin_docs.py), and a line in docs/ where users look it
    # up.
    import re

    from conftest import ROOT

    from validator.catalogue.builtin_docs import BUILTIN

    pattern = re.compile(r'"((?:hand-log|house|ruleset)/[a-z0-9-]+)"')
    used = {
        found
        for path in (ROOT / "validator").rglob("*.py")
        for found in pattern.findall(path.read_text(encoding="utf-8"))
    } - {"hand-log/1"}  # the format's own name
    assert len(used) > 20  # the scan reads what it should
    docs = "".join(
        (ROOT / "docs" / name).read_text(encoding="utf-8")
        for name in ("hand-log.md", "house-rules.md", "findings.md")
    )
    assert sorted(used - set(BUILTIN)) == []
    assert sorted(rule for rule in used if f"`{rule}`" not in docs) == []


def test_the_sources_are_cited_where_the_repository_shows_them() -> None:
    """The official texts are listed in docs/sources.md (each text, its dates, where it is published),
    which every shipped family is found in; no file cites a list or a text file the repository does not
    have (`seeds/README.md`, `000_….txt`)."""
    sources = (ROOT / "docs" / "sources.md").read_text(encoding="utf-8")
    for family in {ruleset.family for ruleset in default_registry().all()}:
        assert f"`{family}" in sources, family
    for where in ("Légifrance", "JORF", "Ontario"):
        assert where in sources
    cited = [
        *(ROOT / "rulesets").rglob("*.rules"),
        *(ROOT / "validator").rglob("*.py"),
        *(ROOT / "docs").glob("*.md"),
        *(ROOT / "tests").rglob("*.py"),
        ROOT / "README.md",
        ROOT / "benchmarks" / "RESULTS.md",
    ]
    offenders = []
    for path in cited:
        if path == Path(__file__).resolve():
            continue  # this test names what it looks for
        text = path.read_text(encoding="utf-8")
        if "seeds/README" in text or SEED_NAME.search(text) or re.search(r"\bseeds? 00\d", text, re.I):
            offenders.append(str(path.relative_to(ROOT)))
    assert offenders == []
