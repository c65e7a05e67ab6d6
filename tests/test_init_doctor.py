"""`init` edits pyproject.toml safely; `doctor` measures what each checker does."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from typing_literalstring.checkers import CHECKERS, MypyPlugin
from typing_literalstring.commands import EXIT_ERROR, EXIT_OK
from typing_literalstring.commands.cli import main
from typing_literalstring.specs import thirdparty

PYPROJECT = """\
# Our project
[project]
name = "demo"  # keep me

[tool.pyright]
typeCheckingMode = "strict"  # and me

[tool.mypy]
strict = true
"""


STUBS = Path(".typing-literalstring", "stubs")


def _installed(*names: str) -> None:
    for name in names:
        if not CHECKERS[name].is_installed():
            pytest.skip(f"{name} is not installed")


def test_init_adds_settings_keeps_the_rest_and_is_idempotent(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    _installed("pyright", "mypy", "ty", "pyrefly")
    (tmp_path / "pyproject.toml").write_text(PYPROJECT)
    args = ["init", "--project", str(tmp_path)]
    for name in ("pyright", "mypy", "ty", "pyrefly"):
        args += ["--checker", name]
    assert main(args) == EXIT_OK
    text = (tmp_path / "pyproject.toml").read_text()
    assert text.startswith(PYPROJECT.split("[tool.pyright]")[0])  # comments and [project] kept
    assert (
        'typeCheckingMode = "strict"  # and me\nstubPath = ".typing-literalstring/stubs/pyright"'
        in text
    )
    assert 'mypy_path = "$MYPY_CONFIG_FILE_DIR/.typing-literalstring/stubs/mypy"' in text
    assert 'plugins = ["typing_literalstring.mypy"]' in text
    assert 'extra-paths = [".typing-literalstring/stubs/ty"]' in text
    assert 'exclude = [".typing-literalstring/stubs/"]' in text  # ty checks hidden folders
    assert 'typeshed-path = ".typing-literalstring/stubs/pyrefly"' in text
    assert 'preset = "default"' in text
    assert (tmp_path / STUBS / "pyright" / "sqlite3" / "__init__.pyi").is_file()
    assert (tmp_path / STUBS / "pyrefly" / "stdlib" / "VERSIONS").is_file()
    capsys.readouterr()
    assert main(args) == EXIT_OK
    assert (tmp_path / "pyproject.toml").read_text() == text
    out = capsys.readouterr().out
    assert "already set [tool.pyright] stubPath" in out
    assert "already set [tool.mypy] plugins = ['typing_literalstring.mypy']" in out


@pytest.mark.parametrize(
    ("before", "after"),
    [
        ('plugins = ["pydantic.mypy"]', 'plugins = ["pydantic.mypy", "typing_literalstring.mypy"]'),
        (
            'plugins = "pydantic.mypy, x.y"',
            'plugins = ["pydantic.mypy", "x.y", "typing_literalstring.mypy"]',
        ),
        (
            'plugins = ["typing_literalstring.mypy", "a.b"]',
            'plugins = ["typing_literalstring.mypy", "a.b"]',
        ),
    ],
)
def test_init_merges_the_mypy_plugin_into_the_plugins_list(
    tmp_path: Path, before: str, after: str
) -> None:
    _installed("mypy")
    (tmp_path / "pyproject.toml").write_text(PYPROJECT + before + "\n")
    args = ["init", "--project", str(tmp_path), "--checker", "mypy"]
    assert main(args) == EXIT_OK  # a merge replaces nothing: no --force needed
    text = (tmp_path / "pyproject.toml").read_text()
    assert text.count("plugins =") == 1
    assert after in text
    assert main(args) == EXIT_OK
    assert (tmp_path / "pyproject.toml").read_text() == text


def test_init_refuses_a_plugins_value_it_cannot_merge(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    _installed("mypy")
    original = PYPROJECT + "plugins = 3\n"
    (tmp_path / "pyproject.toml").write_text(original)
    args = ["init", "--project", str(tmp_path), "--checker", "mypy"]
    assert main(args) == EXIT_ERROR
    assert "would replace 3" in capsys.readouterr().err
    assert (tmp_path / "pyproject.toml").read_text() == original
    assert main([*args, "--force"]) == EXIT_OK
    assert 'plugins = ["typing_literalstring.mypy"]' in (tmp_path / "pyproject.toml").read_text()


def test_init_refuses_to_replace_a_different_setting_without_force(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    _installed("pyright")
    original = PYPROJECT.replace('"strict"  # and me', '"strict"  # and me\nstubPath = "typings"')
    (tmp_path / "pyproject.toml").write_text(original)
    assert main(["init", "--project", str(tmp_path)]) == EXIT_ERROR
    assert "stubPath = '.typing-literalstring/stubs/pyright' would replace 'typings'" in (
        capsys.readouterr().err
    )
    assert (tmp_path / "pyproject.toml").read_text() == original
    assert not (tmp_path / ".typing-literalstring").exists()
    assert main(["init", "--project", str(tmp_path), "--force"]) == EXIT_OK
    assert (
        'stubPath = ".typing-literalstring/stubs/pyright"'
        in (tmp_path / "pyproject.toml").read_text()
    )


def test_init_creates_a_pyproject_when_there_is_none(tmp_path: Path) -> None:
    _installed("basedpyright")
    assert main(["init", "--project", str(tmp_path), "--checker", "basedpyright"]) == EXIT_OK
    text = (tmp_path / "pyproject.toml").read_text()
    assert '[tool.basedpyright]\nstubPath = ".typing-literalstring/stubs/basedpyright"' in text


def test_init_missing_project(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["init", "--project", str(tmp_path / "nope")]) == EXIT_ERROR
    assert "no such project folder" in capsys.readouterr().err


APP = """\
import sqlite3, subprocess
import psycopg2


def f(u: str) -> None:
    sqlite3.connect(":memory:").execute(f"SELECT {u}")
    psycopg2.connect("").cursor().execute(f"SELECT {u}")
"""
# How each checker is run by hand from the project root, with the project's Python (here, the
# one running the tests, which has types-psycopg2); ty and pyrefly in a one-line format so
# that the location of a diagnostic's context (ty names the sink's stub) is not mistaken for one.
DIRECT = {
    "pyright": ["--pythonpath", sys.executable],
    "basedpyright": ["--pythonpath", sys.executable],
    "mypy": ["--python-executable", sys.executable, "."],
    "zuban": ["check", "--python-executable", sys.executable],
    "ty": ["check", "--output-format", "concise", "--python", sys.executable],
    "pyrefly": [
        "check", "--output-format", "min-text", "--python-interpreter-path", sys.executable
    ],
}  # fmt: skip


@pytest.mark.parametrize(
    "names", [("pyright", "mypy", "ty", "pyrefly"), ("basedpyright", "zuban", "ty")]
)
def test_direct_checker_runs_skip_the_stubs_folder_and_load_the_stubs(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], names: tuple[str, ...]
) -> None:
    _installed(*names)
    if not any(
        (s / "psycopg2-stubs").is_dir() for s in thirdparty.site_packages(Path(sys.executable))
    ):
        pytest.skip("psycopg2-stubs is not installed (the test extras install it)")
    (tmp_path / "pyproject.toml").write_text('[project]\nname = "demo"\nversion = "0"\n')
    (tmp_path / "app.py").write_text(APP)
    args = ["init", "--project", str(tmp_path), "--python", sys.executable]
    for name in names:
        args += ["--checker", name]
    assert main(args) == EXIT_OK
    overlays = [
        Path(line.split("wrote the overlay ", 1)[1])
        for line in capsys.readouterr().out.splitlines()
        if line.startswith("wrote the overlay ")
    ]
    folder = overlays[0].parent
    assert {o.parent for o in overlays} == {folder}
    relative = str(folder.relative_to(tmp_path))
    for name in names:
        checker = CHECKERS[name]
        proc = subprocess.run(
            [*checker.executable(), *DIRECT[name]],
            cwd=tmp_path,
            capture_output=True,
            text=True,
            check=False,
            timeout=600,
        )
        output = proc.stdout + proc.stderr
        # It ran to completion (mypy stops with 2 on "Duplicate module named asyncio")...
        assert proc.returncode == 1, f"{name}: {output}"
        # ... reported nothing in the folder init wrote ...
        assert relative not in output, f"{name}: {output}"
        # ... and loaded our stubs: the f-string reaching sqlite3 is an error, and so is the one
        # reaching psycopg2, from the tightened copy of types-psycopg2 init put in the overlay.
        assert "app.py:6:" in output, f"{name}: {output}"
        assert "app.py:7:" in output, f"{name}: {output}"


@pytest.mark.parametrize("folder", ["stubs", "./typings", "tools/literalstring"])
def test_init_refuses_a_visible_dir(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], folder: str
) -> None:
    (tmp_path / "pyproject.toml").write_text(PYPROJECT)
    assert main(["init", "--project", str(tmp_path), "--dir", folder]) == EXIT_ERROR
    assert "is not a hidden folder" in capsys.readouterr().err
    assert (tmp_path / "pyproject.toml").read_text() == PYPROJECT
    assert sorted(p.name for p in tmp_path.iterdir()) == ["pyproject.toml"]


def test_init_refuses_a_dir_outside_the_project(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (tmp_path / "p").mkdir()
    for folder in ("../.stubs", str(tmp_path / ".stubs")):
        assert main(["init", "--project", str(tmp_path / "p"), "--dir", folder]) == EXIT_ERROR
        assert "must be a folder inside the project" in capsys.readouterr().err
    assert sorted(p.name for p in tmp_path.iterdir()) == ["p"]


def test_init_accepts_a_visible_folder_inside_a_hidden_one(tmp_path: Path) -> None:
    _installed("pyright")
    args = ["init", "--project", str(tmp_path), "--dir", ".config/ls-stubs"]
    assert main(args) == EXIT_OK
    assert 'stubPath = ".config/ls-stubs/pyright"' in (tmp_path / "pyproject.toml").read_text()
    assert (tmp_path / ".config" / "ls-stubs" / "pyright" / "subprocess.pyi").is_file()


@pytest.mark.parametrize("how", ["--project", "cwd"])
def test_init_and_doctor_from_a_subfolder_act_on_the_project_root(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], how: str
) -> None:
    _installed("pyright")
    (tmp_path / "pyproject.toml").write_text(PYPROJECT)
    sub = tmp_path / "src" / "pkg"
    sub.mkdir(parents=True)
    where = ["--project", str(sub)] if how == "--project" else []
    if how == "cwd":
        monkeypatch.chdir(sub)
    assert main(["init", *where]) == EXIT_OK
    out = capsys.readouterr().out
    assert not (sub / "pyproject.toml").exists()
    assert not list(sub.iterdir())
    assert (
        'stubPath = ".typing-literalstring/stubs/pyright"'
        in (tmp_path / "pyproject.toml").read_text()
    )
    overlay = tmp_path.resolve() / STUBS / "pyright"
    assert (overlay / "sqlite3" / "__init__.pyi").is_file()
    assert f"wrote the overlay {overlay}\n" in out
    assert f"in {tmp_path.resolve() / 'pyproject.toml'}\n" in out
    assert main(["doctor", *where, "--checker", "pyright"]) == EXIT_OK
    assert (
        capsys.readouterr()
        .out.splitlines()[0]
        .endswith("this project's configuration loads our stubs: yes")
    )


def test_doctor_from_a_subfolder_reads_the_project_roots_configuration(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    _installed("pyright")
    (tmp_path / "pyproject.toml").write_text(PYPROJECT)
    assert main(["init", "--project", str(tmp_path)]) == EXIT_OK
    sub = tmp_path / "tests"
    sub.mkdir()
    capsys.readouterr()
    assert main(["doctor", "--project", str(sub), "--checker", "pyright"]) == EXIT_OK
    assert (
        capsys.readouterr()
        .out.splitlines()[0]
        .endswith("this project's configuration loads our stubs: yes")
    )


MYPY_STUBS = "$MYPY_CONFIG_FILE_DIR/.typing-literalstring/stubs/mypy"


@pytest.mark.parametrize(
    ("before", "after"),
    [
        ('mypy_path = "src:lib"', f'mypy_path = "{MYPY_STUBS}:src:lib"'),
        ('mypy_path = "src, lib"', f'mypy_path = "{MYPY_STUBS}, src, lib"'),
        ('mypy_path = ["src", "lib"]', f'mypy_path = ["{MYPY_STUBS}", "src", "lib"]'),
        (f'mypy_path = "src:{MYPY_STUBS}"', f'mypy_path = "{MYPY_STUBS}:src"'),
    ],
)
def test_init_force_puts_our_folder_first_on_mypy_path_and_keeps_the_rest(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], before: str, after: str
) -> None:
    _installed("mypy")
    original = PYPROJECT + before + "\n"
    (tmp_path / "pyproject.toml").write_text(original)
    args = ["init", "--project", str(tmp_path), "--checker", "mypy"]
    assert main(args) == EXIT_ERROR
    error = capsys.readouterr().err
    assert "[tool.mypy] mypy_path = " in error
    assert "Rerun with --force" in error
    assert (tmp_path / "pyproject.toml").read_text() == original
    assert not (tmp_path / ".typing-literalstring").exists()
    assert main([*args, "--force"]) == EXIT_OK
    text = (tmp_path / "pyproject.toml").read_text()
    assert after + "\n" in text
    assert text.count("mypy_path") == 1
    assert main(args) == EXIT_OK  # once ours is first, no --force is needed any more
    assert (tmp_path / "pyproject.toml").read_text() == text


def test_init_merges_ty_extra_paths_and_excludes_without_force(tmp_path: Path) -> None:
    _installed("ty")
    original = (
        PYPROJECT
        + '\n[tool.ty.environment]\nextra-paths = ["vendor"]  # ours\n'
        + '\n[tool.ty.src]\nexclude = ["generated/"]\n'
    )
    (tmp_path / "pyproject.toml").write_text(original)
    args = ["init", "--project", str(tmp_path), "--checker", "ty"]
    assert main(args) == EXIT_OK
    text = (tmp_path / "pyproject.toml").read_text()
    assert 'extra-paths = [".typing-literalstring/stubs/ty", "vendor"]' in text
    assert 'exclude = ["generated/", ".typing-literalstring/stubs/"]' in text
    assert main(args) == EXIT_OK
    assert (tmp_path / "pyproject.toml").read_text() == text


def test_init_for_zuban_silences_the_overlay_modules_and_keeps_the_users_overrides(
    tmp_path: Path,
) -> None:
    _installed("zuban")
    original = (
        PYPROJECT + '\n[[tool.mypy.overrides]]\nmodule = "yaml"  # untyped\n'
        "ignore_missing_imports = true\n"
    )
    (tmp_path / "pyproject.toml").write_text(original)
    args = ["init", "--project", str(tmp_path), "--checker", "zuban"]
    assert main(args) == EXIT_OK
    text = (tmp_path / "pyproject.toml").read_text()
    assert 'module = "yaml"  # untyped\nignore_missing_imports = true\n' in text
    assert text.count("[[tool.mypy.overrides]]") == 2
    assert '"os", "os.*", "sqlite3", "sqlite3.*", "subprocess", "MySQLdb",' in text
    # Each third-party package under both of the names its overlay copy has.
    assert '"sqlalchemy", "sqlalchemy.*", "sqlalchemy-stubs", "sqlalchemy-stubs.*",' in text
    assert '"sqlite_utils-stubs.*"]\nignore_errors = true' in text
    assert main(args) == EXIT_OK
    assert (tmp_path / "pyproject.toml").read_text() == text


def test_init_refuses_to_configure_pyright_and_basedpyright_in_one_pyproject(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    _installed("pyright", "basedpyright")
    (tmp_path / "pyproject.toml").write_text(PYPROJECT)  # it has [tool.pyright]
    for checkers in (["basedpyright"], ["pyright", "basedpyright"]):
        args = ["init", "--project", str(tmp_path), "--force"]
        for name in checkers:
            args += ["--checker", name]
        assert main(args) == EXIT_ERROR
        assert "both [tool.pyright] and [tool.basedpyright]" in capsys.readouterr().err
        assert (tmp_path / "pyproject.toml").read_text() == PYPROJECT
    assert not (tmp_path / ".typing-literalstring").exists()


UNTYPED_BODIES = (
    "; mypy does not check unannotated bodies (check_untyped_defs is off): the sinks called in "
    "functions without annotations go unchecked"
)


def test_doctor_measures_enforcement_and_the_projects_configuration(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    _installed("pyright", "mypy")
    doctor = ["doctor", "--project", str(tmp_path), "--checker", "pyright", "--checker", "mypy"]
    assert main(doctor) == EXIT_OK
    before = capsys.readouterr().out.splitlines()
    assert before[0].startswith("pyright ")
    assert "enforces LiteralString: yes; Appendix C str overloads: yes" in before[0]
    assert "loads our stubs: no (run `typing-literalstring init --checker pyright`)" in before[0]
    # mypy as `check` runs it: with our plugin, measured by the same probe.
    assert "enforces LiteralString: yes (with our plugin, typing_literalstring.mypy)" in before[1]
    assert "Appendix C str overloads: yes;" in before[1]
    assert before[1].endswith(
        "loads our stubs: no; enables our plugin: no "
        "(run `typing-literalstring init --checker mypy`)" + UNTYPED_BODIES
    )
    assert main(["init", "--project", str(tmp_path), "--checker", "pyright"]) == EXIT_OK
    capsys.readouterr()
    assert main(doctor) == EXIT_OK
    after = capsys.readouterr().out.splitlines()
    assert after[0].endswith("this project's configuration loads our stubs: yes")
    assert after[1].endswith("(run `typing-literalstring init --checker mypy`)" + UNTYPED_BODIES)
    assert main(["init", "--project", str(tmp_path), "--checker", "mypy"]) == EXIT_OK
    capsys.readouterr()
    assert main(doctor) == EXIT_OK
    assert (
        capsys.readouterr()
        .out.splitlines()[1]
        .endswith(
            "this project's configuration loads our stubs: yes; enables our plugin: yes"
            + UNTYPED_BODIES
        )
    )


def test_doctor_says_why_mypy_does_not_enforce_when_the_plugin_cannot_run(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    _installed("mypy")

    def too_old(self: MypyPlugin) -> str:
        return "too old"

    monkeypatch.setattr(MypyPlugin, "plugin_problem", too_old)
    assert main(["doctor", "--project", str(tmp_path), "--checker", "mypy"]) == EXIT_OK
    line = capsys.readouterr().out.splitlines()[0]
    assert (
        "enforces LiteralString: no (it reads LiteralString as plain str: mypy issue 12554; "
        in line
    )
    assert "our plugin cannot run: too old)" in line


def test_doctor_lists_the_third_party_packages_check_tightens(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The packages of the chosen environment that our specifications speak of: tightened by
    `check` for every checker, and, measured with a probe, loaded by the project's own pyright
    run only once `init` has written them."""
    _installed("pyright")
    sites = thirdparty.site_packages(Path(sys.executable))
    if not any((s / "psycopg2-stubs").is_dir() for s in sites):
        pytest.skip("psycopg2-stubs is not installed (the test extras install it)")
    doctor = ["doctor", "--project", str(tmp_path), "--checker", "pyright"]
    assert main([*doctor, "--python", sys.executable]) == EXIT_OK
    out = capsys.readouterr().out
    assert "third-party sinks, for the packages installed in " in out
    line = next(x for x in out.splitlines() if x.startswith("  psycopg2: "))
    # Covered is said per entry point our specification tightens.
    assert line.startswith(
        "  psycopg2: `check` tightens cursor.execute, cursor.executemany, cursor.mogrify, "
        "cursor.copy_expert, SQL() (types-psycopg2 2.9.21."
    )
    assert line.endswith(
        "your own runs refuse a str at its sinks: pyright: no (run `typing-literalstring init "
        "--checker pyright`, and again after upgrading it)"
    )
    # init copies the packages the project's files import (issue 29).
    (tmp_path / "app.py").write_text("import psycopg2\n")
    assert main(["init", "--project", str(tmp_path), "--python", sys.executable]) == EXIT_OK
    capsys.readouterr()
    assert main([*doctor, "--python", sys.executable]) == EXIT_OK
    line = next(x for x in capsys.readouterr().out.splitlines() if x.startswith("  psycopg2: "))
    assert line.endswith("your own runs refuse a str at its sinks: pyright: yes")


def test_doctor_imports_no_mypy_plugin_of_the_project_and_still_sees_ours(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """mypy imports the plugins its configuration names, from the configuration's folder: a
    checkout's `plugins = evil` would run its evil.py when doctor probes the configuration."""
    _installed("mypy")
    marker = tmp_path / "ran"
    project = tmp_path / "proj"
    project.mkdir()
    (project / "evil.py").write_text(
        f"open({str(marker)!r}, 'w').close()\ndef plugin(version): raise SystemExit(3)\n",
        encoding="utf-8",
    )
    assert main(["init", "--project", str(project), "--checker", "mypy"]) == EXIT_OK
    pyproject = project / "pyproject.toml"
    text = pyproject.read_text(encoding="utf-8")
    assert 'plugins = ["typing_literalstring.mypy"]' in text
    pyproject.write_text(
        text.replace(
            'plugins = ["typing_literalstring.mypy"]',
            'plugins = ["evil", "typing_literalstring.mypy"]',
        )
        + 'python_executable = "./evil.py"\njunit_xml = "../written-outside.xml"\n',
        encoding="utf-8",
    )
    capsys.readouterr()
    assert main(["doctor", "--project", str(project), "--checker", "mypy"]) == EXIT_OK
    line = capsys.readouterr().out.splitlines()[0]
    assert not marker.exists()
    assert not (tmp_path / "written-outside.xml").exists()
    assert line.endswith(
        "this project's configuration loads our stubs: yes; enables our plugin: yes "
        "(its other plugins, evil, were not loaded: doctor runs no code of the project)"
        + UNTYPED_BODIES
    )


def test_doctor_exits_2_when_a_checker_could_not_be_probed(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """An installed checker that fails its probe leaves "what is enforced" unanswered."""
    _installed("mypy")
    (tmp_path / "mypy.ini").write_text("[mypy]\npython_version = 2.7\n", encoding="utf-8")
    assert main(["doctor", "--project", str(tmp_path), "--checker", "mypy"]) == EXIT_ERROR
    captured = capsys.readouterr()
    assert captured.out.startswith("mypy: ")
    assert "error: could not probe mypy (said above); what it enforces is unknown" in captured.err
