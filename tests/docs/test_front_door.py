"""The README is a front door (issue 36): short, its two commands the ones `.ci/run` runs (the first as
a newcomer types it, plain Python; the second on the compiled build, which the switch asks for), its
figures those of benchmarks/RESULTS.md, and its links to the documentation site's pages real. The site's
nav (mkdocs.yml) holds every page of docs/, sorted by purpose."""

from __future__ import annotations

import re
import sys
import tomllib

import yaml
from conftest import ROOT

README = (ROOT / "README.md").read_text(encoding="utf-8")
CI = (ROOT / ".ci" / "run").read_text(encoding="utf-8")


def _sh_blocks(text: str) -> list[str]:
    return re.findall(r"^```sh\n(.*?)^```", text, flags=re.M | re.S)


def _ci_line(command: str) -> int:
    """The line of .ci/run that runs `command` (pip's --quiet and a redirection aside); -1 if none."""
    for number, line in enumerate(CI.splitlines()):
        said = re.sub(r"\s+>\s*/dev/null$", "", line.replace(" --quiet", "")).strip()
        if said == command:
            return number
    return -1


def test_the_readme_is_a_front_door_of_at_most_400_lines() -> None:
    assert README.startswith("# casino-validator\n")
    assert len(README.splitlines()) <= 400
    # What it is, the two commands, the tour, the dependencies, the links: in that order.
    heads = [line for line in README.splitlines() if line.startswith("## ")]
    assert heads == [
        "## The compiled build",
        "## A five-minute tour",
        "## What it does",
        "## Dependencies, and why",
        "## Documentation",
    ]


def test_ci_runs_the_readmes_two_commands_as_written() -> None:
    first, second = _sh_blocks(README)[:2]
    steps = [step.strip() for step in first.strip().split("&&")]
    # CI makes its own fresh virtualenv (mktemp); the rest it runs as written.
    assert steps[:2] == ["python3 -m venv .venv", ". .venv/bin/activate"]
    install, check = steps[2:]
    assert install == "pip install ."
    assert check == "casino-validator check samples/ --house samples/house/trouville.yaml"
    install_line, check_line = _ci_line(install), _ci_line(check)
    assert 0 < install_line < check_line
    second_steps = [step.strip() for step in second.strip().split("&&")]
    assert second_steps == ["pip install '.[test]'", "pytest -n auto"]
    test_install = _ci_line(second_steps[0])
    # CI's suite line carries a comment; compare what runs.
    suite = next(n for n, line in enumerate(CI.splitlines()) if line.split("#")[0].strip() == second_steps[1])
    assert check_line < test_install < suite
    lines = CI.splitlines()
    # The first command runs with no switch (the default, plain build, checked), the second with the
    # compiled build required: compiled once, and tested.
    before_first = "\n".join(lines[:install_line])
    assert "unset CASINO_VALIDATOR_COMPILE" in before_first
    assert "export CASINO_VALIDATOR_COMPILE" not in before_first
    between = "\n".join(lines[install_line:test_install])
    assert 'grep -q "plain Python"' in between
    assert between.count("export CASINO_VALIDATOR_COMPILE=require") == 1
    assert 'grep -q "compiled with mypyc"' in "\n".join(lines[test_install:suite])


def test_the_readme_asks_for_the_compiled_build_with_the_hooks_switch() -> None:
    sys.path.insert(0, str(ROOT))
    try:
        import hatch_build
    finally:
        sys.path.remove(str(ROOT))
    asked = re.search(r"^(\w+)=(\w+) pip install \.$", _sh_blocks(README)[2], flags=re.M)
    assert asked is not None
    assert asked.group(1) == hatch_build.ENV
    assert hatch_build.compile_mode(asked.group(2)) == "yes"
    assert hatch_build.compile_mode(None) == "no"  # the README's first command: plain Python


def test_the_readmes_figures_are_benchmarks_results() -> None:
    """What the compiled build gains, as the README says it, is what RESULTS.md measured: the extremes of
    the compiled and plain columns of `edge`'s table (computed, and kept), and the instructions a round of
    `check` after the last change to the replay, compiled and plain."""
    results = (ROOT / "benchmarks" / "RESULTS.md").read_text(encoding="utf-8")
    head = "| version | computed, compiled (s) | kept, compiled (s) | computed, plain (s) | kept, plain (s) |"
    table = results[results.index(head) :]
    rows = [line.split("|")[2:6] for line in table.split("\n\n")[0].splitlines()[2:]]
    columns = [[float(row[i]) for row in rows] for i in range(4)]

    def spread(values: list[float]) -> str:
        return f"{min(values):.2f}–{max(values):.2f} s"

    computed = f"{spread(columns[0])} of CPU against {spread(columns[2])} plain"
    kept = f"({spread(columns[1])} against {spread(columns[3])} once they are kept"
    assert computed in " ".join(README.split())
    assert kept in " ".join(README.split())
    # The plain build's table ends with the last change's row (its instructions a round, after).
    plain = float(re.findall(r"\| ([\d.]+)k \(−[\d.]+ %\) \|", results)[-1])
    found = re.search(r"a round [\d.]+k → ([\d.]+)k instructions", results)
    assert found is not None
    compiled = float(found[1])
    said = f"{round(plain / compiled, 1)}× fewer instructions a round"
    said += f" ({round(compiled)}k against {round(plain)}k"
    assert said in " ".join(README.split())


def test_every_link_of_the_readme_is_a_file_of_the_repository() -> None:
    links = re.findall(r"\]\(([^)#]+)(?:#[^)]*)?\)", README)
    assert len(links) > 25
    assert [link for link in links if not (ROOT / link).exists()] == []
    assert "docs/converting-logs.md" in links


def _nav_pages(nav: object) -> list[str]:
    if isinstance(nav, str):
        return [nav]
    if isinstance(nav, list):
        return [page for entry in nav for page in _nav_pages(entry)]
    if isinstance(nav, dict):
        return [page for value in nav.values() for page in _nav_pages(value)]
    raise AssertionError(nav)


def test_the_sites_nav_holds_every_page_sorted_by_purpose() -> None:
    config = yaml.safe_load((ROOT / "mkdocs.yml").read_text(encoding="utf-8"))
    sections = [next(iter(entry)) for entry in config["nav"]]
    assert sections == ["Home", "Tutorial", "How-to guides", "Reference", "Explanation"]
    pages = _nav_pages(config["nav"])
    written = sorted(path.relative_to(ROOT / "docs").as_posix() for path in (ROOT / "docs").rglob("*.md"))
    assert sorted(set(pages) - {"rules/index.md"}) == written  # rules/: generated when the site is built
    assert len(pages) == len(set(pages))
    assert config["strict"] is True and "scripts/docs_site.py" in config["hooks"]
    (build,) = [line for line in CI.splitlines() if "mkdocs build" in line]
    # --quiet raises MkDocs' log level past its warnings, which --strict then never counts.
    assert "--strict" in build and "--quiet" not in build and " -q" not in build
    extras = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"][
        "optional-dependencies"
    ]
    assert sorted(extras["docs"]) == ["mkdocs-material>=9.5,<10", "mkdocs>=1.6,<2"]


def test_the_lab_notebook_is_out_of_the_readme() -> None:
    """Dated measurements live in benchmarks/RESULTS.md: no commit hash, UTC time or measuring date in
    the README."""
    assert not re.search(r"\b[0-9a-f]{7,40}\b", README.replace("0123456789abcdef", ""))
    assert not re.search(r"\d\d:\d\d(–\d\d:\d\d)? UTC", README)
    # Dates of the law (a version, `fr/blackjack@2013-12-15`) and of the samples' records are not
    # measurements: the first follows an `@`, the second is a log's time (`2016-06-11 21:02:00+02:00`).
    dated = re.findall(r"(?<![@/\d-])20\d\d-\d\d-\d\d(?! \d\d:\d\d:\d\d)", README)
    assert dated == []
