# Django (base: django-stubs): a Template's source is code run by the template engine
# (server-side template injection); values go in the Context.
from typing_extensions import LiteralString

class Template:
    def __init__(self, template_string: Template | LiteralString): ...
