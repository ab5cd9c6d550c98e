//! The framing vectors of tests/framing.json through the core's batch decoder
//! (`engine::decode_frames`, what a stream decoder calls once per batch): a sound stream
//! decodes to its values in batches of any size; a stream with a bad frame decodes every
//! frame before it and stops exactly at its start, leaving it to the careful path
//! (lib/framing.js) that names the fault. Also: batches cut by the tape and by the text,
//! and the text of a frame that is then not taken dropped again.
//! __test__/framing.test.js reads the same vectors through the JS API.

use shorn::codec::crc32c::crc32c;
use shorn::codec::text::{LATIN1_CHUNK_UNITS, UTF16_CHUNK_UNITS};
use shorn::engine::{decode_frames, FrameBatch, Frames};
use shorn::json::Json;
use shorn::program::Limits;
use shorn::schema::Schema;
use shorn::value::{decode_frames_values, decode_value, encode_value, from_hex, Value};

fn framing() -> Json {
    let text = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/framing.json"))
        .expect("read framing.json");
    Json::parse(&text).expect("framing.json is JSON")
}

fn list<'a>(doc: &'a Json, key: &str) -> &'a [Json] {
    match doc.get(key) {
        Some(Json::Array(items)) => items,
        _ => panic!("framing.json has no {key} array"),
    }
}

fn text<'a>(case: &'a Json, key: &str) -> &'a str {
    case.get(key)
        .and_then(Json::as_str)
        .unwrap_or_else(|| panic!("case without {key}"))
}

fn number(case: &Json, key: &str) -> Option<f64> {
    match case.get(key) {
        Some(Json::Number(n)) => Some(*n),
        _ => None,
    }
}

fn values(case: &Json) -> Vec<Value> {
    match case.get("values") {
        Some(Json::Array(items)) => items
            .iter()
            .map(|v| Value::from_json(v).expect("value form"))
            .collect(),
        _ => panic!("case without values"),
    }
}

fn batch(case: &Json) -> FrameBatch {
    FrameBatch {
        checksum: matches!(case.get("checksum"), Some(Json::Bool(true))),
        max_frame_bytes: number(case, "maxFrameBytes").map_or(16 << 20, |n| n as u32),
        text_units: 1 << 15,
        heap_budget: u64::MAX,
    }
}

/// Decodes from `start` on in batches while they end only because they are full.
fn all_batches(
    schema: &Schema,
    bytes: &[u8],
    batch: FrameBatch,
    tape_slots: usize,
) -> (Vec<Value>, usize) {
    let mut values = Vec::new();
    let mut pos = 0;
    loop {
        let (got, frames) = decode_frames_values(schema, bytes, pos, batch, tape_slots);
        values.extend(got);
        assert!(frames.end >= pos);
        pos = frames.end;
        if !frames.full {
            return (values, pos);
        }
        assert!(frames.count > 0, "a full batch decoded something");
    }
}

fn same_all(got: &[Value], want: &[Value]) -> bool {
    got.len() == want.len() && got.iter().zip(want).all(|(a, b)| a.same(b))
}

#[test]
fn vectors_decode_in_batches_of_any_size() {
    let doc = framing();
    for case in list(&doc, "vectors") {
        let name = text(case, "name");
        let schema =
            Schema::from_json(case.get("schema").expect("schema"), Limits::default()).unwrap();
        let bytes = from_hex(text(case, "hex")).unwrap();
        let want = values(case);
        for tape_slots in [1, 4, 64] {
            let (got, end) = all_batches(&schema, &bytes, batch(case), tape_slots);
            if tape_slots >= 4 {
                assert!(same_all(&got, &want), "{name}: {got:?}, want {want:?}");
                assert_eq!(end, bytes.len(), "{name}: every frame decoded");
            } else {
                // A tape too small for one message takes none (the caller reads it alone),
                // unless the messages need no slots.
                assert!(same_all(&got, &want[..got.len()]), "{name}");
            }
        }
    }
}

#[test]
fn rejects_stop_exactly_before_the_bad_frame() {
    let doc = framing();
    for case in list(&doc, "rejects") {
        let name = text(case, "name");
        let schema =
            Schema::from_json(case.get("schema").expect("schema"), Limits::default()).unwrap();
        let bytes = from_hex(text(case, "hex")).unwrap();
        let frame = number(case, "frame").unwrap() as usize;
        let want = values(case);
        assert_eq!(want.len(), frame, "{name}: the values before the bad frame");
        let (got, end) = all_batches(&schema, &bytes, batch(case), 64);
        assert!(same_all(&got, &want), "{name}: {got:?}, want {want:?}");
        // Where the bad frame starts: after the frames before it.
        let mut start = 0;
        for v in &want {
            let message = encode_value(&schema, v).unwrap();
            start += 1 + message.len() + if batch(case).checksum { 4 } else { 0 };
        }
        assert_eq!(end, start, "{name}: stops at the bad frame");
    }
}

/// Each of `values` encoded on its own.
fn encode_all(schema: &Schema, values: &[Value]) -> Vec<Vec<u8>> {
    values
        .iter()
        .map(|v| encode_value(schema, v).unwrap())
        .collect()
}

/// Frames of `messages`, with checksums if asked.
fn frames_of(messages: &[Vec<u8>], checksum: bool) -> Vec<u8> {
    let mut out = Vec::new();
    for m in messages {
        let mut n = m.len() as u32;
        while n >= 0x80 {
            out.push((n as u8 & 0x7f) | 0x80);
            n >>= 7;
        }
        out.push(n as u8);
        out.extend_from_slice(m);
        if checksum {
            out.extend_from_slice(&crc32c(m).to_le_bytes());
        }
    }
    out
}

fn object(fields: &str) -> Schema {
    let descriptor = format!(r#"{{"type":"object","fields":[{fields}]}}"#);
    Schema::compile(&descriptor, Limits::default()).expect("schema compiles")
}

fn person(name: &str, xs: usize) -> Value {
    Value::Object(vec![
        ("name".into(), Value::String(name.into())),
        (
            "xs".into(),
            Value::Array((0..xs).map(|k| Value::Number((k % 200) as f64)).collect()),
        ),
    ])
}

#[test]
fn batches_end_where_the_tape_or_the_text_is_full() {
    let schema = object(
        r#"{"name":"name","schema":{"type":"string"}},{"name":"xs","schema":{"type":"array","items":{"type":"uint8"}}}"#,
    );
    let values: Vec<Value> = (0..100).map(|k| person(&format!("p{k}"), k % 7)).collect();
    let messages = encode_all(&schema, &values);
    for checksum in [false, true] {
        let bytes = frames_of(&messages, checksum);
        let batch = FrameBatch {
            checksum,
            max_frame_bytes: u32::MAX,
            text_units: 1 << 15,
            heap_budget: u64::MAX,
        };
        // A tape of 40 slots holds a few messages of 2 to 8 slots each.
        let (first, frames) = decode_frames_values(&schema, &bytes, 0, batch, 40);
        assert!(
            frames.full && frames.count > 3 && frames.slots <= 40,
            "{frames:?}"
        );
        assert!(same_all(&first, &values[..frames.count]));
        let (all, end) = all_batches(&schema, &bytes, batch, 40);
        assert!(same_all(&all, &values));
        assert_eq!(end, bytes.len());
        // Text: a batch ends after the frame that reaches `text_units`.
        let small_text = FrameBatch {
            text_units: 5,
            ..batch
        };
        let (_, frames) = decode_frames_values(&schema, &bytes, 0, small_text, 1000);
        assert_eq!(frames.count, 3, "p0 p1 p2 make 6 units");
        assert!(frames.full);
        let (all, _) = all_batches(&schema, &bytes, small_text, 1000);
        assert!(same_all(&all, &values));
    }
}

#[test]
fn the_text_of_a_frame_not_taken_is_dropped() {
    let schema = object(
        r#"{"name":"name","schema":{"type":"string"}},{"name":"xs","schema":{"type":"array","items":{"type":"uint8"}}}"#,
    );
    let values = [
        person("ab", 1),
        person("é", 1),
        // Adds a wide string, then needs more tape than is left.
        person("wide €", 50),
        person("cd", 1),
    ];
    let messages = encode_all(&schema, &values);
    let bytes = frames_of(&messages, false);
    let batch = FrameBatch {
        checksum: false,
        max_frame_bytes: u32::MAX,
        text_units: 1 << 15,
        heap_budget: u64::MAX,
    };
    let mut tape = vec![0.0; 20];
    let mut text = shorn::codec::TextBuffer::new();
    let frames = decode_frames(&schema.program, &bytes, 0, batch, &mut tape, &mut text);
    assert_eq!(
        frames,
        Frames {
            count: 2,
            end: 2 + messages[0].len() + messages[1].len(),
            slots: 6,
            full: true,
            heap: frames.heap,
        }
    );
    // One Latin-1 text again, holding exactly the two names taken.
    assert_eq!(text.text(), shorn::codec::Text::Latin1(&[b'a', b'b', 0xe9]));
    // A message that fails after adding a wide string is rolled back the same way.
    let bad = {
        let mut m = messages[2].clone();
        m.push(0);
        m
    };
    let bytes = frames_of(&[messages[0].clone(), bad, messages[3].clone()], false);
    let mut tape = vec![0.0; 1000];
    let frames = decode_frames(&schema.program, &bytes, 0, batch, &mut tape, &mut text);
    assert_eq!((frames.count, frames.full), (1, false));
    assert_eq!(text.text(), shorn::codec::Text::Latin1(b"ab"));
    // And read alone, that frame gives its own error.
    let start = 1 + messages[0].len();
    let header = 1;
    assert!(decode_value(
        &schema,
        &bytes[start + header..start + header + messages[2].len() + 1]
    )
    .is_err());
}

/// xorshift64*, seeded.
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
}

/// The frames of `bytes` read one at a time, straight from FORMAT.md: the values of the
/// sound frames before the first that is cut, too long, badly checksummed or does not
/// decode, and where that one starts.
fn one_at_a_time(schema: &Schema, bytes: &[u8], batch: FrameBatch) -> (Vec<Value>, usize) {
    let mut values = Vec::new();
    let mut pos = 0;
    while pos < bytes.len() {
        // The length: a varint of at most 5 bytes, canonical, within 32 bits.
        let mut length: u64 = 0;
        let mut at = pos;
        let mut ok = false;
        for k in 0..5 {
            let Some(&b) = bytes.get(pos + k) else { break };
            length |= ((b & 0x7f) as u64) << (7 * k);
            at = pos + k + 1;
            if b < 0x80 {
                ok = !(b == 0 && k > 0) && length <= u32::MAX as u64;
                break;
            }
        }
        let trailer = if batch.checksum { 4 } else { 0 };
        if !ok
            || length > batch.max_frame_bytes as u64
            || at + length as usize + trailer > bytes.len()
        {
            break;
        }
        let message = &bytes[at..at + length as usize];
        if batch.checksum {
            let end = at + length as usize;
            let stored = u32::from_le_bytes(bytes[end..end + 4].try_into().unwrap());
            if crc32c(message) != stored {
                break;
            }
        }
        match decode_value(schema, message) {
            Ok(v) => values.push(v),
            Err(_) => break,
        }
        pos = at + length as usize + trailer;
    }
    (values, pos)
}

#[test]
fn mutated_streams_decode_in_batches_as_frame_by_frame() {
    let schema = object(
        r#"{"name":"name","schema":{"type":"string"}},{"name":"xs","schema":{"type":"array","items":{"type":"uint8"}}}"#,
    );
    let names = ["a", "", "é", "wide €", "日本", "x"];
    let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
    for round in 0..3000 {
        let count = 1 + rng.below(12);
        let messages: Vec<Vec<u8>> = (0..count)
            .map(|k| {
                let name = names[rng.below(names.len())].repeat(1 + rng.below(3));
                encode_value(&schema, &person(&name, rng.below(40) + k % 2)).unwrap()
            })
            .collect();
        let checksum = round % 2 == 1;
        let mut bytes = frames_of(&messages, checksum);
        // Flip, set or drop a few bytes, or cut the end.
        for _ in 0..rng.below(4) {
            if bytes.is_empty() {
                break;
            }
            let at = rng.below(bytes.len());
            match rng.below(4) {
                0 => bytes[at] ^= 1 << rng.below(8),
                1 => bytes[at] = rng.next() as u8,
                2 => {
                    bytes.remove(at);
                }
                _ => bytes.truncate(at),
            }
        }
        let batch = FrameBatch {
            checksum,
            max_frame_bytes: [u32::MAX, 30, 60][rng.below(3)],
            text_units: [1 << 15, 4][rng.below(2)],
            heap_budget: u64::MAX,
        };
        let want = one_at_a_time(&schema, &bytes, batch);
        for tape_slots in [8, 64, 4096] {
            let (got, end) = all_batches(&schema, &bytes, batch, tape_slots);
            if tape_slots == 4096 {
                assert!(
                    same_all(&got, &want.0),
                    "round {round}: {got:?}, want {want:?}"
                );
                assert_eq!(end, want.1, "round {round}");
            } else {
                // A small tape may stop a batch early (the caller reads that frame alone):
                // what it took is a prefix of the same values.
                assert!(got.len() <= want.0.len() && same_all(&got, &want.0[..got.len()]));
            }
        }
    }
}

/// Strings around the chunk edges of a large message's text (src/codec/text.rs): Latin-1
/// and wide ones interleaved, shorter than, as long as and longer than a chunk.
fn edge_strings() -> Vec<Value> {
    let mut out = Vec::new();
    for (unit, limit) in [
        ("a", LATIN1_CHUNK_UNITS),
        ("é", LATIN1_CHUNK_UNITS),
        ("数", UTF16_CHUNK_UNITS),
        ("🚀", UTF16_CHUNK_UNITS),
    ] {
        let n = limit / unit.encode_utf16().count();
        let other = if unit == "a" || unit == "é" {
            "学"
        } else {
            "x"
        };
        for s in [
            unit.repeat(n),
            other.into(),
            unit.into(),
            unit.repeat(n - 1),
            String::new(),
            unit.repeat(n + 1),
            String::new(),
            other.repeat(3),
            unit.repeat(3 * n),
            unit.into(),
        ] {
            out.push(Value::String(s));
        }
    }
    out
}

#[test]
fn a_large_text_in_chunks_reads_back_alone_and_in_a_batch() {
    let schema = object(
        r#"{"name":"name","schema":{"type":"string"}},{"name":"words","schema":{"type":"array","items":{"type":"string"}}}"#,
    );
    let big = Value::Object(vec![
        ("name".into(), Value::String("big".into())),
        ("words".into(), Value::Array(edge_strings())),
    ]);
    let bytes = encode_value(&schema, &big).unwrap();
    // The mirror of the JS reader panics on a slot past its chunk or a move to the wrong
    // text (src/value.rs, `Texts`).
    assert_eq!(decode_value(&schema, &bytes).unwrap(), big);
    let small = |name: &str| {
        Value::Object(vec![
            ("name".into(), Value::String(name.into())),
            (
                "words".into(),
                Value::Array(vec![Value::String("数".into())]),
            ),
        ])
    };
    let values = [small("before"), big, small("after")];
    let messages = encode_all(&schema, &values);
    let frames = frames_of(&messages, false);
    let batch = FrameBatch {
        checksum: false,
        max_frame_bytes: u32::MAX,
        text_units: 1 << 15,
        heap_budget: u64::MAX,
    };
    let (all, end) = all_batches(&schema, &frames, batch, 1 << 16);
    assert_eq!(end, frames.len());
    assert_eq!(all, values);
}

/// The estimated heap of a frame's value read alone (`engine::decode_text`).
fn heap_alone(schema: &Schema, message: &[u8]) -> u64 {
    let mut tape = vec![0.0; 1 << 12];
    let mut text = shorn::codec::TextBuffer::new();
    shorn::engine::decode_text(&schema.program, message, &mut tape, &mut text, false)
        .expect("decodes")
        .heap
}

#[test]
fn a_batch_sums_the_heap_of_its_values_and_stops_before_its_budget() {
    let schema = object(
        r#"{"name":"name","schema":{"type":"string"}},{"name":"xs","schema":{"type":"array","items":{"type":"bytes"}}}"#,
    );
    let values: Vec<Value> = (0..20)
        .map(|k| {
            Value::Object(vec![
                ("name".into(), Value::String(format!("p{k}"))),
                (
                    "xs".into(),
                    Value::Array((0..k).map(|_| Value::Bytes(Vec::new())).collect()),
                ),
            ])
        })
        .collect();
    let messages = encode_all(&schema, &values);
    let heaps: Vec<u64> = messages.iter().map(|m| heap_alone(&schema, m)).collect();
    assert!(
        heaps.windows(2).all(|w| w[0] < w[1]),
        "each value holds more: {heaps:?}"
    );
    let bytes = frames_of(&messages, false);
    let unbounded = FrameBatch {
        checksum: false,
        max_frame_bytes: u32::MAX,
        text_units: 1 << 15,
        heap_budget: u64::MAX,
    };
    let (all, frames) = decode_frames_values(&schema, &bytes, 0, unbounded, 1 << 12);
    assert!(same_all(&all, &values));
    assert_eq!(frames.heap, heaps.iter().sum::<u64>());
    // A budget the first five values fit and the sixth does not: the batch stops before
    // the sixth, not full (the caller reads it alone), and nothing of it is kept.
    let five: u64 = heaps[..5].iter().sum();
    for budget in [five, five + heaps[5] - 1] {
        let batch = FrameBatch {
            heap_budget: budget,
            ..unbounded
        };
        let (got, frames) = decode_frames_values(&schema, &bytes, 0, batch, 1 << 12);
        assert!(same_all(&got, &values[..5]));
        assert_eq!((frames.count, frames.full, frames.heap), (5, false, five));
        let sixth: usize = messages[..5].iter().map(|m| 1 + m.len()).sum();
        assert_eq!(frames.end, sixth);
    }
    // Exactly enough for six.
    let batch = FrameBatch {
        heap_budget: five + heaps[5],
        ..unbounded
    };
    let (_, frames) = decode_frames_values(&schema, &bytes, 0, batch, 1 << 12);
    assert_eq!(frames.count, 6);
    // None at all: not even the first.
    let batch = FrameBatch {
        heap_budget: 0,
        ..unbounded
    };
    let (got, frames) = decode_frames_values(&schema, &bytes, 0, batch, 1 << 12);
    assert!(got.is_empty() && frames.end == 0 && !frames.full);
}
