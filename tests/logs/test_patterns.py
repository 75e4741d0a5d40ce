"""The schema's closed patterns expanded into the lists the msgspec decoder uses."""

from __future__ import annotations

import json
import re
from importlib.resources import files

import pytest

from validator.logs import decode
from validator.logs.patterns import OpenPattern, expand


def test_a_closed_pattern_is_listed_in_order():
    assert expand("^[1-3]:(a|bc|d:(x|y))$") == (
        "1:a", "1:bc", "1:d:x", "1:d:y",
        "2:a", "2:bc", "2:d:x", "2:d:y",
        "3:a", "3:bc", "3:d:x", "3:d:y",
    )  # fmt: skip


@pytest.mark.parametrize("pattern", ["^[0-9]+$", "^a.b$", "^a\\d$", "a|b", "^(a|b$", "^a{2}$", "^[^a]$"])
def test_an_open_pattern_is_refused(pattern):
    with pytest.raises(OpenPattern):
        expand(pattern)


def test_the_decoder_lists_exactly_what_the_schema_s_stake_pattern_matches():
    schema = json.loads(files("validator.schemas").joinpath("hand-log.schema.json").read_text("utf-8"))
    (pattern,) = [c["pattern"] for c in schema["$defs"]["stake"]["anyOf"] if "pattern" in c]
    listed = set(decode.STAKES) - set(decode.HANDS)
    assert all(re.fullmatch(pattern.strip("^$"), value) for value in listed)
    # Every string of the pattern's alphabet and shape that matches is listed: try each box with each
    # name the pattern's text contains, with and without a case.
    names = re.findall(r"[a-z_0-9]+", pattern)
    candidates = {f"{box}:{a}" for box in "1234567" for a in names} | {
        f"{box}:{a}:{b}" for box in "1234567" for a in names for b in names
    }
    assert {c for c in candidates if re.fullmatch(pattern.strip("^$"), c)} == listed
    assert "4:hyper:blackjack" in listed and "1:lucky_ladies" in listed and "1:hyper" not in listed
