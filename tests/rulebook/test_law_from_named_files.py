"""The law comes only from what the user named and from the package (issue 42, item 1).

Three back doors the audit of issue 42 found, each closed and held here:

- a Dask worker installed the client's rulesets from outside at a path that follows from their public
  digest, in the shared temporary directory, and used a file already there as it was: a copy planted
  there paying a blackjack 3 for 2 turned the fixture's 6-for-5 findings into none;
- the dataset recorded the digest of the file as the client found it at the end of the run, not of the
  bytes any process judged with;
- `same check as` and `amends` were resolved against a file *beside* the one named, which nobody named:
  a sibling declaring `ruleset fr/blackjack` for 1990-2000 answered `same check as fr/blackjack@1999-01-01`
  — a shipped id defined from outside, through the back door.

The fixture `zz/acme-blackjack` (tests/fixtures/external, not law) pays a blackjack 6 for 5.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import shutil
import stat
import subprocess
import sys
import tempfile
from datetime import date
from decimal import Decimal
from pathlib import Path

import pytest
from conftest import FIXTURES, ROOT, run_cli

from validator.checking.parallel import Share, Task, check_share, with_rules
from validator.dsl.resources import rulesets_dir
from validator.errors import ValidatorError
from validator.rulebook import sources
from validator.rulebook.registry import read_tree, registry_with

ACME_FILE = (FIXTURES / "external" / "zz" / "acme-blackjack.rules").resolve()
ACME = "zz/acme-blackjack"
PAYS_3_2 = "replace parameter pays.blackjack = 3:2"


def _payload(data: bytes) -> tuple[tuple[str, str, bytes], ...]:
    return ((str(ACME_FILE), hashlib.sha256(data).hexdigest(), data),)


@pytest.fixture
def _restored():
    yield
    sources.use(())


@pytest.mark.usefixtures("_restored")
def test_a_copy_planted_where_a_worker_used_to_install_the_rulesets_is_never_read(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The copy is planted where the worker of the release before issue 42 wrote (and, finding a file
    there, used) the client's ruleset: `<tmp>/casino-validator-rules-<digest of digests>/<digest>/<name>`.
    The worker now writes into a folder of its own, and judges by 6 for 5, as the client does."""
    data = ACME_FILE.read_bytes()
    sha = hashlib.sha256(data).hexdigest()
    monkeypatch.setenv("TMPDIR", str(tmp_path))
    monkeypatch.setattr(tempfile, "tempdir", None)
    key = hashlib.sha256(sha.encode()).hexdigest()[:16]
    planted = tmp_path / f"casino-validator-rules-{key}" / sha[:16] / ACME_FILE.name
    planted.parent.mkdir(parents=True)
    text = data.decode()
    assert "replace parameter pays.blackjack = 6:5" in text
    planted.write_text(text.replace("replace parameter pays.blackjack = 6:5", PAYS_3_2), encoding="utf-8")

    sources.install(_payload(data))
    [installed] = sources.extra()
    assert installed != planted and planted.read_text(encoding="utf-8").count(PAYS_3_2) == 1
    folder = installed.parent
    assert folder.parent == tmp_path.resolve() and folder.name.startswith("casino-validator-rules-")
    assert stat.S_IMODE(folder.stat().st_mode) == 0o700  # tempfile.mkdtemp's: the worker's alone
    version = registry_with(sources.extra()).in_force(ACME, date(2025, 6, 1))
    assert version.parameters["pays.blackjack"].value.factor == Decimal("1.2")  # 6 for 5, the client's
    # Findings and the dataset name the file as the client does, with the digest of the bytes read.
    assert version.file == str(ACME_FILE) and version.tree is not None and version.tree.sha256 == sha


@pytest.mark.usefixtures("_restored")
def test_a_worker_never_uses_a_folder_already_there_nor_one_put_back_in_place_of_its_own(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The worker's folder is drawn by `mkdtemp`; here the draw is forced to name first a folder somebody
    left (mode 0700, holding a 3:2 copy exactly where the worker writes its file): it is passed over. The
    worker's own folder then removed and made again empty under its name (what a cleaner of /tmp and a
    stale folder do), or its file removed, the next task never judges with what is found there: a new
    folder, or the file written again, and 6 for 5 each time (the fixture's text)."""
    data = ACME_FILE.read_bytes()
    sha = hashlib.sha256(data).hexdigest()
    monkeypatch.setenv("TMPDIR", str(tmp_path))
    monkeypatch.setattr(tempfile, "tempdir", None)
    monkeypatch.setattr(sources, "_PRIVATE", [])
    monkeypatch.setattr(sources, "_INSTALLED", {})
    monkeypatch.setattr(tempfile, "_get_candidate_names", lambda: iter(["stale123", "fresh456", "again789"]))
    name = hashlib.sha256(f"{ACME_FILE}\0{sha}".encode()).hexdigest()[:32] + ".rules"
    stale = tmp_path / "casino-validator-rules-stale123"
    stale.mkdir(mode=0o700)
    (stale / name).write_text(data.decode().replace("= 6:5", "= 3:2"), encoding="utf-8")

    def judged_by() -> Decimal:
        version = registry_with(sources.extra()).in_force(ACME, date(2025, 6, 1))
        return version.parameters["pays.blackjack"].value.factor

    sources.install(_payload(data))
    [installed] = sources.extra()
    assert installed == tmp_path.resolve() / "casino-validator-rules-fresh456" / name
    assert judged_by() == Decimal("1.2")  # 6 for 5
    assert (stale / name).read_text(encoding="utf-8").count("= 3:2") == 1  # left as it was, unread

    installed.unlink()  # its file gone: written again, in the same folder
    sources.install(_payload(data))
    assert sources.extra() == (installed,) and installed.read_bytes() == data
    assert judged_by() == Decimal("1.2")

    shutil.rmtree(installed.parent)  # its folder gone, an empty one put in its place
    installed.parent.mkdir(mode=0o700)
    sources.install(_payload(data))
    [again] = sources.extra()
    assert again.parent.name == "casino-validator-rules-again789" and again.read_bytes() == data
    assert list(installed.parent.iterdir()) == []  # the folder put back is never written into
    assert judged_by() == Decimal("1.2")


def test_stale_folders_where_workers_once_installed_never_change_the_law_on_two_workers(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The fault the brief of issue 42 names: a stale folder left in the temporary directory where the
    release before wrote the client's ruleset (`<tmp>/casino-validator-rules-<digest of digests>/<digest>/
    <file name>`, here an empty folder at the file's own name) broke `check --jobs 2 --rules` (that
    release: exit 3, IsADirectoryError, from the worker). Two workers now judge as one process does:
    the fixture's log pays a blackjack on 20 with 30 (3 for 2); the fixture's text pays 24 (6 for 5, 20 x
    6/5), one finding. Starts a local Dask cluster of two workers (a few seconds): the only way to have
    workers read their temporary directory."""
    data = ACME_FILE.read_bytes()
    sha = hashlib.sha256(data).hexdigest()
    temporary = tmp_path / "tmp"
    key = hashlib.sha256(sha.encode()).hexdigest()[:16]
    stale = temporary / f"casino-validator-rules-{key}" / sha[:16] / ACME_FILE.name
    stale.mkdir(parents=True)
    monkeypatch.setenv("TMPDIR", str(temporary))
    monkeypatch.setattr(tempfile, "tempdir", None)
    log = FIXTURES / "external-fixtures" / ACME / "blackjack-pays-6-5" / "fails-paid-3-2.jsonl"
    outputs = []
    for jobs in ("1", "2"):
        done = run_cli(
            *("check", str(log), "--rules", str(ACME_FILE.parent.parent), "-f", "json"),
            *("--no-config", "-q", "--jobs", jobs),
            cwd=tmp_path,
        )
        assert done.returncode == 1, done.stdout + done.stderr
        outputs.append(done.stdout)
    assert outputs[0] == outputs[1]
    report = json.loads(outputs[1])
    assert report["summary"]["rulesets"] == [f"{ACME}@2025-01-01"]
    [finding] = report["findings"]
    assert finding["rule"] == f"{ACME}/blackjack-pays-6-5"
    assert (finding["expected"], finding["actual"]) == ({"pay": "24"}, {"pay": "30"})
    assert stale.is_dir() and list(stale.iterdir()) == []


@pytest.mark.usefixtures("_restored")
def test_a_worker_refuses_its_copy_changed_after_it_was_written(tmp_path: Path) -> None:
    data = ACME_FILE.read_bytes()
    sources.install(_payload(data))
    [installed] = sources.extra()
    installed.write_text(data.decode().replace("= 6:5", "= 3:2"), encoding="utf-8")
    with pytest.raises(ValidatorError, match="changed before it was read"):
        read_tree(installed)


@pytest.mark.usefixtures("_restored")
def test_a_share_sends_back_the_files_and_digests_its_worker_judged_with(tmp_path: Path) -> None:
    """What `check --jobs`/`--scheduler` workers run: the share's tally names the client's file with the
    digest of the bytes the client sent (the dataset's `ruleset_files` lists them with the client's)."""
    log = (
        FIXTURES
        / "external-fixtures"
        / "zz"
        / "acme-blackjack"
        / "blackjack-pays-6-5"
        / "fails-paid-3-2.jsonl"
    )
    data = ACME_FILE.read_bytes()
    share = Share(str(log), None, 0, 1, True, location=str(log))
    [result] = with_rules(_payload(data), lambda: [check_share(share, Task(ACME, None))])
    assert result.stopped is None and result.summary.rounds_with_findings == 1
    judged = {(file, sha) for file, _version, sha in result.summary.judged_by}
    assert (str(ACME_FILE), hashlib.sha256(data).hexdigest()) in judged
    assert not any("casino-validator-rules-" in file for file, _sha in judged)


def test_the_dataset_records_the_bytes_judged_not_the_file_as_it_is_at_the_end(tmp_path: Path) -> None:
    """The ruleset is changed while `check -` waits for the rest of its log: the run's record gives the
    digest of the bytes it read at the start (it used to read the file again at its commit)."""
    pytest.importorskip("pyarrow")
    import pyarrow.parquet as pq

    rules = tmp_path / "acme.rules"
    data = ACME_FILE.read_bytes()
    rules.write_bytes(data)
    log = (
        FIXTURES
        / "external-fixtures"
        / "zz"
        / "acme-blackjack"
        / "blackjack-pays-6-5"
        / "fails-paid-3-2.jsonl"
    )
    process = subprocess.Popen(
        [
            *(sys.executable, "-P", "-m", "validator", "check", "-", "--rules", str(rules)),
            *("--ruleset", ACME, "--dataset", "ds", "--no-config", "-f", "jsonl"),
        ],
        cwd=tmp_path,
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    assert process.stdin is not None and process.stdout is not None and process.stderr is not None
    process.stdin.write(log.read_bytes())
    process.stdin.flush()
    first = process.stdout.readline()  # the round's finding: the ruleset was read, the run waits for more
    assert b"blackjack-pays-6-5" in first, process.stderr.read()
    rules.write_bytes(data.replace(b"= 6:5", b"= 3:2"))
    process.stdin.close()
    assert process.wait(timeout=60) == 1, process.stderr.read()
    [run] = [pq.read_table(path).to_pylist()[0] for path in (tmp_path / "ds" / "runs").glob("*.parquet")]
    recorded = {entry["file"]: entry["sha256"] for entry in run["ruleset_files"]}
    assert recorded[str(rules.resolve())] == hashlib.sha256(data).hexdigest()


def _sibling(folder: Path) -> None:
    """A file declaring `ruleset fr/blackjack` in force 1990-2000: the 2013 wording, redated."""
    text = (rulesets_dir() / "fr" / "blackjack" / "2013-12-15.rules").read_text(encoding="utf-8")
    redated = re.sub(r"(?m)^in force from .*$", "in force from 1990-01-01 until 2000-12-31", text)
    assert redated != text
    (folder / "old-french.rules").write_text(redated, encoding="utf-8")


CITING = """ruleset zz/cites-old
title "Citing an old text (test fixture, not law)"
source "none"
game blackjack
in force from 2025-01-01
parameter shoe.decks = 6  ref "Texte Z, art. 1"
rule six-decks {
    ref "Texte Z, art. 1"
    severity error
    message "The shoe must hold six decks; it holds {shoe.decks}."
    same check as fr/blackjack@1999-01-01 rule six-decks
}
"""


def test_a_file_beside_the_one_named_never_answers_a_citation(tmp_path: Path) -> None:
    _sibling(tmp_path)
    (tmp_path / "cites.rules").write_text(CITING, encoding="utf-8")
    alone = run_cli("rules", "check", str(tmp_path / "cites.rules"))
    assert alone.returncode == 2
    assert alone.stderr.strip() == (
        f"{tmp_path}/cites.rules:11:5: "
        "no version of fr/blackjack is in force on 1999-01-01 to take a check from"
    )
    used = run_cli("rules", "list", "--rules", str(tmp_path / "cites.rules"))
    assert used.returncode == 2 and "1999-01-01" in used.stderr
    # Named to a run, the sibling is what it is: a shipped id from outside, refused. (Named to `rules
    # check`, it is an author's candidate for a version of the shipped text: docs/rules-language.md.)
    both = run_cli("rules", "list", "--rules", str(tmp_path))
    assert both.returncode == 2
    assert "ruleset fr/blackjack is shipped with casino-validator" in both.stderr


def test_a_file_beside_the_one_named_is_never_amended(tmp_path: Path) -> None:
    _sibling(tmp_path)
    amending = CITING.replace(
        "ruleset zz/cites-old\n", "ruleset zz/cites-old\namends fr/blackjack@1999-01-01\n"
    )
    amending = amending[: amending.index("parameter shoe.decks")]
    (tmp_path / "amends.rules").write_text(amending, encoding="utf-8")
    alone = run_cli("rules", "check", str(tmp_path / "amends.rules"))
    assert alone.returncode == 2
    assert "no version of fr/blackjack in force on 1999-01-01 to amend" in alone.stderr
    assert "old-french.rules" not in alone.stderr


def test_a_worker_writes_nothing_it_was_not_sent(tmp_path: Path) -> None:
    """Run in a fresh process, as a worker is: its private folder holds the files sent, each written
    whole, and nothing of the shared temporary directory is used."""
    script = (
        "import sys, os; from pathlib import Path; from validator.rulebook import sources;"
        f"data = Path({str(ACME_FILE)!r}).read_bytes(); import hashlib;"
        f"sources.install((({str(ACME_FILE)!r}, hashlib.sha256(data).hexdigest(), data),));"
        "[p] = sources.extra(); print(p.parent); print(sorted(os.listdir(p.parent)))"
    )
    done = subprocess.run(
        [sys.executable, "-P", "-c", script],
        env={**os.environ, "TMPDIR": str(tmp_path)},
        capture_output=True,
        text=True,
        cwd=ROOT,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    folder, listing = done.stdout.splitlines()
    assert Path(folder).parent == tmp_path.resolve()
    assert len(eval(listing)) == 1 and eval(listing)[0].endswith(".rules")
    assert not Path(folder).exists()  # removed when the process ended
