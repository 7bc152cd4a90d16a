"""`chargen serve`: the walk, an opened file, house rules and the GM's table on a page served from this
computer. A thin face over chargen's library: the walk's steps, checks and wording are chargen.walkthrough's
(the same as `chargen new`); files go through chargen's own loaders; PDFs and batches are made by the same
functions as `chargen render` and `chargen batch`, in worker processes (chargen.web.pool).

    app = create_app()          # a Flask application (chargen.web.app)
    serve(rules, "127.0.0.1", 8000, browser=True, echo=print)   # chargen.web.server, on waitress
"""
