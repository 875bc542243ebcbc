"""How Java and C# name a schema type: their generics read alike (`List<T>`, a map of string to
T), primitives are boxed or nullable so null can stand for an absent member, and whatever the
schema leaves open passes through as the JSON library's own value type."""
from typing import Callable, Dict, Tuple


def namer(prims: Dict[str, str], literals: Dict[type, str], list_of: str, map_of: str,
          passthrough: str) -> Tuple[Callable[[tuple], str], Callable[[tuple], str]]:
    """(name of a type, name of a literal's values' type) for one language."""
    def literal(values: tuple) -> str:
        kinds = {type(value) for value in values}
        return literals[next(iter(kinds))] if len(kinds) == 1 and next(iter(kinds)) in literals else passthrough

    def name(t: tuple) -> str:
        kind = t[0]
        if kind == "prim":
            return prims[t[1]]
        if kind == "lit":
            return literal(t[1])
        if kind == "alias":
            return literal(t[2][1])
        if kind in ("class", "tagged"):
            return t[1]
        if kind == "list":
            return list_of.format(name(t[1]))
        if kind == "map":
            return map_of.format(name(t[1]))
        if kind == "opt":
            return name(t[1])
        return passthrough  # a union of pass-through types (a string or an object)

    return name, literal
