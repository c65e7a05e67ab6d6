"""Unusual but valid source, and a checkout shaped by an attacker: what ``check`` must survive.

Each test is one case of issue 25 and failed before its fix: a project's own module run by the
interpreter queries, files in a newer grammar than ours, encodings, line breaks that are not
line breaks, terminal escapes in excerpts, a file rewritten while it is checked.
"""

from __future__ import annotations

import json
import os
import sys
import threading
import time
from pathlib import Path
from typing import Any, Iterator

import pytest

from tests.installed import installed_checker
from typing_literalstring.commands import EXIT_ERROR, EXIT_FINDINGS
from typing_literalstring.commands.cli import main
from typing_literalstring.core.project import choose_environment
from typing_literalstring.specs.thirdparty import site_packages

SHELL = "import subprocess\n\n\ndef run(command: str) -> None:\n"


@pytest.fixture
def project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A project root (pyproject.toml) that is also the working folder, as after ``cd``."""
    root = tmp_path / "proj"
    root.mkdir()
    (root / "pyproject.toml").write_text('[project]\nname = "p"\nversion = "0"\n', "utf-8")
    monkeypatch.chdir(root)
    return root


def _json_check(
    capsys: pytest.CaptureFixture[str], cache_dir: Path, *args: str
) -> tuple[int, dict[str, Any], str]:
    status = main(["check", "--format", "json", "--cache-dir", str(cache_dir), *args])
    captured = capsys.readouterr()
    document: dict[str, Any] = json.loads(captured.out) if captured.out.strip() else {}
    return status, document, captured.err


def _lines_and_rules(document: dict[str, Any]) -> list[tuple[int, str]]:
    return [(f["line"], f["rule"]) for f in document["findings"]]


# 1. The interpreter queries never run the project's own modules.

SHADOWS = ("json", "sysconfig", "site", "sitecustomize", "os", "encodings", "typing", "re")


def _shadowing_modules(root: Path, marker: Path) -> None:
    """A module of each name a child interpreter may import, each leaving ``marker`` behind
    when it runs."""
    body = f"open({str(marker)!r}, 'a').write(__name__ + '\\n')\n"
    for name in SHADOWS:
        if name == "encodings":
            (root / name).mkdir()
            (root / name / "__init__.py").write_text(body, "utf-8")
        else:
            (root / f"{name}.py").write_text(body, "utf-8")


def test_asking_where_the_packages_are_runs_no_module_of_the_project(
    project: Path, tmp_path: Path
) -> None:
    marker = tmp_path / "ran"
    _shadowing_modules(project, marker)
    found = site_packages(Path(sys.executable))
    choose_environment(sys.executable, project)  # probes the interpreter it is given
    assert not marker.exists(), marker.read_text("utf-8")
    assert found
    assert all(p.is_absolute() for p in found)


def test_check_from_inside_a_project_with_shadowing_modules_runs_none_of_them(
    project: Path, tmp_path: Path, cache_dir: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    installed_checker("pyright")
    marker = tmp_path / "ran"
    _shadowing_modules(project, marker)
    (project / "app.py").write_text(SHELL + "    subprocess.run(command, shell=True)\n", "utf-8")
    status, document, err = _json_check(capsys, cache_dir, "--python", sys.executable, "app.py")
    assert not marker.exists(), marker.read_text("utf-8")
    assert status == EXIT_FINDINGS, err
    assert _lines_and_rules(document) == [(5, "LS201")]


# 4. A grammar newer than the Python running us: no finding lost.

NEWER_GRAMMAR = {
    "pep701_quotes.py": SHELL
    + '    d = {"k": "v"}\n    subprocess.run(f"ls {d["k"]} {command}", shell=True)\n',
    "pep701_backslash.py": SHELL + "    subprocess.run(f\"{'\\n'.join([command])}\", shell=True)\n",
    "pep701_multiline.py": SHELL
    + '    subprocess.run(\n        f"ls {\n            command  # the path\n        }",\n'
    + "        shell=True,\n    )\n",
    "pep695.py": "import subprocess\n\ntype Alias[T] = list[T]\n\n\n"
    "def first[T](xs: list[T]) -> T:\n    return xs[0]\n\n\nclass Box[T]:\n    pass\n\n\n"
    "def run(command: str) -> None:\n    subprocess.run(command, shell=True)\n",
}


def _newer_grammar_file(project: Path, name: str) -> tuple[Path, int]:
    """The file, and the line of its injection (the one that starts ``subprocess.run``)."""
    text = NEWER_GRAMMAR[name]
    path = project / name
    path.write_text(text, "utf-8")
    line = next(n for n, t in enumerate(text.split("\n"), 1) if "subprocess.run(" in t)
    return path, line


@pytest.mark.skipif(sys.version_info >= (3, 12), reason="the host reads the 3.12 grammar itself")
@pytest.mark.parametrize("name", sorted(NEWER_GRAMMAR))
def test_a_312_file_on_an_older_host_keeps_its_findings(
    name: str, project: Path, cache_dir: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    installed_checker("pyright")
    path, line = _newer_grammar_file(project, name)
    status, document, err = _json_check(capsys, cache_dir, "--python-version", "3.12", path.name)
    assert status == EXIT_FINDINGS, err
    assert document["unparsable"] == []
    assert _lines_and_rules(document) == [(line, "LS201")]
    # The excerpt is what the user wrote, not our rewrite of it.
    assert (
        document["findings"][0]["source"] == path.read_text("utf-8").split("\n")[line - 1].strip()
    )


@pytest.mark.skipif(sys.version_info >= (3, 12), reason="the host reads the 3.12 grammar itself")
def test_mypy_says_per_file_that_it_cannot_read_the_newer_grammar_and_names_the_fix(
    project: Path, cache_dir: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    installed_checker("mypy")
    path, _ = _newer_grammar_file(project, "pep701_quotes.py")
    (project / "plain.py").write_text(SHELL + "    subprocess.run(command, shell=True)\n", "utf-8")
    status = main(
        ["check", "--checker", "mypy", "--cache-dir", str(cache_dir), path.name, "plain.py"]
    )
    out = capsys.readouterr().out
    assert status == EXIT_ERROR  # a file went unchecked: never a pass
    assert "plain.py:5:5: LS201" in out  # the other file is still checked
    assert "pep701_quotes.py" in out
    assert "grammar" in out
    assert "under Python 3.12" in out


@pytest.mark.skipif(sys.version_info >= (3, 12), reason="the host reads the 3.12 grammar itself")
def test_the_rewrite_keeps_every_byte_and_line_in_place() -> None:
    from typing_literalstring.core import grammar

    if not grammar.available():
        pytest.skip("tree-sitter is not installed")
    for name, text in NEWER_GRAMMAR.items():
        rewritten = grammar.downlevel(text)
        assert rewritten is not None, name
        assert len(rewritten.text.encode()) == len(text.encode())
        assert rewritten.text.count("\n") == text.count("\n")
    assert grammar.downlevel("x = 1\n") is None


def test_a_file_nested_too_deeply_for_the_parser_is_reported_not_a_crash(
    project: Path, cache_dir: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    installed_checker("pyright")
    (project / "deep.py").write_text("x = " + "+".join(["1"] * 200_000) + "\n", "utf-8")
    (project / "app.py").write_text(SHELL + "    subprocess.run(command, shell=True)\n", "utf-8")
    status, document, err = _json_check(capsys, cache_dir, "deep.py", "app.py")
    assert status == EXIT_ERROR, err  # a file went unchecked
    assert [u["path"] for u in document["unparsable"]] == ["deep.py"]
    assert _lines_and_rules(document) == [(5, "LS201")]


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="POSIX only")
def test_links_to_devices_pipes_or_outside_files_are_not_read(
    project: Path, tmp_path: Path, cache_dir: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A checkout may name /dev/zero zero.py (reading never ends) or link a secret outside it
    as a module (its text would reach excerpts and logs): such files are reported, not read."""
    installed_checker("pyright")
    secret = tmp_path / "secret.txt"
    secret.write_text("TOKEN=hunter2 +\n", "utf-8")
    (project / "zero.py").symlink_to("/dev/zero")
    (project / "leak.py").symlink_to(secret)
    os.mkfifo(project / "pipe.py")
    (project / "app.py").write_text(SHELL + "    subprocess.run(command, shell=True)\n", "utf-8")
    status, document, err = _json_check(capsys, cache_dir, ".")
    assert status == EXIT_ERROR, err
    refused = {u["path"]: u["message"] for u in document["unparsable"]}
    assert sorted(refused) == ["leak.py", "pipe.py", "zero.py"]
    assert "symbolic link out of the project" in refused["leak.py"]
    assert "hunter2" not in json.dumps(document)
    assert _lines_and_rules(document) == [(5, "LS201")]


# 5. Decoding as Python decodes.


@pytest.mark.parametrize(
    ("name", "data"),
    [
        (
            "bom.py",
            b"\xef\xbb\xbf" + (SHELL + "    subprocess.run(command, shell=True)\n").encode(),
        ),
        (
            "latin1.py",
            b"# -*- coding: latin-1 -*-\n"
            + SHELL.encode()
            + b"    # caf\xe9\n    subprocess.run(command, shell=True)\n",
        ),
    ],
)
def test_a_bom_or_a_coding_cookie_is_read_as_python_reads_it(
    name: str, data: bytes, project: Path, cache_dir: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    installed_checker("pyright")
    (project / name).write_bytes(data)
    status, document, err = _json_check(capsys, cache_dir, name)
    assert status == EXIT_FINDINGS, err
    assert document["unparsable"] == []
    line = 5 if name == "bom.py" else 7
    assert _lines_and_rules(document) == [(line, "LS201")]
    assert document["findings"][0]["source"] == "subprocess.run(command, shell=True)"


# 6. Lines as the tokenizer counts them.

SEPARATORS = "\u2028\u2029\x85\x0c\x0b\x1c"


def test_line_breaks_inside_a_string_do_not_move_the_excerpt(
    project: Path, cache_dir: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    installed_checker("pyright")
    text = SHELL + f'    note = "a{SEPARATORS}b"\n    subprocess.run(command + note, shell=True)\n'
    (project / "app.py").write_text(text, "utf-8")
    status, document, err = _json_check(capsys, cache_dir, "app.py")
    assert status == EXIT_FINDINGS, err
    assert _lines_and_rules(document) == [(6, "LS201")]
    assert document["findings"][0]["source"] == "subprocess.run(command + note, shell=True)"


def test_a_changed_baselined_statement_is_not_matched_by_another_statements_entry(
    project: Path, cache_dir: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    installed_checker("pyright")
    first = "    subprocess.run(command, shell=True)\n"
    text = (
        SHELL
        + f'    note = "{SEPARATORS}"\n'
        + first
        + "    subprocess.call(command, shell=True)\n"
    )
    app = project / "app.py"
    app.write_text(text, "utf-8")
    status, _, err = _json_check(capsys, cache_dir, "--write-baseline", "app.py")
    assert status == 0, err
    # The baselined subprocess.call line changes: a new injection, which must be reported.
    app.write_text(text.replace("subprocess.call(command,", "subprocess.call(command + note,"))
    status, document, err = _json_check(capsys, cache_dir, "app.py")
    assert status == EXIT_FINDINGS, err
    assert _lines_and_rules(document) == [(7, "LS201")]


def test_lines_split_where_the_tokenizer_splits() -> None:
    from typing_literalstring.core import sources

    text = f"a{SEPARATORS}b\r\nc\rd\ne"
    assert sources.lines(text) == [f"a{SEPARATORS}b", "c", "d", "e"]
    assert "".join(sources.lines(text, keepends=True)) == text


# 7. Control characters from the checked code never reach the terminal raw.


def test_control_characters_in_an_excerpt_are_escaped_in_text_output(
    project: Path, cache_dir: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    installed_checker("pyright")
    hostile = "\x1b]0;pwned\x07\x1b[2J\x1b[8m\u202e\x9b"
    (project / "app.py").write_text(
        SHELL + f'    subprocess.run(command + "{hostile}", shell=True)\n', "utf-8"
    )
    status = main(["check", "--cache-dir", str(cache_dir), "app.py"])
    out = capsys.readouterr().out
    assert status == EXIT_FINDINGS
    assert not any(c in out for c in hostile if not c.isprintable()), repr(out)
    assert "\\u001b]0;pwned\\u0007\\u001b[2J" in out


# 9. A file rewritten while it is checked.


@pytest.fixture
def rewriting(project: Path) -> Iterator[Path]:
    """app.py, rewritten with its injection two lines lower again and again while the test
    runs."""
    app = project / "app.py"
    versions = [
        SHELL + "    subprocess.run(command, shell=True)\n",
        SHELL + "    pass\n    pass\n    subprocess.run(command, shell=True)\n",
    ]
    app.write_text(versions[0], "utf-8")
    stop = threading.Event()

    def rewrite() -> None:
        n = 0
        while not stop.is_set():
            n += 1
            app.write_text(versions[n % 2] + f"# save {n}\n", "utf-8")  # each one new
            time.sleep(0.02)

    thread = threading.Thread(target=rewrite, daemon=True)
    thread.start()
    yield app
    stop.set()
    thread.join()


def test_a_file_rewritten_during_the_check_is_an_error_not_a_mixed_result(
    rewriting: Path, cache_dir: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    installed_checker("pyright")
    status = main(["check", "--cache-dir", str(cache_dir), rewriting.name])
    captured = capsys.readouterr()
    assert status == EXIT_ERROR, captured.out
    assert "changed while they were being checked" in captured.err
    assert "app.py" in captured.err


def test_digests_notice_a_change(tmp_path: Path) -> None:
    from typing_literalstring.analysis import parsed
    from typing_literalstring.core import sources

    path = tmp_path / "a.py"
    path.write_text("x = 1\n", "utf-8")
    before = sources.digests([path])
    os.utime(path)
    assert sources.digests([path]) == before  # touched, not changed
    path.write_text("x = 2\n", "utf-8")
    assert sources.digests([path]) != before
    assert parsed.FilesChangedError.__mro__[1].__name__ == "TypingLiteralStringError"


def test_a_file_named_from_outside_the_project_says_so(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A path outside the project the first path decides is not read, and the message says
    why and what to do, not that it "does not parse" or is "a symbolic link"."""
    installed_checker("pyright")
    project, other = tmp_path / "project", tmp_path / "other"
    project.mkdir()
    other.mkdir()
    (project / "pyproject.toml").write_text('[project]\nname = "p"\nversion = "0"\n')
    (project / "app.py").write_text("x = 1\n")
    (other / "tool.py").write_text("y = 2\n")
    main(
        [
            "check",
            "--cache-dir",
            str(tmp_path / "cache"),
            str(project / "app.py"),
            str(other / "tool.py"),
        ]
    )
    captured = capsys.readouterr()
    err = captured.out + captured.err
    assert "tool.py:1: not checked: outside the project at " in err
    assert "check this file from its own project): not read" in err
    assert "does not parse" not in err
    assert "symbolic link" not in err


def test_a_relative_python_is_taken_from_the_working_folder(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """`--python .venv` (a shared pre-commit configuration) names the environment in the
    working folder, although the interpreter is probed from a folder outside the project."""
    venv = tmp_path / ".venv" / "bin"
    venv.mkdir(parents=True)
    (venv / "python").symlink_to(sys.executable)
    monkeypatch.chdir(tmp_path)
    for given in (".venv", ".venv/bin/python"):
        chosen = choose_environment(given, tmp_path)
        assert chosen.python == tmp_path / ".venv" / "bin" / "python"
