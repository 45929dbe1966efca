"""The solo chronicle (SPEC S-1 … S-6): a chronicle whose Storyteller is a scenario.

``format`` the scenario's models (the contract: its docstring and docs/solo.md), ``check`` the
faults found before play (S-4), ``story`` the state derived from the log and the next request for
the rules (S-2, S-3, S-5). Pure: no web, database or CLI library.
"""
