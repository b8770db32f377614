"""The safety gate: red-flag screening of input and rule-based audit of every answer."""
