# Django (base: django-stubs): the Jinja2 backend, as BaseEngine; its templates run Jinja2 code.
from typing_extensions import LiteralString

class Jinja2:
    def from_string(self, template_code: LiteralString): ...
