"""Rulesets from outside the package (issue 24): `--rules`, the configuration file's `rules` and
CASINO_VALIDATOR_RULES, through the real command.

The fixture `zz/acme-blackjack` (tests/fixtures/external, not law) is the French text of 2024-11-01
amended to pay a blackjack 6 for 5 from 2025-01-01; `zz/perfect-pairs` (tests/fixtures/external-side-bet)
adds an invented side bet no shipped ruleset declares. Expected amounts come from those texts: a
blackjack on 20 pays 24 at 6 for 5 and 30 at 3 for 2; a pair pays 6 to 1, a suited pair 25 to 1.
"""

from __future__ import annotations

import json
from decimal import Decimal
from pathlib import Path

import pytest
from conftest import FIXTURES, run_cli

EXTERNAL = FIXTURES / "external"
SIDE_BET = FIXTURES / "external-side-bet"
ACME = "zz/acme-blackjack"


def acme(*args: str, cwd: Path | None = None, how: str = "option", tmp: Path | None = None):
    """Run the command with the fixture folder given one of the three ways."""
    if how == "option":
        return run_cli(*args, "--rules", str(EXTERNAL), cwd=cwd)
    if how == "config":
        assert tmp is not None
        (tmp / "casino-validator.toml").write_text(f'rules = ["{EXTERNAL}"]\n', encoding="utf-8")
        return run_cli(*args, cwd=tmp)
    assert how == "environment"
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("CASINO_VALIDATOR_RULES", str(EXTERNAL))
        return run_cli(*args, cwd=cwd)


@pytest.mark.parametrize("how", ["option", "config", "environment"])
def test_rules_list_show_diff_and_test_read_a_ruleset_from_outside(tmp_path: Path, how: str) -> None:
    listed = acme("rules", "list", how=how, tmp=tmp_path, cwd=tmp_path)
    assert listed.returncode == 0, listed.stderr
    assert f"  {ACME}@2025-01-01 from 2025-01-01 (in force)" in listed.stdout
    shown = acme("rules", "show", f"{ACME}@2025-06-01", how=how, tmp=tmp_path, cwd=tmp_path)
    assert shown.returncode == 0, shown.stderr
    assert "pays.blackjack = 6:5" in shown.stdout
    diff = acme(
        "rules", "diff", "fr/blackjack@2024-11-01", f"{ACME}@2025-01-01", how=how, tmp=tmp_path, cwd=tmp_path
    )
    assert diff.returncode == 0, diff.stderr
    lines = diff.stdout.splitlines()
    # It opens with the changes: the parameter, then the rule repealed and the rule added.
    assert lines[3:7] == ["Parameters", "  ~ pays.blackjack:", "      was: 3:2", "      now: 6:5"]
    assert any(line.startswith("  - blackjack-pays-3-2:") for line in lines)
    assert any(line.startswith("  + blackjack-pays-6-5:") for line in lines)
    tested = acme("rules", "test", str(FIXTURES / "external-fixtures"), how=how, tmp=tmp_path, cwd=tmp_path)
    assert tested.returncode == 0, tested.stdout + tested.stderr
    assert "PASS: 2/2" in tested.stdout


def test_without_the_rules_the_ruleset_is_unknown(tmp_path: Path) -> None:
    done = run_cli("rules", "show", ACME, cwd=tmp_path)
    assert done.returncode == 2
    assert f"unknown ruleset '{ACME}'" in done.stderr


def test_a_shipped_id_is_refused_never_shadowed(tmp_path: Path) -> None:
    copy = tmp_path / "copy.rules"
    copy.write_text(
        (EXTERNAL / "zz" / "acme-blackjack.rules")
        .read_text()
        .replace(f"ruleset {ACME}", "ruleset fr/blackjack"),
        encoding="utf-8",
    )
    done = run_cli("rules", "list", "--rules", str(copy), cwd=tmp_path)
    assert done.returncode == 2, done.stdout
    assert (
        f"{copy}:8:9: ruleset fr/blackjack is shipped with casino-validator: a ruleset from outside "
        "cannot replace it or add a version to it"
    ) in done.stderr
    assert "Traceback" not in done.stderr
    # `rules check` of the same file checks it as a contributor's candidate new version of the shipped
    # family (issue 41): never shadowing the law either, it meets the version in force from 2024-11-01,
    # which has no end, and is refused for overlapping it.
    done = run_cli("rules", "check", str(copy), cwd=tmp_path)
    assert done.returncode == 2, done.stdout
    assert (
        f"{copy}:1:1: fr/blackjack: the version in force from 2025-01-01 overlaps the one of " in done.stderr
    )
    assert "Traceback" not in done.stderr


def test_a_missing_rules_path_is_exit_2(tmp_path: Path) -> None:
    done = run_cli("rules", "list", "--rules", str(tmp_path / "nowhere"), cwd=tmp_path)
    assert done.returncode == 2
    assert f"--rules {tmp_path / 'nowhere'}: no such file or directory" in done.stderr


@pytest.fixture(scope="module")
def seance(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A clean séance played by zz/acme-blackjack (its blackjacks paid 6 for 5)."""
    folder = tmp_path_factory.mktemp("acme")
    log = folder / "acme.jsonl"
    done = run_cli(
        "simulate",
        "--ruleset",
        f"{ACME}@2025-03-01",
        "--rounds",
        "400",
        "-q",
        "-o",
        str(log),
        "--rules",
        str(EXTERNAL),
    )
    assert done.returncode == 0, done.stderr
    return log


def test_simulate_then_check_a_clean_seance_in_one_process_and_on_two_workers(seance: Path) -> None:
    one = acme("check", str(seance), "-f", "json", "--no-config")
    assert one.returncode == 0, one.stdout + one.stderr
    summary = json.loads(one.stdout)["summary"]
    assert summary["rulesets"] == [f"{ACME}@2025-01-01"] and summary["rounds"]["clean"] == 400
    two = acme("check", str(seance), "-f", "json", "--no-config", "--jobs", "2", "-q")
    assert two.returncode == 0, two.stderr
    assert two.stdout == one.stdout


def test_a_blackjack_paid_3_2_is_a_payout_finding_in_one_process_and_on_two_workers(tmp_path: Path) -> None:
    """A séance played by the French text (blackjacks paid 3 for 2), judged by the fixture's 6 for 5: every
    blackjack is a payout finding of the fixture's rule, and nothing else is."""
    log = tmp_path / "fr.jsonl"
    done = run_cli(
        "simulate", "--ruleset", "fr/blackjack@2025-03-01", "--rounds", "300", "-q", "-o", str(log)
    )
    assert done.returncode == 0, done.stderr
    blackjacks = 0
    for line in log.read_text().splitlines():
        record = json.loads(line)
        if record["type"] != "round":
            continue
        for bet in record["bets"]:
            stake = bet["stake"]
            first_two = [a[2] for a in record["actions"] if a[0] == "deal" and a[1] == stake][:2]
            ranks = sorted(card[:-1] for card in first_two)
            split = any(a[0] == "split" and a[1] == stake for a in record["actions"])
            if len(ranks) == 2 and ranks[0] == "A" and ranks[1] in ("T", "J", "Q", "K") and not split:
                blackjacks += 1
    assert blackjacks > 5
    for extra in ((), ("--jobs", "2", "-q")):
        checked = acme("check", str(log), "--ruleset", ACME, "-f", "jsonl", "--no-config", *extra)
        assert checked.returncode == 1, checked.stderr
        findings = [json.loads(x) for x in checked.stdout.splitlines()]
        assert {f["rule"] for f in findings} == {f"{ACME}/blackjack-pays-6-5"}
        for finding in findings:
            paid = Decimal(finding["actual"]["pay"])
            assert Decimal(finding["expected"]["pay"]) == paid / Decimal("1.5") * Decimal("1.2")
        # Some blackjacks lose their payment to a dealer's blackjack (a push): never more findings.
        assert 0 < len(findings) <= blackjacks


# On the worker that computes the French figures for tests/maths/test_edge.py (the same group): once.
@pytest.mark.xdist_group("edge-fr-blackjack-2024-11-01")
def test_edge_is_about_1_4_points_above_the_french_text() -> None:
    mine = acme("edge", "--ruleset", ACME, "--format", "json")
    french = run_cli("edge", "--ruleset", "fr/blackjack@2024-11-01", "--format", "json")
    assert mine.returncode == french.returncode == 0, mine.stderr
    ours = Decimal(json.loads(mine.stdout)["main"]["house_edge_percent"])
    theirs = Decimal(json.loads(french.stdout)["main"]["house_edge_percent"])
    # 6 for 5 instead of 3 for 2 takes 0.3 units from every blackjack, about 4.5 % of hands: 1.36 points.
    assert Decimal("1.2") < ours - theirs < Decimal("1.6")


def test_lint_a_house_file_naming_the_ruleset(tmp_path: Path) -> None:
    house = tmp_path / "house.yaml"
    house.write_text(
        "format: house-rules/1\ncasino: Casino Acme\ntables:\n  T-01:\n    ruleset: zz/acme-blackjack\n"
        "    minimum: 10\n    maximum: 1000\n    options:\n      surrender: true\n",
        encoding="utf-8",
    )
    done = acme("lint", str(house), "--date", "2025-06-01", "--no-config")
    assert done.returncode == 0, done.stdout + done.stderr
    bad = house.read_text().replace("surrender: true", "surrender: maybe")
    house.write_text(bad, encoding="utf-8")
    refused = acme("lint", str(house), "--date", "2025-06-01", "--no-config")
    assert refused.returncode in (1, 2) and "surrender" in refused.stdout + refused.stderr


def test_the_dataset_names_each_ruleset_file_with_its_digest_and_report_reads_it(
    seance: Path, tmp_path: Path
) -> None:
    import hashlib

    pytest.importorskip("pyarrow")
    dataset = tmp_path / "ds"
    done = acme("check", str(seance), "--dataset", str(dataset), "--no-config", "-q")
    assert done.returncode == 0, done.stderr
    import pyarrow.parquet as pq

    [runs] = [pq.read_table(path).to_pylist() for path in (dataset / "runs").glob("*.parquet")]
    files = {entry["file"]: entry for entry in runs[0]["ruleset_files"]}
    acme_file = str((EXTERNAL / "zz" / "acme-blackjack.rules").resolve())
    assert files[acme_file]["version"] == f"{ACME}@2025-01-01"
    assert files[acme_file]["sha256"] == hashlib.sha256(Path(acme_file).read_bytes()).hexdigest()
    # The chain of versions it amends is named too: the French text it starts from, and what that amends.
    assert (
        "rulesets/fr/blackjack/2024-11-01.rules" in files
        and "rulesets/fr/blackjack/2013-12-15.rules" in files
    )
    page = tmp_path / "audit.html"
    report = acme("report", str(dataset), "-o", str(page))
    assert report.returncode == 0, report.stderr
    assert ACME in page.read_text(encoding="utf-8")


def test_a_side_bet_only_a_ruleset_from_outside_declares_is_settled_by_it(tmp_path: Path) -> None:
    log = tmp_path / "pp.jsonl"
    done = run_cli(
        "simulate", "--ruleset", "zz/perfect-pairs@2025-03-01", "--rounds", "300", "-q", "-o", str(log),
        "--rules", str(SIDE_BET),
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    # Each round gets a perfect pairs bet of 10 on its first box, settled by the invented text: a pair of
    # the same rank and suit 25 to 1 (250), of the same rank 6 to 1 (60), lost otherwise; the first pair
    # paid is paid twice what it should.
    out, paid, doubled = [], 0, None
    for line in log.read_text().splitlines():
        record = json.loads(line)
        if record["type"] == "money":
            continue  # the carnet simulate wrote: the rounds edited here would no longer match it
        if record["type"] == "round" and record["bets"]:
            box = record["bets"][0]["stake"].split("/")[0]
            cards = [a[2] for a in record["actions"] if a[0] == "deal" and a[1] in (box, f"{box}/1")][:2]
            if len(cards) == 2:
                record["bets"].append(
                    {
                        "stake": f"{box}:perfect_pairs",
                        "amount": 10,
                        "player": record["bets"][0]["player"],
                        "seated": True,
                    }
                )
                same_rank, same_suit = cards[0][:-1] == cards[1][:-1], cards[0][-1] == cards[1][-1]
                pay = 250 if same_rank and same_suit else 60 if same_rank else 0
                if pay and doubled is None:
                    doubled, pay = record["round"], pay * 2
                paid += bool(pay)
                action = ["pay", f"{box}:perfect_pairs", pay] if pay else ["lose", f"{box}:perfect_pairs"]
                record["actions"].append(action)
        out.append(json.dumps(record))
    log.write_text("\n".join(out) + "\n", encoding="utf-8")
    assert paid > 3
    checked = run_cli("check", str(log), "-f", "jsonl", "--no-config", "--rules", str(SIDE_BET))
    assert checked.returncode == 1, checked.stderr
    [finding] = [json.loads(x) for x in checked.stdout.splitlines()]
    assert finding["rule"] == "zz/perfect-pairs/perfect-pairs-paytable" and finding["round"] == doubled
    assert finding["actual"]["pay"] == str(int(finding["expected"]["pay"]) * 2)
    # Without the ruleset that declares it, the same log cannot be judged: its table names an unknown one.
    unknown = run_cli("check", str(log), "--no-config")
    assert unknown.returncode == 2 and "unknown ruleset 'zz/perfect-pairs'" in unknown.stderr


def test_the_stakes_read_fast_are_the_bets_the_shipped_rulesets_declare() -> None:
    """The schema names stakes by shape; its `x-read-fast` list (the msgspec decoder's fast path) holds
    exactly the shipped rulesets' bets, insurance and bataille's war, so a new shipped side bet is read fast
    and a bet only a ruleset from outside declares is still read (by the slow path)."""
    from validator.logs.decode import _side_stakes
    from validator.rulebook.registry import registry_with

    declared = {"insurance", "war"}
    for ruleset in registry_with(()).all():
        for bet in ruleset.side_bets.values():
            declared |= {f"{bet.stake_name}:{case}" for case in bet.cases} if bet.cases else {bet.stake_name}
    fast = {stake.split(":", 1)[1] for stake in _side_stakes()}
    assert fast == declared
