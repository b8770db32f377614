"""The orchestrator: screens, plans, routes to clinics, answers and verifies each turn."""
