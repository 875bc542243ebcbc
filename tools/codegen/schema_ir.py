"""Reads schema/paywire.schema.json into a small language-neutral model: classes, fields and type
expressions. Emitters (python_emit.py) only print it; every decision about what a JSON Schema
construct means is made here, once, for every language a generator may later serve.

Type expressions are tuples:
  ("prim", "str" | "int" | "bool" | "number" | "null" | "any" | "object")  object: free JSON object
  ("lit", (values...))          a const or an enum
  ("alias", name, expr)         a named top-level enum ($defs/error_code)
  ("list", T) ("map", T) ("opt", T)
  ("class", name)               a generated class
  ("union", (T...))             a union of pass-through types (["string", "number"], ...)
  ("tagged", name)              a union of classes told apart by one member (its Union object)
"""
import json
import keyword
from dataclasses import dataclass, field
from typing import Any, Dict, List, Optional, Tuple

ANY = ("prim", "any")
FREE_OBJECT = ("prim", "object")
# Keywords that only constrain a value; a schema made of these alone says nothing about its type.
_CONSTRAINTS = {"description", "minLength", "maxLength", "minimum", "maximum", "pattern", "format",
                "minItems", "maxItems", "maxProperties", "required", "not", "title", "examples"}


@dataclass
class Field:
    name: str            # the JSON member
    pyname: str          # a safe identifier (keywords get a trailing underscore)
    type: tuple
    required: bool
    nullable_optional: bool  # optional and null is a value too: absent needs its own marker
    doc: str = ""
    # A free JSON object the caller writes (a params member: make_purchase's product): bindings
    # take any generated model there too, encoded as its JSON, so a model one method returned
    # (a product of get_paywall_products) is passed as it is to another.
    takes_model: bool = False


@dataclass
class Class:
    name: str
    fields: List[Field]
    doc: str = ""
    event: Optional[str] = None  # set for event classes: the `event` name


@dataclass
class Union:
    name: str
    tag: str                                  # the member that tells the variants apart
    variants: List[Tuple[Tuple[Any, ...], str]]  # (tag values, class name)


@dataclass
class Model:
    classes: Dict[str, Class] = field(default_factory=dict)
    unions: Dict[str, Union] = field(default_factory=dict)
    aliases: Dict[str, tuple] = field(default_factory=dict)
    params: Dict[str, str] = field(default_factory=dict)     # method -> params class
    results: Dict[str, tuple] = field(default_factory=dict)  # method -> result type
    events: Dict[str, str] = field(default_factory=dict)     # event name -> class
    extras: Dict[str, tuple] = field(default_factory=dict)   # $def asked for by name -> its type


def camel(name: str) -> str:
    return "".join(part[:1].upper() + part[1:] for part in name.replace(".", "_").split("_") if part)


def singular(hint: str) -> str:
    return hint[:-1] if hint.endswith("s") and not hint.endswith("ss") else hint


def admits_null(t: tuple) -> bool:
    return t == ANY or t == ("prim", "null") or t[0] == "opt"


class Builder:
    """Walks the schema from $defs/params, $defs/results and $defs/events; builds only what they
    reach, so the bundle's and config's private shapes appear only where a method takes them."""

    def __init__(self, schema: Dict[str, Any]):
        self.schema = schema
        self.defs = schema["$defs"]
        self.model = Model()
        self._shapes: Dict[str, str] = {}   # class or union name -> canonical JSON of its schema
        self._named: Dict[str, tuple] = {}  # top-level $def -> its type, once built

    # ---- entry points -------------------------------------------------------------------
    def build(self, extra_defs: Tuple[str, ...] = ()) -> Model:
        # Top-level $defs keep their own names: reserve them before inline shapes take names.
        for name in self.defs:
            self._shapes.setdefault(camel(name), "$defs/" + name)
        for method, node in self._methods("params"):
            self.model.params[method] = self._params_class(method, node)
        for method, node in self._methods("results"):
            self.model.results[method] = self.type_of(node, camel(method) + "Result")
        for name, node in self._methods("events"):
            cls = self._class(camel(name) + "Event", node, event=name)
            self.model.events[name] = cls
        for cls in set(self.model.params.values()):
            for f in self.model.classes[cls].fields:
                f.takes_model = f.type in (FREE_OBJECT, ("opt", FREE_OBJECT))
        # Built last, so the shapes above keep the names they have without them.
        for name in extra_defs:
            self.model.extras[name] = self._ref("#/$defs/" + name)
        return self.model

    def _methods(self, group: str):
        return [(k, v) for k, v in self.defs[group].items() if k != "description"]

    def _params_class(self, method: str, node: Dict[str, Any]) -> str:
        # Params are always a class, even with no members, so every method has one to round-trip.
        t = self.type_of(node, camel(method) + "Params")
        if t[0] == "class":
            return t[1]
        return self._class(camel(method) + "Params", dict(node, type="object", properties={}))

    # ---- types ----------------------------------------------------------------------------
    def type_of(self, node: Any, hint: str) -> tuple:
        if node is True or not isinstance(node, dict):
            return ANY
        if "$ref" in node:
            return self._ref(node["$ref"])
        if "const" in node:
            return ("lit", (node["const"],))
        if "enum" in node:
            return ("lit", tuple(node["enum"]))
        for key in ("oneOf", "anyOf"):
            if key in node and not self._constraint_only(node[key]):
                return self._union(node[key], hint, node)
        if "allOf" in node and not any("if" in part for part in node["allOf"]):
            return ("class", self._merge(hint, node, node["allOf"], required_from_all=False))
        kind = node.get("type")
        if isinstance(kind, list):
            parts = [self.type_of(dict(node, type=k), hint) for k in kind if k != "null"]
            inner = parts[0] if len(parts) == 1 else ("union", tuple(parts))
            return ("opt", inner) if "null" in kind else inner
        if kind is None and "properties" in node:
            kind = "object"
        if kind == "object":
            return self._object(node, hint)
        if kind == "array":
            return ("list", self.type_of(node.get("items", True), singular(hint)))  # Product for products
        simple = {"string": "str", "integer": "int", "boolean": "bool", "number": "number", "null": "null"}
        if kind in simple:
            return ("prim", simple[kind])
        return ANY

    def _ref(self, ref: str) -> tuple:
        parts = ref.lstrip("#/").split("/")
        if len(parts) != 2 or parts[0] != "$defs":
            node: Any = self.schema
            for part in parts:
                node = node[part]
            return self.type_of(node, camel(parts[-1]))
        name = parts[1]
        if name not in self._named:
            node = self.defs[name]
            self._named[name] = ANY  # a recursive shape (audience_rule) refers to itself as JSON
            t = self.type_of(node, camel(name))
            if t[0] == "lit":
                t = ("alias", camel(name), t)
                self.model.aliases[camel(name)] = t[2]
            self._named[name] = t
        return self._named[name]

    @staticmethod
    def _constraint_only(variants: List[Any]) -> bool:
        # get_paywall's anyOf [{required: [placement_id]}, {required: [paywall_id]}] constrains,
        # it does not shape: both members stay optional in the model.
        return all(isinstance(v, dict) and set(v) <= _CONSTRAINTS for v in variants)

    def _union(self, variants: List[Any], hint: str, node: Dict[str, Any]) -> tuple:
        nullable = any(isinstance(v, dict) and v.get("type") == "null" for v in variants)
        rest = [v for v in variants if not (isinstance(v, dict) and v.get("type") == "null")]
        if len(rest) == 1:
            inner = self.type_of(rest[0], hint)
        else:
            inner = self._tagged(rest, hint) or self._untagged(rest, hint, node)
        return ("opt", inner) if nullable else inner

    def _resolved(self, node: Any) -> Any:
        while isinstance(node, dict) and "$ref" in node:
            node = self.defs[node["$ref"].split("/")[-1]]
        return node

    def _tagged(self, variants: List[Any], hint: str) -> Optional[tuple]:
        """Objects told apart by one member's const or enum ({"type": "success"} ...): a Union."""
        nodes = [self._resolved(v) for v in variants]
        if not all(isinstance(n, dict) and isinstance(n.get("properties"), dict) for n in nodes):
            return None
        for tag in nodes[0]["properties"]:
            values = [self._tag_values(n["properties"].get(tag)) for n in nodes]
            flat = [v for vs in values if vs for v in vs]
            if all(values) and len(flat) == len(set(map(repr, flat))):
                break
        else:
            return None
        name = self._name(hint, json.dumps(variants, sort_keys=True))
        union = Union(name, tag, [])
        self.model.unions[name] = union
        for vals, variant in zip(values, variants):
            cls_hint = name + "".join(camel(str(v)) for v in vals)
            t = self.type_of(variant, cls_hint)
            union.variants.append((tuple(vals), t[1]))
        return ("tagged", name)

    @staticmethod
    def _tag_values(prop: Any) -> Optional[List[Any]]:
        if isinstance(prop, dict) and "const" in prop:
            return [prop["const"]]
        if isinstance(prop, dict) and "enum" in prop:
            return list(prop["enum"])
        return None

    def _untagged(self, variants: List[Any], hint: str, node: Dict[str, Any]) -> tuple:
        nodes = [self._resolved(v) for v in variants]
        if all(isinstance(n, dict) and ("properties" in n or "required" in n) and n.get("type", "object") == "object"
               for n in nodes):
            # An untagged choice of objects (fallback_source: path or bundle): one class whose
            # members are required only where every variant requires them.
            return ("class", self._merge(hint, node, variants, required_from_all=True))
        parts = tuple(self.type_of(v, hint) for v in variants)
        if all(p[0] in ("prim", "lit") for p in parts):
            return ("union", parts)
        return ANY

    def _merge(self, hint: str, node: Dict[str, Any], parts: List[Any], required_from_all: bool) -> str:
        props: Dict[str, Any] = {}
        required_sets = []
        for part in parts:
            part = self._resolved(part)
            for key, value in part.get("properties", {}).items():
                props.setdefault(key, value)
            required_sets.append(set(part.get("required", [])))
        if required_from_all:
            required = set.intersection(*required_sets)
        else:
            required = set.union(*required_sets)
        merged = {"type": "object", "properties": props, "required": sorted(required),
                  "description": node.get("description", "")}
        # A member only one variant names is free JSON when the others say nothing about it.
        return self._class(hint, merged)

    def _object(self, node: Dict[str, Any], hint: str) -> tuple:
        props = node.get("properties")
        if props is None and "allOf" not in node:
            extra = node.get("additionalProperties")
            if isinstance(extra, dict):
                return ("map", self.type_of(extra, singular(hint)))  # Answer for answers
            return ("prim", "object")
        return ("class", self._class(hint, node))

    # ---- classes --------------------------------------------------------------------------
    def _name(self, hint: str, shape: str) -> str:
        """A hint is "Owner|Member": the member's own name (Placement) when it is free or names the
        same shape, else prefixed by its owner (PaywallProduct), else numbered. Same shape, same
        class, so a shape used in two places is one class."""
        owner, _, base = hint.rpartition("|")
        candidates = [base, owner + base] if owner else [base]
        for name in candidates:
            if self._shapes.get(name, shape) == shape:
                return name
        n = 2
        while self._shapes.get(f"{candidates[-1]}{n}", shape) != shape:
            n += 1
        return f"{candidates[-1]}{n}"

    def _class(self, hint: str, node: Dict[str, Any], event: Optional[str] = None) -> str:
        shape = json.dumps(node, sort_keys=True)
        plain = hint.rpartition("|")[2]
        reserved = "$defs/" + self._def_name(plain)
        # A top-level $def is known by its name (its node may be rebuilt by a merge), others by shape.
        shape_key = reserved if "|" not in hint and self._shapes.get(plain) == reserved else shape
        name = self._name(hint, shape_key)
        if name in self.model.classes:
            return name
        self._shapes[name] = shape_key
        cls = Class(name, [], node.get("description", ""), event)
        self.model.classes[name] = cls  # before the members: a member may refer back to it
        props = dict(node.get("properties", {}))
        for part in node.get("allOf", []):
            # if/then refines a member per case (onboarding_state_action's value): free JSON.
            for key in part.get("then", {}).get("properties", {}):
                props[key] = True
        for key in node.get("required", []):
            props.setdefault(key, True)
        required = set(node.get("required", []))
        for key, prop in props.items():
            t = self.type_of(prop, f"{name}|{camel(key)}")
            is_required = key in required
            pyname = key + "_" if keyword.iskeyword(key) else key
            assert pyname not in ("extra_fields", "event"), f"{name}.{key} collides with the model's own names"
            doc = prop.get("description", "") if isinstance(prop, dict) else ""
            cls.fields.append(Field(key, pyname, t, is_required, not is_required and admits_null(t), doc))
        return name

    def _def_name(self, class_name: str) -> str:
        for name in self.defs:
            if camel(name) == class_name:
                return name
        return ""


def build(schema: Dict[str, Any], extra_defs: Tuple[str, ...] = ()) -> Model:
    """The model of params, results and events; plus, for a binding that types them too, the
    top-level $defs named in extra_defs (the Swift binding's config), built after the rest."""
    return Builder(schema).build(extra_defs)
