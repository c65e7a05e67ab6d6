# Django (base: django-stubs): Model.objects.raw() and .extra(), as QuerySet's.
from typing import Mapping, Sequence

from typing_extensions import LiteralString

class Manager:
    def raw(self, raw_query: LiteralString): ...
    def extra(
        self,
        select: Mapping[str, LiteralString] | None,
        where: Sequence[LiteralString] | None,
        tables: Sequence[LiteralString] | None,
    ): ...
