"""`benchmarks/bench_edge.py --reference CMD` without the reference itself (Eric Farmer's calculator is
GPL: CI does not build it): a stub in its place answers its prompts as the benchmark feeds them and
writes its output file with the published figures of the benchmark's game, and the comparison the
benchmark prints, and its exit status, are checked on given measurements (it is measured by hand, never
timed in a test).

The stub's figures are Wizard of Odds' Blackjack Appendix 9 returns for the benchmark's game (S17, the
dealer checks for blackjack, double after splits, resplits to four hands but aces): 1ds17r4 +0.1839 %,
2ds17r4 -0.1779 %, 6ds17r4 -0.4026 %, 8ds17r4 -0.4304 % (the pages as tests/maths/test_published.py
quotes them)."""

from __future__ import annotations

import importlib.util
import sys
import textwrap
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
PUBLISHED = {1: 0.1839, 2: -0.1779, 6: -0.4026, 8: -0.4304}

# Farmer's `strategy` asks its questions on standard input and writes its table to the file named; the
# stub reads the same answers: the decks first, the file after the blackjack's pay (1.5).
STUB = textwrap.dedent(
    f"""
    import sys
    answers = sys.stdin.read().split("\\n")
    decks = int(answers[0])
    out = answers[answers.index("1.5") + 1]
    figure = {PUBLISHED!r}[decks]
    with open(out, "w", encoding="utf-8") as handle:
        handle.write("Expected return by hand ...\\n")
        handle.write(f"     Total | {{figure:+.6f}} %\\n")
    """
)


@pytest.fixture(scope="module")
def bench():
    spec = importlib.util.spec_from_file_location("bench_edge", ROOT / "benchmarks" / "bench_edge.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["bench_edge"] = module  # its dataclass is resolved by its module's name
    spec.loader.exec_module(module)
    return module


@pytest.mark.parametrize("split", ["cdp", "cdz"])
def test_the_stub_reads_the_benchmarks_answers_and_its_figure_is_read_back(bench, tmp_path, split):
    stub = tmp_path / "stub.py"
    stub.write_text(STUB, encoding="utf-8")
    for decks in (1, 8):
        out = tmp_path / f"farmer-{decks}.txt"
        answers = bench._farmer_input(decks, split, out)
        cpu, done = bench.child_cpu([sys.executable, str(stub)], stdin=answers)
        assert done.returncode == 0, done.stderr
        assert cpu >= 0
        assert bench._farmer_figure(out) == PUBLISHED[decks]


def test_the_figure_is_read_from_the_total_line_only(bench, tmp_path):
    out = tmp_path / "farmer.txt"
    out.write_text("Hand | 0.5\nno total here\n", encoding="utf-8")
    with pytest.raises(ValueError, match="no 'Total"):
        bench._farmer_figure(out)


def test_the_verdict_holds_ours_to_twice_the_references_time_and_its_figure(bench):
    """Ours: the returns `edge`'s engine gives this game (benchmarks/RESULTS.md, 2026-11-29), each within
    0.0005 points of the published figure (1 deck: +0.183609 against +0.1839, -0.000291)."""
    ours = {1: 0.183609, 2: -0.178061, 6: -0.402683, 8: -0.430439}
    rows = [bench.Compared(d, ours[d], PUBLISHED[d], 0.56, 0.41) for d in (1, 2, 6, 8)]
    lines, status = bench.verdict(rows, "cdp")
    assert status == 0
    assert lines[2] == "| 1 | +0.183609 | +0.183900 | -0.000291 | 0.56 | 0.41 | 1.37 |"
    assert len(lines) == 2 + 4 + 1 and "at most 2.0×" in lines[-1]
    slow = bench.Compared(6, ours[6], PUBLISHED[6], 1.30, 0.59)  # 2.20×
    assert bench.verdict([*rows, slow], "cdp")[1] == 1
    off = bench.Compared(8, -0.4298, PUBLISHED[8], 0.71, 0.58)  # 0.0006 points off
    assert bench.verdict([off], "cdp")[1] == 1
