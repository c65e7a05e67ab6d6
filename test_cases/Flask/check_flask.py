"""Flask: render_template_string and stream_template_string compile their source as a Jinja2
template, so it must be literal (else server-side template injection); values go in the keyword
context, and templates from files go through render_template(name).
"""

from typing import Iterator

import flask
from flask import render_template, render_template_string, stream_template_string
from typing_extensions import LiteralString, assert_type


def accepted(user: str, greeting: LiteralString, flag: bool) -> None:
    render_template_string("Hello {{ name }}", name=user)
    render_template_string(f"{greeting}, {{{{ name }}}}!", name=user)
    render_template_string("<p>" + ("{{ a }}" if flag else "{{ b }}") + "</p>", a=user, b=user)
    stream_template_string("Hello {{ name }}", name=user)
    flask.render_template_string("{{ x }}", x=user)
    render_template(user, name=user)


def rejected(user: str, user_template: str, greeting: LiteralString) -> None:
    render_template_string(user_template)  # E
    render_template_string(f"Hello {user}")  # E
    render_template_string("Hello " + user, name=user)  # E
    render_template_string("Hello %s" % user)  # E
    render_template_string(greeting + user)  # E
    flask.render_template_string(user_template)  # E
    stream_template_string(user_template)  # E
    stream_template_string("Hello {}".format(user))  # E


def return_types(user: str) -> None:
    assert_type(render_template_string("Hello {{ name }}", name=user), str)
    assert_type(stream_template_string("Hello {{ name }}", name=user), Iterator[str])
    assert_type(render_template("index.html", name=user), str)
