"""Stage 3a: what the patient asks — intent, specialty, dates, doctors, language."""
