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


def test_the_decoder_reads_fast_exactly_what_the_schema_s_closed_list_matches():
    """The schema names stakes by shape (an open pattern); its `x-read-fast` closed pattern lists what the
    decoder reads fast, every one of which the open pattern allows."""
    schema = json.loads(files("validator.schemas").joinpath("hand-log.schema.json").read_text("utf-8"))
    (choice,) = [c for c in schema["$defs"]["stake"]["anyOf"] if "pattern" in c]
    shape, fast = choice["pattern"], choice["x-read-fast"]
    listed = set(decode.STAKES) - set(decode.HANDS)
    assert all(re.fullmatch(shape.strip("^$"), value) for value in listed)
    # Every string of the closed pattern's alphabet and shape that matches is listed: try each box with each
    # name the pattern's text contains, with and without a case.
    names = re.findall(r"[a-z_0-9]+", fast)
    candidates = {f"{box}:{a}" for box in "1234567" for a in names} | {
        f"{box}:{a}:{b}" for box in "1234567" for a in names for b in names
    }
    assert {c for c in candidates if re.fullmatch(fast.strip("^$"), c)} == listed
    assert "4:hyper:blackjack" in listed and "1:lucky_ladies" in listed and "1:hyper" not in listed
    # A bet only a ruleset from outside declares is valid by shape, not read fast.
    assert re.fullmatch(shape.strip("^$"), "2:perfect_pairs") and "2:perfect_pairs" not in listed
