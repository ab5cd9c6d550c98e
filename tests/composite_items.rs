//! Arrays of composite items (objects, arrays of objects) run all their items in one call
//! (`engine::decode_items`), not a block per item: the same values and errors, and an
//! error deep inside names every index on the way down (each expectation here was checked
//! against the block per item first).

use shorn::program::Limits;
use shorn::schema::Schema;
use shorn::value::{decode_value, encode_value, Value};

/// Arrays nested `depth` deep: each level is `{n: uint8, xs: [level below], m: bool}`,
/// and the innermost objects are `{v: bool}`.
fn nested_schema(depth: usize) -> Schema {
    let mut s = r#"{"type":"object","fields":[{"name":"v","schema":{"type":"bool"}}]}"#.to_string();
    for _ in 0..depth {
        s = format!(
            r#"{{"type":"object","fields":[{{"name":"n","schema":{{"type":"uint8"}}}},
               {{"name":"xs","schema":{{"type":"array","items":{s}}}}},
               {{"name":"m","schema":{{"type":"bool"}}}}]}}"#
        );
    }
    Schema::compile(&s, Limits::default()).unwrap()
}

/// Two items per array, except the last array on `target`'s side, whose innermost `v`
/// at the end of `target` is the only `true`; `n` is 7 and `m` false.
fn nested_value(depth: usize, target: &[u32], on_path: bool) -> Value {
    if depth == 0 {
        return Value::Object(vec![("v".into(), Value::Bool(on_path))]);
    }
    let items = (0..2u32)
        .map(|i| {
            let on = on_path && target[0] == i;
            nested_value(depth - 1, if on { &target[1..] } else { target }, on)
        })
        .collect();
    Value::Object(vec![
        ("n".into(), Value::Number(7.0)),
        ("xs".into(), Value::Array(items)),
        ("m".into(), Value::Bool(false)),
    ])
}

#[test]
fn nested_arrays_of_objects_round_trip_and_name_the_item_of_a_bad_byte() {
    for depth in [1, 3, 9] {
        let schema = nested_schema(depth);
        let target: Vec<u32> = (0..depth as u32).map(|k| (k * 5 + 1) % 2).collect();
        let value = nested_value(depth, &target, true);
        let bytes = encode_value(&schema, &value).unwrap();
        assert_eq!(
            decode_value(&schema, &bytes).unwrap(),
            value,
            "depth {depth}"
        );

        // Counts are 2, `n` 7, `m` and every `v` false (0) but the target's: one 0x01.
        let at: Vec<usize> = (0..bytes.len()).filter(|&i| bytes[i] == 1).collect();
        assert_eq!(at.len(), 1, "depth {depth}: {bytes:02x?}");
        let mut bad = bytes.clone();
        bad[at[0]] = 2;
        let err = decode_value(&schema, &bad).unwrap_err();
        let path: String = target.iter().map(|i| format!(".xs[{i}]")).collect();
        assert_eq!(err.code(), "ERR_SHORN_MALFORMED", "{err}");
        assert_eq!(err.offset(), Some(at[0]), "{err}");
        assert_eq!(err.path(), format!("${path}.v"), "{err}");

        // The byte after the target: the next item's `v`, or once the innermost array is
        // done, the `m` of the object holding it.
        let mut bad = bytes.clone();
        bad[at[0] + 1] = 2;
        let err = decode_value(&schema, &bad).unwrap_err();
        assert_eq!(err.code(), "ERR_SHORN_MALFORMED", "{err}");
        let up: String = target[..depth - 1]
            .iter()
            .map(|i| format!(".xs[{i}]"))
            .collect();
        let expected = if target[depth - 1] == 0 {
            // The innermost array's second item comes next.
            format!("${up}.xs[1].v")
        } else {
            format!("${up}.m")
        };
        assert_eq!(err.path(), expected, "depth {depth}");
    }
}

#[test]
fn empty_and_single_item_arrays_of_objects_end_where_they_should() {
    let schema = nested_schema(2);
    let obj = |n: f64, xs: Vec<Value>| {
        Value::Object(vec![
            ("n".into(), Value::Number(n)),
            ("xs".into(), Value::Array(xs)),
            ("m".into(), Value::Bool(n > 2.0)),
        ])
    };
    let leaf = |v| Value::Object(vec![("v".into(), Value::Bool(v))]);
    let value = obj(
        1.0,
        vec![
            obj(2.0, vec![]),
            obj(3.0, vec![leaf(true)]),
            obj(4.0, vec![]),
            obj(5.0, vec![leaf(false), leaf(true), leaf(false)]),
        ],
    );
    let bytes = encode_value(&schema, &value).unwrap();
    assert_eq!(
        bytes,
        [1, 4, 2, 0, 0, 3, 1, 1, 1, 4, 0, 1, 5, 3, 0, 1, 0, 1, 0]
    );
    assert_eq!(decode_value(&schema, &bytes).unwrap(), value);
}
