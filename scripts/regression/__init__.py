"""The checker regression suite: run checkers over test_cases/, compare, record, report."""
