# Django (base: django-stubs): raw() queries and extra()'s SQL fragments; values go in `params`.
from typing import Mapping, Sequence

from django.db.backends.utils import _Composable

from typing_extensions import LiteralString

class QuerySet:
    def raw(self, raw_query: LiteralString | _Composable): ...
    def extra(
        self,
        select: Mapping[str, LiteralString] | None,
        where: Sequence[LiteralString] | None,
        tables: Sequence[LiteralString] | None,
    ): ...
