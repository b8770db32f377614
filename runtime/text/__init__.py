"""Portuguese and English text handling shared by the orchestrator, the verifier and the tools:
folding, language detection, month and weekday names, and times of day."""
