"""The value graph: each derived value declared once (chargen.values.names, the tables' formulas, a
ruleset's own values), evaluated once for a character with its working (chargen.values.evaluation), the
GM's rulings pinned into it (chargen.values.pinned). Import the submodule you need: the tables' schema
reads chargen.values.names while the tables load."""
