# Django (base: django-stubs): a template backend's from_string compiles its argument as
# template code (server-side template injection); values go in the render context.
from typing_extensions import LiteralString

class BaseEngine:
    def from_string(self, template_code: LiteralString): ...
