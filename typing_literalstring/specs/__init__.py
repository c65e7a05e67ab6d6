"""The specifications, and the stubs built from them.

A specification (``stubs/`` in the checkout; ``stubspec`` reads it) says which parameter of which
function must be a LiteralString.  ``tighten`` applies one to a stub module; ``overlay`` builds a
checker's tightened standard library from its own typeshed, ``thirdparty`` (with
``source_copy``, ``written`` and ``installed``) the tightened copies of the packages installed
in the checked environment, ``cache`` keeps both in the user cache.  ``sinks``, ``argv_lists`` and
``argv_shell`` name the sink calls in source; ``typeshed_literals`` the stock stubs' own.
"""
