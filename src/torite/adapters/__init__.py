"""Adapters for research frameworks: PettingZoo (:mod:`torite.adapters.pettingzoo`) and
OpenSpiel (:mod:`torite.adapters.openspiel`), both on the fixed-size encodings of
:mod:`torite.adapters.encoding`.  Each is imported on its own, so using one does not need the
other framework installed."""
