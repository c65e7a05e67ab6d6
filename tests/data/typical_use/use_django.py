from django.db import connection
from django.template import Context, Template
from django.utils.html import format_html
from django.utils.safestring import mark_safe


def run(user: str) -> None:
    with connection.cursor() as cur:
        cur.execute("SELECT * FROM t WHERE a = %s", [user])
        print(cur.fetchone())
    print(Template("Hi {{ u }}").render(Context({"u": user})))
    print(format_html("<b>{}</b>", user), mark_safe("<br>"))
    connection.cursorx()  # error
    mark_safe(f"<i>{user}</i>")  # sink
