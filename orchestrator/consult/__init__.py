"""Symptom consults: history taking, the specialty council, the SOAP handoff."""
