"""Every sink call has one outcome: proven literal, a finding, or unverified, from evidence.

The tightened run is asked, in the probed copies, about each SQL, shell, template, markup and
logging call, each call of the project's own wrappers of one, and each shell started through an
argument list (``sink_looks``): its text is given to the judge, whose answer is in words of our
own (``checkers/asking.py``), and the types of the text, its parts and the callee are revealed.
Then (``outcomes``):

- the judge says the text is literal and no revealed part is Any: **proven literal**;
- the judge says the text is a plain string (or not only a string, with a ``str`` in it):
  **a finding** of the sink's family (LS101, LS201, ...), with the chain for a wrapper's
  caller; where the callee is not known to take a LiteralString (its receiver's type is
  unknown, or it takes ``str``): LS904 when the text is built in view from a non-literal part
  (for SQL, with SQL words in its literal text), else unverified (and where only a ``**mapping``
  whose keys are out of view may turn on the shell: ``mapped_shells``);
- the judge cannot tell (Any), or a revealed part is Any: LS902 when the text is built in view
  (the literal parts are proven, the Any part is named), LS903 when the Any comes from the
  project's own untyped code, else unverified (always, for a shell a ``**mapping`` may turn on);
- no answer (the checker did not evaluate the code, an ignore comment of the checker's hides
  it, or the call could not be asked about): **unverified**, with the reason.

The checker's error messages never make a call proven: a finding they made at a call stays one
whatever the answer, and a call the evidence makes a finding takes the place of theirs
(``Outcomes.absorbed``).  The text is not a string at all (a psycopg ``Composed``, a SQLAlchemy
``TextClause``): no text reaches the sink, and the call is not counted.
"""

from __future__ import annotations

import ast
from dataclasses import dataclass, field, replace
from typing import Callable, Sequence

from typing_literalstring.analysis import mapped_shells
from typing_literalstring.analysis.findings import Finding, Unverified
from typing_literalstring.analysis.literal_syntax import (
    literal_argv,
    literal_by_lookup,
    literal_in_view,
    no_sink_after_all,
)
from typing_literalstring.analysis.own_sinks import named_by_receiver
from typing_literalstring.analysis.receivers import (
    is_the_wrapper,
    may_be_text,
    receiver_kind,
)
from typing_literalstring.analysis.scoped_bindings import binding_of
from typing_literalstring.analysis.sink_findings import (
    LITERAL,
    checker_ignored,
    make,
    named,
    short,
    str_list_to_a_shell,
    untyped_functions,
    unverified_call,
    unverified_finding,
)
from typing_literalstring.analysis.sink_looks import Look
from typing_literalstring.analysis.unverified import Instrumented, composition_parts
from typing_literalstring.analysis.wrapper_calls import Wrapper
from typing_literalstring.analysis.wrapper_flows import annotation_hint, through_chain
from typing_literalstring.checkers import type_text
from typing_literalstring.checkers.asking import Judgement
from typing_literalstring.core.literal_idioms import literal_in_fact
from typing_literalstring.core.source_edits import segment
from typing_literalstring.specs.sinks import MARKUP, SHELL, callee_name

# Why a call got no answer, by what is known of it.
_NOT_EVALUATED = (
    "it is unreachable to the checker: a branch the checker rules out (`if not "
    "TYPE_CHECKING:`, another platform's), or code after a call that never returns"
)


@dataclass
class Outcomes:
    """What became of every sink call of the probed files."""

    calls: int = 0
    proven: int = 0
    findings: list[Finding] = field(default_factory=lambda: [])
    unverified: list[Unverified] = field(default_factory=lambda: [])
    # The checker's findings at calls that are no sink after all, by (line, column) span of
    # the call: a template compiled in a sandbox, markup built from escaped text.
    cleared: list[tuple[tuple[int, int], tuple[int, int]]] = field(default_factory=lambda: [])
    # The calls (line, column) whose finding is made here from the evidence: a finding the
    # checker's error made at the same call says the same, and gives way; and where the
    # checker's other errors about those calls stand (the call, its callee's name, its text).
    absorbed: list[tuple[int, int]] = field(default_factory=lambda: [])
    quieted: set[tuple[int, int]] = field(default_factory=lambda: set())
    # Where the calls proven literal are (line, column), and the findings made at calls of
    # the project's wrappers with the wrapper each went through: a wrapper whose own call
    # is proven (it checked its parameter) makes no finding (``drop_validated_wrappers``).
    proven_at: list[tuple[int, int]] = field(default_factory=lambda: [])
    through: list[tuple[Finding, Wrapper]] = field(default_factory=lambda: [])
    # The wrappers whose calls here were proven or found (an unverified call decides nothing):
    # their inner call is no second finding of the same flow (``one_finding_per_flow``).
    judged_wrappers: list[Wrapper] = field(default_factory=lambda: [])
    # Every call of a wrapper here with its outcome ("proven", "finding" or "unverified"), for
    # each wrapper its argument reaches: an inner call whose flows are all its callers' is
    # counted by theirs (``wrapper_flows.folded_proven``).
    wrapper_calls: list[tuple[Wrapper, str]] = field(default_factory=lambda: [])
    # The findings the evidence made (line, column), each with the parameters of its function
    # that are all of its text's non-literal leaves (None: something else is not literal).
    parameters: dict[tuple[int, int], frozenset[str] | None] = field(default_factory=lambda: {})

    def clears(self, finding: Finding) -> bool:
        return any(a <= (finding.line, finding.column) <= b for a, b in self.cleared) or (
            (finding.line, finding.column) in self.absorbed
        )

    def prove(self, look: Look, clear: bool = False) -> None:
        """Count the call proven; ``clear``: by a proof of the syntax, which also takes the
        place of the checker's error there (the checker lost the literal)."""
        self.proven += 1
        call = look.call
        self.proven_at.append((call.lineno, call.col_offset + 1))
        if clear:
            end = (call.end_lineno or call.lineno, (call.end_col_offset or 0) + 1)
            self.cleared.append(((call.lineno, call.col_offset + 1), end))


def outcomes(
    path: str,
    found: Sequence[Look],
    instrumented: Instrumented,
    reported: Sequence[Finding],
    untyped_functions: frozenset[str],
    asked: bool = True,
) -> Outcomes:
    """Each call's outcome, once the run answered (``instrumented.types`` and ``.judged``).
    ``reported``: the findings the checker's errors made; ``asked``: the copy was checked
    (a file outside the project root, for a checker that reads no shadow file, was not)."""
    out = Outcomes()
    at_calls = {(f.line, f.column): f for f in reported if f.path == path}
    for look in found:
        out.calls += 1
        call = look.call
        place = (call.lineno, call.col_offset + 1)
        end = (call.end_lineno or call.lineno, (call.end_col_offset or 0) + 1)
        if no_sink_after_all(look, instrumented):
            out.calls -= 1
            out.cleared.append((place, end))
            continue
        if literal_by_lookup(look) or (look.rule is SHELL and literal_argv(look.argument)):
            # Literal text each checker types str (a lookup in a dict display of literals, an
            # argument list displayed of literals where a shell may run it): its error is
            # cleared, the call proven by the syntax.
            out.prove(look, clear=True)
            continue
        if not _is_a_sink_call(look, instrumented):
            out.calls -= 1
            continue
        before = (len(out.findings), out.proven, len(out.unverified))
        _judge(out, path, look, instrumented, untyped_functions, asked)
        if len(out.findings) > before[0]:
            out.absorbed.append(place)
            out.quieted |= _where_errors_stand(look)
            said = at_calls.get(place)
            if said is not None and said.rule.family == look.rule.family:
                # The checker's message named the sink more precisely than its name can
                # (pyrefly and ty name the class, pyright the parameter).
                made = out.findings[before[0]]
                out.findings[before[0]] = replace(made, api=said.api, parameter=said.parameter)
        elif place in at_calls and not out.clears(at_calls[place]):
            # The checker's own error made a finding here: it stands whatever the evidence
            # says, in place of a proof or an unverified entry (never the other way round),
            # unless the syntax proved the text literal where the checker lost it.
            out.proven, out.unverified = before[1], out.unverified[: before[2]]
            if out.proven_at and out.proven_at[-1] == place:
                out.proven_at.pop()
        if look.wrapper is not None:
            reached = look.reaches or (look.wrapper,)
            if len(out.unverified) == before[2]:
                out.judged_wrappers += reached
            outcome = _outcome(out, before, place in at_calls and not out.clears(at_calls[place]))
            out.wrapper_calls += [(wrapper, outcome) for wrapper in reached]
    return out


def _outcome(out: Outcomes, before: tuple[int, int, int], said: bool) -> str:
    """What became of the call judged last, from the counts ``before`` it was: "no sink" when
    it was none after all."""
    if len(out.unverified) > before[2]:
        return "unverified"
    if len(out.findings) > before[0] or said:
        return "finding"
    return "proven" if out.proven > before[1] else "no sink"


def _where_errors_stand(look: Look) -> set[tuple[int, int]]:
    """Where a checker puts its error about a sink call's text (1-based line, column): at the
    call (mypy, ty, pyrefly), at the callee's name (pyright's "No overloads for"), or at the
    text itself (an argument's type)."""
    call = look.call
    places = {(call.lineno, call.col_offset + 1)}
    func = call.func
    if isinstance(func, ast.Attribute) and func.end_lineno is not None:
        places.add((func.end_lineno, (func.end_col_offset or 0) - len(func.attr) + 1))
    for text in [look.argument, *look.texts]:
        places.add((text.lineno, text.col_offset + 1))
    return places


def _is_a_sink_call(look: Look, instrumented: Instrumented) -> bool:
    """Whether the revealed callee confirms what the name says: a common word (asyncpg's
    `fetch`) only where it takes a LiteralString, a logging method only on a logger that we
    tightened, and a wrapper's name only where the callee is that wrapper."""
    if look.callee is None:
        return True
    callee_type = instrumented.type_of(look.callee)
    if look.weak or look.rule.family == "logging":
        # Unknown or not tightened: another library's `fetch` or `info`, or one the checker
        # cannot see; the name alone never makes a sink of it.
        return callee_type is not None and "LiteralString" in callee_type
    if look.wrapper is not None:
        return callee_type is not None and is_the_wrapper(look.wrapper, callee_type)
    return True


def _judge(
    out: Outcomes,
    path: str,
    look: Look,
    instrumented: Instrumented,
    untyped_functions: frozenset[str],
    asked: bool,
) -> None:
    """One call's outcome (see the module's docstring)."""
    if look.hidden:
        callee = segment(*instrumented.encoded, look.call.func)
        detail = "its text is unpacked from `*args` or `**kwargs`, out of view"
        out.unverified.append(unverified_call(path, look, callee, "not-in-view", detail))
        return
    texts = look.texts
    if not texts:
        out.prove(look)  # literals in view, nothing to ask: the syntax is the evidence
        return
    owner = instrumented.type_of(look.owner) if look.owner is not None else None
    if owner is not None:
        look = replace(
            look, api=named_by_receiver(callee_name(look.call.func) or "", look.api, owner)
        )
    callee_text = segment(*instrumented.encoded, look.call.func)
    answers = [instrumented.judgement(t) for t in texts]
    if any(a is None for a in answers):
        if all(literal_in_fact(t, instrumented.tree) for t in texts):
            # No answer (a call spread over lines the copy could not ask about, code the
            # checker did not evaluate), but the syntax alone shows the text literal whatever
            # the input (core/literal_idioms.py): proven, and the checker's error there cleared.
            out.prove(look, clear=True)
            return
        out.unverified.append(_unanswered(path, look, instrumented, callee_text, asked))
        return
    judged = _worst(a for a in answers if a is not None)
    callee_type = instrumented.type_of(look.callee) if look.callee is not None else None
    any_parts = _any_parts(look, instrumented, judged)
    constructors = [
        t for t in (instrumented.type_of(c) for c in look.constructors) if t is not None
    ]
    receiver = receiver_kind(look, callee_type, instrumented.tree, constructors)
    if look.foreign and receiver not in ("sink", "inherits"):
        # Another package's function of a sink's name (puremagic.from_string, string.Template,
        # tblib's Traceback.from_string) whose signature takes no LiteralString: no sink call,
        # whatever its text.  A name alone never makes a sink.
        out.calls -= 1
        return
    if judged is Judgement.LITERAL and not any_parts:
        if instrumented.exact(look):
            out.prove(look)
        else:
            detail = (
                "the checker's answer prints a literal string of the checked code where it "
                "could not be told from the rest of the message"
            )
            out.unverified.append(unverified_call(path, look, callee_text, "inexact", detail))
        return
    # A text whose only parts not literal are Any (an f-string of an Any is a str to the
    # checker, `"a" + Any` is Any) is the Any's outcome; a part that is a plain str makes it a
    # finding, whatever else the text holds.
    if any_parts and not _str_parts(look, instrumented):
        if look.mapping is not None:  # the mapping may leave the shell off (mapped_shells)
            out.unverified.append(mapped_shells.any_command(path, look, instrumented, any_parts))
            return
        _any_outcome(out, path, look, instrumented, any_parts, receiver, untyped_functions)
        return
    # A plain string to the checker, which the syntax shows literal in fact: the markers of an
    # IN list, a loop over a display of table names, `+=` and slicing of literals
    # (core/literal_idioms.py, the plugin's judge too), each other part revealed literal.
    if not any_parts and all(
        literal_in_fact(t, instrumented.tree, instrumented.revealed_literal) for t in texts
    ):
        out.prove(look, clear=True)
        return
    # A plain string, or not only a string.
    rich = [instrumented.type_of(t) or "Any" for t in texts]
    if look.rule is MARKUP and all(_safe_markup(r) for r in rich):
        out.calls -= 1  # markup already declared safe (a SafeString, a Markup): no text
        return
    if judged is Judgement.OTHER and not any(may_be_text(r) for r in rich):
        out.calls -= 1  # no text reaches the sink: a query object, bytes, a number
        return
    if look.mapping is not None and not look.shell_shown:  # nothing shows the shell on
        out.unverified.append(mapped_shells.keys_out_of_view(path, look, instrumented))
        return
    if look.wrapper is not None:
        _wrapper_finding(out, path, look, instrumented)
        _record_leaves(out, look, instrumented, _open_parts(look, instrumented))
        return
    listed = str_list_to_a_shell(path, look, instrumented)
    if listed is not None:
        out.findings.append(listed)
        return
    if receiver in ("sink", "inherits"):
        out.findings.append(_evidence_finding(path, look, instrumented, receiver))
        _record_leaves(out, look, instrumented, _open_parts(look, instrumented))
        return
    finding = unverified_finding(
        path, look, instrumented, callee_text, [], receiver, untyped_functions
    )
    if finding is not None:
        out.findings.append(finding)
        return
    reason = "receiver-unknown" if receiver == "unknown" else "callee-str"
    detail = f"`{callee_text}` is {callee_type}"
    out.unverified.append(unverified_call(path, look, callee_text, reason, detail))


# The classes of markup already declared safe (Django's, MarkupSafe's): a markup sink's own
# overloads take them as they are.
_SAFE_MARKUP = frozenset(("SafeString", "SafeText", "SafeData", "Markup"))


def _safe_markup(revealed: str) -> bool:
    try:
        found = type_text.members(revealed)
    except type_text.Malformed:
        return False
    return bool(found) and all(m.rsplit(".", 1)[-1] in _SAFE_MARKUP for m in found)


def _worst(answers: object) -> Judgement:
    found = set(answers)  # type: ignore[call-overload]
    for worst in (Judgement.ANY, Judgement.OTHER, Judgement.TEXT):
        if worst in found:
            return worst
    return Judgement.LITERAL


def _any_parts(look: Look, instrumented: Instrumented, judged: Judgement) -> list[ast.expr]:
    """The parts revealed as Any (outermost first), the text itself when the judge could not
    tell and no part says why."""
    found = [p for p in look.parts if instrumented.unverified(p)]
    found += [t for t in look.texts if instrumented.unverified(t) and t not in found]
    if judged is Judgement.ANY and not found:
        found = list(look.texts)
    return found


def _unanswered(
    path: str, look: Look, instrumented: Instrumented, callee_text: str, asked: bool
) -> Unverified:
    if not asked:
        detail = "the file is outside the project root, where its copy is not checked"
        return unverified_call(path, look, callee_text, "not-asked", detail)
    if checker_ignored(instrumented.source, look.call):
        # `# type: ignore` or `# pyright: ignore[...]` on the call: mypy keeps its answer to
        # itself, and a silent run proves nothing there.
        detail = "an ignore comment of the checker's hides its answer"
        return unverified_call(path, look, callee_text, "checker-ignore", detail)
    if not look.revealable or not instrumented.asked(look):
        detail = (
            "the call could not be asked about (in an f-string or a decorator before Python "
            "3.12, or spread over lines the copy cannot repeat)"
        )
        return unverified_call(path, look, callee_text, "not-asked", detail)
    return unverified_call(path, look, callee_text, "not-evaluated", _NOT_EVALUATED)


def _any_outcome(
    out: Outcomes,
    path: str,
    look: Look,
    instrumented: Instrumented,
    any_parts: Sequence[ast.expr],
    receiver: str,
    untyped_functions: frozenset[str],
) -> None:
    """A text with an Any in it: LS902 (built in view), LS903 (from the project's untyped
    code) or unverified; through a wrapper with its chain."""
    callee = segment(*instrumented.encoded, look.call.func)
    made: Callable[[Finding], Finding] = lambda f: f  # noqa: E731
    if look.wrapper is not None:
        made = _through(out, look.wrapper)
    sink_like = look.wrapper is not None or receiver in ("sink", "inherits")
    finding = unverified_finding(
        path,
        look,
        instrumented,
        callee,
        any_parts,
        "sink" if sink_like else receiver,
        untyped_functions,
    )
    if finding is not None:
        out.findings.append(made(finding))
        _record_leaves(out, look, instrumented, any_parts)
    elif sink_like:
        detail = instrumented.explain(any_parts)
        out.unverified.append(unverified_call(path, look, callee, "value-any", detail))
    else:
        reason = "receiver-unknown" if receiver == "unknown" else "callee-str"
        callee_type = instrumented.type_of(look.callee) if look.callee is not None else None
        detail = f"`{callee}` is {callee_type}"
        out.unverified.append(unverified_call(path, look, callee, reason, detail))


def _str_parts(look: Look, instrumented: Instrumented) -> list[ast.expr]:
    """The parts revealed as a string that is neither literal nor Any."""
    return [
        p
        for p in _open_parts(look, instrumented)
        if not instrumented.unverified(p) and may_be_text(instrumented.type_of(p) or "Any")
    ]


def _open_parts(look: Look, instrumented: Instrumented) -> list[ast.expr]:
    """The parts of the text that are not literal, as the run revealed them."""
    return [
        p
        for p in look.parts
        if not LITERAL.match(instrumented.type_of(p) or "Any")
        and not literal_in_view(p, instrumented)
    ]


def _record_leaves(
    out: Outcomes, look: Look, instrumented: Instrumented, parts: Sequence[ast.expr]
) -> None:
    """Note which parameters of its function the finding just made comes from."""
    place = (look.call.lineno, look.call.col_offset + 1)
    out.parameters[place] = _leaf_parameters(parts, instrumented)


def _leaf_parameters(
    parts: Sequence[ast.expr], instrumented: Instrumented
) -> frozenset[str] | None:
    """The parameters of the call's function that are all the not literal leaves of its text
    (``parts``; a name assigned in view is no leaf: its value's parts are parts too; a part
    that is itself a composition, such as the whole text `"..." % title` that pyright types
    Unknown where mypy says `str`, has its own parts for leaves); None when another leaf is not
    literal (an attribute, a call, a global)."""
    found: set[str] = set()
    for part in (leaf for whole in parts for leaf in composition_parts(whole)):
        if not isinstance(part, ast.Name):
            return None
        binding = binding_of(part, instrumented.scopes.get(id(part), []))
        if binding is None:
            return None
        if binding.kind == "parameter":
            found.add(part.id)
        elif binding.kind != "assigned":
            return None
    return frozenset(found) if found else None


def _evidence_finding(path: str, look: Look, instrumented: Instrumented, receiver: str) -> Finding:
    """A finding of the sink's family: the judge says its text is no literal string."""
    data, offsets = instrumented.encoded
    shown = " and ".join(
        f"`{short(segment(data, offsets, t))}` is {instrumented.type_of(t) or 'a plain str'}"
        for t in look.texts
    )
    message = f"{shown}, not a literal string"
    open_parts = [p for p in _open_parts(look, instrumented) if p not in look.texts]
    if look.built and open_parts:
        message += f": built from {named(data, offsets, open_parts, instrumented)}"
    if receiver == "inherits":
        callee = segment(data, offsets, look.call.func)
        message += (
            f"; `{callee}` overrides the constructor of {look.api} without annotations, so "
            "the checker itself lets any str through"
        )
    message += mapped_shells.note(look, instrumented)
    return replace(make(path, look, instrumented, look.rule, message), evidence=message)


def _wrapper_finding(out: Outcomes, path: str, look: Look, instrumented: Instrumented) -> None:
    """A call of the project's own wrapper whose text is no literal string: a finding of the
    sink's family, with the chain."""
    wrapper = look.wrapper
    assert wrapper is not None
    data, offsets = instrumented.encoded
    open_parts = _open_parts(look, instrumented) or list(look.texts)
    composed = [p for p in open_parts if not isinstance(p, ast.Name) or p is look.argument]
    message = (
        f"{named(data, offsets, composed or open_parts, instrumented)} reaches {wrapper.sink} "
        f"through the project's own {' -> '.join(wrapper.chain)} ({wrapper.where})"
    )
    finding = make(
        path, look, instrumented, look.rule, message, api=f"{wrapper.sink}, through {wrapper.name}"
    )
    made = replace(finding, parameter=wrapper.parameter, evidence=message)
    out.findings.append(_through(out, wrapper)(made))


def _through(out: Outcomes, wrapper: Wrapper) -> Callable[[Finding], Finding]:
    def made(finding: Finding) -> Finding:
        found = replace(finding, hint=annotation_hint(wrapper), through=through_chain(wrapper))
        out.through.append((found, wrapper))
        return found

    return made


__all__ = ["Outcomes", "outcomes", "untyped_functions"]
