# label: vulnerable
# family: markup
# sink-line: 16
# why: Tag names that users attached to posts are read from the database and formatted with str.format into HTML passed to mark_safe.
import sqlite3

from django.utils.safestring import SafeString, mark_safe


def tag_list_html(conn: sqlite3.Connection, post_id: int) -> SafeString:
    rows = conn.execute("SELECT name FROM tags WHERE post_id = ?", (post_id,)).fetchall()
    items = ""
    for (name,) in rows:
        tag_name: str = str(name)
        items += "<li class='tag'>{}</li>".format(tag_name)
    return mark_safe("<ul class='tags'>" + items + "</ul>")


if __name__ == "__main__":
    db = sqlite3.connect("blog.db")
    print(tag_list_html(db, 7))
