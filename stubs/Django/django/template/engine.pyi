# Django (base: django-stubs): Engine.from_string compiles template code, as Template() does.
from typing_extensions import LiteralString

class Engine:
    def from_string(self, template_code: LiteralString): ...
