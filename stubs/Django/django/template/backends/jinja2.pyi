# Django (base: django-stubs): the Jinja2 backend, as BaseEngine; its templates run Jinja2 code.
from typing_extensions import LiteralString

from typing_literalstring.stubspec import if_overridden

class Jinja2:
    @if_overridden
    def from_string(self, template_code: LiteralString): ...
