# Django (base: django-stubs): the Django template language backend, as BaseEngine.
from typing_extensions import LiteralString

class DjangoTemplates:
    def from_string(self, template_code: LiteralString): ...
