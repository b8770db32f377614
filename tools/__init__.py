"""Clinical tool services: risk calculators, guideline retrieval, drug safety."""
