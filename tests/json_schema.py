#!/usr/bin/env python3
"""json_schema.py SCHEMA FILE...: every line of each FILE (JSON Lines) is
valid against SCHEMA, a JSON Schema (draft 2020-12) that uses only the
keywords below. A small validator of its own, so the tests need no package
beyond python3; a keyword outside the subset is an error, so the schema
cannot say more than what is checked. When the python3 jsonschema module
is there, it checks the same lines too. Exit 0, or 1 with the first
problems (file:line: where: what)."""
import json
import re
import sys

KNOWN = {"$schema", "$id", "$defs", "$ref", "title", "description", "type", "enum",
         "const", "minimum", "maximum", "required", "additionalProperties",
         "properties", "items", "minItems", "maxItems", "oneOf", "pattern"}
TYPES = {"object": dict, "array": list, "string": str, "boolean": bool, "null": type(None)}


def is_type(x, t):
    if t == "number":
        return isinstance(x, (int, float)) and not isinstance(x, bool)
    if t == "integer":
        return isinstance(x, int) and not isinstance(x, bool)
    return isinstance(x, TYPES[t])


class Validator:
    def __init__(self, schema):
        self.root = schema
        self.check_schema(schema, "#")

    def check_schema(self, s, where):
        if not isinstance(s, dict):
            raise SystemExit("schema %s: not an object" % where)
        for k, v in s.items():
            if k not in KNOWN:
                raise SystemExit("schema %s: keyword %r is not in the checked subset" % (where, k))
            if k in ("$defs", "properties"):
                for n, sub in v.items():
                    self.check_schema(sub, where + "/" + k + "/" + n)
            elif k == "items":
                self.check_schema(v, where + "/items")
            elif k == "oneOf":
                for i, sub in enumerate(v):
                    self.check_schema(sub, "%s/oneOf/%d" % (where, i))
            elif k == "additionalProperties" and v is not False:
                raise SystemExit("schema %s: additionalProperties must be false" % where)
            elif k == "pattern":
                try:
                    re.compile(v)
                except re.error as e:
                    raise SystemExit("schema %s: pattern %r: %s" % (where, v, e))

    def resolve(self, ref):
        if not ref.startswith("#/"):
            raise SystemExit("schema: only local references: %s" % ref)
        s = self.root
        for part in ref[2:].split("/"):
            s = s[part]
        return s

    def errors(self, x, s, path):
        if "$ref" in s:
            yield from self.errors(x, self.resolve(s["$ref"]), path)
        if "type" in s:
            ts = s["type"] if isinstance(s["type"], list) else [s["type"]]
            if not any(is_type(x, t) for t in ts):
                yield path, "%r is not of type %s" % (x, "/".join(ts))
                return
        if "const" in s and not (x == s["const"] and type(x) is type(s["const"])):
            yield path, "%r is not %r" % (x, s["const"])
        if "enum" in s and not any(x == e and type(x) is type(e) for e in s["enum"]):
            yield path, "%r is not one of %r" % (x, s["enum"])
        # pattern: a regular expression a string must match somewhere (as
        # JSON Schema says: not anchored unless it has ^ and $); the schema's
        # use only what Python's re and ECMA 262 read the same way.
        if isinstance(x, str) and "pattern" in s and not re.search(s["pattern"], x):
            yield path, "%r does not match %r" % (x, s["pattern"])
        if is_type(x, "number"):
            if "minimum" in s and x < s["minimum"]:
                yield path, "%r is below the minimum %r" % (x, s["minimum"])
            if "maximum" in s and x > s["maximum"]:
                yield path, "%r is above the maximum %r" % (x, s["maximum"])
        if isinstance(x, dict):
            for k in s.get("required", []):
                if k not in x:
                    yield path, "member %r is missing" % k
            props = s.get("properties", {})
            for k, v in x.items():
                if k in props:
                    yield from self.errors(v, props[k], path + "." + k)
                elif s.get("additionalProperties", True) is False:
                    yield path, "member %r is not in the schema" % k
        if isinstance(x, list):
            if "minItems" in s and len(x) < s["minItems"]:
                yield path, "fewer than %d items" % s["minItems"]
            if "maxItems" in s and len(x) > s["maxItems"]:
                yield path, "more than %d items" % s["maxItems"]
            if "items" in s:
                for i, v in enumerate(x):
                    yield from self.errors(v, s["items"], "%s[%d]" % (path, i))
        if "oneOf" in s:
            n = sum(1 for sub in s["oneOf"] if not any(True for _ in self.errors(x, sub, path)))
            if n != 1:
                yield path, "%r matches %d of the oneOf schemas, not 1" % (x, n)


def bad_constant(c):
    raise ValueError("%s is not JSON" % c)


def main():
    if len(sys.argv) < 3:
        raise SystemExit("usage: json_schema.py SCHEMA FILE...")
    schema = json.load(open(sys.argv[1]))
    v = Validator(schema)
    try:
        import jsonschema
        other = jsonschema.Draft202012Validator(schema)
    except ImportError:
        other = None
    problems, lines = [], 0
    for name in sys.argv[2:]:
        with open(name, encoding="utf-8") as f:
            for n, line in enumerate(f, 1):
                lines += 1
                try:
                    x = json.loads(line, parse_constant=bad_constant)
                except ValueError as e:
                    problems.append("%s:%d: not JSON: %s" % (name, n, e))
                    continue
                for where, what in v.errors(x, schema, "$"):
                    problems.append("%s:%d: %s: %s" % (name, n, where, what))
                if other is not None:
                    for e in other.iter_errors(x):
                        problems.append("%s:%d: (jsonschema) %s: %s" %
                                        (name, n, "/".join(map(str, e.absolute_path)), e.message))
    for p in problems[:10]:
        print(p)
    if problems:
        print("%d problems in %d lines" % (len(problems), lines))
        return 1
    print("%d lines valid%s" % (lines, " (and by jsonschema)" if other else ""))
    return 0 if lines > 0 else 1


if __name__ == "__main__":
    sys.exit(main())
