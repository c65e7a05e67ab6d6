"""`typing-literalstring server`, driven as an editor drives it: JSON-RPC over its pipes."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path
from typing import Any, Iterator

import pytest

from scripts.lsp_client import Client
from typing_literalstring.commands.cli import main

pytest.importorskip("pygls", reason="the server extra (pygls) is not installed")

REPO = Path(__file__).resolve().parent.parent
EXAMPLE = REPO / "examples" / "vulnerable_app.py"
# Each wait for a check: a cold pyright run on a loaded 2-core machine takes seconds, not minutes.
WAIT = 180


def _project(folder: Path) -> Path:
    (folder / "pyproject.toml").write_text('[project]\nname = "app"\nversion = "0"\n')
    shutil.copy(EXAMPLE, folder / "vulnerable_app.py")
    return folder / "vulnerable_app.py"


def _server(folder: Path, cache: Path, env: dict[str, str] | None = None) -> Client:
    log = (folder.parent / f"{folder.name}-server.log").open("wb")
    command = [sys.executable, "-m", "typing_literalstring", "server", "--cache-dir", str(cache)]
    return Client(command, cwd=folder.parent, env=env, stderr=log)


@pytest.fixture
def client(tmp_path: Path, cache_dir: Path) -> Iterator[tuple[Client, Path]]:
    folder = tmp_path / "app"
    folder.mkdir()
    app = _project(folder)
    started = _server(folder, cache_dir)
    try:
        started.initialize(folder)
        yield started, app
    finally:
        started.kill()


def _check(app: Path, cache: Path, capsys: pytest.CaptureFixture[str]) -> list[dict[str, Any]]:
    """What `check` reports for the project, run from its root."""
    before = Path.cwd()
    os.chdir(app.parent)
    try:
        main(["check", "--format", "json", "--cache-dir", str(cache)])
    finally:
        os.chdir(before)
    findings: list[dict[str, Any]] = json.loads(capsys.readouterr().out)["findings"]
    return findings


def test_open_shows_checks_findings_and_a_save_that_fixes_one_shows_one_fewer(
    client: tuple[Client, Path], cache_dir: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    server, app = client
    expected = _check(app, cache_dir, capsys)
    uri = server.open(app)
    shown = server.diagnostics(uri, WAIT)["params"]["diagnostics"]
    assert sorted((d["code"], d["range"]["start"]["line"] + 1) for d in shown) == sorted(
        (f["rule"], f["line"]) for f in expected
    )
    assert all(d["source"] == "typing-literalstring" for d in shown)
    assert all(d["severity"] == 1 for d in shown)  # errors: no unverified outcome here
    # The three findings through the example's wrappers, and only they, name the wrapper's
    # parameter and the sink inside it.
    through = {f["line"] for f in expected if f["through"]}
    assert len(through) == 3
    related = {d["range"]["start"]["line"] + 1: d.get("relatedInformation") for d in shown}
    assert {line for line, info in related.items() if info} == through
    find_user = related[43]
    assert find_user is not None
    assert [r["location"]["range"]["start"]["line"] + 1 for r in find_user] == [17, 19]
    assert "user_id" in find_user[0]["message"]
    assert "conn.execute" in find_user[1]["message"]
    assert all(d["codeDescription"]["href"].endswith(f"{d['code']}.md") for d in shown)

    # The rule's page on hover over a finding.
    sql = next(d for d in shown if d["code"] == "LS101")
    hovered = server.request(
        "textDocument/hover", {"textDocument": {"uri": uri}, "position": sql["range"]["start"]}
    )
    assert "LS101" in hovered["contents"]["value"]
    assert "## Why is this bad?" in hovered["contents"]["value"]

    # Make one injection literal and save: one diagnostic fewer, and it is that one.
    text = app.read_text(encoding="utf-8")
    fixed = text.replace('os.system("du -sh /home/" + name)', 'os.system("du -sh /home")')
    assert fixed != text
    count = len(server.notifications)
    server.save(app, fixed, 2)
    after = server.diagnostics(uri, WAIT, count)["params"]["diagnostics"]
    assert len(after) == len(shown) - 1
    assert 28 not in {d["range"]["start"]["line"] + 1 for d in after}

    assert server.close() == 0


def test_a_setting_not_valid_is_named_and_exit_without_shutdown_is_status_1(
    tmp_path: Path, cache_dir: Path
) -> None:
    server = _server(tmp_path, cache_dir)
    try:
        server.initialize(tmp_path, {"unverifiedSeverity": "loud", "checker": "pyright"})
        said = server.wait_for(lambda m: m.get("method") == "window/showMessage", WAIT)
        assert said["params"]["message"] == (
            "setting typing-literalstring.unverifiedSeverity = 'loud' is not valid and is "
            "ignored: it takes warning, information"
        )
        server.notify("exit", None)
        assert server.process.wait(60) == 1
    finally:
        server.kill()


def test_without_pygls_the_command_says_what_to_install(tmp_path: Path) -> None:
    code = (
        "import sys; sys.modules['pygls'] = None; sys.argv = ['typing-literalstring', 'server']; "
        "from typing_literalstring.commands.entry import main; main()"
    )
    proc = subprocess.run(
        [sys.executable, "-c", code], cwd=tmp_path, stdin=subprocess.DEVNULL,
        capture_output=True, text=True, timeout=120, check=False,
    )  # fmt: skip
    assert proc.returncode == 2
    assert "pip install 'typing-literalstring[server]'" in proc.stderr


# Loaded by the worker (PYTHONPATH): makes its check crash, or its process die, while a marker
# file is in the project; and with SLOW, start a long process as a checker is started and wait.
_SITECUSTOMIZE = """
import os, time
from pathlib import Path
from typing_literalstring.commands.server import project_check
from typing_literalstring.core import processes

real = project_check.check_project

def check_project(folder, options):
    if (folder / "CRASH").exists():
        raise RuntimeError("a bug in the check")
    if (folder / "DIE").exists():
        os._exit(3)
    if (folder / "SLOW").exists():
        (folder / "SLOW").unlink()
        processes.run_process(
            ["sh", "-c", f"echo $$ > {folder.parent / 'checker.pid'}; exec sleep 300"],
            cwd=folder, env=dict(os.environ),
        )
    return real(folder, options)

project_check.check_project = check_project
"""


def _patched_server(tmp_path: Path, cache: Path) -> tuple[Client, Path]:
    hooks = tmp_path / "hooks"
    hooks.mkdir()
    (hooks / "sitecustomize.py").write_text(_SITECUSTOMIZE)
    folder = tmp_path / "app"
    folder.mkdir()
    app = _project(folder)
    paths = [str(hooks), *filter(None, os.environ.get("PYTHONPATH", "").split(os.pathsep))]
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(paths)}
    server = _server(folder, cache, env)
    server.initialize(folder)
    return server, app


def test_a_crash_in_a_check_is_one_error_and_the_server_keeps_serving(
    tmp_path: Path, cache_dir: Path
) -> None:
    server, app = _patched_server(tmp_path, cache_dir)
    try:
        (app.parent / "CRASH").touch()
        uri = server.open(app)
        shown = server.diagnostics(uri, WAIT)["params"]["diagnostics"]
        assert len(shown) == 1
        assert shown[0]["severity"] == 1
        assert "could not check this project" in shown[0]["message"]
        assert "RuntimeError: a bug in the check" in shown[0]["message"]
        logged = [
            m["params"]["message"]
            for m in server.notifications
            if m["method"] == "window/logMessage"
        ]
        assert any("Traceback" in m for m in logged)

        # The worker process itself dies: said the same way, and a new one takes the next check.
        (app.parent / "CRASH").unlink()
        (app.parent / "DIE").touch()
        count = len(server.notifications)
        server.save(app, app.read_text(encoding="utf-8"), 2)
        died = server.diagnostics(uri, WAIT, count)["params"]["diagnostics"]
        assert len(died) == 1
        assert "worker process" in died[0]["message"]
        assert "exit status 3" in died[0]["message"]

        (app.parent / "DIE").unlink()
        count = len(server.notifications)
        server.save(app, app.read_text(encoding="utf-8"), 3)
        healed = server.diagnostics(uri, WAIT, count)["params"]["diagnostics"]
        assert len(healed) == 6
        assert server.close() == 0
    finally:
        server.kill()


def test_a_save_cancels_the_stale_check_and_kills_its_processes(
    tmp_path: Path, cache_dir: Path
) -> None:
    server, app = _patched_server(tmp_path, cache_dir)
    pid_file = tmp_path / "checker.pid"
    try:
        (app.parent / "SLOW").touch()
        uri = server.open(app)
        deadline = time.monotonic() + WAIT
        while not (pid_file.exists() and pid_file.read_text().strip()):
            assert time.monotonic() < deadline, "the slow check never started its process"
            time.sleep(0.1)
        stale = int(pid_file.read_text())
        count = len(server.notifications)
        server.save(app, app.read_text(encoding="utf-8"), 2)
        # The save's own check answers, long before the stale one's 300 s sleep would end.
        shown = server.diagnostics(uri, WAIT, count)["params"]["diagnostics"]
        assert len(shown) == 6
        with pytest.raises(ProcessLookupError):
            os.kill(stale, 0)  # signal 0: is it there at all?
        assert server.close() == 0
    finally:
        server.kill()
