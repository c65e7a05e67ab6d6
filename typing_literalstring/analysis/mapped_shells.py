"""A shell function called without ``shell=`` but with a ``**mapping`` that may hold it.

ghp-import 2.1.0 builds ``kwargs`` and, when asked to, sets ``kwargs['shell'] = self.use_shell``
before ``sp.Popen(self.cmd, **kwargs)``: whether a shell runs ``self.cmd`` is hidden in the
mapping, where no type shows it, and the checker says nothing of the command.  Such a call
(``sink_texts.shell_mapping``: subprocess's function, as the module imports it, given a
parameter ``**kwargs``, an attribute, a dict with a ``shell`` key or store; not a dict the
function builds itself without one) is judged by what the function shows of the mapping:

- the function gives it a "shell" key (``Look.shell_shown``, ``sink_texts.shell_in_view``):
  judged as a call given ``shell=`` an expression (``sink_outcomes``): a command the checker
  proves literal is proven; a plain string (or a list of them,
  ``sink_findings.str_list_to_a_shell``) is a finding of the shell family whose message names
  the mapping (``note``); an Any is unverified (``any_command``), not LS902 or LS903: the
  mapping may as well leave the shell off, and an untyped ``run(cmd, **kwargs)`` helper is no
  injection on that alone;
- its keys are out of view (pre-commit 4.7.0's ``subprocess.Popen(cmd, **kwargs)``, forwarding
  its own ``**kwargs`` with ``cmd: tuple[str, ...]``; an attribute, a call's result): nothing
  shows that a shell runs at all, so a literal command is proven and any other is unverified
  (``keys_out_of_view``), never a finding.
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
    """What a message adds at such a call: the mapping that may turn on the shell, and, where
    the function does not show it giving the mapping a "shell" key, that its keys are out of
    view."""
    if look.mapping is None:
        return ""
    data, offsets = instrumented.encoded
    said = f"; `**{short(segment(data, offsets, look.mapping))}` may turn on the shell"
    return said if look.shell_shown else f"{said}: its keys are not in view"


def any_command(
    path: str, look: Look, instrumented: Instrumented, any_parts: Sequence[ast.expr]
) -> Unverified:
    """The outcome of such a call whose command is Any: unverified, saying why it counts."""
    callee = segment(*instrumented.encoded, look.call.func)
    detail = instrumented.explain(any_parts) + note(look, instrumented)
    return unverified_call(path, look, callee, "shell-mapping", detail)


def keys_out_of_view(path: str, look: Look, instrumented: Instrumented) -> Unverified:
    """The outcome of such a call whose command is no literal (a str, a list or tuple of them)
    where the mapping's keys are out of view: unverified, for nothing shows the shell on."""
    data, offsets = instrumented.encoded
    callee = segment(data, offsets, look.call.func)
    shown = " and ".join(
        f"`{short(segment(data, offsets, t))}` is {instrumented.type_of(t) or 'a plain str'}"
        for t in look.texts
    )
    return unverified_call(path, look, callee, "shell-mapping", shown + note(look, instrumented))


__all__ = ["any_command", "keys_out_of_view", "note"]
