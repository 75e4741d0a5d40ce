"""Hypothesis strategies that damage real inputs: hand-log/1 logs, house-rules/1 files and rulesets.

Each starts from a file the project ships (a sample log, a house file, a ruleset) and applies one to
four damages of the kinds that broke the command before issue 15: byte flips, deletions, duplicated or
swapped lines, values of another type, numbers of thousands of digits, bad string escapes, YAML tags,
nesting hundreds deep, long `and`/`+` chains, placeholders reaching for Python objects, and compressed
bombs (a small gzip of a great many blank or identical lines).
"""

from __future__ import annotations

import gzip
from functools import cache
from pathlib import Path

import orjson
from hypothesis import strategies as st

ROOT = Path(__file__).resolve().parents[2]
SAMPLES = ROOT / "samples"

# How many lines of a sample log a case starts from: enough for tables, shoes and a few rounds.
LOG_LINES = 40


@cache
def seed_logs() -> tuple[bytes, ...]:
    logs = []
    for path in sorted((SAMPLES / "logs").rglob("*.jsonl*")):
        data = path.read_bytes()
        if path.suffix == ".gz":
            data = gzip.decompress(data)
        logs.append(b"".join(data.splitlines(keepends=True)[:LOG_LINES]))
    return tuple(logs)


@cache
def seed_houses() -> tuple[bytes, ...]:
    return tuple(p.read_bytes() for p in sorted((SAMPLES / "house").glob("*.yaml")))


# The rulesets that pass `rules check` as they are: every version the project ships (amendments included:
# each is checked beside the versions it amends, in a copy of its folder), and the valid test rulesets.
# The fixtures made to fail (tests/fixtures/rulesets/*.rules but these) are not seeds: a mutation of a
# file refused before any mutation tests nothing the original does not.
VALID_FIXTURE_RULESETS = ("valid-minimal.rules", "overlap-a.rules", "overlap-b.rules", "amended/*.rules")


@cache
def seed_rulesets() -> tuple[tuple[Path, bytes], ...]:
    """(the file's path, its bytes) for each seed: the case is written in place of the file, in a copy of
    its folder."""
    fixtures = ROOT / "tests" / "fixtures" / "rulesets"
    files = sorted((ROOT / "rulesets").rglob("*.rules"))
    for pattern in VALID_FIXTURE_RULESETS:
        files += sorted(fixtures.glob(pattern))
    return tuple((p, p.read_bytes()) for p in files)


# ---------------------------------------------------------------- damages common to every kind of file

HUGE = b"9" * 5000


def _flip(data: bytes, draw) -> bytes:
    if not data:
        return data
    at = draw(st.integers(0, len(data) - 1))
    return data[:at] + bytes([data[at] ^ draw(st.integers(1, 255))]) + data[at + 1 :]


def _delete(data: bytes, draw) -> bytes:
    if not data:
        return data
    start = draw(st.integers(0, len(data) - 1))
    return data[:start] + data[start + draw(st.integers(1, 64)) :]


def _insert(data: bytes, draw, piece: bytes) -> bytes:
    at = draw(st.integers(0, len(data)))
    return data[:at] + piece + data[at:]


def _lines(data: bytes, draw) -> bytes:
    lines = data.split(b"\n")
    if len(lines) < 2:
        return data
    i = draw(st.integers(0, len(lines) - 1))
    j = draw(st.integers(0, len(lines) - 1))
    match draw(st.sampled_from(["drop", "double", "swap", "repeat"])):
        case "drop":
            del lines[i]
        case "double":
            lines.insert(i, lines[i])
        case "swap":
            lines[i], lines[j] = lines[j], lines[i]
        case "repeat":  # a damaged export repeating one line
            lines[i:i] = [lines[i]] * draw(st.integers(2, 300))
    return b"\n".join(lines)


def _replace_token(data: bytes, draw, pattern: bytes, pieces: list[bytes]) -> bytes:
    """Replace one occurrence of `pattern` (a literal) by one of `pieces`."""
    count = data.count(pattern)
    if not count:
        return _insert(data, draw, draw(st.sampled_from(pieces)))
    nth = draw(st.integers(0, min(count, 200) - 1))
    at = -1
    for _ in range(nth + 1):
        at = data.index(pattern, at + 1)
    return data[:at] + draw(st.sampled_from(pieces)) + data[at + len(pattern) :]


# ---------------------------------------------------------------- logs

JSON_VALUES = [
    b"null",
    b"0",
    b"-1",
    b"1e400",
    b"-0.0",
    b"18446744073709551616",
    HUGE,
    b'"' + HUGE + b'"',
    b'"x"',
    b'""',
    b"[]",
    b"{}",
    b"true",
    b'"\\ud800"',  # a lone surrogate
    b'"\\x"',  # not a JSON escape
    b'"\\u12"',
    b"[" * 2000 + b"]" * 2000,  # nesting a thousand deep
    b'{"a":' * 300 + b"1" + b"}" * 300,
    b'"' + b"A" * 100_000 + b'"',
    b'"2025-13-45T25:61:61+99:99"',
    b'"1:lucky_ladies"',
    b'"NaN"',
    b'"-0"',
    b'"1e-400"',
]


@st.composite
def _log_damage(draw, data: bytes) -> bytes:
    kind = draw(
        st.sampled_from(["flip", "delete", "lines", "value", "key", "type", "bytes", "truncate", "field"])
    )
    if kind == "flip":
        return _flip(data, draw)
    if kind == "delete":
        return _delete(data, draw)
    if kind == "lines":
        return _lines(data, draw)
    if kind == "truncate":
        return data[: draw(st.integers(0, len(data)))]
    if kind == "bytes":
        piece = draw(
            st.sampled_from(
                [b"\n" * 50, b"\xef\xbb\xbf", b"\xff\xfe", b"\x00", b"\r\n", b"   \t\n", b"\xc3("]
            )
        )
        return _insert(data, draw, piece)
    lines = data.split(b"\n")
    i = draw(st.integers(0, len(lines) - 1))
    try:
        record = orjson.loads(lines[i])
    except orjson.JSONDecodeError:
        return _flip(data, draw)
    if not isinstance(record, dict) or not record:
        return _flip(data, draw)
    key = draw(st.sampled_from(sorted(record)))
    try:
        orjson.dumps(record)
    except orjson.JSONEncodeError:  # nested deeper than orjson writes, by an earlier damage
        return _flip(data, draw)
    if kind == "key":
        del record[key]
        lines[i] = orjson.dumps(record)
    elif kind == "type":
        record["type"] = draw(
            st.sampled_from([None, "rnd", 7, ["round"], {"t": 1}, "shoe", "round", "table"])
        )
        if draw(st.booleans()):
            record.pop("round", None)
        lines[i] = orjson.dumps(record)
    elif kind == "field":  # a nested value of another type (an action, a bet, a card)
        value = record[key]
        if isinstance(value, list) and value:
            j = draw(st.integers(0, len(value) - 1))
            marker = "@@VALUE@@"
            value[j] = marker
            lines[i] = orjson.dumps(record).replace(
                b'"' + marker.encode() + b'"', draw(st.sampled_from(JSON_VALUES))
            )
        else:
            kind = "value"
    if kind == "value":
        marker = "@@VALUE@@"
        record[key] = marker
        lines[i] = orjson.dumps(record).replace(
            b'"' + marker.encode() + b'"', draw(st.sampled_from(JSON_VALUES))
        )
    return b"\n".join(lines)


@st.composite
def logs(draw) -> tuple[bytes, bool]:
    """(the log's bytes as written to disk, whether they are gzip)."""
    data = draw(st.sampled_from(seed_logs()))
    for _ in range(draw(st.integers(1, 4))):
        data = draw(_log_damage(data))
    kind = draw(st.sampled_from(["plain"] * 6 + ["gzip", "bomb"]))
    if kind == "plain":
        return data, False
    if kind == "bomb":  # a small gzip that unfolds into a great many blank or identical lines
        line = draw(st.sampled_from([b"\n", b'{"type":"round"}\n', b"{\n", b'{"type": null}\n', b"   \n"]))
        data += line * draw(st.integers(10_000, 200_000))
    zipped = gzip.compress(data, compresslevel=6, mtime=0)
    if draw(st.integers(0, 9)) == 0:  # a damaged gzip stream
        zipped = _flip(zipped, draw) if draw(st.booleans()) else zipped[: draw(st.integers(0, len(zipped)))]
    return zipped, True


# ---------------------------------------------------------------- house-rules files

# Values a house file may well hold, right or wrong for the key they land on (read, then linted).
PLAIN_YAML_VALUES = [
    b"0",
    b"-5",
    b"1.5",
    b"true",
    b"false",
    b"A",
    b'"Z"',
    b"1e10",
    b"12345678901234567890123456789012345",
    b'"7.50"',
    b"[]",
    b"{}",
    b"{paytable: Z, minimum: 100, maximum: 1}",
    b"fr/blackjack@2016-06-10",
    b"fr/bataille",
    b"nope/x",
    b"''",
]

# Ratios a house file may write (as text): digits int() refuses, too many digits, zeros, signs, spaces.
ODD_RATIOS = [
    "3:²".encode(),
    "٣:٢".encode(),  # Arabic-Indic digits: str.isdigit says yes
    "３:２".encode(),  # full-width digits
    b"3:" + HUGE,
    HUGE + b":2",
    b"1:0",
    b"0:0",
    b"-3:2",
    b"3:-2",
    b"3.5:2",
    b"3 : 2",
    b"3:2:1",
    b":2",
    b"3:",
    b"0x3:2",
    b"1_000:1",
]

YAML_VALUES = [
    b"2025-13-45",
    b"!!float abc",
    b"!!int abc",
    b"!!bool maybe",
    b"!!timestamp nope",
    b"!!binary '@@'",
    b"!!python/object/apply:os.system ['touch /tmp/casino-validator-fuzz-ran']",
    b"!!set {a}",
    b"!!omap [a: 1]",
    b"!!str [1]",
    b"!custom x",
    HUGE,
    b"0x" + b"f" * 5000,
    b"0o" + b"7" * 5000,
    b":".join([b"59"] * 3000),
    b"1e400",
    b".nan",
    b"-.inf",
    b"3:2",
    b"'3:2'",
    b"null",
    b"~",
    b"[" * 500 + b"]" * 500,
    b"{a: " * 100 + b"1" + b"}" * 100,
    b"&anchor x",
    b"*alias",
    b"\x01",
    b'"\\N{NOPE}"',
    b'"\\x"',
    b"on",
    b"[1, 2",
    b"|\n  block\n",
]


@st.composite
def houses(draw) -> bytes:
    data = draw(st.sampled_from(seed_houses()))
    for _ in range(draw(st.integers(1, 4))):
        kind = draw(
            st.sampled_from(
                [
                    "flip",
                    "delete",
                    "lines",
                    "value",
                    "key",
                    "bytes",
                    "nesting",
                    *["plain"] * 3,
                    *["ratio"] * 2,
                ]
            )
        )
        if kind == "ratio":
            data = _replace_token(data, draw, b'"3:2"', [b'"' + r + b'"' for r in ODD_RATIOS])
        elif kind == "flip":
            data = _flip(data, draw)
        elif kind == "delete":
            data = _delete(data, draw)
        elif kind == "lines":
            data = _lines(data, draw)
        elif kind == "value":
            data = _replace_token(data, draw, b": ", [b": " + v + b" #" for v in YAML_VALUES])
        elif kind == "plain":
            data = _replace_token(data, draw, b": ", [b": " + v + b" #" for v in PLAIN_YAML_VALUES])
        elif kind == "key":
            data = _replace_token(
                data,
                draw,
                b"\n  ",
                [b"\n  01:\n  ", b"\n  on: 1\n  ", b"\n  <<: {}\n  ", b"\n  ? [a]\n  : 1\n  "],
            )
        elif kind == "bytes":
            data = _insert(
                data,
                draw,
                draw(
                    st.sampled_from(
                        [b"\t", b"\x00", b"\xff", b"\x85", b"\xef\xbb\xbf", b"\r", b"---\n", b"..."]
                    )
                ),
            )
        else:
            depth = draw(st.integers(30, 1000))
            data = _insert(data, draw, b"\nx: " + b"[" * depth + b"]" * depth + b"\n")
    return data


# ---------------------------------------------------------------- rulesets


SWAPS = [
    (b"param.", b"house."),
    (b"hand.", b"dealer."),
    (b"dealer.", b"box."),
    (b"severity error", b"severity warning"),
    (b"true", b"false"),
    (b">=", b"<="),
    (b"==", b"in"),
    (b"on hit", b"on settle"),
    (b"on deal", b"on jackpot"),
    (b"settle main", b"settle lucky_ladies"),
    (b"=> pay", b"=> paytable"),
    (b"kind payout", b"kind procedure"),
    (b"game blackjack", b"game bataille"),
    (b"until", b"from"),
    (b": bool", b": choice"),
    (b"required", b"= 7"),
    (b'ref "', b'ref "\\'),
]


@st.composite
def rulesets(draw) -> tuple[Path, bytes]:
    seed, data = draw(st.sampled_from(seed_rulesets()))
    for _ in range(draw(st.integers(1, 4))):
        kind = draw(
            st.sampled_from(
                [
                    "flip",
                    "delete",
                    "lines",
                    "number",
                    "ratio",
                    "string",
                    "chain",
                    "message",
                    "nesting",
                    "token",
                    *["swap"] * 4,
                ]
            )
        )
        if kind == "flip":
            data = _flip(data, draw)
        elif kind == "delete":
            data = _delete(data, draw)
        elif kind == "lines":
            data = _lines(data, draw)
        elif kind == "number":
            data = _replace_token(
                data,
                draw,
                b" 1",
                [
                    b" " + HUGE,
                    b" 0",
                    b" 99999999999999999999999999999999",
                    b" 1.5",
                    b" 0.0000000000000000000000000000001",
                ],
            )
        elif kind == "ratio":
            data = _replace_token(data, draw, b"3:2", [b"1:0", b"0:0", b"1:" + HUGE, HUGE + b":1", b"0:1"])
        elif kind == "string":
            data = _replace_token(
                data, draw, b'"', [b'"\\N{NOPE}', b'"\\x', b'"\\u12', b'"\\', b'"\\ud800', b'"\x00', b'"""']
            )
        elif kind == "chain":
            op = draw(st.sampled_from([b" and ", b" or ", b" + ", b" * ", b" - ", b" / "]))
            length = draw(st.integers(50, 3000))
            data = _replace_token(
                data, draw, b"require ", [b"require " + op.join([b"1 == 1"] * length) + b" and "]
            )
        elif kind == "message":
            data = _replace_token(
                data,
                draw,
                b'message "',
                [
                    b'message "{hand.__class__.__init__.__globals__} ',
                    b'message "{param.__class__} ',
                    b'message "{house.__dict__} ',
                    b'message "{round.id.__class__} ',
                    b'message "{table.minimum} {box.x} {nope.x} ',
                ],
            )
        elif kind == "nesting":
            depth = draw(st.integers(50, 2000))
            data = _replace_token(
                data, draw, b"require ", [b"require " + b"(" * depth + b"true" + b")" * depth + b" and "]
            )
        elif kind == "swap":  # still the language, another meaning: compiled, then judged by the compiler
            before, after = draw(st.sampled_from(SWAPS))
            data = _replace_token(data, draw, before, [after])
        else:
            data = _replace_token(
                data,
                draw,
                b" ",
                [
                    b" {",
                    b" }",
                    b" =>",
                    b" rule ",
                    b" on ",
                    b" in force from 2025-02-30 ",
                    b" option x: int in 5..1 = 3 ",
                    b" not not not ",
                ],
            )
    return seed, data


# ---------------------------------------------------------------- rule fixtures (`rules test DIR`)


@cache
def seed_fixtures() -> tuple[tuple[bytes, bytes], ...]:
    """(NAME.jsonl, NAME.expect.json) pairs of the project's rule fixtures."""
    pairs = []
    for expect in sorted((ROOT / "tests" / "fixtures" / "rules").rglob("*.expect.json"))[:40]:
        log = expect.with_name(expect.name.removesuffix(".expect.json") + ".jsonl")
        if log.exists():
            pairs.append((log.read_bytes(), expect.read_bytes()))
    return tuple(pairs)


EXPECT_VALUES = [
    b"null",
    b"[]",
    b"{}",
    b'"x"',
    b"1e400",
    HUGE,
    b'["nope/x@2025-13-45"]',
    b'[{"line": "x"}]',
    b"[" * 2000 + b"]" * 2000,
    b'{"__class__": 1}',
    b'"fr/blackjack@"',
]


@st.composite
def fixtures(draw) -> tuple[bytes, bytes]:
    log, expect = draw(st.sampled_from(seed_fixtures()))
    if draw(st.booleans()):
        log = draw(_log_damage(log))
    kind = draw(st.sampled_from(["keep", "flip", "delete", "value", "truncate"]))
    if kind == "flip":
        expect = _flip(expect, draw)
    elif kind == "delete":
        expect = _delete(expect, draw)
    elif kind == "truncate":
        expect = expect[: draw(st.integers(0, len(expect)))]
    elif kind == "value":
        expect = _replace_token(expect, draw, b": ", [b": " + v + b', "x": ' for v in EXPECT_VALUES])
    return log, expect


# ---------------------------------------------------------------- configuration files (`--config`)

SEED_CONFIGS = (
    b'select = ["fr/blackjack", "hand-log"]\n'
    b'ignore = ["fr/blackjack/insurance-offer"]\nfail-level = "error"\n',
    b'[tool.casino-validator]\nfail-level = "warning"\nbaseline = "baseline.json"\n',
    b'ignore = "fr/bataille/higher-card-wins"\n',
)
TOML_VALUES = [
    b"1",
    b"true",
    b"1979-05-27T07:32:00Z",
    b"[]",
    b"{}",
    b'"/dev/zero"',
    b'"."',
    b'""',
    HUGE,
    b"inf",
    b"nan",
    b"[" * 300 + b"]" * 300,
    b'"\\ud800"',
    b'"""x',
    b"[1, 'a']",
    b"{ a = { b = { c = 1 } } }",
]


@st.composite
def configs(draw) -> tuple[str, bytes]:
    """(the file's name, its bytes): `casino-validator.toml` or `pyproject.toml`."""
    data = draw(st.sampled_from(SEED_CONFIGS))
    name = "pyproject.toml" if data.startswith(b"[tool") else "casino-validator.toml"
    for _ in range(draw(st.integers(1, 3))):
        kind = draw(st.sampled_from(["flip", "delete", "lines", "value", "bytes", "tool", "nesting"]))
        if kind == "flip":
            data = _flip(data, draw)
        elif kind == "delete":
            data = _delete(data, draw)
        elif kind == "lines":
            data = _lines(data, draw)
        elif kind == "value":
            data = _replace_token(data, draw, b"= ", [b"= " + v + b"\n#" for v in TOML_VALUES])
        elif kind == "bytes":
            data = _insert(data, draw, draw(st.sampled_from([b"\x00", b"\xff\xfe", b"\r", b"\x85", b"\t"])))
        elif kind == "tool":
            name = "pyproject.toml"
            data = (
                draw(st.sampled_from([b"tool = 1\n", b'tool = "casino-validator"\n', b"[tool]\nx = 1\n"]))
                + data
            )
        else:
            depth = draw(st.integers(100, 5000))
            data = data + b"\nz = " + b"[" * depth + b"]" * depth + b"\n"
    return name, data


# ---------------------------------------------------------------- baselines (`--baseline`)


BASELINE_JSON_VALUES = [
    b"null",
    b"1",
    b"1e400",
    HUGE,
    b'"x"',
    b"[]",
    b"{}",
    b"[" * 3000 + b"]" * 3000,
    b'"\\ud800"',
    b"-0",
]


@st.composite
def baselines(draw, seed: bytes) -> bytes:
    data = seed
    for _ in range(draw(st.integers(1, 3))):
        kind = draw(st.sampled_from(["flip", "delete", "truncate", "value", "bytes", "nesting"]))
        if kind == "flip":
            data = _flip(data, draw)
        elif kind == "delete":
            data = _delete(data, draw)
        elif kind == "truncate":
            data = data[: draw(st.integers(0, len(data)))]
        elif kind == "value":
            data = _replace_token(data, draw, b": ", [b": " + v + b', "x": ' for v in BASELINE_JSON_VALUES])
        elif kind == "bytes":
            data = _insert(data, draw, draw(st.sampled_from([b"\x00", b"\xff", b"\xef\xbb\xbf", b"\\"])))
        else:
            depth = draw(st.integers(1000, 300_000))
            data = b'{"version": 1, "findings": ' + b"[" * depth + b"]" * depth + b"}"
    return data


# ---------------------------------------------------------------- datasets given to `report`

DATASET_DAMAGES = (
    "garbage",
    "empty",
    "truncate",
    "flip",
    "remove",
    "folder",
    "fifo",
    "loop",
    "stray",
    "duplicate",
)


@st.composite
def dataset_damages(draw, files: int) -> list[tuple[str, int, int]]:
    """(damage, which file, a position or byte) one to three times; applied by the oracle."""
    return [
        (
            draw(st.sampled_from(DATASET_DAMAGES)),
            draw(st.integers(0, files - 1)),
            draw(st.integers(0, 1 << 20)),
        )
        for _ in range(draw(st.integers(1, 3)))
    ]


# ---------------------------------------------------------------- URLs and cluster addresses

URL_SCHEMES = (
    "file",
    "zip",
    "tar",
    "blockcache",
    "simplecache",
    "filecache",
    "memory",
    "nope",
    "http",
    "FILE",
)


@st.composite
def urls(draw, folder: str) -> str:
    """A URL for a log, chained or not, to files that exist (a log, an archive, a folder) or not."""
    target = draw(st.sampled_from(["logs.zip", "logs.tar", "log.jsonl", "none.jsonl", "", "logs.zip/x", "/"]))
    inner = draw(st.sampled_from(["log.jsonl", "none.jsonl", "", "*", "../log.jsonl", "%00", "log.jsonl/"]))
    scheme = draw(st.sampled_from(URL_SCHEMES))
    if scheme == "http":
        return draw(st.sampled_from(["http://127.0.0.1:1/log.jsonl", "http://[::1", "http://:0/"]))
    if scheme in ("zip", "tar"):
        return f"{scheme}://{inner}::file://{folder}/{target}"
    if scheme in ("blockcache", "simplecache", "filecache"):
        chained = draw(st.booleans())
        return f"{scheme}::file://{folder}/{target}" if chained else f"{scheme}://{folder}/{target}"
    return f"{scheme}://{folder}/{target}"


@st.composite
def addresses(draw) -> str:
    """A `--scheduler` address at which no scheduler listens (nothing, or not what the address names)."""
    scheme = draw(st.sampled_from(["", "tcp://", "tls://", "ucx://", "inproc://", "ws://", "TCP://", "x://"]))
    host = draw(
        st.sampled_from(["127.0.0.1", "localhost", "[::1]", "", "no-such-host.invalid", "[::1", "a b"])
    )
    port = draw(st.sampled_from([":1", ":0", ":65536", ":x", "", ":", ":-1", ":" + "9" * 30]))
    return scheme + host + port + draw(st.sampled_from(["", "/", "/path", "?x=1"]))


# ---------------------------------------------------------------- issue 42: the surfaces hardened there

# A ruleset from outside amending the French text of 2024-11-01 (as tests/dsl/outside_ruleset.py): its
# named conditions, readings and rules are what the strategy draws.
OUTSIDE_HEAD = """ruleset zz/fuzz
amends fr/blackjack@2024-11-01
title "Fuzz (test case, not law)"
source "none"
in force from 2025-01-01
note "Not law." note fr "Pas du droit."
amendment "a" {
"""
OUTSIDE_RULE = """    add rule r{n} {{
        ref "x"
        severity error
        message "m" message fr "m"
        on dealer_draw require {condition}
        checks "c" checks fr "c" why "w" why fr "w" fails "f" fails fr "f" passes "p" passes fr "p"
    }}
"""
OUTSIDE_READING = """    add reading q{n} {{
        ref "x"
        question "Q?"
        question fr "Q ?"
        alternative a "A" fr "A"
        alternative b "B" fr "B" {{
            replace parameter shoe.decks = 8  ref "x"
        }}
        default a because "as written"
        because fr "tel qu'écrit"
    }}
"""
_FACTS = ("dealer.total", "dealer.cards", "param.shoe.decks", "7", "0")


@st.composite
def _condition(draw, defines: int) -> str:
    """A condition of one of the shapes that expand: named conditions cited (some twice), long sums,
    parentheses nested deep, `not` chains, divisions (by a fact or by 0)."""
    shape = draw(st.sampled_from(["cite", "sum", "nest", "not", "divide", "plain"]))
    if shape == "cite" and defines:
        cited = draw(st.lists(st.integers(0, defines - 1), min_size=1, max_size=3))
        joined = f" {draw(st.sampled_from(['and', 'or']))} ".join(f"d{i}" for i in cited)
        return f"({joined}) or dealer.total > 0"
    if shape == "sum":
        terms = draw(st.integers(1, 90))
        return "dealer.total <= " + " + ".join(draw(st.sampled_from(_FACTS)) for _ in range(terms))
    if shape == "nest":
        depth = draw(st.integers(1, 130))
        return "(" * depth + "dealer.total > 1" + ")" * depth
    if shape == "not":
        return "not " * draw(st.integers(1, 90)) + "dealer.total > 1"
    if shape == "divide":
        return f"dealer.total / {draw(st.sampled_from(_FACTS))} < 100"
    return "dealer.total <= 26"


@st.composite
def outside_rulesets(draw) -> tuple[list[bytes], bool]:
    """(the files of a ruleset from outside: one version, or a chain of versions each amending the one
    before; whether to judge with --all-readings). Named conditions chained or doubling (each citing the
    one before once or twice: 2^N nodes), readings by the dozen, long sums, deep nesting."""
    lines: list[str] = []
    defines = draw(st.integers(0, 60))
    doubling = draw(st.booleans())
    for i in range(defines):
        if i == 0:
            body = "dealer.total == 17"
        elif doubling:
            body = f"d{i - 1} and d{i - 1}"
        else:
            body = draw(_condition(i)).replace("dealer.total > 0", f"dealer.total > {i}")
        lines.append(f'    add define d{i} = {body} ref "x"\n')
    for n in range(draw(st.integers(0, 40))):
        lines.append(OUTSIDE_READING.format(n=n))
    rules = draw(st.integers(1, 4))
    for n in range(rules):
        condition = draw(_condition(defines))
        if defines and n == 0:
            condition = f"d{defines - 1} or " + condition  # every named condition cited, through the last
        lines.append(OUTSIDE_RULE.format(n=n, condition=condition))
    first = (OUTSIDE_HEAD + "".join(lines) + "}\n").encode()
    files = [first]
    for k in range(draw(st.integers(0, 3)) * draw(st.sampled_from([1, 12]))):
        files.append(
            f'ruleset zz/fuzz\namends zz/fuzz@{2025 + k}-01-01\ntitle "v"\nsource "none"\n'
            f"in force from {2026 + k}-01-01\n".encode()
        )
    if len(files) > 1:  # each version but the last ends the day before the next one starts
        files = [
            data.replace(
                f"in force from {2025 + k}-01-01\n".encode(),
                f"in force from {2025 + k}-01-01 until {2025 + k}-12-31\n".encode(),
            )
            for k, data in enumerate(files[:-1])
        ] + [files[-1]]
    return files, draw(st.booleans())


# The séances a watch case plays: logs with findings, each round id its own (issue 42: rotation).
WATCHED = tuple(sorted((SAMPLES / "logs" / "disputes").glob("*.jsonl")))


@st.composite
def watch_scripts(draw) -> list[list[tuple[str, int]]]:
    """What happens to a watched folder, segment by segment (a watch started for each, then stopped):
    ("append", n) the next n lines of the current séance; ("rotate", k) the current log renamed to another
    `*.jsonl` name (k: which) and the next séance started under the old name; ("rewrite", n) the current
    log written again from its start with its first n lines then more; each segment ends with ("signals",
    n) a burst of n SIGINT/SIGTERM, or ("kill", 9)."""
    segments = []
    for _ in range(draw(st.integers(1, 3))):
        ops: list[tuple[str, int]] = []
        for _ in range(draw(st.integers(1, 4))):
            kind = draw(st.sampled_from(["append", "append", "append", "rotate", "rewrite"]))
            ops.append((kind, draw(st.integers(1, 6))))
        ops.append(draw(st.sampled_from([("signals", 1), ("signals", 50), ("signals", 500), ("kill", 9)])))
        segments.append(ops)
    return segments


# The logs datasets are made of, and what each case draws: datasets of subsets, some named twice.
OVERLAPPING = tuple(p for p in sorted((SAMPLES / "logs").rglob("*.jsonl*")) if "side-bets" not in p.parts)


@st.composite
def overlaps(draw) -> list[list[tuple[int, bool]]]:
    """Two or three datasets, each of a subset of the sample logs (by index; True: a copy of the log under
    another name), sharing logs more often than not; a dataset may be given twice."""
    datasets = []
    for _ in range(draw(st.integers(2, 3))):
        chosen = draw(st.lists(st.integers(0, len(OVERLAPPING) - 1), min_size=1, max_size=3, unique=True))
        datasets.append([(i, draw(st.booleans())) for i in chosen])
    if draw(st.booleans()):
        datasets.append(datasets[0])  # the same dataset named twice (the report reads it once)
    return datasets
