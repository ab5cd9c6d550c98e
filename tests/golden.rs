//! Checks every golden vector of tests/golden.json against the pure core: exact bytes on
//! encode, the value back on decode, every truncated prefix rejected as truncated, an
//! appended byte rejected as trailing, and each reject with its code, offset and path.
//! The JS tests read the same file (__test__/golden.test.js).

use shorn::codec::Error;
use shorn::json::Json;
use shorn::program::Limits;
use shorn::schema::Schema;
use shorn::value::{decode_value, encode_value, from_hex, to_hex, Value};

fn golden() -> Json {
    let text = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/golden.json"))
        .expect("read golden.json");
    Json::parse(&text).expect("golden.json is JSON")
}

fn list<'a>(doc: &'a Json, key: &str) -> &'a [Json] {
    match doc.get(key) {
        Some(Json::Array(items)) => items,
        _ => panic!("golden.json has no {key} array"),
    }
}

fn text<'a>(case: &'a Json, key: &str) -> &'a str {
    case.get(key)
        .and_then(Json::as_str)
        .unwrap_or_else(|| panic!("case without {key}: {case:?}"))
}

fn limits(case: &Json) -> Limits {
    let mut limits = Limits::default();
    if let Some(l) = case.get("limits") {
        let get = |k: &str| match l.get(k) {
            Some(Json::Number(n)) => Some(*n as u32),
            _ => None,
        };
        limits.max_string_bytes = get("maxStringBytes").unwrap_or(limits.max_string_bytes);
        limits.max_bytes_length = get("maxBytesLength").unwrap_or(limits.max_bytes_length);
        limits.max_array_length = get("maxArrayLength").unwrap_or(limits.max_array_length);
        limits.max_depth = get("maxDepth").unwrap_or(limits.max_depth);
    }
    limits
}

fn schema(case: &Json) -> Schema {
    Schema::from_json(case.get("schema").expect("schema"), limits(case))
        .expect("golden schema compiles")
}

fn decode_err(schema: &Schema, bytes: &[u8]) -> Error {
    match decode_value(schema, bytes) {
        Ok(v) => panic!("decoding {} should fail, gave {v:?}", to_hex(bytes)),
        Err(e) => e,
    }
}

#[test]
fn vectors_encode_to_exact_bytes_and_decode_back() {
    let doc = golden();
    let vectors = list(&doc, "vectors");
    assert!(vectors.len() >= 40, "golden.json lost vectors");
    for case in vectors {
        let name = text(case, "name");
        let schema = schema(case);
        let value = Value::from_json(case.get("value").expect("value")).expect("value form");
        let expected = from_hex(text(case, "hex")).expect("hex");
        let bytes =
            encode_value(&schema, &value).unwrap_or_else(|e| panic!("{name}: encode failed: {e}"));
        assert_eq!(to_hex(&bytes), to_hex(&expected), "{name}: bytes");
        let back =
            decode_value(&schema, &bytes).unwrap_or_else(|e| panic!("{name}: decode failed: {e}"));
        let want = match case.get("decoded") {
            Some(d) => Value::from_json(d).expect("decoded form"),
            None => value,
        };
        assert!(back.same(&want), "{name}: decoded {back:?}, want {want:?}");
    }
}

#[test]
fn every_truncated_prefix_of_a_vector_is_truncated() {
    let doc = golden();
    for case in list(&doc, "vectors") {
        let name = text(case, "name");
        let schema = schema(case);
        let bytes = from_hex(text(case, "hex")).expect("hex");
        for cut in 0..bytes.len() {
            let err = decode_err(&schema, &bytes[..cut]);
            assert_eq!(
                err.code(),
                "ERR_SHORN_TRUNCATED",
                "{name}: prefix of {cut} bytes: {err}"
            );
        }
    }
}

#[test]
fn an_appended_byte_is_trailing() {
    let doc = golden();
    for case in list(&doc, "vectors") {
        let name = text(case, "name");
        let schema = schema(case);
        let mut bytes = from_hex(text(case, "hex")).expect("hex");
        let end = bytes.len();
        bytes.push(0);
        let err = decode_err(&schema, &bytes);
        assert_eq!(err.code(), "ERR_SHORN_TRAILING", "{name}: {err}");
        assert_eq!(err.offset(), Some(end), "{name}");
    }
}

#[test]
fn rejects_fail_with_their_code_offset_and_path() {
    let doc = golden();
    let rejects = list(&doc, "rejects");
    assert!(rejects.len() >= 15, "golden.json lost rejects");
    for case in rejects {
        let name = text(case, "name");
        let schema = schema(case);
        let bytes = from_hex(text(case, "hex")).expect("hex");
        // A string's pattern or format only the JS layer checks: the core takes the bytes
        // (__test__/golden.test.js checks the JS layer refuses them).
        if case.get("layer").and_then(Json::as_str) == Some("js") {
            assert!(
                decode_value(&schema, &bytes).is_ok(),
                "{name}: the core alone decodes it"
            );
            continue;
        }
        let err = decode_err(&schema, &bytes);
        assert_eq!(err.code(), text(case, "code"), "{name}: {err}");
        let offset = match case.get("offset") {
            Some(Json::Number(n)) => *n as usize,
            _ => panic!("{name}: no offset"),
        };
        assert_eq!(err.offset(), Some(offset), "{name}: {err}");
        assert_eq!(err.path(), text(case, "path"), "{name}: {err}");
    }
}

/// Long strings whose chars all fit a byte reach the core in the Latin-1 text, as JS sends
/// them (`LATIN1_SLOT`); their bytes are those of any other string: the chars' UTF-8.
#[test]
fn long_one_byte_strings_encode_from_the_latin1_text_as_utf8() {
    use shorn::value::marshal;
    let schema = Schema::from_json(
        &Json::parse(r#"{"type":"array","items":{"type":"json"}}"#).unwrap(),
        Limits::default(),
    )
    .unwrap();
    let all: String = (0u32..256).map(|c| char::from_u32(c).unwrap()).collect();
    let strings = [
        all.repeat(2),
        "é".repeat(300),
        "x".repeat(256),
        format!("数{}", "é".repeat(300)),
        "short é".to_string(),
    ];
    let value = Value::Array(strings.iter().map(|s| Value::String(s.clone())).collect());
    let m = marshal(&schema, &value).unwrap();
    assert_eq!(
        m.latin1.len(),
        512 + 300 + 256,
        "three long one-byte strings"
    );
    let mut expected = vec![strings.len() as u8];
    for s in &strings {
        if s.len() < 64 {
            expected.push(0x80 | s.len() as u8);
        } else {
            expected.push(0x05);
            let mut n = s.len();
            while n > 127 {
                expected.push((n & 127) as u8 | 128);
                n >>= 7;
            }
            expected.push(n as u8);
        }
        expected.extend_from_slice(s.as_bytes());
    }
    let bytes = encode_value(&schema, &value).unwrap();
    assert_eq!(to_hex(&bytes), to_hex(&expected));
    assert!(decode_value(&schema, &bytes).unwrap().same(&value));
}

/// A large message's short strings that repeat come as kept strings' slots (KEPT_SLOT),
/// which the reader resolves as JS does: the value is the same, split or not.
#[test]
fn repeated_short_strings_decode_to_the_same_value_split_or_not() {
    use shorn::value::decode_value_text;
    let schema = Schema::from_json(
        &Json::parse(
            r#"{"type":"array","items":{"type":"object","fields":[
                {"name":"kind","schema":{"type":"string"}},
                {"name":"tags","schema":{"type":"array","items":{"type":"string"}}}]}}"#,
        )
        .unwrap(),
        Limits::default(),
    )
    .unwrap();
    let words = [
        "ios",
        "eu",
        "é",
        "",
        "a",
        "twelve bytes",
        "thirteen byte",
        "web",
    ];
    let item = |k: usize| {
        Value::from_json(
            &Json::parse(&format!(
                r#"{{"kind":"{}","tags":["{}","{}","{}"]}}"#,
                words[k % 8],
                words[(k / 2) % 8],
                words[(k * 7) % 8],
                format_args!("n{}", k % 40)
            ))
            .unwrap(),
        )
        .unwrap()
    };
    let value = Value::Array((0..600).map(item).collect());
    let bytes = encode_value(&schema, &value).unwrap();
    assert!(bytes.len() >= 4096, "a large message: its text is split");
    for split in [true, false] {
        assert!(
            decode_value_text(&schema, &bytes, split)
                .unwrap()
                .same(&value),
            "split {split}"
        );
    }
}
