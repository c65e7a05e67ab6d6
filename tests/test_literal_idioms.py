"""core.literal_idioms: text built only from literals by idioms every checker types ``str``.

Each case is a module whose ``sink(...)`` arguments are judged: an argument on a line marked
``# E`` (or ``# E: why``) must not be literal in fact, every other one must be.  Each rule
has its negative cases beside its positive ones.
"""

from __future__ import annotations

import ast
import re
import textwrap

from typing_literalstring.core.literal_idioms import literal_in_fact, literal_in_fact_at, node_at

_MARKER = re.compile(r"# E(?::|$)")


def _verdicts(source: str) -> list[tuple[int, bool, bool]]:
    """(line, expected, judged) for each sink call's argument."""
    text = textwrap.dedent(source)
    tree = ast.parse(text)
    lines = text.splitlines()
    found: list[tuple[int, bool, bool]] = []
    for node in ast.walk(tree):
        if (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Name)
            and node.func.id == "sink"
        ):
            expected = _MARKER.search(lines[node.lineno - 1]) is None
            found.append((node.lineno, expected, literal_in_fact(node.args[0], tree)))
    assert found
    return sorted(found)


def _assert_marked(source: str) -> None:
    wrong = [(line, judged) for line, expected, judged in _verdicts(source) if expected != judged]
    assert wrong == []


def test_placeholders_of_an_in_list() -> None:
    _assert_marked(
        """
        def f(ids, n, user, sep):
            sink(f"SELECT * FROM t WHERE id IN ({', '.join(['?'] * len(ids))})")
            sink("SELECT * FROM t WHERE id IN ({})".format(",".join("?" * n)))
            sink("SELECT * FROM t WHERE id IN (%s)" % ", ".join("?" for _ in ids))
            sink("id IN (%s)" % ", ".join(["?" for _ in ids]))
            sink(", ".join(("?",) * n) + ")")
            sink(", ".join(n * ["?"]))
            marks = ", ".join(["?"] * len(ids))
            sink(f"SELECT * FROM t WHERE id IN ({marks})")
            sink(sep.join(["?"] * n))  # E: the separator is not literal
            sink(", ".join([user] * n))  # E: the repeated item is not
            sink(", ".join(user for _ in ids))  # E
            sink(user * 3)  # E: `*` repeats a non-literal string
            sink(3 * user)  # E
            sink(", ".join(ids))  # E: items of a parameter
        """
    )


def test_loops_over_displays_and_module_tuples() -> None:
    _assert_marked(
        """
        TABLES = ("events", "alarms")
        TABLE_LIST = ["events", "alarms"]
        REBOUND = ("a", "b")
        REBOUND = load()
        DECLARED = ("a", "b")

        def reset(value):
            global DECLARED
            DECLARED = value

        def f(conn, user, given, d):
            for table in ["events", "alarms"]:
                sink(f"DELETE FROM {table} WHERE id = ?")
            for name in ("a", "b"):
                sink(name)
            for t in TABLES:
                sink(f"DELETE FROM {t}")
            sink(", ".join(f"{c} = ?" for c in ("a", "b")))
            kept = ["a", "b"]
            for k in kept:
                sink(k)
            sink(", ".join(kept) if "a" in kept else kept[0])
            for m in TABLE_LIST:
                sink(m)  # E: any importer may change a module list
            for r in REBOUND:
                sink(r)  # E: rebound at module level
            for g in DECLARED:
                sink(g)  # E: rebound through `global`
            changed = ["a", "b"]
            changed.append(user)
            for c in changed:
                sink(c)  # E: the iterable is changed
            passed = ["a", "b"]
            conn.extend_with(passed)
            for p in passed:
                sink(p)  # E: passed to a function, which may change it
            for q in ("a", "b"):
                q = q + user
                sink(q)  # E: rebound in the loop
            for key in d:
                sink(key)  # E
            sink(", ".join(f"{k} = ?" for k in given))  # E
        """
    )


def test_augmented_assignment_and_slicing() -> None:
    _assert_marked(
        """
        def f(user, flags, n):
            query = "UPDATE t SET"
            query += " a = ?,"
            query += " b = ?,"
            query = query[:-1] + " WHERE id = ?"
            sink(query)
            sql = "INSERT INTO t VALUES ("
            for _ in range(n):
                sql += "?, "
            sql = sql.rstrip(", ") + ")"
            sink(sql)
            cols = "SELECT "
            for col in ("a", "b"):
                if col in flags:
                    cols += f"{col}, "
            sink(cols[:-2])
            rep = "?,"
            rep *= n
            sink(rep)
            typed: str = "SELECT 1"
            typed += " LIMIT 1"
            sink(typed)
            grown = "SELECT"
            grown += user
            sink(grown)  # E
            later = "SELECT 1"
            sink(later)  # E: rebound below (no flow analysis: every binding counts)
            later = user
            changed = "SELECT 1"

            def inner():
                nonlocal changed
                changed = user

            sink(changed)  # E: rebound through `nonlocal`

        def g(query="SELECT 1"):
            sink(query)  # E: a parameter takes what the caller gives
        """
    )


def test_lookups_in_dict_displays_of_literals() -> None:
    _assert_marked(
        """
        LABELS = {True: "true", False: "false"}

        def f(value, user, extra):
            sink("<code>%s</code>" % {True: "true", False: "false", None: "null"}[value])
            sink({"a": "x", "b": "y"}[user])
            sink({True: "true", False: user}[value])  # E: a value is not literal
            sink({True: "true", **extra}[value])  # E: other values merged in
            sink({True: "true", False: "false"}[bool(user)])  # E: a call in the index
            sink({len(user): "a"}[value])  # E: a call in a key
            sink(LABELS[value])  # E: a dict held by a name may be changed
        """
    )


def test_other_compositions() -> None:
    _assert_marked(
        """
        def f(flag, user, n, args):
            sink(flag and "1" or "0")
            sink("a" if flag else "b")
            sink("abc".upper().strip(",").replace("a", "b"))
            sink("a,b".split(",")[0])
            sink("-".join("a,b".split(",")))
            sink("{} {x}".format("a", x="b"))
            sink("%s-%s" % ("a", "b"))
            sink(f"{'a'!r:>10}")
            sink((x := "a"))
            sink(user or "default")  # E
            sink(flag and user or "0")  # E
            sink("a" if flag else user)  # E
            sink("abc".strip(user))  # E
            sink("abc".center(n, user))  # E: the fill character
            sink("{}".format(user))  # E
            sink("{}".format(*args))  # E
            sink(f"LIMIT {n}")  # E: an int field is not literal (PEP 675)
            sink(f"{'a':{user}}")  # E: the format spec
            sink("%s" % (user,))  # E
            sink(user.upper())  # E
            sink(b"abc")  # E: not a str
            sink(flag.name)  # E: attributes are not judged here
        """
    )


def test_a_local_list_grown_only_by_literals() -> None:
    # buku's bukuserver: `query_list = ["SELECT ..."]`, `.append("where ...")` on a flag,
    # then `" ".join(query_list)`.
    _assert_marked(
        """
        def f(user, flag, others):
            parts = ["SELECT tags FROM bookmarks"]
            if flag:
                parts.append("WHERE tags LIKE :tag")
            parts.insert(1, "/* all */")
            parts.extend(["GROUP BY tags", "ORDER BY tags"])
            parts += ("LIMIT 10",)
            parts.sort()
            sink(" ".join(parts))
            names = {"a"}
            names.add("b")
            sink(",".join(names))
            grown = ["SELECT"]
            grown.append(user)
            sink(" ".join(grown))  # E: an item not literal appended
            extended = ["SELECT"]
            extended.extend(others)
            sink(" ".join(extended))  # E: items of a parameter
            inserted = ["SELECT"]
            inserted.insert(0, user)
            sink(" ".join(inserted))  # E
            handed = ["SELECT"]
            others.fill(handed)
            sink(" ".join(handed))  # E: handed to a function that may change it
            stored = ["SELECT"]
            stored[0] = user
            sink(" ".join(stored))  # E: an item assigned
            keyworded = ["SELECT"]
            keyworded.append(x=user)
            sink(" ".join(keyworded))  # E: not a call this judge reads
        """
    )


def test_numbers_written_in_the_source_format_to_fixed_text() -> None:
    # huey's SqliteStorage: `'pragma synchronous=%s' % (2 if self._fsync else 0)`.
    _assert_marked(
        """
        def f(flag, n, user):
            sink("pragma synchronous=%s" % (2 if flag else 0))
            sink("LIMIT %d OFFSET %d" % (10, -5))
            sink(f"LIMIT {100}")
            sink("LIMIT {} {}".format(1.5, None))
            sink("x = %s" % (True,))
            sink("LIMIT %d" % n)  # E: a number of the run
            sink(f"LIMIT {n}")  # E
            sink("LIMIT %s" % (1 if flag else user))  # E
            sink("LIMIT {}".format(-n))  # E
            count = 5
            count *= n
            sink(f"LIMIT {count}")  # E: a name is judged as text, not as a number
            sink("a" + 1)  # E: `+` takes no number (a TypeError, not text)
        """
    )


def test_scopes_follow_python() -> None:
    _assert_marked(
        """
        import os
        from helpers import TABLE
        NAME = "users"
        sorted = lambda items: ["user"]

        class Q:
            NAME = "orders"
            OWN = NAME + "_x"
            sink(OWN)

            def m(self):
                sink(NAME)  # module NAME: the class body is no enclosing scope
                sink(TABLE)  # E: imported, not seen here

        def f():
            sink(", ".join(sorted(("a", "b"))))  # E: `sorted` is the module's own
            sink(os.sep)  # E
            sink(len)  # E
            sink(undefined_name)  # E
        """
    )


def test_a_star_import_may_rebind_any_module_name() -> None:
    _assert_marked(
        """
        from settings import *
        TABLE = "users"

        def f():
            sink(TABLE)  # E
        """
    )


def test_known_proves_what_the_syntax_cannot() -> None:
    text = "def f(self, n):\n    sink(f\"SELECT * FROM {self.TABLE} LIMIT {', '.join('?' * n)}\")\n"
    tree = ast.parse(text)
    call = next(n for n in ast.walk(tree) if isinstance(n, ast.Call) and n.args)
    argument = call.args[0]
    assert not literal_in_fact(argument, tree)
    asked: list[str] = []

    def known(node: ast.expr) -> bool:
        asked.append(ast.unparse(node))
        return ast.unparse(node) == "self.TABLE"

    assert literal_in_fact(argument, tree, known)
    assert "self.TABLE" in asked


def _assigned(tree: ast.Module) -> list[ast.expr]:
    return [n.value for n in ast.walk(tree) if isinstance(n, ast.Assign)]


def test_an_expression_is_found_by_its_span() -> None:
    text = 'def f(ids):\n    q = "x IN (%s)" % ",".join("?" * len(ids))\n    r = ids\n'
    tree = ast.parse(text)
    value = _assigned(tree)[0]
    assert value.end_lineno is not None
    assert value.end_col_offset is not None
    span = (value.lineno, value.col_offset, value.end_lineno, value.end_col_offset)
    assert node_at(tree, *span) is value
    assert literal_in_fact_at(tree, *span)
    assert not literal_in_fact_at(tree, 3, 8, 3, 11)  # `ids`
    assert not literal_in_fact_at(tree, 9, 0, 9, 1)  # no expression there


def test_the_outermost_expression_of_a_span_is_judged() -> None:
    """Before Python 3.12, an f-string's parts share its span: the f-string is meant."""
    text = 'def f(user):\n    x = f"a{\'b\'}c"\n    y = f"a{user}"\n'
    tree = ast.parse(text)
    for value, literal in zip(sorted(_assigned(tree), key=lambda v: v.lineno), (True, False)):
        line, end = value.lineno, value.end_col_offset
        assert end is not None
        assert isinstance(node_at(tree, line, 8, line, end), ast.JoinedStr)
        assert literal_in_fact_at(tree, line, 8, line, end) is literal


def test_long_chains_are_judged_without_reaching_the_recursion_limit() -> None:
    text = "def f(user):\n    q = " + " + ".join(['"a"'] * 1500) + "\n    sink(q)\n"
    tree = ast.parse(text)
    call = next(n for n in ast.walk(tree) if isinstance(n, ast.Call))
    assert literal_in_fact(call.args[0], tree)
    bad = ast.parse(text.replace('"a" + "a"', "user + user", 1))
    call = next(n for n in ast.walk(bad) if isinstance(n, ast.Call))
    assert not literal_in_fact(call.args[0], bad)


def test_verdicts_do_not_depend_on_the_order_of_the_questions() -> None:
    """A name's verdict is remembered only once final: `a` judged inside `b`'s judgement
    (its own assumption pending) must not stick."""
    text = textwrap.dedent(
        """
        def f(user):
            a = "x"
            b = a
            a = b + "y"
            c = b
            c = user
            sink(a)
            sink(b)
            sink(c)
        """
    )
    expected = [True, True, False]
    for order in ([2, 1, 0], [1, 2, 0], [0, 2, 1]):
        tree = ast.parse(text)
        sinks = sorted(
            (n for n in ast.walk(tree) if isinstance(n, ast.Call) and n.args),
            key=lambda n: n.lineno,
        )
        judged = {i: literal_in_fact(sinks[i].args[0], tree) for i in order}
        assert [judged[i] for i in range(3)] == expected


def test_a_list_only_revealed_is_unchanged() -> None:
    """`check` checks copies with reveals of each sink call's parts inserted
    (`typing_literalstring_reveal(cols, 3)`, `reveal_type((cols, 3))`): those only show the
    list, and the plugin judges those copies."""
    _assert_marked(
        """
        def f(conn, user):
            cols = ["a", "b"]
            sink(", ".join(cols)); typing_literalstring_reveal((cols), 3)
            (sink(", ".join(cols)), reveal_type(((cols), 4)))[0]
            other = ["a", "b"]
            sink(", ".join(other))  # E: handed to a function that may change it
            show(other)
        """
    )


def test_the_reveals_are_named_as_check_inserts_them() -> None:
    from typing_literalstring.checkers.asking import Probe
    from typing_literalstring.core.literal_scopes import is_reveal
    from typing_literalstring.specs import argv_shell

    probe = Probe("0123456789abcdef")
    assert all(is_reveal(name) for name in (probe.reveal, probe.judge, probe.judged))
    assert is_reveal(argv_shell.REVEAL_FUNCTION)
    assert is_reveal("reveal_type")
    assert not is_reveal("show")


def test_the_builtin_str_of_a_literal() -> None:
    """python-crontab logs with ``str("Missing user or command in system cron %s: %s")``, a
    Python 2 habit: the builtin returns the literal it is given."""
    _assert_marked(
        """
        def f(user, n):
            sink(str("Missing user or command in system cron %s: %s"))
            sink(str())
            sink(str(f"SELECT {'a' if n else 'b'}"))
            sink(str(user))  # E: not a literal
            sink(str(n))  # E: a number of the run, not one written in the source
            sink(str(b"x", "ascii"))  # E: decoding bytes
            sink(str(*user))  # E
            sink(str(object="x"))  # E: keywords are not judged


        def g(str):
            sink(str("x"))  # E: a parameter named str, not the builtin
        """
    )
