"""From a checker's diagnostics and the project's source to findings.

``literal_errors`` reads what each checker says about literal strings; ``callees`` finds the
call a diagnostic is about; the probes, reveal and unverified modules make the copies that the
checker is asked about; ``own_sinks`` finds the project's own LiteralString parameters;
``suppressions``, ``statements`` and ``fix_hints`` finish a finding.
"""
