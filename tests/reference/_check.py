"""Tiny strict JSON type predicates shared by the reference modules (not by rollbook)."""

from __future__ import annotations


def is_int(value: object) -> bool:
    # JSON strictness of the contract: true is not an int, 6.0 is not an int, "6" is not an int.
    return type(value) is int


def is_bool(value: object) -> bool:
    return type(value) is bool


def is_str(value: object) -> bool:
    return type(value) is str


def int_list(value: object, low: int, high: int) -> bool:
    """A JSON array of ints, each within [low, high]."""
    if type(value) is not list:
        return False
    return all(is_int(x) and low <= x <= high for x in value)


def only_known(request: dict, known: set[str]) -> bool:
    return all(key in known for key in request)


class Refusal(str):
    """A refusal: equal to the modules' ``ERROR`` ("error"), carrying the codes rollbook may refuse it
    with. SPEC names no refusal codes; these are rollbook's stable codes for the defect the branch
    finds (several where a generated line may hold more than one defect and the order of the checks
    decides which is named)."""

    codes: frozenset[str]

    def __new__(cls, codes: frozenset[str]) -> Refusal:
        refusal = super().__new__(cls, "error")
        refusal.codes = codes
        return refusal


def refuse(*codes: str) -> Refusal:
    return Refusal(frozenset(codes))
