"""torite: trick-taking card games to play, study and design.

One engine (:mod:`torite.engine`) under every game (:mod:`torite.games`); bots, records, the
simulator and the faces speak only the engine's protocol.
"""

from torite.build import check_fresh

__version__ = "0.1.0"

check_fresh()  # a compiled module older than its source would run old code: refuse at once
