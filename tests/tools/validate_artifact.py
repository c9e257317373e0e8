#!/usr/bin/env python3
"""Validate profile_roofline.json artifacts against docs/profile_roofline.schema.json.

Usage: python3 validate_artifact.py SCHEMA ARTIFACT [ARTIFACT...]

Checks, for each artifact:
  * the JSON Schema (draft 2020-12, jsonschema's Draft202012Validator), every error reported;
  * key ORDER (docs/method.md §16.1 "key order as below"): in every object the schema describes with
    `properties` (the top level, each entry, peaks, tool, byte_candidates, degraded), the keys
    present must appear in the order `properties` lists them;
  * strict JSON: no duplicate keys, no NaN/Infinity literals (the artifact writes null).

Each problem is printed as `ARTIFACT: /json/pointer: message` (`/` is the document root).
Exit codes: 0 every artifact valid; 1 at least one invalid; 2 the validator could not do its
job (jsonschema not importable, a file cannot be read, the schema itself is broken, bad usage).
"""
import json
import sys

EXIT_OK, EXIT_INVALID, EXIT_TOOL = 0, 1, 2
MAX_MESSAGE = 300


class DuplicateKey(ValueError):
    pass


def _pairs_hook(pairs):
    out = {}
    for key, value in pairs:
        if key in out:
            raise DuplicateKey(f"duplicate key {key!r}")
        out[key] = value
    return out


def _reject_constant(name):
    raise ValueError(f"non-finite number literal {name} (the artifact must write null)")


def load_json(path):
    """Parsed JSON with object key order preserved; raises OSError / ValueError."""
    with open(path, encoding="utf-8") as f:
        text = f.read()
    return json.loads(text, object_pairs_hook=_pairs_hook, parse_constant=_reject_constant)


def pointer(parts):
    parts = list(parts)
    if not parts:
        return "/"
    return "".join("/" + str(p).replace("~", "~0").replace("/", "~1") for p in parts)


def short(message, instance=None):
    """One line, at most MAX_MESSAGE characters; a long object/array instance is summarized."""
    if isinstance(instance, (dict, list)):
        shown = repr(instance)
        if len(shown) > 60 and message.startswith(shown):
            kind = "object" if isinstance(instance, dict) else f"array of {len(instance)} items"
            message = f"({kind})" + message[len(shown):]
    message = " ".join(message.split())
    return message if len(message) <= MAX_MESSAGE else message[: MAX_MESSAGE - 1] + "…"


class SchemaWalker:
    """Follows local `$ref`s so schema paths and instance structure can be mapped to nodes."""

    def __init__(self, schema):
        self.root = schema

    def resolve(self, node):
        seen = 0
        while isinstance(node, dict) and "$ref" in node and seen < 32:
            ref = node["$ref"]
            if not ref.startswith("#"):
                break
            target = self.root
            for raw in ref[1:].lstrip("/").split("/") if ref != "#" else []:
                key = raw.replace("~1", "/").replace("~0", "~")
                if not isinstance(target, dict) or key not in target:
                    return node
                target = target[key]
            node = target
            seen += 1
        return node

    def rule_description(self, schema_path):
        """The description of the innermost conditional rule (an allOf item) an error came from."""
        node, found = self.root, None
        for key in schema_path:
            step = None
            if isinstance(node, dict):
                if key in node:
                    step = node[key]
                else:
                    resolved = self.resolve(node)
                    if isinstance(resolved, dict) and key in resolved:
                        step = resolved[key]
            elif isinstance(node, list) and isinstance(key, int) and 0 <= key < len(node):
                step = node[key]
            if step is None:
                break
            node = step
            if isinstance(node, dict) and "description" in node and ("if" in node or key in ("then", "else")):
                found = node["description"]
        return found

    def order_errors(self, instance, schema, path=()):
        """Key-order mismatches: keys present must follow the order of `properties`."""
        errors = []
        schema = self.resolve(schema)
        if not isinstance(schema, dict):
            return errors
        if isinstance(instance, dict):
            props = schema.get("properties")
            if isinstance(props, dict):
                order = list(props)
                present = [k for k in instance if k in props]
                expected = sorted(present, key=order.index)
                if present != expected:
                    first = next(i for i, (a, b) in enumerate(zip(present, expected)) if a != b)
                    errors.append((path, f"key order: '{present[first]}' where '{expected[first]}' is expected "
                                         f"(SPEC §10 key order; expected {expected}, got {present})"))
                for key, value in instance.items():
                    if key in props:
                        errors += self.order_errors(value, props[key], path + (key,))
        elif isinstance(instance, list):
            items = schema.get("items")
            if isinstance(items, dict):
                for i, value in enumerate(instance):
                    errors += self.order_errors(value, items, path + (i,))
        return errors


def validate(validator, walker, instance):
    """All problems with one parsed artifact as (pointer, message), sorted by position."""
    problems = []
    for error in validator.iter_errors(instance):
        message = short(error.message, error.instance)
        if error.validator == "uniqueItems" and isinstance(error.instance, list):
            seen, dups = [], []
            for item in error.instance:
                if item in seen and item not in dups:
                    dups.append(item)
                seen.append(item)
            message += ": " + ", ".join(short(json.dumps(d, ensure_ascii=False)) for d in dups)
        rule = walker.rule_description(error.schema_path)
        if rule:
            message += f" [rule: {rule}]"
        problems.append((list(error.absolute_path), message))
    problems += [(list(p), m) for p, m in walker.order_errors(instance, walker.root)]
    problems.sort(key=lambda pm: [(0, x) if isinstance(x, int) else (1, str(x)) for x in pm[0]])
    return [(pointer(p), m) for p, m in problems]


def in_process(schema_path):
    """For another test script that loaded this file as a module: a function that validates one
    artifact file, giving its problems as (pointer, message); a file that is not strict JSON
    raises ValueError."""
    from jsonschema import Draft202012Validator
    schema = load_json(schema_path)
    validator, walker = Draft202012Validator(schema), SchemaWalker(schema)
    return lambda artifact: validate(validator, walker, load_json(artifact))


def main(argv):
    if len(argv) < 3 or argv[1] in ("-h", "--help"):
        print(__doc__.strip(), file=sys.stderr)
        return EXIT_TOOL
    try:
        from jsonschema import Draft202012Validator
        from jsonschema.exceptions import SchemaError
    except ImportError as e:
        print(f"validate_artifact: cannot import jsonschema ({e}): install python3-jsonschema "
              "(apt-get install python3-jsonschema)", file=sys.stderr)
        return EXIT_TOOL

    schema_path, artifacts = argv[1], argv[2:]
    try:
        schema = load_json(schema_path)
        Draft202012Validator.check_schema(schema)
    except (OSError, ValueError) as e:
        print(f"{schema_path}: cannot read the schema: {e}", file=sys.stderr)
        return EXIT_TOOL
    except SchemaError as e:
        print(f"{schema_path}: not a valid draft 2020-12 schema: {short(e.message)}", file=sys.stderr)
        return EXIT_TOOL
    validator = Draft202012Validator(schema)
    walker = SchemaWalker(schema)

    status = EXIT_OK
    for artifact in artifacts:
        try:
            instance = load_json(artifact)
        except OSError as e:
            print(f"{artifact}: cannot read: {e.strerror or e}", file=sys.stderr)
            status = EXIT_TOOL
            continue
        except ValueError as e:  # JSONDecodeError, duplicate keys, NaN/Infinity
            print(f"{artifact}: /: not valid JSON: {e}")
            status = max(status, EXIT_INVALID)
            continue
        problems = validate(validator, walker, instance)
        for where, message in problems:
            print(f"{artifact}: {where}: {message}")
        if problems:
            status = max(status, EXIT_INVALID)
    if status == EXIT_OK:
        print(f"ok: {len(artifacts)} artifact{'s' if len(artifacts) != 1 else ''} valid", file=sys.stderr)
    return status


if __name__ == "__main__":
    sys.exit(main(sys.argv))
