"""torite: trick-taking card games to play, study and design.

One engine (:mod:`torite.engine`) under every game (:mod:`torite.games`); bots, records, the
simulator and the faces speak only the engine's protocol.
"""

__version__ = "0.1.0"
