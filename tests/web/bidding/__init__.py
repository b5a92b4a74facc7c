"""A tiny bidding game for the web table's tests (registered by the tests only)."""
