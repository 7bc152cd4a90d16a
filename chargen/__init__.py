"""chargen: character generator and Character Record publisher for DragonQuest (2nd edition, SPI 1982)."""

__version__ = "0.1.0"
