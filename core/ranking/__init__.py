"""Pure ranking rules: the RecallM concept graph, BM25, rank fusion, decay and reinforcement."""
