"""A call of the project's own function named like a sink is judged by what that function does
(``project_defs``), never by its name: the shapes of the impact report's wrong findings."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from tests.checking import check_project, marked_rules
from typing_literalstring.analysis.project_defs import Foreign, Own, Project, Resolved


def _resolve(tmp_path: Path, files: dict[str, str], where: str, line: int) -> Resolved:
    """What the call on ``line`` of ``where`` names, in a project of ``files``."""
    for name, text in files.items():
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text(text, encoding="utf-8")
    project = Project([tmp_path / name for name in files], [tmp_path])
    path = str((tmp_path / where).resolve())
    tree = ast.parse(files[where])
    callees = project.callees(path, tree)
    call = next(n for n in ast.walk(tree) if isinstance(n, ast.Call) and n.lineno == line)
    return callees.of(call)


def _own(resolved: Resolved) -> str:
    assert isinstance(resolved, Own), resolved
    return f"{Path(resolved.path).name}:{resolved.defined_in}.{resolved.node.name}"


PEEWEE = """\
class ColumnBase:
    pass


class SQL(ColumnBase):
    def __init__(self, sql, params=None):
        self.sql = sql


def collate(name):
    return SQL("COLLATE %s" % name)
"""


def test_a_class_of_the_module_and_one_star_imported_are_the_projects(tmp_path: Path) -> None:
    """peewee 4.5.3: its own `class SQL(ColumnBase)` was taken for psycopg2.sql.SQL (40 of
    the impact report's wrong findings), in peewee.py and through `from peewee import *`."""
    files = {
        "peewee.py": PEEWEE,
        "playhouse/__init__.py": "",
        "playhouse/migrate.py": "from peewee import *\n\n\ndef default(value):\n"
        "    return SQL(value)\n",
    }
    assert _own(_resolve(tmp_path, files, "peewee.py", 11)) == "peewee.py:.SQL"
    assert _own(_resolve(tmp_path, files, "playhouse/migrate.py", 5)) == "peewee.py:.SQL"


def test_imports_relative_and_absolute_through_re_imports(tmp_path: Path) -> None:
    """psycopg 3.3.9's `Xid.from_string` (`from ._tpc import Xid`) and beets 2.14.1's
    `get_template` (its functemplate `Template`), re-imported by a package's __init__."""
    files = {
        "psycopg/__init__.py": "from ._tpc import Xid\n",
        "psycopg/_tpc.py": "class Xid:\n    @classmethod\n    def from_string(cls, s):\n"
        "        return cls()\n\n\nXid.__module__ = 'psycopg'\n",
        "psycopg/conn.py": "from ._tpc import Xid\nfrom psycopg import Xid as X2\n\n\n"
        "def begin(xid):\n    Xid.from_string(xid)\n    X2.from_string(xid)\n",
    }
    assert _own(_resolve(tmp_path, files, "psycopg/conn.py", 6)) == "_tpc.py:Xid.from_string"
    assert _own(_resolve(tmp_path, files, "psycopg/conn.py", 7)) == "_tpc.py:Xid.from_string"


def test_a_method_on_self_is_the_classs_or_its_project_bases(tmp_path: Path) -> None:
    """celery 5.7.0's `Task.__call__` calls `self.run(*args, **kwargs)`, its own `run`;
    certbot's test classes each call their own `self._call`."""
    text = (
        "class Task:\n    def __call__(self, *args, **kwargs):\n"
        "        return self.run(*args, **kwargs)\n\n    def run(self, *args, **kwargs):\n"
        "        raise NotImplementedError\n\n\nclass Child(Task):\n    def go(self, x):\n"
        "        return self.run(x)\n\n\nclass Other(object):\n    def go(self, x):\n"
        "        return self.run(x)\n"
    )
    files = {"task.py": text}
    assert _own(_resolve(tmp_path, files, "task.py", 3)) == "task.py:Task.run"
    assert _own(_resolve(tmp_path, files, "task.py", 11)) == "task.py:Task.run"
    assert _resolve(tmp_path, files, "task.py", 16) is None  # defined nowhere in view


def test_what_stays_judged_by_its_name(tmp_path: Path) -> None:
    """A sink's own package, a parameter, a receiver out of view, a name assigned at run
    time: undecided.  Another package's function of a sink's name is Foreign (celery's
    `tblib.Traceback.from_string`, its import guarded by `except ImportError: tblib = None`)."""
    text = (
        "import subprocess\nfrom psycopg2.sql import SQL\ntry:\n    import tblib\n"
        "except ImportError:\n    tblib = None\n\n\ndef f(conn, execute, tb):\n"
        "    subprocess.run(tb, shell=True)\n    SQL(tb)\n    conn.execute(tb)\n"
        "    execute(tb)\n    tblib.Traceback.from_string(tb)\n"
    )
    files = {"app.py": text}
    for line in (10, 11, 12, 13):
        assert _resolve(tmp_path, files, "app.py", line) is None
    assert _resolve(tmp_path, files, "app.py", 14) == Foreign("tblib")
    # cherrypy 18.10.0's `popen`, defined in `try:` and again in `except ImportError:`.
    files = {"modpy.py": "try:\n    import subprocess\n\n    def popen(c):\n        pass\n"
             "except ImportError:\n    def popen(c):\n        pass\n\n\npopen(x)\n"}  # fmt: skip
    assert _resolve(tmp_path, files, "modpy.py", 11) is None
    # Jinja2 3.0's `jinja2.Markup`: a class of the module, but its base's constructor is a sink.
    files = {"markup.py": "import markupsafe\n\n\nclass Markup(markupsafe.Markup):\n"
             "    pass\n\n\nclass Bold(Markup):\n    pass\n\n\nMarkup(x)\nBold(x)\n"}  # fmt: skip
    assert _resolve(tmp_path, files, "markup.py", 12) is None
    assert _resolve(tmp_path, files, "markup.py", 13) is None


HELD = """\
class SimpleTemplate:
    def execute(self, _stdout, kwargs):
        exec(self.co, kwargs)


class Engine:
    def render(self, name, env):
        return self.cache[name].execute(env["_stdout"], env)
"""
DELEGATES = """\
class Database:
    def execute(self, sql):
        return self.conn.execute(sql)
"""


def test_a_method_of_an_object_the_instance_holds(tmp_path: Path) -> None:
    """bottle 0.13.5 calls `self.cache[_name].execute(env['_stdout'], env)`, its own
    SimpleTemplate's, in a module that imports no SQL driver; a method that delegates to the
    object it holds (`Database.execute`) calls that object's, whatever the module defines;
    with a driver imported, or two methods of the name, which one is not known."""
    other = "\n\nclass Other:\n    def execute(self):\n        pass\n"
    files = {
        "bottle.py": HELD,
        "two.py": HELD + other,
        "driver.py": "import sqlite3\n" + HELD,
        "db.py": DELEGATES,
    }
    assert _own(_resolve(tmp_path, files, "bottle.py", 8)) == "bottle.py:SimpleTemplate.execute"
    assert _resolve(tmp_path, files, "db.py", 3) is None
    assert _resolve(tmp_path, files, "two.py", 8) is None
    assert _resolve(tmp_path, files, "driver.py", 9) is None


OWN_SQL = """\
import sqlite3
import sys


class SQL:
    def __init__(self, sql):
        self.sql = sql


def frame(kind):
    return SQL("%s UNBOUNDED PRECEDING" % kind)


frame(sys.argv[1])
conn = sqlite3.connect(":memory:")
conn.execute("SELECT 1 WHERE 1 = %s" % sys.argv[1])  # LS101
"""

HELPERS = """\
import subprocess
import sys


def run_hook(command):
    return subprocess.run(command, shell=True)  # LS903


def make_key(size, folder):
    return (size, folder)


class RunTest:
    @classmethod
    def _call(cls, *args, **kwargs):
        return run_hook(*args, **kwargs)

    def test_it(self):
        self._call(sys.argv[1])  # LS201


class KeyTest:
    @classmethod
    def _call(cls, *args, **kwargs):
        return make_key(*args, **kwargs)

    def test_it(self):
        self._call(sys.argv[1], sys.argv[2])
"""


@pytest.mark.parametrize("name", ["pyright", "mypy"])
def test_the_projects_own_functions_named_like_sinks_are_no_sinks(
    name: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """peewee's own `SQL` given text built from an untyped parameter was LS902 (pyright) or
    LS101; certbot's `KeyTest._call` was linked to another class's `_call` that runs a
    shell, by its name alone (LS201).  The real sinks beside them stay findings."""
    files = {"own_sql.py": OWN_SQL, "helpers.py": HELPERS}
    _, document = check_project(name, tmp_path, files, capsys)
    expected = {(f, *m) for f, text in files.items() for m in marked_rules(text)}
    found = {(Path(f["path"]).name, f["line"], f["rule"]) for f in document["findings"]}
    assert found == expected, found


def test_star_imports_in_a_cycle_resolve_once(tmp_path: Path) -> None:
    """A hostile checkout: twelve modules each importing * from all the others.  Each name is
    resolved once per module (it took 47 s for one call before), a cycle binds nothing, and a
    definition inside the cycle is still found."""
    import time

    files = {
        f"p/m{i}.py": "".join(f"from p.m{j} import *\n" for j in range(12) if j != i)
        for i in range(12)
    }
    files["p/__init__.py"] = ""
    files["p/m0.py"] += "\n\ndef f(y):\n    SQL(y)\n    Template(y)\n"
    files["p/m5.py"] += "\n\nclass SQL:\n    pass\n"
    started = time.monotonic()
    assert _own(_resolve(tmp_path, files, "p/m0.py", 15)) == "m5.py:.SQL"
    assert _resolve(tmp_path, files, "p/m0.py", 16) is None
    assert time.monotonic() - started < 5


VIEWS = """\
from flask_admin.contrib.sqla import ModelView


class BookmarkView(ModelView):
    def get_detail_value(self, context, model, name):
        value = super().get_detail_value(context, model, name)
        return self.get_detail_value(context, model, value)


class Mixin:
    def render(self, x):
        pass


class Legacy(Mixin, ModelView):
    def get_detail_value(self, context, model, name):
        super(Legacy, self).get_detail_value(context, model, name)
        return super().render(name)


class Dynamic(make_base()):
    def render(self, x):
        return super().render(x)


class Before(ModelView, Mixin):
    def go(self, x):
        return self.render(x)
"""


def test_super_names_the_bases_method_never_the_classs_own_override(tmp_path: Path) -> None:
    """A flask-admin view's `super().get_detail_value(...)` (issue 44) is flask-admin's,
    zero-argument or `super(C, self)`; `self.get_detail_value` is the view's own; a project
    mixin before the foreign base is the project's, exactly that one; a base out of view, or
    another package's before the project's definition, leaves it undecided."""
    files = {"views.py": VIEWS}
    assert _resolve(tmp_path, files, "views.py", 6) == Foreign("flask_admin")
    own = _resolve(tmp_path, files, "views.py", 7)
    assert _own(own) == "views.py:BookmarkView.get_detail_value"
    assert isinstance(own, Own)
    assert own.owner == "BookmarkView"  # a subclass's override may be the callee too
    assert _resolve(tmp_path, files, "views.py", 17) == Foreign("flask_admin")
    mixin = _resolve(tmp_path, files, "views.py", 18)
    assert _own(mixin) == "views.py:Mixin.render"
    assert isinstance(mixin, Own)
    assert mixin.owner == ""  # super() calls that definition, whatever the subclasses do
    assert _resolve(tmp_path, files, "views.py", 23) is None
    assert _resolve(tmp_path, files, "views.py", 28) is None  # ModelView may define render


DIAMOND = """\
from typing import Generic, TypeVar

T = TypeVar("T")


class A:
    def m(self):
        pass


class B(A):
    def go(self):
        return super().m()


class C(A):
    def m(self):
        pass


class D(B, C):
    def go(self):
        return self.m()

    def up(self):
        return super(B, self).m()


class Loop(Loop):
    def go(self):
        return self.m()


class Typed(Generic[T], A):
    def go(self):
        return self.m()
"""


def test_method_resolution_follows_c3_over_the_projects_classes(tmp_path: Path) -> None:
    """D(B, C) with B(A) and C(A): D's order is D, B, C, A, so `self.m()` in D is C's, which a
    depth-first walk of the bases (B, then A) missed; `super().m()` in B is A's, and
    `super(B, self).m()` in D is C's.  A class that names itself as its base has no order."""
    files = {"diamond.py": DIAMOND}
    assert _own(_resolve(tmp_path, files, "diamond.py", 13)) == "diamond.py:A.m"
    assert _own(_resolve(tmp_path, files, "diamond.py", 23)) == "diamond.py:C.m"
    assert _own(_resolve(tmp_path, files, "diamond.py", 26)) == "diamond.py:C.m"
    assert _resolve(tmp_path, files, "diamond.py", 31) is None
    # typing's Generic defines no method a class calls on itself: A's m, not typing's.
    assert _own(_resolve(tmp_path, files, "diamond.py", 36)) == "diamond.py:A.m"


FORMATTER = """\
import string

from markupsafe import Markup


class HtmlFormatter(string.Formatter):
    def format_field(self, value, format_spec):
        if format_spec == "html":
            return Markup(f"<td>{value}</td>")  # LS902
        return super().format_field(str(value).strip(), format_spec)
"""


@pytest.mark.parametrize("name", ["pyright", "mypy"])
def test_a_super_call_of_a_librarys_method_is_no_call_of_the_override(
    name: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The override is a wrapper of Markup; its `super().format_field(...)` calls
    string.Formatter's, which was judged as a call of the override (an LS402 "through
    format_field" finding on line 10).  Only the Markup call itself is a finding."""
    files = {"fmt.py": FORMATTER}
    _, document = check_project(name, tmp_path, files, capsys)
    found = {(Path(f["path"]).name, f["line"], f["rule"]) for f in document["findings"]}
    assert found == {("fmt.py", *m) for m in marked_rules(FORMATTER)}
