"""The generation steps in the book's order, 5.1 to 8.8, and the pipeline that runs them."""
