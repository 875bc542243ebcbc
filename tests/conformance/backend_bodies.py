"""Every exchange a case has with the backend, checked against the backend's own contract
(api/openapi.yaml), in both directions: each body the core sends must be one the spec
accepts, and each answer a case hands the core must be one the spec allows for that
operation and status, so no vector teaches the core a backend that does not exist. The driver
checks them when given --openapi (the repository's make targets always give it); an answer
that is off the spec on purpose says so with "off_spec": true on its host_respond step."""
import json
import re
import threading

import jsonschema


def openapi_nullable(schema):
    """OpenAPI 3.0's `nullable: true` as JSON Schema's type lists, to validate with jsonschema."""
    if isinstance(schema, dict):
        schema = {key: openapi_nullable(value) for key, value in schema.items()}
        if schema.pop("nullable", False):
            schema["type"] = [schema["type"], "null"]
        return schema
    if isinstance(schema, list):
        return [openapi_nullable(item) for item in schema]
    return schema


def component_validator(spec, name):
    """A validator for components.schemas[name], its $refs resolved inside the spec."""
    components = openapi_nullable(spec["components"])
    return jsonschema.Draft7Validator({**components["schemas"][name], "components": components})


def json_schema_name(content):
    """The component a request or response's application/json content refers to, if any."""
    ref = (content or {}).get("application/json", {}).get("schema", {}).get("$ref", "")
    return ref.rsplit("/", 1)[1] if ref.startswith("#/components/schemas/") else None


class Operation:
    """One method on one path of the spec: its request schema and its answers by status."""

    def __init__(self, spec, method, template, operation):
        self.name = f"{method.upper()} {template}"
        self.pattern = re.compile("^" + re.sub(r"\\{[^}]+\\}", "[^/]+", re.escape(template)) + "$")
        self.method = method.upper()
        request = json_schema_name(operation.get("requestBody", {}).get("content"))
        self.request = component_validator(spec, request) if request else None
        self.answers = {}
        for status, response in operation["responses"].items():
            if "$ref" in response:
                response = spec["components"]["responses"][response["$ref"].rsplit("/", 1)[1]]
            name = json_schema_name(response.get("content"))
            self.answers[str(status)] = component_validator(spec, name) if name else None


class BackendBodies:
    """The spec's operations, matched by the method and URL of each request the core makes."""

    def __init__(self, spec_path):
        import yaml  # only when asked for: a host's runner needs no YAML to run the vectors
        with open(spec_path, encoding="utf-8") as handle:
            spec = yaml.safe_load(handle)
        self.operations = [Operation(spec, method, template, operation)
                           for template, operations in spec["paths"].items()
                           for method, operation in operations.items()]
        self.requests_checked = 0
        self.answers_checked = 0
        self.lock = threading.Lock()

    def operation(self, method, url):
        """The operation a request is, or None when it is not a request to the backend's API."""
        if "/v1/" not in url:
            return None
        path = "/v1/" + url.split("/v1/", 1)[1].split("?", 1)[0]
        return next((op for op in self.operations if op.method == method and op.pattern.match(path)), None)

    def request_problem(self, method, url, body_text):
        """Why the body the core sent breaks the spec; None when it is fine."""
        operation = self.operation(method, url)
        if operation is None and "/v1/" in url:
            return f"the core sent {method} {url}, a request api/openapi.yaml has no operation for"
        if operation is None or operation.request is None:
            return None
        with self.lock:
            self.requests_checked += 1
        return problem(operation.request, body_text, f"{operation.name} body the core sent")

    def answer_problem(self, method, url, status, body_text):
        """Why an answer a case hands the core is one the backend could not give; None if fine."""
        operation = self.operation(method, url)
        if operation is None:
            return None
        # A status is declared itself or by its class ("5XX").
        key = next((key for key in (str(status), f"{status // 100}XX") if key in operation.answers), None)
        if key is None:
            return f"{operation.name} has no {status} answer in api/openapi.yaml"
        validator = operation.answers[key]
        if validator is None:
            return None
        with self.lock:
            self.answers_checked += 1
        return problem(validator, body_text, f"{operation.name} {status} answer the case gives")


def problem(validator, body_text, what):
    try:
        body = json.loads(body_text or "")
    except ValueError:
        return f"the {what} is not JSON: {str(body_text)[:200]}"
    errors = sorted(validator.iter_errors(body), key=lambda e: list(e.path))
    if errors:
        return f"the {what} breaks api/openapi.yaml at {list(errors[0].path)}: {errors[0].message[:300]}"
    return None
