//! Hostile input, deterministically: random bytes and mutated golden vectors, decoded with
//! every golden schema. A decode may fail (with a decode error code) or succeed, and then
//! the value must encode back to exactly the same bytes (one value, one encoding). It must
//! never panic, loop or allocate without bound. The JS suite runs the same idea through
//! the addon (__test__/random.test.js).

use shorn::json::Json;
use shorn::program::Limits;
use shorn::schema::Schema;
use shorn::types::Node;
use shorn::value::{decode_value, encode_value, from_hex, Value};

/// ERR_SHORN_INVALID: a decoded value that breaks a constraint (some golden schemas have).
const DECODE_CODES: [&str; 5] = [
    "ERR_SHORN_TRUNCATED",
    "ERR_SHORN_TRAILING",
    "ERR_SHORN_MALFORMED",
    "ERR_SHORN_LIMIT",
    "ERR_SHORN_INVALID",
];

/// xorshift64*: small, seeded, good enough to spread bytes.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }

    fn byte(&mut self) -> u8 {
        // Skewed towards the bytes that steer a decoder: 0, 1, small lengths, varint
        // continuation bits, UTF-8 leads.
        const INTERESTING: [u8; 12] = [0, 1, 2, 3, 0x7f, 0x80, 0xc3, 0xe2, 0xf0, 0xff, 0x0f, 0x20];
        if self.next().is_multiple_of(2) {
            INTERESTING[self.below(INTERESTING.len())]
        } else {
            self.next() as u8
        }
    }
}

fn cases() -> Vec<(Schema, Vec<u8>)> {
    let text = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/golden.json"))
        .expect("golden.json");
    let doc = Json::parse(&text).expect("golden.json is JSON");
    let Some(Json::Array(vectors)) = doc.get("vectors") else {
        panic!("no vectors")
    };
    vectors
        .iter()
        .map(|v| {
            let schema = Schema::from_json(v.get("schema").expect("schema"), Limits::default())
                .expect("schema");
            let hex = v.get("hex").and_then(Json::as_str).expect("hex");
            (schema, from_hex(hex).expect("hex"))
        })
        .collect()
}

fn check(schema: &Schema, bytes: &[u8]) {
    match decode_value(schema, bytes) {
        Ok(value) => {
            let again = encode_value(schema, &value).unwrap_or_else(|e| {
                panic!("{bytes:02x?} decoded to {value:?}, which does not encode: {e}")
            });
            // The two exceptions to "one value, one encoding" (docs/FORMAT.md): a NaN keeps
            // its value, not its payload bits; a union encodes a value under the first
            // variant that accepts it.
            if !has_nan(&value) && !has_union(schema) {
                assert_eq!(
                    again, bytes,
                    "{bytes:02x?} decoded to {value:?}, which encodes differently"
                );
            }
            let back = decode_value(schema, &again).expect("re-decode");
            assert!(back.same(&value), "{bytes:02x?}");
        }
        Err(e) => assert!(
            DECODE_CODES.contains(&e.code()),
            "{bytes:02x?}: unexpected {}",
            e.code()
        ),
    }
}

fn has_nan(v: &Value) -> bool {
    match v {
        Value::Number(n) => n.is_nan(),
        Value::Array(items) => items.iter().any(has_nan),
        Value::Object(members) => members.iter().any(|(_, v)| has_nan(v)),
        Value::Map(entries) => entries.iter().any(|(k, v)| has_nan(k) || has_nan(v)),
        _ => false,
    }
}

fn has_union(schema: &Schema) -> bool {
    fn walk(n: &Node) -> bool {
        match n {
            Node::Union { .. } => true,
            Node::Array { items, .. } => walk(items),
            Node::Tuple { items } => items.iter().any(walk),
            Node::Object { fields, .. } => fields.iter().any(|f| walk(&f.node)),
            Node::Optional(inner) | Node::Nullable(inner) => walk(inner),
            Node::Checked { inner, .. } => walk(inner),
            Node::Record { values } => walk(values),
            Node::Map { keys, values } => walk(keys) || walk(values),
            Node::Discriminated { variants, .. } => variants.iter().any(walk),
            _ => false,
        }
    }
    walk(&schema.root) || schema.defs.iter().any(|d| walk(&d.node))
}

#[test]
fn random_bytes_decode_or_fail_cleanly() {
    let mut rng = Rng(0x5eed_1234_abcd_ef01);
    for (schema, _) in cases() {
        for _ in 0..10_000 {
            let len = rng.below(24);
            let bytes: Vec<u8> = (0..len).map(|_| rng.byte()).collect();
            check(&schema, &bytes);
        }
    }
}

#[test]
fn mutated_vectors_decode_or_fail_cleanly() {
    let mut rng = Rng(0x0dd_ba11_cafe_f00d);
    for (schema, vector) in cases() {
        for _ in 0..10_000 {
            let mut bytes = vector.clone();
            for _ in 0..1 + rng.below(3) {
                match rng.below(4) {
                    0 if !bytes.is_empty() => {
                        let at = rng.below(bytes.len());
                        bytes[at] = rng.byte();
                    }
                    1 if !bytes.is_empty() => {
                        let at = rng.below(bytes.len());
                        bytes[at] ^= 1 << rng.below(8);
                    }
                    2 => {
                        let at = rng.below(bytes.len() + 1);
                        bytes.insert(at, rng.byte());
                    }
                    _ if !bytes.is_empty() => {
                        bytes.remove(rng.below(bytes.len()));
                    }
                    _ => {}
                }
            }
            check(&schema, &bytes);
        }
    }
}

#[test]
fn absurd_counts_in_short_inputs_allocate_nothing_large() {
    // Each declares far more items than its few bytes could hold; the decoder must refuse
    // before reserving anything (a huge reservation would abort the test process).
    let schema = Schema::compile(
        r#"{"type":"array","items":{"type":"array","items":{"type":"string"}}}"#,
        Limits::default(),
    )
    .expect("schema");
    for bytes in [
        &[0xff, 0xff, 0xff, 0x3f][..],
        &[0x01, 0xff, 0xff, 0xff, 0x3f],
        &[0x80, 0x80, 0x80, 0x40, 0x00],
    ] {
        let err = decode_value(&schema, bytes).expect_err("must fail");
        assert!(DECODE_CODES.contains(&err.code()), "{}", err.code());
    }
}

/// A message's text costs the decode budget the same whether the text is split (large
/// messages, frames) or whole (small messages): one string with a char above U+00FF and
/// one of ASCII, under every limit around their cost. fuzz/decode found the two disagree
/// (2026-12-02): whole, the ASCII string was counted at two bytes a unit, as the widened
/// text holds it; split, at one.
#[test]
fn the_budget_counts_split_and_whole_text_alike() {
    use shorn::value::decode_value_text;
    let json = Json::parse(r#"{"type":"array","items":{"type":"string"}}"#).expect("JSON");
    let wide = "\"Z#oë Ł";
    let ascii = "/".repeat(24);
    let mut bytes = vec![2, wide.len() as u8];
    bytes.extend_from_slice(wide.as_bytes());
    bytes.push(ascii.len() as u8);
    bytes.extend_from_slice(ascii.as_bytes());
    let mut accepted = 0;
    for limit in 0..400 {
        let limits = Limits {
            max_decoded_bytes: limit,
            ..Limits::default()
        };
        let schema = Schema::from_json(&json, limits).expect("schema");
        let split = decode_value_text(&schema, &bytes, true).map_err(|e| e.code());
        let whole = decode_value_text(&schema, &bytes, false).map_err(|e| e.code());
        assert_eq!(format!("{split:?}"), format!("{whole:?}"), "limit {limit}");
        accepted += split.is_ok() as u32;
    }
    assert!(
        accepted > 0 && accepted < 400,
        "{accepted} limits accepted it"
    );
}
