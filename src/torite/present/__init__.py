"""What the faces share about showing a game: how a decision is offered (``decision``)."""
