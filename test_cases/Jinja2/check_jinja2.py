"""Jinja2: a template's source is code run by the template engine, so Environment.from_string and
jinja2.Template(...) need a literal source (else server-side template injection); values go in
the render context, where autoescaping applies.
"""

from typing import Any

import jinja2
from jinja2 import Environment, Template
from typing_extensions import LiteralString, assert_type


def accepted(env: Environment, user: str, greeting: LiteralString, flag: bool) -> None:
    env.from_string("Hello {{ name }}").render(name=user)
    env.from_string(f"{greeting} {{{{ name }}}}").render(name=user)
    env.from_string("Hello " + ("{{ name }}" if flag else "stranger"))
    env.from_string("{{ x }}", globals={"x": user})
    env.get_template(user).render(name=user)
    Template("Hello {{ name }}").render(name=user)
    jinja2.Template(greeting + "{{ name }}")
    Environment(autoescape=True).from_string("<p>{{ body }}</p>").render(body=user)


def rejected(env: Environment, user: str, user_template: str, greeting: LiteralString) -> None:
    env.from_string(user_template)  # E
    env.from_string(f"Hello {user}")  # E
    env.from_string("Hello " + user + "!").render()  # E
    env.from_string("Hello %s" % user)  # E
    env.from_string(greeting + user)  # E
    Environment().from_string(user_template)  # E
    Template(user_template)  # E
    jinja2.Template("Hello {}".format(user))  # E


def return_types(env: Environment) -> None:
    assert_type(env.from_string("Hello"), Template)
    assert_type(env.from_string("Hello").render(), str)
    # Jinja2 types Template.__new__ as returning Any (its own comment: Sphinx breaks otherwise).
    assert_type(Template("Hello"), Any)
