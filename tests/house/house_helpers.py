"""Helpers of the house-rules tests: writing house files and logs, running `lint` and `check`."""

from __future__ import annotations

import json
from decimal import Decimal
from pathlib import Path
from typing import Any

import yaml
from conftest import run_cli

from validator.dsl.ast import Ratio
from validator.dsl.model import Ruleset


def yaml_value(value: Any) -> Any:
    """A rule value as a casino writes it in YAML: numbers as numbers, ratios as quoted text."""
    if isinstance(value, Ratio):
        return f"{value.numerator}:{value.denominator}"
    if isinstance(value, Decimal):
        return int(value) if value == value.to_integral_value() else float(value)
    return value


def spec_of(ruleset: Ruleset) -> str:
    """The `ruleset` a house entry writes to lint against exactly this version."""
    return ruleset.version


def write_house(tmp_path: Path, tables: dict[str, dict[str, Any]], name: str = "house.yaml") -> Path:
    path = tmp_path / name
    document = {"format": "house-rules/1", "casino": "Casino de test", "tables": tables}
    path.write_text(yaml.safe_dump(document, sort_keys=False, allow_unicode=True), encoding="utf-8")
    return path


def write_text(tmp_path: Path, text: str, name: str = "house.yaml") -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def lint(path: Path, *args: str) -> tuple[int, list[dict[str, Any]], str]:
    """`casino-validator lint PATH -f jsonl`: exit status, findings, standard error."""
    result = run_cli("lint", str(path), "--format", "jsonl", *args)
    findings = [json.loads(line) for line in result.stdout.splitlines() if line.strip()]
    return result.returncode, findings, result.stderr


def write_log(tmp_path: Path, records: list[dict[str, Any]], name: str = "log.jsonl") -> Path:
    path = tmp_path / name
    path.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in records), encoding="utf-8")
    return path


def check(log: Path, *args: str) -> tuple[int, list[dict[str, Any]], str]:
    """`casino-validator check LOG -f jsonl ARGS`: exit status, findings, standard error."""
    result = run_cli("check", str(log), "--format", "jsonl", "--quiet", *args)
    findings = [json.loads(line) for line in result.stdout.splitlines() if line.strip()]
    return result.returncode, findings, result.stderr
