"""A shell function called without ``shell=`` but with a ``**mapping`` that may hold it.

ghp-import 2.1.0 builds ``kwargs`` and, when asked to, sets ``kwargs['shell'] = self.use_shell``
before ``sp.Popen(self.cmd, **kwargs)``: whether a shell runs ``self.cmd`` is hidden in the
mapping, where no type shows it, and the checker says nothing of the command.  Such a call
(``sink_texts.shell_mapping``: subprocess's function, as the module imports it, given a
parameter ``**kwargs``, an attribute, a dict with a ``shell`` key or store; not a dict the
function builds itself without one) is judged as one given
``shell=`` an expression (``sink_outcomes``): a command the checker proves literal is proven; a
plain string (or a list of them, ``sink_findings.str_list_to_a_shell``) is a finding of the
shell family whose message names the mapping (``note``); an Any is unverified
(``any_command``), not LS902 or LS903: the mapping may as well leave the shell off, and an
untyped ``run(cmd, **kwargs)`` helper is no injection on that alone.
"""

from __future__ import annotations

import ast
from typing import Sequence

from typing_literalstring.analysis.findings import Unverified
from typing_literalstring.analysis.sink_findings import short, unverified_call
from typing_literalstring.analysis.sink_looks import Look
from typing_literalstring.analysis.unverified import Instrumented
from typing_literalstring.core.source_edits import segment


def note(look: Look, instrumented: Instrumented) -> str:
    """What a finding's message adds at such a call: the mapping that may turn on the shell."""
    if look.mapping is None:
        return ""
    data, offsets = instrumented.encoded
    return f"; `**{short(segment(data, offsets, look.mapping))}` may turn on the shell"


def any_command(
    path: str, look: Look, instrumented: Instrumented, any_parts: Sequence[ast.expr]
) -> Unverified:
    """The outcome of such a call whose command is Any: unverified, saying why it counts."""
    callee = segment(*instrumented.encoded, look.call.func)
    detail = instrumented.explain(any_parts) + note(look, instrumented)
    return unverified_call(path, look, callee, "shell-mapping", detail)


__all__ = ["any_command", "note"]
