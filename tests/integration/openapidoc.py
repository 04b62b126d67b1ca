"""heed serve's OpenAPI 3.1 document as a test oracle: checks of
the document itself, and the JSON Schema (Draft 2020-12) it gives for a
path, method and status, to validate the API's answers against.

Uses Debian's python3-jsonschema (4.10, RefResolver) or a newer one
(4.18+, the referencing registry): either way the schemas are resolved
inside the document, so its "#/components/..." references work and nothing
is fetched.

    doc = OpenApi(srv.json("/api/v1/openapi.json"))
    doc.problems()                       # [] when the document is sound
    doc.errors("/api/v1/records/7", "GET", 200, answer)   # [] when valid
"""

import re
import urllib.parse

import jsonschema
from jsonschema import Draft202012Validator

# The base URI the document is known by while resolving: any absolute URI
# would do, it is never fetched.
BASE = "urn:heed:openapi"
METHODS = ("get", "put", "post", "delete", "options", "head", "patch",
           "trace")


def pointer(*parts):
    """A JSON pointer (RFC 6901) to parts."""
    return "".join("/" + str(p).replace("~", "~0").replace("/", "~1")
                   for p in parts)


def at(doc, ptr):
    """The value at a JSON pointer; KeyError when there is none."""
    node = doc
    for part in ptr.split("/")[1:]:
        part = part.replace("~1", "/").replace("~0", "~")
        node = node[int(part)] if isinstance(node, list) else node[part]
    return node


def _validator_factory(doc):
    """A function from a pointer into doc to a validator of that schema,
    with doc as the root its references resolve against."""
    try:
        from referencing import Registry
        from referencing.jsonschema import DRAFT202012
    except ImportError:  # jsonschema before 4.18 (Debian bookworm: 4.10)
        resolver_of = jsonschema.RefResolver

        def make(ptr):
            resolver = resolver_of(BASE, doc, store={BASE: doc})
            return Draft202012Validator(
                {"$ref": BASE + "#" + urllib.parse.quote(ptr, safe="/~")},
                resolver=resolver)
        return make
    registry = Registry().with_resource(BASE,
                                        DRAFT202012.create_resource(doc))

    def make(ptr):
        return Draft202012Validator(
            {"$ref": BASE + "#" + urllib.parse.quote(ptr, safe="/~")},
            registry=registry)
    return make


def _refs(node, where=""):
    """(pointer of the object holding it, $ref) for every $ref in node."""
    if isinstance(node, dict):
        if isinstance(node.get("$ref"), str):
            yield where, node["$ref"]
        for k, v in node.items():
            yield from _refs(v, where + pointer(k))
    elif isinstance(node, list):
        for i, v in enumerate(node):
            yield from _refs(v, where + pointer(i))


def _object_schemas(node, where, composed=False):
    """(pointer, schema, composed) for every schema under node that lists
    properties; composed: it is a part of an object that another schema
    closes with unevaluatedProperties (an allOf branch, a $ref target)."""
    if not isinstance(node, dict):
        return
    if "properties" in node:
        yield where, node, composed
        for name, sub in node["properties"].items():
            yield from _object_schemas(sub, where + pointer("properties",
                                                            name))
    for key in ("items", "additionalProperties"):
        if isinstance(node.get(key), dict):
            yield from _object_schemas(node[key], where + pointer(key))
    for i, sub in enumerate(node.get("allOf", [])):
        yield from _object_schemas(sub, where + pointer("allOf", i),
                                   composed=True)


class OpenApi:
    def __init__(self, doc):
        self.doc = doc
        self._make = _validator_factory(doc)
        self._validators = {}
        self.templates = [(re.compile(
            "^" + re.sub(r"\\\{[^/]+?\\\}", "[^/]+", re.escape(p)) + "$"), p)
            for p in doc.get("paths", {})]

    def operations(self):
        """(path template, method, operation) for every operation."""
        for path, item in self.doc["paths"].items():
            for method in METHODS:
                if method in item:
                    yield path, method, item[method]

    def _response(self, ptr):
        """The pointer of a response object, its $ref followed (the
        document's own references only)."""
        for _ in range(8):
            ref = at(self.doc, ptr).get("$ref")
            if ref is None:
                return ptr
            assert ref.startswith("#/"), ref
            ptr = ref[1:]
        raise AssertionError(f"a loop of response $refs at {ptr}")

    def schema_pointer(self, path, method, status):
        """The pointer of the JSON schema the document gives for an answer
        to method path (a concrete path, query allowed) with status; None
        when the document describes no such path, method or status."""
        path = urllib.parse.urlsplit(path).path
        found = [t for rx, t in self.templates if rx.match(path)]
        # A literal path wins over a template (as OpenAPI says).
        found.sort(key=lambda t: t.count("{"))
        if not found:
            return None
        item = self.doc["paths"][found[0]]
        responses = item.get(method.lower(), {}).get("responses")
        if not responses:
            return None
        code = str(status)
        for key in (code, code[0] + "XX", "default"):
            if key in responses:
                ptr = self._response(pointer("paths", found[0],
                                             method.lower(), "responses",
                                             key))
                return ptr + pointer("content", "application/json",
                                     "schema")
        return None

    def validate(self, ptr, value):
        """Every error of value against the schema at ptr, as text."""
        if ptr not in self._validators:
            self._validators[ptr] = self._make(ptr)
        return [f"{'/'.join(map(str, e.absolute_path)) or '(root)'}: "
                f"{e.message}"
                for e in self._validators[ptr].iter_errors(value)]

    def problems(self):
        """What is wrong with the document itself, as text."""
        out = []
        doc = self.doc
        if not str(doc.get("openapi", "")).startswith("3.1"):
            out.append(f"openapi is {doc.get('openapi')!r}, not 3.1")
        for where, ref in _refs(doc):
            try:
                assert ref.startswith("#/"), "not inside the document"
                at(doc, ref[1:])
            except (KeyError, IndexError, ValueError, AssertionError) as e:
                out.append(f"{where}: $ref {ref} does not resolve ({e!r})")
        for path, method, op in self.operations():
            where = pointer("paths", path, method, "responses", "200")
            try:
                ptr = self._response(where)
                at(doc, ptr + pointer("content", "application/json",
                                      "schema"))
            except (KeyError, AssertionError):
                out.append(f"{method} {path}: no application/json schema "
                           "for 200")
        schemas = doc.get("components", {}).get("schemas", {})
        for name, schema in schemas.items():
            try:
                Draft202012Validator.check_schema(schema)
            except jsonschema.SchemaError as e:
                out.append(f"components/schemas/{name}: {e.message}")
        return out

    def loose(self):
        """Object schemas that say too little to mean anything: every
        object that lists its properties must say which are required and
        that no other is allowed (additionalProperties: false, or
        unevaluatedProperties: false on the allOf it is a branch of)."""
        out = []
        roots = [(pointer("components", "schemas", n), s) for n, s in
                 self.doc.get("components", {}).get("schemas", {}).items()]
        for path, method, op in self.operations():
            for code, resp in op.get("responses", {}).items():
                schema = resp.get("content", {}).get(
                    "application/json", {}).get("schema")
                if schema is not None:
                    roots.append((pointer("paths", path, method,
                                          "responses", code, "content",
                                          "application/json", "schema"),
                                  schema))
        closed = self._closed_by_users()
        for root, schema in roots:
            name = root.rsplit("/", 1)[1]
            if "allOf" in schema and \
                    schema.get("unevaluatedProperties") is not False:
                out.append(f"{root}: allOf without unevaluatedProperties: "
                           "false")
            for where, node, composed in _object_schemas(
                    schema, root, root.startswith("/components/schemas/")
                    and name in closed):
                if "required" not in node:
                    out.append(f"{where}: no required")
                if not composed and "additionalProperties" not in node \
                        and "unevaluatedProperties" not in node:
                    out.append(f"{where}: additionalProperties unspecified")
        return out

    def _closed_by_users(self):
        """Names of the component schemas that are only ever used as parts:
        each of their $refs sits beside unevaluatedProperties: false (or in
        an allOf branch of such a schema), which closes the object."""
        closing, other = set(), set()
        for where, ref in _refs(self.doc):
            if not ref.startswith("#/components/schemas/"):
                continue
            name = ref.rsplit("/", 1)[1]
            holder = at(self.doc, where)
            parent = where.rsplit("/", 2)
            owner = at(self.doc, parent[0]) if parent[1:2] == ["allOf"] \
                else holder
            if owner.get("unevaluatedProperties") is False:
                closing.add(name)
            else:
                other.add(name)
        return closing - other
