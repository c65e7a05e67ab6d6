"""Django: raw SQL (connection.cursor(), raw(), RawSQL, extra()) and declared-safe HTML
(mark_safe, format_html's format string, a Template's or an engine's from_string source) must be
literal; values go in `params`, in format_html's arguments (which it escapes) or in the
template Context.
"""

from typing import Any, List

from django.db import connection
from django.db.backends.utils import CursorWrapper
from django.db.models import Manager, QuerySet
from django.db.models.expressions import RawSQL
from django.db.models.query import RawQuerySet
from django.template import Template, engines
from django.template.backends.base import BaseEngine
from django.template.backends.django import DjangoTemplates
from django.template.engine import Engine
from django.utils.html import format_html, format_html_join
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext_lazy
from psycopg2 import sql
from typing_extensions import LiteralString, assert_type


def accepted(
    qs: "QuerySet[Any]", objects: "Manager[Any]", user: str, name: LiteralString, flag: bool
) -> None:
    with connection.cursor() as cursor:
        cursor.execute("SELECT * FROM app_user WHERE name = %s", [user])
        cursor.execute(f"SELECT * FROM {name} ORDER BY " + ("name" if flag else "id"))
        cursor.execute(sql.SQL("SELECT * FROM {}").format(sql.Identifier(user)))
        cursor.executemany("INSERT INTO app_user (name) VALUES (%s)", [(user,)])
    qs.raw("SELECT * FROM app_user WHERE name = %s", [user])
    objects.raw(f"SELECT * FROM {name} WHERE name = %s", [user])
    qs.annotate(n=RawSQL("SELECT COUNT(*) FROM app_post WHERE author = %s", (user,)))
    qs.extra(select={"recent": "created > %s"}, select_params=[user])
    qs.extra(where=["name = %s"], params=[user], tables=["app_profile"])
    objects.extra(where=["name = %s"], params=[user])
    mark_safe("<b>bold</b>")
    mark_safe(format_html("<b>{}</b>", user))
    mark_safe(gettext_lazy("<b>Welcome</b>"))
    format_html("<a href='{}'>{}</a>", user, user)
    format_html_join(", ", "<li>{}</li>", [(user,)])
    Template("Hello {{ name }}")


def template_engines(engine: BaseEngine, django: DjangoTemplates, plain: Engine, user: str) -> None:
    # A backend's from_string compiles template code, whichever engine it is.
    engine.from_string("Hello {{ name }}")
    django.from_string("Hello {{ name }}")
    plain.from_string("Hello {{ name }}")
    engines["django"].from_string("Hello {{ name }}")
    engine.from_string(user)  # E
    django.from_string("<p>" + user + "</p>")  # E
    plain.from_string(user)  # E
    engines["django"].from_string(f"Hello {user}")  # E
    assert_type(plain.from_string("x"), Template)


def rejected(qs: "QuerySet[Any]", objects: "Manager[Any]", user: str, user_sql: str) -> None:
    with connection.cursor() as cursor:
        cursor.execute(f"SELECT * FROM app_user WHERE name = '{user}'")  # E
        cursor.executemany(user_sql, [(user,)])  # E
    qs.raw(user_sql)  # E
    objects.raw("SELECT * FROM app_user WHERE name = '%s'" % user)  # E
    RawSQL(user_sql, ())  # E
    # extra()'s parameters are `Sequence[LiteralString] | None` (a Mapping for select).
    qs.extra(select={"x": user_sql})  # E
    qs.extra(where=[f"name = '{user}'"])  # E
    qs.extra(tables=[user_sql])  # E
    objects.extra(where=[user_sql])  # E
    mark_safe(user)  # E
    mark_safe(f"<b>{user}</b>")  # E
    format_html(user, user)  # E
    format_html(f"<b>{user}</b>{{}}", user)  # E
    format_html_join(user, "<li>{}</li>", [(user,)])  # E
    format_html_join(", ", user, [(user,)])  # E
    Template(user)  # E


@mark_safe
def safe_banner() -> str:
    return "<b>banner</b>"


def return_types(cursor: CursorWrapper, qs: "QuerySet[Any]", objects: "Manager[Any]") -> None:
    assert_type(cursor.execute("SELECT 1"), Any)
    assert_type(qs.raw("SELECT 1"), RawQuerySet[Any])
    assert_type(objects.raw("SELECT 1"), RawQuerySet[Any])
    assert_type(RawSQL("SELECT 1", ()), RawSQL)
    assert_type(mark_safe("<b>x</b>"), SafeString)
    assert_type(mark_safe(SafeString("<b>x</b>")), SafeString)
    assert_type(safe_banner(), str)
    assert_type(format_html("<b>{}</b>", 1), SafeString)
    assert_type(format_html_join(", ", "<li>{}</li>", [(1,)]), SafeString)
    assert_type(Template("{{ x }}"), Template)
