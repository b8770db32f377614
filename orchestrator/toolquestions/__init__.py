"""Tool questions: scores read from sentences, the bounded tool loop, cited reports."""
