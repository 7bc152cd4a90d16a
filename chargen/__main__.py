"""`python -m chargen` runs the command-line interface."""

from chargen.cli import main

if __name__ == "__main__":
    main()
