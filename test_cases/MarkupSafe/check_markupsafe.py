"""MarkupSafe: Markup(text) declares `text` safe HTML, so a non-literal string there is
cross-site scripting.  Values are escaped by escape() and by Markup's `%`, format, `+` and join,
and an object with `__html__` (another Markup, escape()'s result) is safe already.
"""

from typing import List

import markupsafe
from markupsafe import Markup, escape
from typing_extensions import LiteralString, assert_type


def accepted(user: str, items: List[str], tag: LiteralString, other: Markup, flag: bool) -> None:
    Markup()
    Markup("<b>bold</b>")
    Markup(f"<{tag}>")
    Markup("<b>" + ("yes" if flag else "no") + "</b>")
    Markup(escape(user))
    Markup(other)
    Markup("<b>%s</b>") % user
    Markup("<b>%s: %s</b>") % (user, user)
    Markup("<b>{}</b>").format(user)
    Markup("<i>") + user
    Markup(", ").join(items)
    markupsafe.Markup("<br>")
    escape(user)
    Markup.escape(user)


def rejected(user: str, tag: LiteralString) -> None:
    Markup(user)  # E
    Markup(f"<b>{user}</b>")  # E
    Markup("<b>" + user + "</b>")  # E
    Markup("<b>%s</b>" % user)  # E
    Markup("<b>{}</b>".format(user))  # E
    Markup(tag + user)  # E
    Markup(str(escape(user)))  # E
    markupsafe.Markup(user)  # E


def return_types(user: str, items: List[str], other: Markup) -> None:
    assert_type(Markup("x"), Markup)
    assert_type(Markup(other), Markup)
    assert_type(Markup(escape(user)), Markup)
    assert_type(Markup("<b>%s</b>") % user, Markup)
    assert_type(Markup("<b>{}</b>").format(user), Markup)
    assert_type(Markup("<i>") + user, Markup)
    assert_type(Markup(", ").join(items), Markup)
    assert_type(escape(user), Markup)
