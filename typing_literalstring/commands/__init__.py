"""The ``typing-literalstring`` command: ``entry`` (signal handling, then ``cli``), ``cli`` (the
arguments), and one module per command: ``check``, ``init``, ``doctor``, ``stubs``."""

# The exit statuses of every command.
EXIT_OK = 0
EXIT_FINDINGS = 1
EXIT_ERROR = 2
EXIT_INTERRUPTED = 130
