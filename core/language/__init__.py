"""Language analysis: sentences, concepts, terms, statement kinds and valid time from text."""
