"""Stage 5: the deterministic answer, in the patient's language."""
