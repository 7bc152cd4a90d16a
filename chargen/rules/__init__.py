"""Derived values as small pure functions, each named after the rule it implements."""
