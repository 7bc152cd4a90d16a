"""The rules as data: loading and checking the YAML tables under tables/."""

from chargen.tables.loader import Tables, load_tables, row_for

__all__ = ["Tables", "load_tables", "row_for"]
