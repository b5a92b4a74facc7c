"""Rules modules, one package a game.  Faces reach them only through ``torite.engine.registry``."""
