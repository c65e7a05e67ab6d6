"""The hostile-checkout run (``scripts/hostile_checkout.py``, its entry point), one module per area:
``model`` (its vocabulary), ``planting`` (the hostile copy), ``places`` (where a written file
belongs), ``steps`` (running and judging one command), ``printing`` (the report)."""
