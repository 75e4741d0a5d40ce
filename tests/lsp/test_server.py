"""`casino-validator rules lsp` driven by a real LSP client (pygls's) over the subprocess's standard input
and output: what an editor sees."""

from __future__ import annotations

import asyncio
import sys
from pathlib import Path
from typing import Any

from lsprotocol import types
from pygls.lsp.client import LanguageClient
from pygls.uris import from_fs_path, to_fs_path

from validator.dsl.resources import rulesets_dir

# A ruleset of its own (zz/…), amending the arrêté's 2024 wording: a rule citing another text's check, a
# parameter, a named condition. Line numbers below are 0-based, as LSP counts them.
GOOD = """ruleset zz/lsp-blackjack
amends fr/blackjack@2024-11-01
title "A variant"
source "test"
in force from 2025-01-01
note "A test ruleset." note fr "Un jeu de règles d'essai."
amendment "Test" {
    add rule lsp-six-decks {
        ref "Test, al. 1"
        severity error
        message "Six decks." message fr "Six jeux."
        same check as fr/blackjack@2024-11-01 rule six-decks
        checks "The decks." checks fr "Les jeux."
        why "« six jeux »."
        fails "8 decks." fails fr "8 jeux."
        passes "6 decks." passes fr "6 jeux."
    }
    add rule lsp-burn {
        ref "Test, al. 2"
        severity error
        message "Burn." message fr "Brûler."
        on shoe require shoe.burned == param.shoe.burn
        checks "The burn." checks fr "Le brûlage."
        why "« brûler »."
        fails "4 burned." fails fr "4 brûlées."
        passes "5 burned." passes fr "5 brûlées."
    }
}
"""


def _session(path: Path, text: str, asks: list[tuple[str, Any]]) -> tuple[list[types.Diagnostic], list[Any]]:
    """Start the server, open `path` with `text`, ask each (method, params) in turn; the diagnostics
    published for the document, and the answers."""

    async def talk() -> tuple[list[types.Diagnostic], list[Any]]:
        client = LanguageClient("test-client", "1")
        published: list[types.PublishDiagnosticsParams] = []
        arrived = asyncio.Event()

        @client.feature(types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS)
        def on_diagnostics(params: types.PublishDiagnosticsParams) -> None:
            published.append(params)
            arrived.set()

        await client.start_io(sys.executable, "-m", "validator", "rules", "lsp")
        try:
            await client.initialize_async(
                types.InitializeParams(
                    capabilities=types.ClientCapabilities(), process_id=None, root_uri=None
                )
            )
            client.initialized(types.InitializedParams())
            uri = from_fs_path(str(path))
            assert uri is not None
            client.text_document_did_open(
                types.DidOpenTextDocumentParams(
                    text_document=types.TextDocumentItem(uri=uri, language_id="rules", version=1, text=text)
                )
            )
            await asyncio.wait_for(arrived.wait(), 120)
            answers = []
            document = types.TextDocumentIdentifier(uri=uri)
            for number, (method, where) in enumerate(asks, start=2):
                if method == "change":  # the text as typed: the whole document anew
                    arrived.clear()
                    client.text_document_did_change(
                        types.DidChangeTextDocumentParams(
                            text_document=types.VersionedTextDocumentIdentifier(uri=uri, version=number),
                            content_changes=[types.TextDocumentContentChangeWholeDocument(text=where)],
                        )
                    )
                    await asyncio.wait_for(arrived.wait(), 120)
                    answers.append(list(published[-1].diagnostics))
                    continue
                line, character = where
                at = types.Position(line=line, character=character)
                if method == "hover":
                    answers.append(await client.text_document_hover_async(types.HoverParams(document, at)))
                elif method == "definition":
                    answers.append(
                        await client.text_document_definition_async(types.DefinitionParams(document, at))
                    )
                else:
                    answers.append(
                        await client.text_document_completion_async(types.CompletionParams(document, at))
                    )
            await client.shutdown_async(None)
            client.exit(None)
        finally:
            await client.stop()
        return list(published[0].diagnostics), answers

    return asyncio.run(talk())


def _at(line: int, text: str, after: int = 0) -> tuple[int, int]:
    """The 0-based position of `text` on a line of GOOD (plus `after` characters)."""
    return line, GOOD.splitlines()[line].index(text) + after


def test_a_good_file_has_no_problems_and_answers_hover_definition_and_completion(tmp_path):
    path = tmp_path / "lsp.rules"
    diagnostics, (on_ref, on_param, to_cited, to_amended, to_param, after_dot, after_on) = _session(
        path,
        GOOD,
        [
            ("hover", _at(8, "ref")),  # `ref "Test, al. 1"` of lsp-six-decks: the rule's reference and docs
            ("hover", _at(21, "param.shoe.burn", 8)),
            ("definition", _at(11, "six-decks", 2)),  # same check as fr/blackjack@2024-11-01 rule six-decks
            ("definition", _at(1, "fr/blackjack", 3)),  # amends fr/blackjack@2024-11-01
            ("definition", _at(21, "param.shoe.burn", 8)),  # where the arrêté sets it
            ("completion", _at(21, "param.shoe.burn", len("param."))),
            ("completion", _at(21, "shoe require")),  # after `on `
        ],
    )
    assert list(diagnostics) == []
    assert "zz/lsp-blackjack/lsp-six-decks" in on_ref.contents.value
    assert "Test, al. 1" in on_ref.contents.value and "« six jeux »." in on_ref.contents.value
    # The arrêté: « … les cinq premières cartes … sont brûlées » (art. 55-4, al. 5): shoe.burn = 5.
    assert "parameter `shoe.burn`" in on_param.contents.value and "= `5`" in on_param.contents.value
    shipped = rulesets_dir() / "fr" / "blackjack"
    cited_file = Path(to_fs_path(to_cited.uri))
    # where six-decks is written: the shipped wording (a checkout's rulesets/ or the installed copy of it)
    assert cited_file.parts[-3:] == ("fr", "blackjack", "2013-12-15.rules")
    assert cited_file.read_bytes() == (shipped / "2013-12-15.rules").read_bytes()
    assert (
        (shipped / "2013-12-15.rules")
        .read_text()
        .splitlines()[to_cited.range.start.line]
        .startswith("rule six-decks")
    )
    amended_file = Path(to_fs_path(to_amended.uri))
    assert amended_file.parts[-3:] == ("fr", "blackjack", "2024-11-01.rules")
    assert amended_file.read_bytes() == (shipped / "2024-11-01.rules").read_bytes()
    param_line = (shipped / "2013-12-15.rules").read_text().splitlines()[to_param.range.start.line]
    assert param_line.startswith("parameter shoe.burn = 5")
    assert "param.shoe.burn" in {item.label for item in after_dot.items}
    assert {"shoe", "deal", "dealer_draw"} <= {item.label for item in after_on.items}


def test_problems_are_published_as_the_text_is_typed(tmp_path):
    # Typed in turn: an unknown fact, then that fixed and the rule's message left in English only; each
    # what `rules check` says of the text as it stands, at its place.
    unknown_fact = GOOD.replace("shoe.burned == param.shoe.burn", "shoe.burnt == param.shoe.burn")
    english_only = GOOD.replace('message "Burn." message fr "Brûler."', 'message "Burn."')
    first, (second, third) = _session(
        tmp_path / "typed.rules", unknown_fact, [("change", english_only), ("change", GOOD)]
    )
    assert [(d.range.start.line, d.message) for d in first] == [
        (21, "shoe.burnt: 'shoe' has no fact 'burnt'; did you mean 'burned'?")
    ]
    assert [d.range.start.line for d in second] == [17]  # the rule lsp-burn, written at line 18
    assert "English only" in second[0].message
    assert third == []
