"""The language server (`casino-validator rules lsp`), on pygls: LSP over standard input and output.

It publishes the problems `rules check` finds as a ruleset is typed (on open and on each change, the text
as it stands, saved or not), answers hover (a rule's reference and docs, what a parameter, fact, function
or named condition is), go to definition (`amends`, `same check as`, `param.…`, named conditions) and
completion of the vocabulary (`validator.lsp.analysis` does the work; this module only speaks LSP).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from lsprotocol import types
from pygls.lsp.server import LanguageServer
from pygls.uris import from_fs_path, to_fs_path

from validator import __version__
from validator.lsp.analysis import Document, analyse, completions, definition, hover

SERVER = LanguageServer("casino-validator", __version__)
_DOCUMENTS: dict[str, Document] = {}


def _document(uri: str) -> Document:
    text = SERVER.workspace.get_text_document(uri).source
    path = Path(to_fs_path(uri) or uri)
    document = _DOCUMENTS.get(uri)
    if document is None:
        document = _DOCUMENTS[uri] = Document(path, text)
    document.text = text
    return document


def _publish(uri: str) -> None:
    document = _document(uri)
    problems = analyse(document)
    diagnostics = [
        types.Diagnostic(
            range=types.Range(
                start=types.Position(line=p.line, character=p.column),
                end=types.Position(line=p.line, character=p.column + 1),
            ),
            message=p.message,
            severity=types.DiagnosticSeverity.Error,
            source="casino-validator",
        )
        for p in problems
    ]
    SERVER.text_document_publish_diagnostics(types.PublishDiagnosticsParams(uri=uri, diagnostics=diagnostics))


@SERVER.feature(types.TEXT_DOCUMENT_DID_OPEN)
def did_open(params: types.DidOpenTextDocumentParams) -> None:
    _publish(params.text_document.uri)


@SERVER.feature(types.TEXT_DOCUMENT_DID_CHANGE)
def did_change(params: types.DidChangeTextDocumentParams) -> None:
    _publish(params.text_document.uri)


@SERVER.feature(types.TEXT_DOCUMENT_DID_SAVE)
def did_save(params: types.DidSaveTextDocumentParams) -> None:
    _publish(params.text_document.uri)


@SERVER.feature(types.TEXT_DOCUMENT_DID_CLOSE)
def did_close(params: types.DidCloseTextDocumentParams) -> None:
    _DOCUMENTS.pop(params.text_document.uri, None)


@SERVER.feature(types.TEXT_DOCUMENT_HOVER)
def on_hover(params: types.HoverParams) -> types.Hover | None:
    said = hover(_document(params.text_document.uri), params.position.line, params.position.character)
    if said is None:
        return None
    return types.Hover(contents=types.MarkupContent(kind=types.MarkupKind.Markdown, value=said))


@SERVER.feature(types.TEXT_DOCUMENT_DEFINITION)
def on_definition(params: types.DefinitionParams) -> types.Location | None:
    place = definition(_document(params.text_document.uri), params.position.line, params.position.character)
    if place is None:
        return None
    at = types.Position(line=place.line, character=0)
    return types.Location(
        uri=from_fs_path(str(place.path.resolve())) or "", range=types.Range(start=at, end=at)
    )


@SERVER.feature(types.TEXT_DOCUMENT_COMPLETION, types.CompletionOptions(trigger_characters=["."]))
def on_completion(params: types.CompletionParams) -> types.CompletionList:
    found = completions(_document(params.text_document.uri), params.position.line, params.position.character)
    items = [types.CompletionItem(label=label, detail=detail[:80]) for label, detail in found]
    return types.CompletionList(is_incomplete=False, items=items)


def serve(**_options: Any) -> None:
    """Speak LSP over standard input and output until the client says exit."""
    SERVER.start_io()
