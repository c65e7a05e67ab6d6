"""The editor setups of editors/ (docs/editors.md), each run in its editor where the editor can
be installed here: Neovim and Emacs headless, the VS Code extension built and packaged with npm.
Helix has no package in the archives this project installs from: its file is read, and run
where `hx` is on PATH."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from typing_literalstring.commands.server import options

pytest.importorskip("pygls", reason="the server extra (pygls) is not installed")

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - the suite's own Python is 3.11
    tomllib = pytest.importorskip("tomli")

REPO = Path(__file__).resolve().parent.parent
EDITORS = REPO / "editors"
EXAMPLE = REPO / "examples" / "vulnerable_app.py"
# The example's findings by line, as check reports them (tests/test_server.py compares the
# server with check itself; here each editor must show what the server publishes).
EXAMPLE_LINES = [28, 32, 36, 43, 46, 47]
WAIT = 240
# The console script, as the editors start it: `python -m` would put the project first on
# sys.path.
SERVER = [str(Path(sys.executable).parent / "typing-literalstring")]


def _project(tmp_path: Path) -> Path:
    folder = tmp_path / "app"
    folder.mkdir()
    (folder / "pyproject.toml").write_text('[project]\nname = "app"\nversion = "0"\n')
    shutil.copy(EXAMPLE, folder / "vulnerable_app.py")
    return folder


def _environment(cache: Path) -> dict[str, str]:
    return {**os.environ, "TYPING_LITERALSTRING_CACHE": str(cache)}


_NEOVIM_WAIT = """
local ok = vim.wait({wait}, function() return #vim.diagnostic.get(0) > 0 end, 200)
local lines = {{}}
for _, d in ipairs(vim.diagnostic.get(0)) do
  local lsp = (d.user_data or {{}}).lsp or {{}}
  table.insert(lines, tostring(d.lnum + 1) .. " " .. tostring(d.code or lsp.code))
end
if not ok then table.insert(lines, "timeout") end
vim.fn.writefile(lines, "{out}")
vim.cmd("qa!")
"""


def test_neovim_shows_the_findings(tmp_path: Path, cache_dir: Path) -> None:
    nvim = shutil.which("nvim")
    if nvim is None:
        pytest.skip("neovim is not installed (Debian: apt-get install neovim)")
    folder = _project(tmp_path)
    out = tmp_path / "shown.txt"
    wait = tmp_path / "wait.lua"
    wait.write_text(_NEOVIM_WAIT.format(wait=WAIT * 1000, out=out))
    command = json.dumps([*SERVER, "server"])
    proc = subprocess.run(
        [nvim, "--headless", "--clean", "-c", f"let g:typing_literalstring_cmd = {command}",
         "-c", f"luafile {EDITORS / 'neovim' / 'typing_literalstring.lua'}",
         "-c", "edit vulnerable_app.py", "-c", f"luafile {wait}"],
        cwd=folder, env=_environment(cache_dir), capture_output=True, text=True,
        timeout=WAIT + 60, check=False,
    )  # fmt: skip
    assert out.exists(), proc.stdout + proc.stderr
    shown = out.read_text().split()
    assert "timeout" not in shown
    assert sorted(int(line) for line in shown[::2]) == EXAMPLE_LINES
    assert set(shown[1::2]) == {"LS101", "LS201", "LS202", "LS301"}


_EMACS_WAIT = """
(setq typing-literalstring-command '({command}))
(load "{el}")
(find-file "{file}")
(eglot-ensure)
(run-hooks 'post-command-hook)
(let ((deadline (+ (float-time) {wait})) (found nil) (lines nil))
  (while (and (< (float-time) deadline) (not found))
    (accept-process-output nil 0.2)
    (setq found (flymake-diagnostics)))
  (dolist (d found)
    (push (format "%d %s" (line-number-at-pos (flymake-diagnostic-beg d))
                  (flymake-diagnostic-text d))
          lines))
  (with-temp-file "{out}"
    (insert (mapconcat #'identity (nreverse lines) "\\n") "\\n"))
  (when (eglot-current-server) (eglot-shutdown (eglot-current-server))))
"""


def test_emacs_eglot_shows_the_findings(tmp_path: Path, cache_dir: Path) -> None:
    emacs = shutil.which("emacs")
    if emacs is None:
        pytest.skip("emacs is not installed (Debian: apt-get install emacs-nox elpa-eglot)")
    eglot = subprocess.run(
        [emacs, "--batch", "--eval", "(require 'eglot)"],
        capture_output=True, text=True, check=False,
    )  # fmt: skip
    if eglot.returncode != 0:
        pytest.skip("eglot is not installed (Emacs 29 has it; Debian: elpa-eglot)")
    folder = _project(tmp_path)
    out = tmp_path / "shown.txt"
    script = tmp_path / "wait.el"
    script.write_text(
        _EMACS_WAIT.format(
            command=" ".join(json.dumps(part) for part in [*SERVER, "server"]),
            el=EDITORS / "emacs" / "typing-literalstring.el",
            file=folder / "vulnerable_app.py",
            wait=WAIT,
            out=out,
        )
    )
    proc = subprocess.run(
        [emacs, "--batch", "-l", str(script)], cwd=folder, env=_environment(cache_dir),
        capture_output=True, text=True, timeout=WAIT + 60, check=False,
    )  # fmt: skip
    assert out.exists(), proc.stdout + proc.stderr
    shown = [line for line in out.read_text().splitlines() if line]
    assert sorted(int(line.split()[0]) for line in shown) == EXAMPLE_LINES
    assert all("typing-literalstring [LS" in line for line in shown)


def test_helix_configuration_names_the_server(tmp_path: Path) -> None:
    written = tomllib.loads((EDITORS / "helix" / "languages.toml").read_text())
    server = written["language-server"]["typing-literalstring"]
    assert [server["command"], *server["args"]] == ["typing-literalstring", "server"]
    assert set(server["config"]) <= set(options.KEYS)
    (python,) = [lang for lang in written["language"] if lang["name"] == "python"]
    assert "typing-literalstring" in python["language-servers"]
    hx = shutil.which("hx")
    if hx is None:
        pytest.skip("helix is not installed: it has no package in Debian 12, PyPI or npm")
    config = tmp_path / "config" / "helix"
    config.mkdir(parents=True)
    shutil.copy(EDITORS / "helix" / "languages.toml", config / "languages.toml")
    proc = subprocess.run(
        [hx, "--health", "python"], env={**os.environ, "XDG_CONFIG_HOME": str(config.parent)},
        capture_output=True, text=True, timeout=60, check=False,
    )  # fmt: skip
    assert "typing-literalstring" in proc.stdout, proc.stdout + proc.stderr


def test_vscode_extension_settings_are_the_servers() -> None:
    manifest = json.loads((EDITORS / "vscode" / "package.json").read_text())
    assert manifest["main"] == "./out/extension.js"
    assert "onLanguage:python" in manifest["activationEvents"]
    settings = manifest["contributes"]["configuration"]["properties"]
    prefix = f"{options.SECTION}."
    assert {key[len(prefix) :] for key in settings} == {*options.KEYS, "command"}
    # The program the extension starts is the user's choice, never a workspace's.
    assert settings[f"{prefix}command"]["scope"] == "machine"
    restricted = manifest["capabilities"]["untrustedWorkspaces"]["restrictedConfigurations"]
    assert f"{prefix}python" in restricted
    lock = json.loads((EDITORS / "vscode" / "package-lock.json").read_text())
    assert lock["packages"][""]["dependencies"] == manifest["dependencies"]


def test_vscode_extension_builds_and_packages(tmp_path: Path) -> None:
    npm = shutil.which("npm")
    if npm is None:
        pytest.skip("npm is not installed")
    copy = tmp_path / "vscode"
    shutil.copytree(
        EDITORS / "vscode", copy, ignore=shutil.ignore_patterns("node_modules", "out", "*.vsix")
    )
    for step in (["ci", "--no-audit", "--no-fund"], ["run", "compile"], ["run", "package"]):
        proc = subprocess.run(
            [npm, *step], cwd=copy, capture_output=True, text=True, timeout=600, check=False
        )
        assert proc.returncode == 0, proc.stdout + proc.stderr
    assert (copy / "out" / "extension.js").is_file()
    assert (copy / "typing-literalstring.vsix").is_file()
