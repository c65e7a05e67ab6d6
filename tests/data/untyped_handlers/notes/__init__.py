"""A small untyped Flask application, written as many are: no annotations, request values
read through helpers, sqlite3 opened by a helper module, shell commands run through helpers
and argument lists.  Each sink call is marked with the outcome both checkers must give it."""
