"""Adapters for research frameworks: PettingZoo (:mod:`torite.adapters.pettingzoo`), Gymnasium
(:mod:`torite.adapters.gymnasium`: one seat against torite's bots) and OpenSpiel
(:mod:`torite.adapters.openspiel`), all on the fixed-size encodings of
:mod:`torite.adapters.encoding`; the text table both environments render is
:mod:`torite.adapters.table`.  Each is imported on its own, so using one does not need the other
frameworks installed."""
