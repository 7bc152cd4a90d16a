"""Views of a character for a GM, beside the Character Record (chargen.render) and the exports
(chargen.export): the stat block and the roster card (`cards`, `statblock`), and the roster of cards ten to
a page (`roster`). `chargen roll --statblock` and `chargen batch` both write them."""
