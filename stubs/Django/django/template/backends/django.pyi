# Django (base: django-stubs): the Django template language backend, as BaseEngine.
from typing_extensions import LiteralString

from typing_literalstring.stubspec import if_overridden

class DjangoTemplates:
    @if_overridden
    def from_string(self, template_code: LiteralString): ...
