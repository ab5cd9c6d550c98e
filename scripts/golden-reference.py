# An encoder written from docs/FORMAT.md alone, apart from shorn's code: it computed the
# golden vectors of the types added in format version 1's second round (int, int64,
# uint64, date, literal, null, tuple, record, map, union, discriminatedUnion, recursive,
# json, typed arrays), so the vectors check the implementation instead of repeating it.
# Running it again adds any vector or reject listed here that tests/golden.json lacks.
#   python3 scripts/golden-reference.py
import json, math, os, struct
GOLDEN = os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', 'tests', 'golden.json')
def varint(n):
    assert n >= 0
    out = bytearray()
    while n >= 0x80:
        out.append((n & 0x7f) | 0x80); n >>= 7
    out.append(n); return bytes(out)
def zz(n): return (n << 1) if n >= 0 else ((-n) << 1) - 1
def s(x):
    b = x.encode('utf-8'); return varint(len(b)) + b
def f64(x): return struct.pack('<d', x)
def f32(x): return struct.pack('<f', x)
MAXSAFE = 2**53 - 1
def jsonv(v):
    if v is None: return b'\x00'
    if v is False: return b'\x01'
    if v is True: return b'\x02'
    if isinstance(v, (int, float)) and not isinstance(v, bool):
        if isinstance(v, float) and (math.copysign(1, v) < 0 and v == 0): return b'\x03' + f64(v)
        if float(v).is_integer() and abs(v) <= MAXSAFE:
            n = int(v)
            return bytes([0x40 | n]) if 0 <= n <= 63 else b'\x04' + varint(zz(n))
        return b'\x03' + f64(v)
    if isinstance(v, str):
        b = v.encode(); return (bytes([0x80 | len(b)]) if len(b) < 64 else b'\x05' + varint(len(b))) + b
    if isinstance(v, list):
        h = bytes([0xc0 | len(v)]) if len(v) < 32 else b'\x06' + varint(len(v))
        return h + b''.join(jsonv(x) for x in v)
    if isinstance(v, dict):
        h = bytes([0xe0 | len(v)]) if len(v) < 32 else b'\x07' + varint(len(v))
        return h + b''.join(s(k) + jsonv(x) for k, x in v.items())
    raise ValueError(v)

T = lambda t, **k: {"type": t, **k}
def obj(*fields): return {"type": "object", "fields": [{"name": n, "schema": d} for n, d in fields], "strict": False}
V = []
def vec(name, schema, value, hexb, decoded=None):
    e = {"name": name, "schema": schema, "value": value, "hex": hexb.hex()}
    if decoded is not None: e["decoded"] = decoded
    V.append(e)

vec("int 0", T("int"), 0, varint(0))
vec("int -1 is zigzag 1", T("int"), -1, varint(1))
vec("int 2^31 (beyond int32)", T("int"), 2**31, varint(zz(2**31)))
vec("int MAX_SAFE_INTEGER", T("int"), MAXSAFE, varint(zz(MAXSAFE)))
vec("int MIN_SAFE_INTEGER", T("int"), -MAXSAFE, varint(zz(-MAXSAFE)))
vec("int64 -1", T("int64"), {"$bigint": "-1"}, varint(1))
vec("int64 max", T("int64"), {"$bigint": str(2**63-1)}, varint(zz(2**63-1)))
vec("int64 min", T("int64"), {"$bigint": str(-2**63)}, varint(zz(-2**63)))
vec("uint64 a twitter id", T("uint64"), {"$bigint": "505874924095815700"}, varint(505874924095815700))
vec("uint64 max", T("uint64"), {"$bigint": str(2**64-1)}, varint(2**64-1))
vec("date epoch", T("date"), {"$date": 0}, varint(0))
vec("date nestedEvent ts", T("date"), {"$date": 1718031234567}, varint(zz(1718031234567)))
vec("date before the epoch", T("date"), {"$date": -1}, varint(1))
vec("date latest valid", T("date"), {"$date": 8.64e15}, varint(zz(8640000000000000)))
vec("literal string takes no bytes", T("literal", value="click"), "click", b"")
vec("null takes no bytes", T("null"), None, b"")
vec("object with a literal tag", obj(("kind", T("literal", value="v1")), ("n", T("uint8"))), {"kind": "v1", "n": 5}, b"\x05")
vec("tuple of float64, string, bool", T("tuple", items=[T("float64"), T("string"), T("bool")]), [1.5, "x", True], f64(1.5) + s("x") + b"\x01")
vec("tuple empty", T("tuple", items=[]), [], b"")
vec("record empty", T("record", values=T("uint8")), {}, varint(0))
vec("record with index keys first", T("record", values=T("uint8")), {"2": 1, "10": 2, "b": 3, "a": 4}, varint(4) + s("2") + b"\x01" + s("10") + b"\x02" + s("b") + b"\x03" + s("a") + b"\x04")
vec("record with a __proto__ key", T("record", values=T("bool")), {"__proto__": True}, varint(1) + s("__proto__") + b"\x01")
vec("map of string to uint32", T("map", keys=T("string"), values=T("uint32")), {"$map": [["a", 1], ["b", 300]]}, varint(2) + s("a") + varint(1) + s("b") + varint(300))
vec("map of int to string", T("map", keys=T("int"), values=T("string")), {"$map": [[-3, "x"], [64, ""]]}, varint(2) + varint(zz(-3)) + s("x") + varint(zz(64)) + s(""))
U = T("union", variants=[T("string"), T("uint32"), obj(("a", T("bool")))])
vec("union first variant", U, "hi", varint(0) + s("hi"))
vec("union second variant", U, 300, varint(1) + varint(300))
vec("union third variant", U, {"a": True}, varint(2) + b"\x01")
D = T("discriminatedUnion", key="type", variants=[obj(("type", T("literal", value="push")), ("size", T("uint32"))), obj(("type", T("literal", value="watch")), ("action", T("enum", values=["started"])))])
vec("discriminatedUnion push", D, {"type": "push", "size": 3}, varint(0) + varint(3))
vec("discriminatedUnion watch", D, {"type": "watch", "action": "started"}, varint(1) + varint(0))
R = T("recursive", name="Tree", schema=obj(("v", T("uint8")), ("kids", T("array", items=T("ref", name="Tree")))))
vec("recursive tree", R, {"v": 1, "kids": [{"v": 2, "kids": []}, {"v": 3, "kids": [{"v": 4, "kids": []}]}]},
    b"\x01" + varint(2) + b"\x02" + varint(0) + b"\x03" + varint(1) + b"\x04" + varint(0))
J = T("json")
for name, v in [("null", None), ("false", False), ("true", True), ("0", 0), ("63", 63), ("64", 64), ("-1", -1), ("1.5", 1.5),
                ("2^53", 2**53), ("a short string", "abc"), ("a 64-byte string", "x" * 64), ("an empty array", []),
                ("nested arrays and objects", [1, "a", [None, {"b": []}]]), ("an object, keys in JS order", {"1": 1, "z": 2, "a": 3}),
                ("an array of 32 items", list(range(32))), ("an object of 32 members", {f"k{i}": i for i in range(32)})]:
    val = v if not (isinstance(v, int) and not isinstance(v, bool) and v == 2**53) else 9007199254740992
    vec(f"json {name}", J, val, jsonv(val))
vec("json -0", J, {"$number": "-0"}, b"\x03" + f64(-0.0))
for t, fmt, vals, name in [("float64Array", "<d", [1.5, -2.0], "$float64Array"), ("float32Array", "<f", [1.5], "$float32Array"),
                           ("int32Array", "<i", [-1, 7], "$int32Array"), ("uint32Array", "<I", [4278190080], "$uint32Array"),
                           ("int16Array", "<h", [-2], "$int16Array"), ("uint16Array", "<H", [65535, 1], "$uint16Array"),
                           ("int8Array", "<b", [-128, 127], "$int8Array")]:
    vec(f"{t}", T(t), {name: vals}, varint(len(vals)) + b"".join(struct.pack(fmt, x) for x in vals))
D2 = obj(("id", T("uint8")), ("name", T("default", of=T("string"), value="anon")), ("n", T("default", of=T("int64"), value=7)))
vec("object with default fields, missing", D2, {"id": 1}, b"\x01" + s("anon") + varint(zz(7)), decoded={"id": 1, "name": "anon", "n": {"$bigint": "7"}})
vec("object with default fields, present", D2, {"id": 1, "name": "x", "n": {"$bigint": "-2"}}, b"\x01" + s("x") + varint(zz(-2)))
vec("float64Array empty", T("float64Array"), {"$float64Array": []}, varint(0))

# Constraints (docs/FORMAT.md, "Constraints"): a constrained value's bytes are its type's.
P = obj(("id", T("uint32")), ("name", T("string", minLength=1, maxLength=100)), ("age", T("uint8", min=0, max=150)),
        ("email", T("string", format="email")), ("active", T("bool")))
vec("constraints: personValidated", P, {"id": 1234, "name": "Ada", "age": 36, "email": "ada@example.com", "active": True},
    varint(1234) + s("Ada") + bytes([36]) + s("ada@example.com") + b"\x01")
vec("constraints: a name of 100 code points, 400 bytes", obj(("name", T("string", maxLength=100))), {"name": "\U0001F680" * 100}, s("\U0001F680" * 100))
vec("constraints: int32 bounds and divisor", T("int32", min=-10, max=10, multipleOf=5), -10, varint(zz(-10)))
vec("constraints: uint64 bounds as decimal strings", T("uint64", min="18446744073709551610", max="18446744073709551615"), {"$bigint": str(2**64 - 1)}, varint(2**64 - 1))
vec("constraints: float32 bounds", T("float32", min=-1, max=1), 0.5, f32(0.5))
vec("constraints: bytes length", T("bytes", minLength=2, maxLength=2), {"$bytes": "0102"}, varint(2) + b"\x01\x02")
vec("constraints: array items", T("array", items=T("uint8"), minItems=1, maxItems=3), [1, 2, 3], varint(3) + b"\x01\x02\x03")
vec("constraints: map entries", T("map", keys=T("string", pattern="^[a-z]+$"), values=T("bool"), maxEntries=1), {"$map": [["ok", True]]}, varint(1) + s("ok") + b"\x01")
vec("constraints: record entries", T("record", values=T("string", format="uuid"), maxEntries=2), {"a": "123e4567-e89b-12d3-a456-426614174000"},
    varint(1) + s("a") + s("123e4567-e89b-12d3-a456-426614174000"))

RJ = []
def rej(name, schema, hexb, code, offset, path, limits=None, layer=None):
    e = {"name": name, "schema": schema, "hex": hexb.hex(), "code": code, "offset": offset, "path": path}
    if limits: e["limits"] = limits
    if layer: e["layer"] = layer
    RJ.append(e)
M = "ERR_SHORN_MALFORMED"
rej("int beyond the safe integers", T("int"), varint(zz(2**53)), M, 0, "$")
rej("int64 varint over 64 bits", T("int64"), bytes([0xff] * 9 + [0x02]), M, 0, "$")
rej("uint64 overlong varint", T("uint64"), bytes([0x80] * 9 + [0x00]), M, 0, "$")
rej("date beyond 8.64e15 ms", T("date"), varint(zz(8640000000000001)), M, 0, "$")
rej("union variant index out of range", U, varint(3), M, 0, "$")
rej("discriminatedUnion variant index out of range", obj(("e", D)), varint(2), M, 0, "$.e")
rej("record key repeated", T("record", values=T("uint8")), varint(2) + s("a") + b"\x01" + s("a") + b"\x02", M, 4, "$")
rej("record index keys out of order", T("record", values=T("uint8")), varint(2) + s("2") + b"\x01" + s("1") + b"\x02", M, 4, "$")
rej("record index key after a name", T("record", values=T("uint8")), varint(2) + s("a") + b"\x01" + s("1") + b"\x02", M, 4, "$")
rej("record value out of range names its key", T("record", values=T("bool")), varint(1) + s("ok") + b"\x02", M, 4, "$.ok")
rej("map key repeated", T("map", keys=T("string"), values=T("uint8")), varint(2) + s("a") + b"\x01" + s("a") + b"\x02", M, 4, "$[1][0]")
rej("map value out of range", T("map", keys=T("string"), values=T("bool")), varint(1) + s("a") + b"\x07", M, 3, "$[0][1]")
rej("map float key -0", T("map", keys=T("float64"), values=T("uint8")), varint(1) + f64(-0.0) + b"\x01", M, 1, "$[0][0]")
rej("map count needs more bytes than remain", T("map", keys=T("uint8"), values=T("uint8")), varint(3) + b"\x01\x01", "ERR_SHORN_TRUNCATED", 1, "$")
rej("json reserved type byte", J, b"\x08", M, 0, "$")
rej("json integer in the float form", J, b"\x03" + f64(2.0), M, 0, "$")
rej("json NaN", J, b"\x03" + f64(float('nan')), M, 0, "$")
rej("json small integer in the long form", J, b"\x04" + varint(zz(5)), M, 0, "$")
rej("json short string in the long form", J, b"\x05" + varint(3) + b"abc", M, 0, "$")
rej("json short array in the long form", J, b"\x06" + varint(1) + b"\x40", M, 0, "$")
rej("json object key repeated", J, bytes([0xe2]) + s("a") + b"\x40" + s("a") + b"\x41", M, 4, "$")
rej("json nested value", J, bytes([0xc2, 0x40, 0x08]), M, 2, "$[1]")
rej("json object value names its key", J, bytes([0xe1]) + s("ok") + b"\x08", M, 4, "$.ok")
rej("json nested past maxDepth", J, bytes([0xc1] * 3 + [0xc0]), "ERR_SHORN_LIMIT", 2, "$[0][0]", {"maxDepth": 2})
rej("recursion past maxDepth", R, b"\x01\x01\x02\x01\x03\x00", "ERR_SHORN_LIMIT", 4, "$.kids[0].kids[0]", {"maxDepth": 2})
rej("typed array count needs more bytes than remain", T("float64Array"), varint(2) + f64(1.0), "ERR_SHORN_TRUNCATED", 1, "$")
rej("typed array count over maxArrayLength", T("int16Array"), varint(3) + b"\x00" * 6, "ERR_SHORN_LIMIT", 0, "$", {"maxArrayLength": 2})
I = "ERR_SHORN_INVALID"
rej("constraints: age over its max", P, varint(1) + s("Ada") + bytes([151]) + s("a@b.co") + b"\x01", I, 5, "$.age")
rej("constraints: an empty name", P, varint(1) + s("") + bytes([1]) + s("a@b.co") + b"\x01", I, 1, "$.name")
rej("constraints: a name of 101 code points", P, varint(1) + s("\u00e9" * 101) + bytes([1]) + s("a@b.co") + b"\x01", I, 1, "$.name")
rej("constraints: int32 below its min", T("int32", min=-10, max=10, multipleOf=5), varint(zz(-15)), I, 0, "$")
rej("constraints: int32 not a multiple", T("int32", min=-10, max=10, multipleOf=5), varint(zz(3)), I, 0, "$")
rej("constraints: uint64 below its min", T("uint64", min="18446744073709551610"), varint(5), I, 0, "$")
rej("constraints: float32 NaN outside bounds", T("float32", min=-1, max=1), f32(float("nan")), I, 0, "$")
rej("constraints: bytes too long", obj(("b", T("bytes", maxLength=2))), varint(3) + b"abc", I, 0, "$.b")
rej("constraints: array count below minItems, before any item", T("array", items=T("uint8"), minItems=1), varint(0), I, 0, "$")
rej("constraints: array count over maxItems, before the items are there", T("array", items=T("uint8"), maxItems=3), varint(4), I, 0, "$")
rej("constraints: record over maxEntries", obj(("r", T("record", values=T("bool"), maxEntries=1))), varint(2) + s("a") + b"\x01" + s("b") + b"\x01", I, 0, "$.r")
rej("constraints: map over maxEntries", T("map", keys=T("uint8"), values=T("bool"), maxEntries=0), varint(1) + b"\x01\x01", I, 0, "$")
# Formats the Rust core checks (email, uuid, ipv4, datetime: docs/FORMAT.md, "Formats").
rej("constraints: an email that is not one", P, varint(1) + s("Ada") + bytes([1]) + s("nope") + b"\x01", I, 6, "$.email")
rej("constraints: a record value that is no uuid", T("record", values=T("string", format="uuid")), varint(1) + s("a") + s("123"), I, 3, "$.a")
rej("constraints: an ipv4 with a leading zero", T("array", items=T("string", format="ipv4")), varint(2) + s("10.0.0.1") + s("10.0.0.01"), I, 10, "$[1]")
rej("constraints: a datetime without an offset", obj(("at", T("string", format="datetime"))), s("2024-06-10T14:53:54"), I, 0, "$.at")
rej("constraints: 29 February of 1900", obj(("at", T("string", format="datetime"))), s("1900-02-29T00:00:00Z"), I, 0, "$.at")
# Refused by the JS layer (patterns, and the url and ipv6 formats, are JS's to check);
# the Rust core alone decodes these bytes.
rej("constraints: a map key off its pattern", T("map", keys=T("string", pattern="^[a-z]+$"), values=T("bool")), varint(2) + s("ok") + b"\x01" + s("No") + b"\x00", I, 5, "$[1][0]", layer="js")
rej("constraints: a url that is none", obj(("u", T("string", format="url"))), s("example.com"), I, 0, "$.u", layer="js")
rej("constraints: an ipv6 with a zone", T("string", format="ipv6"), s("fe80::1%eth0"), I, 0, "$", layer="js")

g = json.load(open(GOLDEN))
names = {v['name'] for v in g['vectors']} | {r['name'] for r in g['rejects']}
g['vectors'] += [v for v in V if v['name'] not in names]
g['rejects'] += [r for r in RJ if r['name'] not in names]
g['about'] = ("Golden vectors for docs/FORMAT.md, read by tests/golden.rs (cargo test) and __test__/golden.test.js (node --test). "
  "'vectors': encoding 'value' with 'schema' gives exactly 'hex', and decoding 'hex' gives 'value' back (or 'decoded' where it differs). "
  "'rejects': decoding 'hex' fails with 'code' at byte 'offset' and 'path'; 'limits' are compile options. Values: JSON, plus "
  "{\"$bytes\": hex}, {\"$number\": \"NaN\" | \"Infinity\" | \"-Infinity\" | \"-0\"}, {\"$bigint\": \"digits\"}, {\"$date\": ms}, "
  "{\"$map\": [[key, value], ...]} and {\"$float64Array\": [numbers]} (and $float32Array, $int32Array, $uint32Array, $int16Array, "
  "$uint16Array, $int8Array); an absent optional field is a missing key. A reject with \"layer\": \"js\" breaks a constraint only the JS "
  "layer checks (a string's pattern, or its url or ipv6 format): the Rust core alone decodes it.")
json.dump(g, open(GOLDEN, 'w'), indent=1, ensure_ascii=False)
open(GOLDEN, 'a').write('\n')
print(len(g['vectors']), len(g['rejects']))
