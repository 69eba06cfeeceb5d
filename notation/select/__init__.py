"""Selecting games: criteria on tags and on play (``criteria``, ``material``), duplicate
detection (``duplicates``) and the streaming driver that reads only what a criterion needs
(``run``: tags first, a replay only for the games and criteria that need one)."""
