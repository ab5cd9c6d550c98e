//! Criterion benchmarks of the Rust core, with no N-API in the way: varints, UTF-8
//! validation, the two transcoders, and whole messages for the fixtures of
//! docs/BENCHMARKS.md (person, unicodePerson, nestedEvent, batch100).
//!
//! Everything is checked before it is timed: the varint writers agree and the readers give
//! the values back, the transcoders match std, and every message fixture round-trips
//! (`decode_value(encode_value(v))` is `Value::same` as `v`). Message sizes are printed
//! beside the timings (criterion shows only the rate).
//!
//! `cargo bench --bench core` runs everything (about a minute and a half on 2 cores);
//! `cargo bench --bench core -- --test` runs each benchmark once, as a smoke test;
//! `cargo bench --bench core -- decode_` runs only the benchmarks whose name matches.

use std::hint::black_box;
use std::time::Duration;

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
use shorn::codec::text::write_string;
use shorn::codec::varint::{read_varint, write_varint, MAX_VARINT_LEN};
use shorn::codec::{Reader, Text, TextBuffer, Writer};
use shorn::engine::decode;
use shorn::program::Limits;
use shorn::schema::Schema;
use shorn::value::{decode_value, encode_value, marshal, Value};

// ---- varints ---------------------------------------------------------------------------

/// Varints per iteration: enough that the loop, not the timer, is what is measured.
const VARINTS: usize = 256;

/// A deterministic spread of `VARINTS` values in `low..=high`.
fn varint_values(low: u32, high: u32) -> Vec<u32> {
    let mut random = Mulberry32::new(0xa11ce);
    let span = u64::from(high - low) + 1;
    (0..VARINTS)
        .map(|_| low + (u64::from(random.next_u32()) % span) as u32)
        .collect()
}

fn varints(c: &mut Criterion) {
    // Small values take one byte (the fast path of every reader); large ones, near 2^32,
    // take all five.
    for (name, values) in [
        ("varint_u32_small", varint_values(0, 127)),
        (
            "varint_u32_large",
            varint_values(u32::MAX - (1 << 27), u32::MAX),
        ),
    ] {
        let mut encoded = Writer::new();
        for &v in &values {
            encoded.varint(v);
        }
        let encoded = encoded.as_slice().to_vec();
        // The two writers must agree, and each reader must give the values back.
        let mut scratch = [0u8; MAX_VARINT_LEN];
        let mut by_write_varint = Vec::new();
        for &v in &values {
            let n = write_varint(&mut scratch, v);
            by_write_varint.extend_from_slice(&scratch[..n]);
        }
        assert_eq!(
            by_write_varint, encoded,
            "{name}: write_varint and Writer::varint differ"
        );
        let mut reader = Reader::new(&encoded);
        let mut offset = 0;
        for &v in &values {
            assert_eq!(reader.varint().unwrap(), v, "{name}: Reader::varint");
            let (read, len) = read_varint(&encoded[offset..], offset).unwrap();
            assert_eq!(read, v, "{name}: read_varint");
            offset += len;
        }
        assert_eq!(reader.remaining(), 0);

        let mut group = c.benchmark_group(name);
        group.throughput(Throughput::Elements(VARINTS as u64));
        group.bench_function("write_varint", |b| {
            let mut out = [0u8; MAX_VARINT_LEN];
            b.iter(|| {
                let mut total = 0;
                for &v in black_box(&values) {
                    total += write_varint(&mut out, v);
                    black_box(&out);
                }
                total
            })
        });
        group.bench_function("writer_varint", |b| {
            let mut w = Writer::new();
            b.iter(|| {
                w.clear();
                for &v in black_box(&values) {
                    w.varint(v);
                }
                black_box(w.len())
            })
        });
        group.bench_function("read_varint", |b| {
            b.iter(|| {
                let bytes = black_box(&encoded[..]);
                let mut offset = 0;
                let mut sum = 0u32;
                while offset < bytes.len() {
                    let (v, len) = read_varint(&bytes[offset..], offset).unwrap();
                    sum = sum.wrapping_add(v);
                    offset += len;
                }
                sum
            })
        });
        group.bench_function("reader_varint", |b| {
            b.iter(|| {
                let mut r = Reader::new(black_box(&encoded));
                let mut sum = 0u32;
                for _ in 0..VARINTS {
                    sum = sum.wrapping_add(r.varint().unwrap());
                }
                sum
            })
        });
        group.finish();
    }
}

// ---- text --------------------------------------------------------------------------------

const BIO: &str =
    "Программистка и поэтесса — 数学者、詩人の娘。Αναλυτική μηχανή ✓ Ünïcødé ßüß 🚀🌍";
const ASCII: &str = "The quick brown fox jumps over the lazy dog; 0123456789 (ASCII only). ";
const TEXT_LENGTHS: [usize; 3] = [16, 256, 4096];

/// `source` repeated and cut to exactly `len` UTF-8 bytes: cut at the last char boundary
/// that fits, then padded with ASCII spaces.
fn text_of_length(source: &str, len: usize) -> String {
    let mut s = source.repeat(len / source.len() + 1);
    let mut cut = len;
    while !s.is_char_boundary(cut) {
        cut -= 1;
    }
    s.truncate(cut);
    while s.len() < len {
        s.push(' ');
    }
    s
}

/// The text cases: (label, UTF-8 length, the string), ASCII and non-ASCII at each length.
fn text_cases() -> Vec<(&'static str, usize, String)> {
    let mut cases = Vec::new();
    for len in TEXT_LENGTHS {
        for (label, source) in [("ascii", ASCII), ("non_ascii", BIO)] {
            let s = text_of_length(source, len);
            assert_eq!(s.len(), len);
            assert_eq!(s.is_ascii(), label == "ascii");
            cases.push((label, len, s));
        }
    }
    cases
}

fn utf8_validation(c: &mut Criterion) {
    let mut group = c.benchmark_group("utf8_validate");
    for (label, len, s) in text_cases() {
        let bytes = s.as_bytes();
        group.throughput(Throughput::Bytes(len as u64));
        // What the codec runs on non-ASCII strings (push_utf8 takes ASCII without it).
        group.bench_with_input(
            BenchmarkId::new(format!("simdutf8_{label}"), len),
            bytes,
            |b, bytes| b.iter(|| simdutf8::basic::from_utf8(black_box(bytes)).is_ok()),
        );
        // The standard library, for scale.
        group.bench_with_input(
            BenchmarkId::new(format!("std_{label}"), len),
            bytes,
            |b, bytes| b.iter(|| std::str::from_utf8(black_box(bytes)).is_ok()),
        );
    }
    group.finish();
}

fn transcoding(c: &mut Criterion) {
    let cases = text_cases();

    // UTF-16 code units (a JS string) to UTF-8 with its length varint, as encode does.
    let mut group = c.benchmark_group("utf16_to_utf8");
    for (label, len, s) in &cases {
        let units: Vec<u16> = s.encode_utf16().collect();
        let mut w = Writer::new();
        write_string(&mut w, &units).unwrap();
        let mut expected = Writer::new();
        expected.varint(*len as u32);
        expected.bytes(s.as_bytes());
        assert_eq!(
            w.as_slice(),
            expected.as_slice(),
            "write_string {label} {len}"
        );

        group.throughput(Throughput::Bytes(*len as u64));
        group.bench_with_input(
            BenchmarkId::new(format!("write_string_{label}"), len),
            &units,
            |b, units| {
                b.iter(|| {
                    w.clear();
                    write_string(&mut w, black_box(units)).unwrap();
                    black_box(w.len())
                })
            },
        );
    }
    group.finish();

    // UTF-8 bytes to Latin-1 or UTF-16 (validation included), as decode does.
    let mut group = c.benchmark_group("utf8_to_utf16");
    for (label, len, s) in &cases {
        let bytes = s.as_bytes();
        let mut text = TextBuffer::new();
        let units = text.push_utf8(bytes, 0).unwrap();
        let got: Vec<u16> = match text.text() {
            Text::Latin1(latin1) => latin1.iter().map(|&b| u16::from(b)).collect(),
            Text::Utf16(utf16) => utf16.to_vec(),
            Text::Split(..) | Text::Chunked(..) => unreachable!("an unsplit text is one string"),
        };
        assert_eq!(
            got,
            s.encode_utf16().collect::<Vec<_>>(),
            "push_utf8 {label} {len}"
        );
        assert_eq!(units, got.len(), "push_utf8 {label} {len}");

        group.throughput(Throughput::Bytes(*len as u64));
        group.bench_with_input(
            BenchmarkId::new(format!("push_utf8_{label}"), len),
            bytes,
            |b, bytes| {
                b.iter(|| {
                    text.clear();
                    text.push_utf8(black_box(bytes), 0).unwrap()
                })
            },
        );
    }
    group.finish();
}

// ---- whole messages ----------------------------------------------------------------------

const PERSON_SCHEMA: &str = r#"{"type":"object","fields":[
    {"name":"id","schema":{"type":"uint32"}},
    {"name":"name","schema":{"type":"string"}},
    {"name":"age","schema":{"type":"uint8"}},
    {"name":"active","schema":{"type":"bool"}}]}"#;

const UNICODE_PERSON_SCHEMA: &str = r#"{"type":"object","fields":[
    {"name":"id","schema":{"type":"uint32"}},
    {"name":"name","schema":{"type":"string"}},
    {"name":"age","schema":{"type":"uint8"}},
    {"name":"active","schema":{"type":"bool"}},
    {"name":"bio","schema":{"type":"string"}}]}"#;

const EVENT_SCHEMA: &str = r#"{"type":"object","fields":[
    {"name":"id","schema":{"type":"uint32"}},
    {"name":"ts","schema":{"type":"float64"}},
    {"name":"kind","schema":{"type":"enum","values":["click","view","purchase","signup","logout"]}},
    {"name":"user","schema":{"type":"object","fields":[
        {"name":"id","schema":{"type":"uint32"}},
        {"name":"name","schema":{"type":"string"}},
        {"name":"tags","schema":{"type":"array","items":{"type":"string"}}}]}},
    {"name":"geo","schema":{"type":"object","fields":[
        {"name":"lat","schema":{"type":"float64"}},
        {"name":"lon","schema":{"type":"float64"}}]}},
    {"name":"payload","schema":{"type":"object","fields":[
        {"name":"count","schema":{"type":"uint16"}},
        {"name":"ratio","schema":{"type":"float32"}},
        {"name":"ok","schema":{"type":"bool"}}]}}]}"#;

fn num(n: f64) -> Value {
    Value::Number(n)
}

fn string(s: &str) -> Value {
    Value::String(s.to_owned())
}

fn object(members: Vec<(&str, Value)>) -> Value {
    Value::Object(
        members
            .into_iter()
            .map(|(k, v)| (k.to_owned(), v))
            .collect(),
    )
}

/// JS `Math.fround`.
fn fround(x: f64) -> f64 {
    x as f32 as f64
}

fn person() -> Value {
    object(vec![
        ("id", num(1234.0)),
        ("name", string("Ada")),
        ("age", num(36.0)),
        ("active", Value::Bool(true)),
    ])
}

fn unicode_person() -> Value {
    object(vec![
        ("id", num(1234.0)),
        ("name", string("Zoë Łukasz 李小龍 🚀 Ñuño")),
        ("age", num(36.0)),
        ("active", Value::Bool(true)),
        ("bio", string(BIO)),
    ])
}

fn event(
    id: f64,
    ts: f64,
    kind: &str,
    user: (f64, &str, [&str; 3]),
    geo: (f64, f64),
    payload: (f64, f64, bool),
) -> Value {
    object(vec![
        ("id", num(id)),
        ("ts", num(ts)),
        ("kind", string(kind)),
        (
            "user",
            object(vec![
                ("id", num(user.0)),
                ("name", string(user.1)),
                (
                    "tags",
                    Value::Array(user.2.iter().map(|t| string(t)).collect()),
                ),
            ]),
        ),
        (
            "geo",
            object(vec![("lat", num(geo.0)), ("lon", num(geo.1))]),
        ),
        (
            "payload",
            object(vec![
                ("count", num(payload.0)),
                ("ratio", num(payload.1)),
                ("ok", Value::Bool(payload.2)),
            ]),
        ),
    ])
}

fn nested_event() -> Value {
    event(
        2874519301.0,
        1718031234567.0,
        "purchase",
        (912345.0, "grace_h", ["beta", "eu", "ios"]),
        (51.507351, -0.127758),
        (4096.0, fround(0.618034), true),
    )
}

/// mulberry32, the PRNG of benchmark/fixtures.js, so batch100 holds the same events as the
/// JS benchmark's.
struct Mulberry32(u32);

impl Mulberry32 {
    fn new(seed: u32) -> Self {
        Mulberry32(seed)
    }

    fn next_u32(&mut self) -> u32 {
        self.0 = self.0.wrapping_add(0x6d2b_79f5);
        let mut t = self.0;
        t = (t ^ (t >> 15)).wrapping_mul(t | 1);
        t ^= t.wrapping_add((t ^ (t >> 7)).wrapping_mul(t | 61));
        t ^ (t >> 14)
    }

    /// JS `random()`: a float in [0, 1).
    fn random(&mut self) -> f64 {
        f64::from(self.next_u32()) / 4294967296.0
    }

    /// `Math.floor(random() * n)`.
    fn below(&mut self, n: f64) -> f64 {
        (self.random() * n).floor()
    }

    fn pick<'a>(&mut self, list: &[&'a str]) -> &'a str {
        list[self.below(list.len() as f64) as usize]
    }
}

/// JS `Math.round(x * 1e6) / 1e6` (`Math.round` takes halves up, towards +infinity).
fn round6(x: f64) -> f64 {
    let scaled = x * 1e6;
    let floor = scaled.floor();
    let rounded = if scaled - floor >= 0.5 {
        floor + 1.0
    } else {
        floor
    };
    rounded / 1e6
}

/// `makeEvents(count)` of benchmark/fixtures.js: varied events, ASCII and non-ASCII names.
fn events(count: usize) -> Value {
    const KINDS: [&str; 5] = ["click", "view", "purchase", "signup", "logout"];
    const USER_NAMES: [&str; 12] = [
        "ada",
        "grace",
        "linus",
        "margaret",
        "ken",
        "barbara",
        "zoë",
        "łukasz",
        "søren",
        "ñuño",
        "李小龍",
        "ярослава",
    ];
    const TAGS: [&str; 12] = [
        "beta", "eu", "us", "ios", "android", "web", "pro", "free", "new", "vip", "apac", "dev",
    ];
    let mut random = Mulberry32::new(0x5eed);
    let mut ts = 1718031234567.0;
    let mut out = Vec::with_capacity(count);
    for _ in 0..count {
        ts += 1.0 + random.below(1000.0);
        // Argument order is the JS evaluation order, so the PRNG is drawn in the same order.
        let id = random.below(4294967296.0);
        let kind = random.pick(&KINDS);
        let user_id = random.below(1e6);
        let name = format!("{}_{}", random.pick(&USER_NAMES), random.below(1000.0));
        let tags = [random.pick(&TAGS), random.pick(&TAGS), random.pick(&TAGS)];
        let lat = round6(random.random() * 180.0 - 90.0);
        let lon = round6(random.random() * 360.0 - 180.0);
        let count = random.below(65536.0);
        let ratio = fround(random.random() * (1.0 - 2f64.powi(-24)));
        let ok = random.random() < 0.5;
        out.push(event(
            id,
            ts,
            kind,
            (user_id, &name, tags),
            (lat, lon),
            (count, ratio, ok),
        ));
    }
    Value::Array(out)
}

struct Fixture {
    /// snake_case, for benchmark names (`encode_nested_event`).
    name: &'static str,
    schema: Schema,
    value: Value,
}

fn fixtures() -> Vec<Fixture> {
    let batch_schema = format!(r#"{{"type":"array","items":{EVENT_SCHEMA}}}"#);
    [
        ("person", PERSON_SCHEMA, person()),
        ("unicode_person", UNICODE_PERSON_SCHEMA, unicode_person()),
        ("nested_event", EVENT_SCHEMA, nested_event()),
        ("batch100", &batch_schema, events(100)),
    ]
    .into_iter()
    .map(|(name, descriptor, value)| Fixture {
        name,
        schema: Schema::compile(descriptor, Limits::default())
            .unwrap_or_else(|e| panic!("{name}: the descriptor does not compile: {e}")),
        value,
    })
    .collect()
}

fn messages(c: &mut Criterion) {
    let mut group = c.benchmark_group("message");
    for Fixture {
        name,
        schema,
        value,
    } in fixtures()
    {
        // Correctness first: the fixture must round-trip through the whole core.
        let bytes = encode_value(&schema, &value)
            .unwrap_or_else(|e| panic!("{name}: encode_value failed: {e}"));
        let back = decode_value(&schema, &bytes)
            .unwrap_or_else(|e| panic!("{name}: decode_value failed: {e}"));
        assert!(
            back.same(&value),
            "{name}: round trip changed the value:\n{value:?}\n{back:?}"
        );

        // Marshalled once, outside the timed loop: the JS side's work is not measured here.
        let marshalled = marshal(&schema, &value).unwrap();
        let mut w = Writer::new();
        marshalled.encode(&schema, &mut w).unwrap();
        assert_eq!(w.as_slice(), &bytes[..], "{name}: Marshalled::encode");

        let mut text = TextBuffer::new();
        let slots = decode(&schema.program, &bytes, &mut [], &mut text).unwrap();
        let mut tape = vec![0.0; slots];
        assert_eq!(
            decode(&schema.program, &bytes, &mut tape, &mut text).unwrap(),
            slots
        );
        eprintln!(
            "{name}: {} bytes, {} tape slots, {} text units",
            bytes.len(),
            slots,
            text.len()
        );

        group.throughput(Throughput::Bytes(bytes.len() as u64));
        group.bench_function(format!("encode_{name}"), |b| {
            b.iter(|| {
                w.clear();
                marshalled.encode(&schema, &mut w).unwrap();
                black_box(w.len())
            })
        });
        // The tape is exactly as long as the message needs, so one call decodes it all.
        group.bench_function(format!("decode_{name}"), |b| {
            b.iter(|| decode(&schema.program, black_box(&bytes), &mut tape, &mut text).unwrap())
        });
    }
    group.finish();
}

fn config() -> Criterion {
    // Short runs: the whole suite stays near a minute and a half on a 2-core machine.
    Criterion::default()
        .measurement_time(Duration::from_secs(2))
        .warm_up_time(Duration::from_millis(500))
        .sample_size(30)
}

criterion_group! {
    name = benches;
    config = config();
    targets = varints, utf8_validation, transcoding, messages
}
criterion_main!(benches);
