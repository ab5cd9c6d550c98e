//! Constraints in the pure core (docs/FORMAT.md, "Constraints"): what compile refuses, and
//! what decode refuses (ERR_SHORN_INVALID with the offset where the value starts, the
//! path and the constraint), including the locating decode that gives the place of a
//! string only the JS layer can judge. The JS tests check the same from Node
//! (__test__/constraints.test.js), and golden vectors pin the bytes (tests/golden.json).

use shorn::codec::Error;
use shorn::engine::locate;
use shorn::program::Limits;
use shorn::schema::Schema;
use shorn::value::{decode_value, encode_value, Value};

fn compile(text: &str) -> Schema {
    Schema::compile(text, Limits::default()).unwrap_or_else(|e| panic!("{text}: {e}"))
}

fn schema_error(text: &str) -> String {
    match Schema::compile(text, Limits::default()) {
        Ok(_) => panic!("{text} should not compile"),
        Err(e) => {
            assert_eq!(e.code(), "ERR_SHORN_SCHEMA", "{e}");
            e.to_string()
        }
    }
}

fn reject(schema: &Schema, bytes: &[u8]) -> Error {
    match decode_value(schema, bytes) {
        Ok(v) => panic!("decoding {bytes:02x?} should fail, gave {v:?}"),
        Err(e) => e,
    }
}

fn assert_invalid(schema: &Schema, bytes: &[u8], offset: usize, path: &str, message: &str) {
    let e = reject(schema, bytes);
    assert_eq!(e.code(), "ERR_SHORN_INVALID", "{e}");
    assert_eq!(e.offset(), Some(offset), "{e}");
    assert_eq!(e.path(), path, "{e}");
    assert_eq!(e.to_string(), message);
}

fn field(name: &str, schema: &str) -> String {
    format!(r#"{{"type":"object","fields":[{{"name":"{name}","schema":{schema}}}]}}"#)
}

#[test]
fn integer_bounds_and_divisors_are_checked_on_decode_where_the_value_starts() {
    let s = compile(&field("age", r#"{"type":"uint8","min":1,"max":150}"#));
    assert!(decode_value(&s, &[1]).is_ok());
    assert!(decode_value(&s, &[150]).is_ok());
    assert_invalid(
        &s,
        &[151],
        0,
        "$.age",
        "invalid value at offset 0 ($.age): expected uint8 of at most 150, found 151",
    );
    assert_invalid(
        &s,
        &[0],
        0,
        "$.age",
        "invalid value at offset 0 ($.age): expected uint8 of at least 1, found 0",
    );
    let s = compile(r#"{"type":"array","items":{"type":"int32","multipleOf":5,"min":-10}}"#);
    // [-10, 5, 7]: zigzag varints 19, 10, 14.
    assert_invalid(
        &s,
        &[3, 19, 10, 14],
        3,
        "$[2]",
        "invalid value at offset 3 ($[2]): expected int32 that is a multiple of 5, found 7",
    );
    assert_invalid(
        &s,
        &[1, 21],
        1,
        "$[0]",
        "invalid value at offset 1 ($[0]): expected int32 of at least -10, found -11",
    );
    let s = compile(r#"{"type":"int","max":9007199254740991,"min":-3}"#);
    assert!(decode_value(&s, &[5]).is_ok());
    assert_eq!(
        reject(&s, &[7]).to_string(),
        "invalid value at offset 0 ($): expected int of at least -3, found -4"
    );
}

#[test]
fn bigint_bounds_are_decimal_strings_and_exact() {
    let s = compile(r#"{"type":"uint64","min":"18446744073709551610","multipleOf":"3"}"#);
    let max = encode_value(&s, &Value::BigInt(18446744073709551615)).unwrap();
    assert!(decode_value(&s, &max).is_ok());
    let below = encode_value(&s, &Value::BigInt(18446744073709551609)).unwrap();
    assert_eq!(
        reject(&s, &below).to_string(),
        "invalid value at offset 0 ($): expected uint64 of at least 18446744073709551610, found 18446744073709551609"
    );
    let odd = encode_value(&s, &Value::BigInt(18446744073709551614)).unwrap();
    assert!(reject(&s, &odd)
        .to_string()
        .ends_with("expected uint64 that is a multiple of 3, found 18446744073709551614"));
    let s = compile(r#"{"type":"int64","min":"-9223372036854775808","max":"-1"}"#);
    assert!(decode_value(&s, &[1]).is_ok());
    assert_eq!(
        reject(&s, &[0]).to_string(),
        "invalid value at offset 0 ($): expected int64 of at most -1, found 0"
    );
}

#[test]
fn float_bounds_refuse_nan_and_compare_a_float32_as_decoded() {
    let s = compile(r#"{"type":"float64","min":0,"max":1}"#);
    assert!(decode_value(&s, &1.0f64.to_le_bytes()).is_ok());
    assert_eq!(
        reject(&s, &f64::NAN.to_le_bytes()).to_string(),
        "invalid value at offset 0 ($): expected float64 of at least 0, found NaN"
    );
    assert_eq!(
        reject(&s, &1.5f64.to_le_bytes()).to_string(),
        "invalid value at offset 0 ($): expected float64 of at most 1, found 1.5"
    );
    let s = compile(r#"{"type":"float64","max":1e300}"#);
    assert_eq!(
        reject(&s, &f64::INFINITY.to_le_bytes()).to_string(),
        "invalid value at offset 0 ($): expected float64 of at most 1e+300, found Infinity"
    );
    assert_eq!(
        reject(&s, &f64::NAN.to_le_bytes()).to_string(),
        "invalid value at offset 0 ($): expected float64 of at most 1e+300, found NaN"
    );
    let s = compile(r#"{"type":"float32","min":0.5}"#);
    assert_eq!(
        reject(&s, &0.1f32.to_le_bytes()).to_string(),
        "invalid value at offset 0 ($): expected float32 of at least 0.5, found 0.10000000149011612"
    );
}

#[test]
fn string_lengths_count_code_points() {
    let s = compile(&field(
        "name",
        r#"{"type":"string","minLength":1,"maxLength":3}"#,
    ));
    // "🚀é" is 2 code points in 6 bytes: within 1..=3 though longer than 3 bytes.
    assert!(decode_value(&s, b"\x06\xf0\x9f\x9a\x80\xc3\xa9").is_ok());
    assert_invalid(
        &s,
        b"\x04abcd",
        0,
        "$.name",
        "invalid value at offset 0 ($.name): expected string of at most 3 code points, found 4 code points",
    );
    assert_invalid(
        &s,
        b"\x00",
        0,
        "$.name",
        "invalid value at offset 0 ($.name): expected string of at least 1 code point, found 0 code points",
    );
    // Invalid UTF-8 stays malformed, whatever its length.
    assert_eq!(reject(&s, b"\x04ab\xffd").code(), "ERR_SHORN_MALFORMED");
}

#[test]
fn byte_lengths_and_counts_are_checked_before_the_items() {
    let s = compile(&field("b", r#"{"type":"bytes","maxLength":2}"#));
    assert_invalid(
        &s,
        b"\x03abc",
        0,
        "$.b",
        "invalid value at offset 0 ($.b): expected bytes of at most 2 bytes, found 3 bytes",
    );
    let s = compile(r#"{"type":"array","items":{"type":"bool"},"minItems":1,"maxItems":2}"#);
    assert_eq!(
        reject(&s, &[0]).to_string(),
        "invalid value at offset 0 ($): expected array of at least 1 item, found 0 items"
    );
    // The count is refused before items that are not there (not truncated) and before a
    // bad item (not malformed).
    assert_eq!(
        reject(&s, &[3]).to_string(),
        "invalid value at offset 0 ($): expected array of at most 2 items, found 3 items"
    );
    let s = compile(&field(
        "r",
        r#"{"type":"record","values":{"type":"uint8"},"maxEntries":1}"#,
    ));
    assert_invalid(
        &s,
        b"\x02\x01a\x01\x01b\x02",
        0,
        "$.r",
        "invalid value at offset 0 ($.r): expected record of at most 1 entry, found 2 entries",
    );
    let s = compile(&field(
        "m",
        r#"{"type":"map","keys":{"type":"string","maxLength":1},"values":{"type":"uint8","max":9},"maxEntries":2}"#,
    ));
    assert_invalid(
        &s,
        b"\x02\x01a\x01\x02bb\x02",
        4,
        "$.m[1][0]",
        "invalid value at offset 4 ($.m[1][0]): expected string of at most 1 code point, found 2 code points",
    );
    assert_invalid(
        &s,
        b"\x01\x01a\x0a",
        3,
        "$.m[0][1]",
        "invalid value at offset 3 ($.m[0][1]): expected uint8 of at most 9, found 10",
    );
    assert_eq!(reject(&s, b"\x03").path(), "$.m");
}

#[test]
fn a_malformed_value_is_malformed_before_its_constraints_are_looked_at() {
    let s = compile(r#"{"type":"uint16","max":10}"#);
    assert_eq!(reject(&s, &[0x80, 0x00]).code(), "ERR_SHORN_MALFORMED");
    let s = compile(r#"{"type":"array","items":{"type":"bool"},"maxItems":1}"#);
    assert_eq!(reject(&s, &[0x80, 0x00]).code(), "ERR_SHORN_MALFORMED");
}

#[test]
fn email_uuid_ipv4_and_datetime_are_checked_by_the_core_with_the_string_in_the_message() {
    let s = compile(&field(
        "email",
        r#"{"type":"string","format":"email","maxLength":60}"#,
    ));
    assert!(decode_value(&s, b"\x0fada@example.com").is_ok());
    assert_invalid(
        &s,
        b"\x04nope",
        0,
        "$.email",
        r#"invalid value at offset 0 ($.email): expected string of format email, found string "nope""#,
    );
    // Lengths first, then the format; the string as JS's describe shows it: JSON.stringify
    // of its first 40 UTF-16 units, then "…" (a pair cut in two keeps its high surrogate).
    let long = format!("\"q\"\n{}🚀x", "a".repeat(35));
    let mut bytes = vec![long.len() as u8];
    bytes.extend_from_slice(long.as_bytes());
    assert_eq!(
        reject(&s, &bytes).to_string(),
        format!(
            r#"invalid value at offset 0 ($.email): expected string of format email, found string "\"q\"\n{}\ud83d…""#,
            "a".repeat(35)
        )
    );
    for (format, good, bad) in [
        (
            "uuid",
            "123e4567-e89b-12d3-a456-426614174000",
            "123e4567-e89b-02d3-a456-426614174000",
        ),
        ("ipv4", "10.0.0.255", "10.0.0.256"),
        (
            "datetime",
            "2024-02-29T23:59:59.5-02:30",
            "2023-02-29T00:00:00Z",
        ),
    ] {
        let s = compile(&format!(r#"{{"type":"string","format":"{format}"}}"#));
        let encode = |t: &str| {
            let mut b = vec![t.len() as u8];
            b.extend_from_slice(t.as_bytes());
            b
        };
        assert!(decode_value(&s, &encode(good)).is_ok(), "{format} {good}");
        let e = reject(&s, &encode(bad));
        assert_eq!(e.code(), "ERR_SHORN_INVALID");
        assert_eq!(e.issue(), Some("invalid_format"));
        assert_eq!(
            e.to_string(),
            format!("invalid value at offset 0 ($): expected string of format {format}, found string \"{bad}\"")
        );
        // On encode too, worded as the JS layer words what it finds on encode.
        assert!(encode_value(&s, &Value::String(good.into())).is_ok());
        assert_eq!(
            encode_value(&s, &Value::String(bad.into())),
            Err(format!(
                "$: expected string of format {format}, found string \"{bad}\""
            ))
        );
    }
    // With a pattern beside it, JS checks the format on encode (one string's issues keep
    // their order), and the core only on decode.
    let s = compile(r#"{"type":"string","format":"email","pattern":"^a"}"#);
    assert!(encode_value(&s, &Value::String("nope".into())).is_ok());
}

#[test]
fn an_email_the_core_refuses_on_encode_names_its_path_inside_arrays_and_records() {
    let s = compile(&field(
        "to",
        r#"{"type":"array","items":{"type":"record","values":{"type":"string","format":"email"}}}"#,
    ));
    let good = Value::String("a@b.co".into());
    let bad = Value::String("a@b".into());
    let value = Value::Object(vec![(
        "to".into(),
        Value::Array(vec![
            Value::Object(vec![("x".into(), good.clone())]),
            Value::Object(vec![("x".into(), good), ("y z".into(), bad)]),
        ]),
    )]);
    assert_eq!(
        encode_value(&s, &value),
        Err(r#"$.to[1]["y z"]: expected string of format email, found string "a@b""#.into())
    );
}

#[test]
fn locate_finds_the_string_js_refused_by_its_tape_slot() {
    // An array of objects { n: uint8, email: string with a format JS checks (url) }: slots
    // are the count, then per item n and the string's length.
    let s = compile(
        r#"{"type":"array","items":{"type":"object","fields":[{"name":"n","schema":{"type":"uint8"}},{"name":"email","schema":{"type":"string","format":"url"}}]}}"#,
    );
    let bytes = b"\x02\x01\x03a@b\x02\x04nope";
    assert!(
        decode_value(&s, bytes).is_ok(),
        "the core alone has no url check"
    );
    let e = locate(&s.program, bytes, 4).expect("slot 4 is the second email");
    assert_eq!(e.code(), "ERR_SHORN_INVALID");
    assert_eq!(e.offset(), Some(7));
    assert_eq!(e.path(), "$[1].email");
    assert_eq!(e.issue(), Some("invalid_format"));
    let first = locate(&s.program, bytes, 2).expect("slot 2 is the first email");
    assert_eq!(
        (first.offset(), first.path().as_str()),
        (Some(2), "$[0].email")
    );
    // A slot that is no checked string (a count, a number), or past the message: none.
    assert!(locate(&s.program, bytes, 0).is_none());
    assert!(locate(&s.program, bytes, 3).is_none());
    assert!(locate(&s.program, bytes, 99).is_none());
}

#[test]
fn compile_refuses_constraints_no_value_can_meet_or_that_are_not_well_formed() {
    for (d, message) in [
        (r#"{"type":"uint8","min":5,"max":4}"#, "invalid schema at $: min 5 of a uint8 is greater than its max 4"),
        (r#"{"type":"uint8","max":256}"#, "invalid schema at $: max of a uint8 must be an integer from 0 to 255, found 256"),
        (r#"{"type":"int8","min":-1.5}"#, "invalid schema at $: min of a int8 must be an integer from -128 to 127, found -1.5"),
        (r#"{"type":"uint8","min":"1"}"#, "invalid schema at $: min must be a number, found string"),
        (r#"{"type":"uint32","multipleOf":0}"#, "invalid schema at $: multipleOf must be a safe integer of at least 1, found 0"),
        (r#"{"type":"uint8","min":1,"max":4,"multipleOf":5}"#, "invalid schema at $: no uint8 from 1 to 4 is a multiple of 5"),
        (r#"{"type":"int64","min":5}"#, "invalid schema at $: min of a int64 must be a string of decimal digits (a bigint), found number"),
        (r#"{"type":"uint64","max":"-1"}"#, "invalid schema at $: max of a uint64 must be an integer from 0 to 18446744073709551615 in decimal digits, found \"-1\""),
        (r#"{"type":"int64","max":"007"}"#, "invalid schema at $: max of a int64 must be an integer from -9223372036854775808 to 9223372036854775807 in decimal digits, found \"007\""),
        (r#"{"type":"int64","min":"10","max":"9"}"#, "invalid schema at $: min 10 of a int64 is greater than its max 9"),
        (r#"{"type":"float64","min":1,"max":0.5}"#, "invalid schema at $: min 1 of a float64 is greater than its max 0.5"),
        (r#"{"type":"float64","min":1e999}"#, "invalid schema at $: min of a float64 must be a finite number"),
        (r#"{"type":"string","minLength":3,"maxLength":2}"#, "invalid schema at $: minLength 3 is greater than maxLength 2"),
        (r#"{"type":"string","maxLength":-1}"#, "invalid schema at $: maxLength must be an integer from 0 to 4294967295, found -1"),
        (r#"{"type":"string","format":"phone"}"#, "invalid schema at $: format must be one of email, uuid, url, datetime, ipv4, ipv6, found \"phone\""),
        (r#"{"type":"string","pattern":{}}"#, "invalid schema at $: pattern must be a string (a RegExp's source), found object"),
        (r#"{"type":"bytes","minLength":2,"maxLength":1}"#, "invalid schema at $: minLength 2 is greater than maxLength 1"),
        (r#"{"type":"array","items":{"type":"bool"},"minItems":2,"maxItems":1}"#, "invalid schema at $: minItems 2 is greater than maxItems 1"),
        (r#"{"type":"record","values":{"type":"bool"},"maxEntries":1.5}"#, "invalid schema at $: maxEntries must be an integer from 0 to 4294967295, found 1.5"),
        (r#"{"type":"map","keys":{"type":"bool"},"values":{"type":"bool"},"minEntries":1}"#, "invalid schema at $: the map descriptor has no member \"minEntries\""),
        (r#"{"type":"date","min":0}"#, "invalid schema at $: the date descriptor has no member \"min\""),
        (r#"{"type":"float64","multipleOf":2}"#, "invalid schema at $: the float64 descriptor has no member \"multipleOf\""),
    ] {
        assert_eq!(schema_error(d), message, "{d}");
    }
    // Bounds at the type's own range, and members of an unconstrained type, compile.
    compile(r#"{"type":"int8","min":-128,"max":127}"#);
    compile(r#"{"type":"string","pattern":"(","format":"email"}"#);
}

#[test]
fn a_constrained_value_keeps_its_type_elsewhere() {
    // Map keys of a checked type compare as that type; float32 keys are still refused.
    let s = compile(
        r#"{"type":"map","keys":{"type":"string","maxLength":4},"values":{"type":"bool"}}"#,
    );
    assert_eq!(
        reject(&s, b"\x02\x01a\x01\x01a\x00").code(),
        "ERR_SHORN_MALFORMED"
    );
    assert!(schema_error(
        r#"{"type":"map","keys":{"type":"float32","min":0},"values":{"type":"bool"}}"#
    )
    .contains("float32 map keys"));
    // Arrays of checked items still need items of at least one byte, and know their size.
    compile(r#"{"type":"array","items":{"type":"float64","min":0},"maxItems":3}"#);
    let s = compile(r#"{"type":"array","items":{"type":"float64","min":0}}"#);
    assert_eq!(
        reject(&s, &[2, 0, 0, 0, 0, 0, 0, 0, 0]).code(),
        "ERR_SHORN_TRUNCATED"
    );
}
