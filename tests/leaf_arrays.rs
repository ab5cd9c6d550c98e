//! Arrays whose items are leaves (numbers, strings, tuples of them) run in one loop per
//! array (`engine::decode_leaf_items`, `encode_leaf_items`), not a block per item: the
//! same values, bytes and errors (code, offset, path) as the block per item, which arrays
//! of objects still take on encode (each expectation here was checked against the block
//! per item before the loop was added; decode runs composite items as in
//! tests/composite_items.rs). Two-byte uint16 varints are read inline there (`read_varint2`),
//! with the same rules: overlong forms and values over 65535 are refused.

use shorn::codec::Error;
use shorn::program::Limits;
use shorn::schema::Schema;
use shorn::value::{decode_value, encode_value, Value};

fn compile(text: &str) -> Schema {
    Schema::compile(text, Limits::default()).unwrap_or_else(|e| panic!("{text}: {e}"))
}

fn reject(schema: &Schema, bytes: &[u8]) -> Error {
    match decode_value(schema, bytes) {
        Ok(v) => panic!("decoding {bytes:02x?} should fail, gave {v:?}"),
        Err(e) => e,
    }
}

fn assert_error(schema: &Schema, bytes: &[u8], code: &str, offset: usize, path: &str) {
    let e = reject(schema, bytes);
    assert_eq!(e.code(), code, "{e}");
    assert_eq!(e.offset(), Some(offset), "{e}");
    assert_eq!(e.path(), path, "{e}");
}

fn numbers(values: &[f64]) -> Value {
    Value::Array(values.iter().map(|&v| Value::Number(v)).collect())
}

#[test]
fn uint16_items_of_one_two_and_three_bytes_decode_and_encode_back() {
    let s = compile(r#"{"type":"array","items":{"type":"uint16"}}"#);
    let bytes = [5, 0x00, 0x7f, 0x80, 0x01, 0xff, 0x7f, 0xff, 0xff, 0x03];
    let v = decode_value(&s, &bytes).unwrap();
    assert_eq!(v, numbers(&[0.0, 127.0, 128.0, 16383.0, 65535.0]));
    assert_eq!(encode_value(&s, &v).unwrap(), bytes);
}

#[test]
fn uint16_items_refuse_overlong_and_out_of_range_varints_at_their_item() {
    let s = compile(r#"{"type":"array","items":{"type":"uint16"}}"#);
    // 0x80 0x00: zero in two bytes.
    assert_error(&s, &[2, 0x05, 0x80, 0x00], "ERR_SHORN_MALFORMED", 2, "$[1]");
    // 0x80 0x80 0x04: 65536.
    assert_error(
        &s,
        &[2, 0x05, 0x80, 0x80, 0x04],
        "ERR_SHORN_MALFORMED",
        2,
        "$[1]",
    );
    // The last item cut after its first byte.
    assert_error(&s, &[2, 0x05, 0x80], "ERR_SHORN_TRUNCATED", 2, "$[1]");
}

#[test]
fn items_of_several_leaves_name_the_item_and_the_member() {
    let s = compile(
        r#"{"type":"object","fields":[{"name":"pairs","schema":{"type":"array","items":
            {"type":"tuple","items":[{"type":"float64"},{"type":"bool"}]}}}]}"#,
    );
    let mut bytes = vec![2];
    bytes.extend_from_slice(&1.5f64.to_le_bytes());
    bytes.push(1);
    bytes.extend_from_slice(&(-2.0f64).to_le_bytes());
    bytes.push(0);
    let v = decode_value(&s, &bytes).unwrap();
    assert_eq!(
        v,
        Value::Object(vec![(
            "pairs".into(),
            Value::Array(vec![
                Value::Array(vec![Value::Number(1.5), Value::Bool(true)]),
                Value::Array(vec![Value::Number(-2.0), Value::Bool(false)]),
            ])
        )])
    );
    assert_eq!(encode_value(&s, &v).unwrap(), bytes);
    // The second item's bool is 2, at offset 1 + 9 + 8.
    bytes[18] = 2;
    assert_error(&s, &bytes, "ERR_SHORN_MALFORMED", 18, "$.pairs[1][1]");
}

#[test]
fn strings_in_an_array_of_strings_are_checked_one_by_one() {
    let s = compile(r#"{"type":"array","items":{"type":"string"}}"#);
    let v = decode_value(&s, &[3, 1, b'a', 0, 2, 0xc3, 0xa9]).unwrap();
    assert_eq!(
        v,
        Value::Array(vec![
            Value::String("a".into()),
            Value::String("".into()),
            Value::String("é".into()),
        ])
    );
    // A lone continuation byte in the third string (the offset is its byte's).
    assert_error(
        &s,
        &[3, 1, b'a', 0, 1, 0xa9],
        "ERR_SHORN_MALFORMED",
        5,
        "$[2]",
    );
}

#[test]
fn an_array_of_leaves_inside_an_array_of_objects_keeps_both_indices() {
    let s = compile(
        r#"{"type":"array","items":{"type":"object","fields":[
            {"name":"v","schema":{"type":"array","items":{"type":"int32"}}}]}}"#,
    );
    // Two objects; the second's v holds an int32 varint over 32 bits.
    let bytes = [2, 1, 2, 2, 0x02, 0xff, 0xff, 0xff, 0xff, 0x7f];
    assert_error(&s, &bytes, "ERR_SHORN_MALFORMED", 5, "$[1].v[1]");
}
