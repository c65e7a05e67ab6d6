"""Constants imported by check_real_world_idioms.py: a module-level name assigned once from a literal."""

IMPORTED_TABLE = "accounts"
