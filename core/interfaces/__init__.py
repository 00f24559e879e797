"""Programs over the public API: the command line and its demo."""
