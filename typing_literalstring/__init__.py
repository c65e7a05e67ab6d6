"""``LiteralString`` for every Python from 3.8 on, and tools that make checkers enforce it.

``from typing_literalstring import LiteralString`` gives the very object that
``typing.LiteralString`` is on Python 3.11 and newer, and ``typing_extensions.LiteralString``
before that.  Type checkers follow the ``sys.version_info`` branch below, so they see the
same special form as ``typing.LiteralString`` and treat it exactly alike.
"""

import sys

if sys.version_info >= (3, 11):
    from typing import LiteralString as LiteralString
else:
    from typing_extensions import LiteralString as LiteralString

__all__ = ["LiteralString"]
__version__ = "0.1.0"
