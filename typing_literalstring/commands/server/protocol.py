"""The language server: the editor's messages in, each open file's findings out (pygls).

Documents are checked when they are opened and saved, never while they are edited: ``check``
reads files from disk, and a finding's fix is a change the editor saves anyway.  What a check
finds is published for every open file of its project; a file opened later is shown from the
last check while nothing changed since.  The hover shows a finding's rule page, the code
actions its mechanical fixes (``actions``).
"""

from __future__ import annotations

import asyncio
import logging
from pathlib import Path
from typing import Any

from lsprotocol import types
from pygls.lsp.server import LanguageServer
from pygls.uris import from_fs_path, to_fs_path

from typing_literalstring import __version__
from typing_literalstring.commands.server import actions, options
from typing_literalstring.commands.server.messages import (
    ERROR,
    INFORMATION,
    WARNING,
    Item,
    Outcome,
    Place,
)
from typing_literalstring.commands.server.scheduling import Project, Scheduler
from typing_literalstring.report import rule_pages

SOURCE = "typing-literalstring"
_SEVERITIES = {
    ERROR: types.DiagnosticSeverity.Error,
    WARNING: types.DiagnosticSeverity.Warning,
    INFORMATION: types.DiagnosticSeverity.Information,
}
logger = logging.getLogger(__name__)


def _range(place: Place) -> types.Range:
    return types.Range(
        start=types.Position(line=place.start[0], character=place.start[1]),
        end=types.Position(line=place.end[0], character=place.end[1]),
    )


def diagnostic(item: Item) -> types.Diagnostic:
    """One of our items as the protocol's diagnostic."""
    related = [
        types.DiagnosticRelatedInformation(
            location=types.Location(uri=_uri(r.place.path), range=_range(r.place)),
            message=r.message,
        )
        for r in item.related
    ]
    return types.Diagnostic(
        range=_range(item.place),
        message=item.message,
        severity=_SEVERITIES[item.severity],
        code=item.code or None,
        code_description=types.CodeDescription(href=item.href) if item.href else None,
        source=SOURCE,
        related_information=related or None,
        data=dict(item.data) if item.data else None,
    )


def _uri(path: str) -> str:
    return from_fs_path(path) or Path(path).as_uri()


class Server(LanguageServer):
    """The server's state beside pygls's: the open files, what was shown for each, the
    settings, and the scheduler of checks."""

    def __init__(self, defaults: options.Options) -> None:
        super().__init__("typing-literalstring", __version__)  # pyright: ignore[reportUnknownMemberType]
        self.defaults = defaults
        self.initialization: dict[str, object] = {}
        self.configuration: dict[str, object] = {}
        self.open: dict[str, str] = {}  # path -> uri
        self.shown: dict[str, list[Item]] = {}  # uri -> the items published
        self.scheduler: Scheduler | None = None
        self.shutdown_requested = False
        self.folder = Path()  # set by command(): where workers start

    def effective_options(self) -> options.Options:
        chosen = self.defaults
        for settings in (self.initialization, self.configuration):
            chosen, warnings = options.merged(chosen, settings)
            for warning in warnings:
                self.say(warning, types.MessageType.Warning, show=True)
        return chosen

    def say(self, text: str, kind: types.MessageType, show: bool = False) -> None:
        """A line in the editor's log of this server (and a notification, if ``show``)."""
        logger.info("%s", text)
        self.window_log_message(types.LogMessageParams(type=kind, message=text))
        if show:
            self.window_show_message(types.ShowMessageParams(type=kind, message=text))

    def publish(self, project: Project, outcome: Outcome) -> None:
        """What a check found, for every open file of its project."""
        if outcome.error:
            self._failed(project, outcome)
            return
        self.say(
            f"checked {project.root} in {outcome.seconds:.1f} s: {outcome.summary}",
            types.MessageType.Info,
        )
        for notice in outcome.notices:
            self.say(f"{project.root}: {notice}", types.MessageType.Warning)
        assert self.scheduler is not None
        for path, uri in self.open.items():
            if self.scheduler.project_of(path) is project:
                self.show(uri, outcome.items.get(path, []))

    def _failed(self, project: Project, outcome: Outcome) -> None:
        """A check that found nothing: said in the log, and as one error on the file that
        asked for it, whose findings are unknown; the server keeps serving."""
        first = outcome.error.splitlines()[0] if outcome.error else "unknown error"
        self.say(f"could not check {project.root}: {outcome.error}", types.MessageType.Error)
        uri = self.open.get(project.trigger)
        if uri is None:
            return
        said = f"typing-literalstring could not check this project: {first}"
        if outcome.crashed:
            said += " (the traceback is in this server's log)"
        item = Item(Place(project.trigger, (0, 0), (0, 0)), ERROR, "", said)
        self.show(uri, [item])

    def show(self, uri: str, items: list[Item]) -> None:
        self.shown[uri] = items
        version = None
        try:
            version = self.workspace.get_text_document(uri).version
        except Exception:
            version = None
        self.text_document_publish_diagnostics(
            types.PublishDiagnosticsParams(
                uri=uri, diagnostics=[diagnostic(i) for i in items], version=version
            )
        )


def _path(uri: str) -> str | None:
    """A file's path, resolved as ``check`` names files; None for what is not a file."""
    path = to_fs_path(uri) if uri.startswith("file:") else None
    return str(Path(path).resolve()) if path else None


def _encoding(server: Server) -> str:
    chosen = server.workspace.position_encoding
    value = chosen.value if isinstance(chosen, types.PositionEncodingKind) else str(chosen or "")
    return value if value in ("utf-8", "utf-16", "utf-32") else "utf-16"


def build(defaults: options.Options) -> Server:
    """The server with its handlers."""
    server = Server(defaults)

    @server.feature(types.INITIALIZE)
    def initialize(ls: Server, params: types.InitializeParams) -> None:
        ls.initialization = dict(options.section(params.initialization_options))
        ls.scheduler = Scheduler(asyncio.get_running_loop(), ls.publish, ls.folder)
        ls.scheduler.encoding = _encoding(ls)
        ls.scheduler.options = ls.effective_options()

    @server.feature(types.INITIALIZED)
    async def initialized(ls: Server, params: types.InitializedParams) -> None:
        workspace = ls.client_capabilities.workspace
        if workspace is not None and workspace.configuration:
            await _pull_configuration(ls)

    @server.feature(types.WORKSPACE_DID_CHANGE_CONFIGURATION)
    async def configuration_changed(ls: Server, params: types.DidChangeConfigurationParams) -> None:
        settings = options.section(params.settings)
        workspace = ls.client_capabilities.workspace
        if settings:
            _configure(ls, settings)
        elif workspace is not None and workspace.configuration:
            await _pull_configuration(ls)

    @server.feature(types.TEXT_DOCUMENT_DID_OPEN)
    def did_open(ls: Server, params: types.DidOpenTextDocumentParams) -> None:
        path = _path(params.text_document.uri)
        if path is None or ls.scheduler is None:
            return
        ls.open[path] = params.text_document.uri
        project = ls.scheduler.project_of(path)
        if ls.scheduler.fresh(project, path):
            assert project.last is not None
            ls.show(params.text_document.uri, project.last.items.get(path, []))
        elif not project.busy:
            ls.scheduler.check_soon(project, path)

    @server.feature(types.TEXT_DOCUMENT_DID_SAVE)
    def did_save(ls: Server, params: types.DidSaveTextDocumentParams) -> None:
        path = _path(params.text_document.uri)
        if path is None or ls.scheduler is None:
            return
        ls.scheduler.check_soon(ls.scheduler.project_of(path), path)

    @server.feature(types.TEXT_DOCUMENT_DID_CLOSE)
    def did_close(ls: Server, params: types.DidCloseTextDocumentParams) -> None:
        path = _path(params.text_document.uri)
        if path is not None:
            ls.open.pop(path, None)
        ls.shown.pop(params.text_document.uri, None)
        ls.text_document_publish_diagnostics(
            types.PublishDiagnosticsParams(uri=params.text_document.uri, diagnostics=[])
        )

    @server.feature(types.TEXT_DOCUMENT_HOVER)
    def hover(ls: Server, params: types.HoverParams) -> types.Hover | None:
        position = (params.position.line, params.position.character)
        found = [
            i
            for i in ls.shown.get(params.text_document.uri, [])
            if i.code and i.place.start <= position <= i.place.end
        ]
        if not found:
            return None
        return types.Hover(
            contents=types.MarkupContent(
                kind=types.MarkupKind.Markdown, value="\n\n---\n\n".join(_page(i) for i in found)
            ),
            range=_range(found[0].place),
        )

    @server.feature(
        types.TEXT_DOCUMENT_CODE_ACTION,
        types.CodeActionOptions(code_action_kinds=[types.CodeActionKind.QuickFix]),
    )
    def code_action(ls: Server, params: types.CodeActionParams) -> list[types.CodeAction]:
        uri = params.text_document.uri
        try:
            text = ls.workspace.get_text_document(uri).source
        except Exception:
            return []
        ours = [d for d in params.context.diagnostics if d.source == SOURCE and d.code]
        return actions.code_actions(uri, text, ours, _encoding(ls))

    @server.feature(types.SHUTDOWN)
    def shutdown(ls: Server, *args: Any) -> None:  # noqa: ANN401 - pygls passes its params
        ls.shutdown_requested = True
        if ls.scheduler is not None:
            ls.scheduler.close()

    return server


def _page(item: Item) -> str:
    try:
        page = rule_pages.page(item.code)
    except rule_pages.RulePageError as error:
        page = str(error)
    return f"**{item.code}** {item.message}\n\n{page}"


async def _pull_configuration(ls: Server) -> None:
    try:
        answer = await ls.workspace_configuration_async(
            types.ConfigurationParams(items=[types.ConfigurationItem(section=options.SECTION)])
        )
    except Exception as error:
        ls.say(f"could not read the workspace configuration: {error}", types.MessageType.Warning)
        return
    if answer:
        _configure(ls, options.section(answer[0]))


def _configure(ls: Server, settings: dict[str, object] | Any) -> None:  # noqa: ANN401
    """New workspace settings: every project with an open file is checked again with them."""
    ls.configuration = dict(settings)
    if ls.scheduler is None:
        return
    before = ls.scheduler.options
    ls.scheduler.options = ls.effective_options()
    if ls.scheduler.options == before:
        return
    projects = {ls.scheduler.project_of(path).root: path for path in ls.open}
    for root, path in projects.items():
        ls.scheduler.check_soon(ls.scheduler.projects[root], path)
