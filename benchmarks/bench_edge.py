"""What `casino-validator edge` costs, measured as whole processes, and how the exact main game compares
with an exact calculator written apart from the project.

    python benchmarks/bench_edge.py                  # every shipped version: `edge` as a user runs it
                                                     # (its readings' figures included), its figures
                                                     # computed, then kept from that run
    python benchmarks/bench_edge.py --reference CMD  # also: the exact main game at 1, 2, 6 and 8 decks,
                                                     # side by side with the reference calculator CMD
    python benchmarks/bench_edge.py --installed ...  # the package installed in the interpreter running
                                                     # this (a compiled build), not this tree's sources
    python benchmarks/bench_edge.py --against REV|DIR [--outputs]
                                                     # also: the same `edge` runs of another revision's
                                                     # code, and (--outputs) whether everything `edge`
                                                     # prints is the same (below)

Every figure is the processor time (user + system) of a whole process, as the operating system counts it
for a child (start-up, imports, loading the rulesets included), the median of `--runs` runs (each kind
in turn, so that a busy machine weighs on all alike). The machine, its load and the build are printed
first: figures from a busy machine are not a quiet machine's.

Versions: `edge --ruleset VERSION` (a version that leaves an option to the house, with the first table
of samples/house/trouville.yaml of its family): once with the figures computed (an empty cache of kept
figures: validator/maths/kept.py), once read back as that run kept them. Issue 40's target: 1.5 s.

The reference: Eric Farmer's composition-dependent calculator (`strategy`, github.com/possibly-wrong/
blackjack; its source is GPL and is not part of this project: build it apart and give its command), run
for the game of tests/maths/classic-blackjack.rules where the dealer checks for blackjack: S17, 3:2,
double on any two cards and after splits, resplits to four hands except aces, one card to split aces,
no surrender. Its prompts are answered on its standard input, and its figure read from the file it
writes. `--reference-split cdp` (the default) asks it for post-split play optimised by the pair's
cards out (CDP), the play this project computes; `cdz` for its default CDZ- (the play before a split
kept after it). Our side: a process that reads the same rules (tests/maths/classic-blackjack.rules, its
decks set) and computes `main_game` (the exact main game, no distribution). Issue 40's target: within
2× the reference's processor time. Without --reference, this part says that the reference was not run.

With --outputs, each build runs `edge` as a user does, and what it prints (output, errors and exit
status, less the lines that give its timings) must be the same byte for byte: every version, in text
and JSON, with --options (and so the readings' figures and every option's cost); every table of the
house files under samples/house; and every version under each reading alternative that changes a side
bet's expressions (`--reading ID=ALTERNATIVE`, JSON). Each difference is printed, and the exit status
is 1 when there is one.
"""

from __future__ import annotations

import argparse
import difflib
import io
import os
import platform
import resource
import shlex
import statistics
import subprocess
import sys
import tarfile
import tempfile
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
HOUSE = ROOT / "samples" / "house" / "trouville.yaml"
CLASSIC = ROOT / "tests" / "maths" / "classic-blackjack.rules"
DECKS = (1, 2, 6, 8)
TARGET_EDGE = 1.5  # seconds of processor time per version (issue 40)
TARGET_RATIO = 2.0  # the exact main game against the reference (issue 40)
TARGET_DIFFERENCE = 0.0005  # points of return: "exact" within 0.0005 point (issue 40)

# Run `edge` as the command line does, with the package in argv[1]; the rest of argv is its arguments.
CLI = """
import sys
if sys.argv[1]:
    sys.path.insert(0, sys.argv[1])
sys.argv = ["casino-validator", *sys.argv[2:]]
from validator.cli import main
main()
"""
# The exact main game of a rules file (argv[2]) as one process: its return, in percent.
MAIN = """
import sys
if sys.argv[1]:
    sys.path.insert(0, sys.argv[1])
from validator.games.blackjack.maths import main_game
from validator.maths.probe import Probe
from validator.rulebook.registry import load_file
ruleset = load_file(sys.argv[2])
house = {**ruleset.house_defaults(), "double_after_split": True, "max_split_hands": 4, "surrender": False}
print(main_game(Probe(ruleset, house)).ev * 100)
"""


def child_cpu(
    command: list[str], *, stdin: str | None = None, env: dict[str, str] | None = None
) -> tuple[float, subprocess.CompletedProcess[str]]:
    """Run `command`; the processor time (user + system) of it and its own children, and what it gave."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    # Run outside the repository: a `python -c` child puts its working folder first on its path, where
    # this tree's sources would shadow an installed (compiled) package.
    done = subprocess.run(
        command, input=stdin, capture_output=True, text=True, env=env, check=False, cwd=tempfile.gettempdir()
    )
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return cpu, done


def machine(package: str) -> list[str]:
    model = platform.processor() or platform.machine()
    cpuinfo = Path("/proc/cpuinfo")
    if cpuinfo.is_file():
        for line in cpuinfo.read_text(encoding="utf-8", errors="replace").splitlines():
            if line.startswith("model name"):
                model = line.split(":", 1)[1].strip()
                break
    load = os.getloadavg()
    return [
        f"machine: {model}, {os.cpu_count()} cores; load {load[0]:.1f} {load[1]:.1f} {load[2]:.1f} "
        "(1, 5, 15 min)",
        f"build: {_cli(package, ['--version']).splitlines()[0]}; Python {platform.python_version()}",
    ]


def _env(cache: Path | None) -> dict[str, str]:
    env = dict(os.environ)
    if cache is not None:
        env["CASINO_VALIDATOR_CACHE"] = str(cache)
        env.pop("CASINO_VALIDATOR_NO_CACHE", None)
    return env


def _version_arguments(package: str, version: str) -> list[str]:
    """`edge`'s arguments for a version: its table of samples/house/trouville.yaml where the version
    leaves an option to the house with no default."""
    sys.path.insert(0, package or str(ROOT))
    from validator.house.load import load_house
    from validator.rulebook.registry import default_registry

    registry = default_registry()
    ruleset = registry.pick(version)
    if any(option.required for option in ruleset.options.values()):
        for table, entry in load_house(HOUSE).tables.items():
            if registry.resolve(entry["ruleset"])[0] == ruleset.family:
                return ["edge", "--house", str(HOUSE), "--table", table]
    return ["edge", "--ruleset", version]


def versions(packages: dict[str, str], runs: int) -> int:
    """Each shipped version's `edge`, whole processes: its figures computed, then kept; 1 where the
    slowest version, its figures computed, takes more than the target."""
    sys.path.insert(0, next(iter(packages.values())) or str(ROOT))
    from validator.rulebook.registry import default_registry

    names = list(packages)
    head = " | ".join(f"{name} computed (s) | {name} kept (s)" for name in names)
    print(f"| version | {head} |")
    print("|---|" + "---:|" * (2 * len(names)))
    worst = 0.0
    with tempfile.TemporaryDirectory() as folder:
        # One cache folder: the parsed rulesets kept from a first run (as on a user's machine); the kept
        # figures removed before each run that is to compute them.
        cache = Path(folder)
        for package in packages.values():
            child_cpu([sys.executable, "-c", CLI, package, "rules", "list"], env=_env(cache))
        for ruleset in default_registry().all():
            arguments = _version_arguments(packages[names[0]], ruleset.version)
            cells = []
            for name in names:
                command = [sys.executable, "-c", CLI, packages[name], *arguments]
                computed, kept = [], []
                for _ in range(runs):
                    for entry in cache.glob("edge-*"):
                        entry.unlink()
                    cpu, done = child_cpu(command, env=_env(cache))
                    if done.returncode != 0:
                        raise SystemExit(f"{' '.join(arguments)}: exit {done.returncode}\n{done.stderr}")
                    computed.append(cpu)
                    kept.append(child_cpu(command, env=_env(cache))[0])
                cells += [statistics.median(computed), statistics.median(kept)]
                if name == names[0]:
                    worst = max(worst, statistics.median(computed))
            print(f"| {ruleset.version} | " + " | ".join(f"{c:.2f}" for c in cells) + " |", flush=True)
    print(f"the target: {TARGET_EDGE} s a version; the slowest, its figures computed: {worst:.2f} s")
    return int(worst > TARGET_EDGE)


def _farmer_input(decks: int, split: str, out: Path) -> str:
    """Answers to the prompts of Farmer's `strategy`, in its order (src/strategy.cpp): decks, dealer hits
    soft 17, double on any total, double on soft hands, double after hitting, double after a split,
    resplits, resplitting aces, CDZ- (and if not, CDP1), late surrender, blackjack's pay, the output
    file, and "0 0" to end its questions about hands."""
    cdz = "y" if split == "cdz" else "n"
    cdp1 = "" if split == "cdz" else "n\n"
    return f"{decks}\nn\ny\ny\nn\ny\ny\nn\n{cdz}\n{cdp1}n\n1.5\n{out}\n0 0\n"


def _farmer_figure(out: Path) -> float:
    for line in out.read_text(encoding="utf-8", errors="replace").splitlines():
        if line.strip().startswith("Total |"):
            return float(line.split("|")[1].split()[0])
    raise ValueError(f"{out}: no 'Total |' line")


@dataclass(frozen=True, slots=True)
class Compared:
    """One number of decks: the exact main game's return (percent) and processor time (s), ours and the
    reference's."""

    decks: int
    ours: float
    reference: float
    ours_cpu: float
    reference_cpu: float


def verdict(rows: list[Compared], split: str) -> tuple[list[str], int]:
    """The comparison's table (Markdown) and the exit status: 1 where a number of decks takes more than
    `TARGET_RATIO` times the reference's processor time or gives a return more than `TARGET_DIFFERENCE`
    points from the reference's."""
    lines = [
        f"| decks | ours: return (%) | reference ({split.upper()}): return (%) | difference (points) "
        "| ours CPU (s) | reference CPU (s) | ratio |",
        "|---:|---:|---:|---:|---:|---:|---:|",
    ]
    status = 0
    for row in rows:
        ratio = row.ours_cpu / row.reference_cpu if row.reference_cpu > 0 else float("inf")
        difference = row.ours - row.reference
        status |= ratio > TARGET_RATIO or abs(difference) > TARGET_DIFFERENCE
        lines.append(
            f"| {row.decks} | {row.ours:+.6f} | {row.reference:+.6f} | {difference:+.6f} "
            f"| {row.ours_cpu:.2f} | {row.reference_cpu:.2f} | {ratio:.2f} |"
        )
    lines.append(
        f"the target: at most {TARGET_RATIO}× the reference's processor time, returns within "
        f"{TARGET_DIFFERENCE} points"
    )
    return lines, int(status)


def reference(package: str, command: str | None, split: str, runs: int) -> int:
    """The exact main game at each number of decks, side by side with the reference calculator."""
    if command is None:
        print("reference: not run (give --reference CMD, the command of Eric Farmer's `strategy`)")
        return 0
    text = CLASSIC.read_text(encoding="utf-8").replace("dealer.peeks = false", "dealer.peeks = true")
    rows: list[Compared] = []
    with tempfile.TemporaryDirectory() as folder:
        tmp = Path(folder)
        for decks in DECKS:
            rules = tmp / f"classic-{decks}.rules"
            rules.write_text(text.replace("shoe.decks = 6", f"shoe.decks = {decks}"), encoding="utf-8")
            out = tmp / f"farmer-{decks}.txt"
            answers = _farmer_input(decks, split, out)
            ours_command = [sys.executable, "-c", MAIN, package, str(rules)]
            theirs_command = shlex.split(command)
            # One run of each first (not counted): the parse cache and the page cache warm for both.
            child_cpu(ours_command, env=_env(tmp / "cache"))
            child_cpu(theirs_command, stdin=answers)
            ours, theirs = [], []
            figure = 0.0
            for _ in range(runs):
                cpu, done = child_cpu(ours_command, env=_env(tmp / "cache"))
                if done.returncode != 0:
                    raise SystemExit(done.stderr)
                figure = float(done.stdout.split()[-1])
                ours.append(cpu)
                cpu, _done = child_cpu(theirs_command, stdin=answers)
                theirs.append(cpu)
            rows.append(
                Compared(
                    decks, figure, _farmer_figure(out), statistics.median(ours), statistics.median(theirs)
                )
            )
            print(f"{decks} decks measured", flush=True)
    lines, status = verdict(rows, split)
    print("\n".join(lines), flush=True)
    return status


def _build(package: str) -> str:
    return _cli(package, ["--version"]).splitlines()[0]


def _cli(package: str, arguments: list[str]) -> str:
    """What `casino-validator ARGUMENTS` prints with the package in `package` (output, then errors, then
    the exit status), less the lines that give its timings."""
    out = subprocess.run(
        [sys.executable, "-c", CLI, package, *arguments],
        capture_output=True,
        text=True,
        env={**os.environ, "PYTHONPATH": package} if package else None,
        check=False,
        cwd=tempfile.gettempdir(),
    )
    kept = [
        line
        for line in (out.stdout + out.stderr).splitlines()
        if '"seconds"' not in line
        and '"cpu_seconds"' not in line
        and '"kept"' not in line
        and "s of processor time)" not in line
    ]
    return "\n".join([*kept, f"exit {out.returncode}"])


def _extract(revision: str, into: Path) -> Path:
    """The package, grammar and rulesets of `revision`, extracted into `into`."""
    archive = subprocess.run(
        ["git", "-C", str(ROOT), "archive", "--format=tar", revision, "validator", "grammar", "rulesets"],
        check=True,
        capture_output=True,
    ).stdout
    with tarfile.open(fileobj=io.BytesIO(archive)) as tar:
        tar.extractall(into, filter="data")
    return into


def _other(against: str, tmp: Path) -> str:
    """The package to compare with: a folder holding one (an install's site-packages), or a revision's
    sources extracted into `tmp`."""
    folder = Path(against)
    if (folder / "validator" / "__init__.py").is_file():
        return str(folder)
    return str(_extract(against, tmp))


def _edge_runs() -> list[list[str]]:
    """The `edge` command lines --outputs compares."""
    from validator.house.load import load_house
    from validator.maths.edge import _bet_signature
    from validator.rulebook.registry import default_registry, under_readings

    runs: list[list[str]] = []
    registry = default_registry()
    for ruleset in registry.all():
        for fmt in ("text", "json"):
            runs.append(["edge", "--ruleset", ruleset.version, "--format", fmt, "--options"])
        for name, reading in ruleset.readings.items():
            for alternative in reading.names:
                changed = under_readings(ruleset, {name: alternative})
                if changed is ruleset or all(
                    _bet_signature(changed, bet) == _bet_signature(ruleset, bet) for bet in ruleset.side_bets
                ):
                    continue
                runs.append(
                    ["edge", "--ruleset", ruleset.version, "--reading", f"{name}={alternative}", "-f", "json"]
                )
    for house in sorted((ROOT / "samples" / "house").glob("*.yaml")):
        for table in load_house(house).tables:
            for fmt in ("text", "json"):
                runs.append(["edge", "--house", str(house), "--table", table, "--format", fmt, "--options"])
    return runs


def _same_outputs(package: str, other: str) -> int:
    differ = 0
    runs = _edge_runs()
    for arguments in runs:
        mine, theirs = _cli(package, arguments), _cli(other, arguments)
        if mine != theirs:
            differ += 1
            print(f"DIFFERENT: casino-validator {' '.join(arguments)}")
            for line in difflib.unified_diff(
                theirs.splitlines(), mine.splitlines(), "other", "this", lineterm=""
            ):
                print(f"    {line}")
    print(f"what edge prints: {len(runs) - differ} of {len(runs)} command lines the same", flush=True)
    return 1 if differ else 0


def main() -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("--reference", metavar="CMD", help="the command of Eric Farmer's `strategy`")
    parser.add_argument("--reference-split", choices=("cdp", "cdz"), default="cdp")
    parser.add_argument("--runs", type=int, default=3, help="runs of each measurement (their median)")
    parser.add_argument("--no-versions", action="store_true", help="only the main game against the reference")
    parser.add_argument(
        "--against",
        metavar="REV|DIR",
        help="a git revision whose code to compare with, or a folder holding another build's package",
    )
    parser.add_argument(
        "--installed",
        action="store_true",
        help="measure the package installed in this interpreter (a compiled build), not this tree's sources",
    )
    parser.add_argument("--outputs", action="store_true", help="also compare everything `edge` prints")
    args = parser.parse_args()
    package = "" if args.installed else str(ROOT)
    for line in machine(package):
        print(line)
    print(f"median of {args.runs} whole processes each, processor time (user + system)")
    status = 0
    run: list[Callable[[], int | None]] = []
    with tempfile.TemporaryDirectory() as tmp:
        packages = {"this": package}
        if args.against is not None:
            packages[args.against] = _other(args.against, Path(tmp))
            print(f"{args.against}: {_build(packages[args.against])}")
        if not args.no_versions:
            run.append(lambda: versions(packages, args.runs))
        run.append(lambda: reference(package, args.reference, args.reference_split, args.runs))
        if args.outputs and args.against is not None:
            run.append(lambda: _same_outputs(package, packages[args.against]))
        for step in run:
            print()
            status |= step() or 0
    return status


if __name__ == "__main__":
    sys.exit(main())
