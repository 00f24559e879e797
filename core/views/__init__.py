"""What users see of a memory: the prompt block, timelines and concept-graph pictures."""
