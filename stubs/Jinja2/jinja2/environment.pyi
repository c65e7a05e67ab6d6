# Jinja2 (base: its inline types): a template's source is code run by the template engine, so
# a non-literal one is server-side template injection.  Values go in the render context.
from typing_extensions import LiteralString

class Environment:
    def from_string(self, source: LiteralString | nodes.Template): ...

class Template:
    def __new__(cls, source: LiteralString | nodes.Template): ...
