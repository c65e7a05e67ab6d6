from markupsafe import Markup, escape


def run(user: str) -> None:
    safe = Markup("<b>%s</b>") % user
    joined = Markup("<br>").join([escape(user), Markup("<i>x</i>")])
    print(safe.striptags(), joined.unescape(), escape(user).upper())
    safe.striptagsx()  # error
    Markup("<b>" + user + "</b>")  # sink
