# Django (base: django-stubs): mark_safe declares a string safe HTML (cross-site scripting when
# it is not literal).  Only its str overload (django-stubs 4.2 types it `Any`): SafeData and
# decorated callables stay as they are.
from django.utils.functional import Promise
from typing_extensions import LiteralString

from typing_literalstring.stubspec import where_base

@where_base(s="_StrOrPromise or Any")
def mark_safe(s: LiteralString | Promise): ...
