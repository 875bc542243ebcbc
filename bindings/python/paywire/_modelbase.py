"""Helpers the generated models (paywire/_generated/models.py) decode and encode with.

Hand-written and small on purpose: the generated code calls only these, so a change to how a
model reads JSON is made here once, not in the generator's templates.
"""
from decimal import Decimal
from typing import Any, Callable, Dict, FrozenSet, Mapping, Optional, Protocol, TypeVar

T = TypeVar("T")


class DecodeError(ValueError):
    """JSON that does not fit the model it was decoded into (missing field, wrong shape)."""


class Unset:
    """Marks a field that was absent from the JSON, for the few optional fields where null is
    also a value (an envelope's `success` may be null): None alone could not tell them apart."""

    _instance = None

    def __new__(cls) -> "Unset":
        if cls._instance is None:
            cls._instance = super().__new__(cls)
        return cls._instance

    def __repr__(self) -> str:
        return "UNSET"

    def __bool__(self) -> bool:
        return False


UNSET = Unset()


def obj(data: Any, owner: str) -> Mapping[str, Any]:
    """`data` as a JSON object, or a DecodeError naming the model that wanted one."""
    if not isinstance(data, Mapping):
        raise DecodeError(f"{owner}: expected a JSON object, got {type(data).__name__}")
    return data


def req(data: Mapping[str, Any], key: str, owner: str) -> Any:
    """A required member; its absence is a DecodeError naming the model and the field."""
    try:
        return data[key]
    except KeyError:
        raise DecodeError(f"{owner}: missing required field {key!r}") from None


def num(value: Any) -> Any:
    """A JSON number as Decimal. The binding parses with parse_float=Decimal, so fractions are
    already Decimal; integers written where the schema says number (an amount of 10) become
    Decimal too, exactly, so a price is one type whatever the store wrote. Anything else is
    left as it came: decoding never guesses."""
    if isinstance(value, int) and not isinstance(value, bool):
        return Decimal(value)
    if isinstance(value, float):
        return Decimal(repr(value))
    return value


def extra(data: Mapping[str, Any], known: FrozenSet[str]) -> Dict[str, Any]:
    """Members the schema does not name. Receivers ignore unknown fields, but a model keeps them
    so that decoding and encoding again gives back the JSON the library wrote."""
    return {key: value for key, value in data.items() if key not in known}


def maybe(value: Any, decode: Callable[[Any], T]) -> Optional[T]:
    """A nullable member: None stays None, anything else is decoded."""
    return None if value is None else decode(value)


class JsonModel(Protocol):
    """Any generated model: what a params member that is a free JSON object also takes (a product
    get_paywall_products returned, given to make_purchase)."""

    def to_json(self) -> Dict[str, Any]: ...


def plain(value: Any) -> Any:
    """`value` as JSON: a model (anything with to_json) becomes its JSON, inside dicts and lists
    too; anything else is left as it is (json.dumps refuses what is not JSON, naming it)."""
    if isinstance(value, Mapping):
        return {key: plain(item) for key, item in value.items()}
    if isinstance(value, (list, tuple)):
        return [plain(item) for item in value]
    to_json = getattr(value, "to_json", None)
    if callable(to_json):
        return plain(to_json())
    return value
