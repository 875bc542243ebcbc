"""How the Swift binding (bindings/swift, PaywireKit) names what schema_ir.py built: types that
read as the seeds' Swift SDK reads (Paywall, PaywallProduct, Profile, PaywireError), names that
do not shadow Foundation's or SwiftUI's (Bundle, View, Unit), enums of the schema's strings
named after their member, lowerCamelCase members and cases."""
import re
from typing import Dict, Iterable, Optional, Tuple

from schema_ir import Model, camel

# Schema class name -> Swift type name. The seeds' names first: getPaywallProducts returns
# PaywallProduct (the schema's `product`), so the schema's paywall_product (an entry of a
# paywall's product list) is PaywallProductReference; `error` is PaywireError (the thrown type).
# Then names that would shadow Foundation or SwiftUI for a file importing both.
TYPE_RENAMES = {
    "Error": "PaywireError",
    "Product": "PaywallProduct",
    "PaywallProduct": "PaywallProductReference",
    "PurchaseResult": "PurchaseOutcome",
    "PurchaseResultSuccess": "PurchaseOutcomeSuccess",
    "PurchaseResultUserCancelledPending": "PurchaseOutcomeUnsettled",
    "View": "ViewInfo",
    "Bundle": "FallbackBundle",
    "Action": "ViewAction",
    "Context": "PaywallContext",
    "Builder": "PaywallLayout",
    "Section": "PaywallSection",
    "Period": "SubscriptionPeriod",
    "Offer": "PurchaseOffer",
    "Config": "PaywireConfiguration",
    "Store": "StoreConfiguration",
    "ConfigContext": "AppContext",
    "Transport": "TransportConfiguration",
    "Analytics": "AnalyticsConfiguration",
    "Wrapper": "WrapperInfo",
    "FetchProducts": "ScriptedFetchFailure",
    "IntroOffer": "StoreIntroOffer",
    "UpdateProfileParams": "ProfileParameters",
}

# Enums named by their member when that name is free, else owner + member. These member names
# say too little alone (or shadow a framework's type) and always take their owner's name.
GENERIC_MEMBERS = {"type", "unit", "kind", "source", "state", "style", "layout", "op", "environment", "status",
                   "remaining", "format_version", "element_type", "renewal_type", "result"}
# Names a member's enum takes whatever its owner (the seeds' names for them).
ENUM_NAMES = {"reason": "DismissReason", "log_level": "LogLevel", "level": "LogLevel"}
# Names for one owner's member (the owner by its Swift name), where owner + member reads badly.
OWNER_ENUM_NAMES = {
    ("GetPaywallProductsParams", "fetch_policy"): "ProductsFetchPolicy",
    ("OnboardingViewIngestParams", "type"): "OnboardingMessageType",
    ("HostRequestEvent", "kind"): "HostRequestKind",
    ("StoreConfiguration", "type"): "StoreType",
    ("PaywallLayout", "layout"): "LayoutKind",
    # `Result` alone would hide Swift.Result from every file of the kit.
    ("RedeemWebPurchaseResult", "result"): "RedemptionOutcome",
}

SWIFT_KEYWORDS = {
    "associatedtype", "class", "deinit", "enum", "extension", "fileprivate", "func", "import", "init", "inout",
    "internal", "let", "open", "operator", "private", "protocol", "public", "rethrows", "static", "struct",
    "subscript", "typealias", "var", "break", "case", "continue", "default", "defer", "do", "else", "fallthrough",
    "for", "guard", "if", "in", "repeat", "return", "switch", "where", "while", "as", "Any", "catch", "false",
    "is", "nil", "super", "self", "Self", "throw", "throws", "true", "try", "any", "some", "await", "async",
    "package", "consume", "borrowing", "consuming",
}
# Members every model has already; a schema member of one of these names would collide.
RESERVED_MEMBERS = {"jsonValue", "unknownMembers", "memberNames", "seq", "eventName"}


def type_name(ir_name: str) -> str:
    return TYPE_RENAMES.get(ir_name, ir_name)


def lower_camel(name: str) -> str:
    """`paywall_id` -> paywallId, `store.fetch_products` -> storeFetchProducts, `openPaywall` kept."""
    if re.fullmatch(r"[a-z][A-Za-z0-9]*", name):
        return name
    text = camel(re.sub(r"[^A-Za-z0-9_.]", "_", name))
    return text[:1].lower() + text[1:] if text else "value"


def identifier(name: str) -> str:
    """A declaration's name, backquoted when it is a keyword."""
    return f"`{name}`" if name in SWIFT_KEYWORDS else name


def member_name(json_name: str) -> str:
    name = lower_camel(json_name)
    assert name not in RESERVED_MEMBERS, f"the member {json_name} collides with a model's own {name}"
    return name


def case_names(values: Iterable[str]) -> Dict[str, Optional[str]]:
    """Each listed string -> its case name; None for "unknown", which the catch-all
    `unknown(String)` already holds. A camelCase dialect of a snake_case value (`openPaywall`
    beside `open_paywall`) is told apart with a CamelCase suffix."""
    names: Dict[str, Optional[str]] = {}
    taken = set()
    ordered = sorted(values, key=lambda v: ("_" not in v and v != v.lower(), list(values).index(v)))
    for value in ordered:
        if value == "unknown":
            names[value] = None
            continue
        name = lower_camel(value)
        if name == "none":
            name = "noneValue"  # `.none` beside Optional's would be ambiguous where one is optional
        if name in taken:
            name += "CamelCase"
        taken.add(name)
        names[value] = name
    return {value: names[value] for value in values}


class EnumNames:
    """Names the enums of the schema's string sets: one Swift enum per set of values, so the
    three fetch_policy members of get_paywall, get_onboarding and the default audience share
    one FetchPolicy."""

    def __init__(self, model: Model):
        self.by_values: Dict[Tuple[str, ...], str] = {}
        self.taken = {type_name(name) for name in list(model.classes) + list(model.unions)}
        for alias, lit in model.aliases.items():
            self.by_values[tuple(lit[1])] = alias
            self.taken.add(alias)

    def name(self, values: Tuple[str, ...], owner: str, member: str) -> str:
        if values in self.by_values:
            return self.by_values[values]
        candidates = []
        if (owner, member) in OWNER_ENUM_NAMES:
            candidates.append(OWNER_ENUM_NAMES[(owner, member)])
        if member in ENUM_NAMES:
            candidates.append(ENUM_NAMES[member])
        if member not in GENERIC_MEMBERS:
            candidates.append(camel(member))
        candidates.append(owner + camel(member))
        for candidate in candidates:
            if candidate not in self.taken:
                break
        else:
            n = 2
            while f"{candidates[-1]}{n}" in self.taken:
                n += 1
            candidate = f"{candidates[-1]}{n}"
        self.taken.add(candidate)
        self.by_values[values] = candidate
        return candidate
