//! A plain-Rust value and the marshaller that turns it into a tape (and back), doing in
//! Rust what the JS layer does in Node. It lets `cargo test` check golden vectors and
//! criterion time whole messages without Node.

use crate::codec::{self, Blob, Elem, EncodeInput, Text, TextBuffer, Writer, LATIN1_SLOT};
use crate::engine;
use crate::json::Json;
use crate::schema::Schema;
use crate::types::literal::Literal;
use crate::types::{Def, Node};

#[derive(Debug, Clone, PartialEq)]
pub enum Value {
    Null,
    Bool(bool),
    Number(f64),
    /// A JS bigint (int64 and uint64 values).
    BigInt(i128),
    /// A JS Date, as its milliseconds since the epoch.
    Date(f64),
    String(String),
    Bytes(Vec<u8>),
    /// A typed array: its element type and its memory (little-endian).
    Typed(Elem, Vec<u8>),
    Array(Vec<Value>),
    /// Members in order; an absent optional field is simply not listed.
    Object(Vec<(String, Value)>),
    /// A JS Map: entries in insertion order.
    Map(Vec<(Value, Value)>),
}

const TYPED_NAMES: [(&str, Elem); 7] = [
    ("$float64Array", Elem::F64),
    ("$float32Array", Elem::F32),
    ("$int32Array", Elem::I32),
    ("$uint32Array", Elem::U32),
    ("$int16Array", Elem::I16),
    ("$uint16Array", Elem::U16),
    ("$int8Array", Elem::I8),
];

impl Value {
    /// Reads the JSON form used by `tests/golden.json`: plain JSON, plus
    /// `{"$bytes": "hex"}`, `{"$number": "NaN" | "Infinity" | "-Infinity" | "-0"}`,
    /// `{"$bigint": "-12"}`, `{"$date": ms}`, `{"$map": [[key, value], ...]}` and
    /// `{"$float64Array": [numbers]}` (and the other typed-array names).
    pub fn from_json(j: &Json) -> Result<Value, String> {
        Ok(match j {
            Json::Null => Value::Null,
            Json::Bool(b) => Value::Bool(*b),
            Json::Number(n) => Value::Number(*n),
            Json::String(s) => Value::String(s.clone()),
            Json::Array(items) => Value::Array(
                items
                    .iter()
                    .map(Value::from_json)
                    .collect::<Result<_, _>>()?,
            ),
            Json::Object(members) => {
                if let [(key, v)] = members.as_slice() {
                    if let Some(special) = special(key, v)? {
                        return Ok(special);
                    }
                }
                let mut out = Vec::with_capacity(members.len());
                for (k, v) in members {
                    out.push((k.clone(), Value::from_json(v)?));
                }
                Value::Object(out)
            }
        })
    }

    /// Equality that tells -0 from 0 and holds NaN equal to NaN, as a round trip should.
    pub fn same(&self, other: &Value) -> bool {
        let num = |a: f64, b: f64| a.to_bits() == b.to_bits() || (a.is_nan() && b.is_nan());
        match (self, other) {
            (Value::Number(a), Value::Number(b)) | (Value::Date(a), Value::Date(b)) => num(*a, *b),
            (Value::Array(a), Value::Array(b)) => {
                a.len() == b.len() && a.iter().zip(b).all(|(x, y)| x.same(y))
            }
            (Value::Object(a), Value::Object(b)) => {
                a.len() == b.len()
                    && a.iter()
                        .zip(b)
                        .all(|((ka, va), (kb, vb))| ka == kb && va.same(vb))
            }
            (Value::Map(a), Value::Map(b)) => {
                a.len() == b.len()
                    && a.iter()
                        .zip(b)
                        .all(|((ka, va), (kb, vb))| ka.same(kb) && va.same(vb))
            }
            _ => self == other,
        }
    }
}

fn special(key: &str, v: &Json) -> Result<Option<Value>, String> {
    Ok(Some(match (key, v) {
        ("$bytes", Json::String(s)) => Value::Bytes(from_hex(s)?),
        ("$number", Json::String(s)) => Value::Number(match s.as_str() {
            "NaN" => f64::NAN,
            "Infinity" => f64::INFINITY,
            "-Infinity" => f64::NEG_INFINITY,
            "-0" => -0.0,
            other => return Err(format!("unknown $number {other:?}")),
        }),
        ("$bigint", Json::String(s)) => {
            Value::BigInt(s.parse().map_err(|e| format!("$bigint {s:?}: {e}"))?)
        }
        ("$date", Json::Number(ms)) => Value::Date(*ms),
        ("$map", Json::Array(entries)) => {
            let mut out = Vec::with_capacity(entries.len());
            for e in entries {
                let Json::Array(pair) = e else {
                    return Err("$map entries are [key, value]".into());
                };
                let [k, v] = pair.as_slice() else {
                    return Err("$map entries are [key, value]".into());
                };
                out.push((Value::from_json(k)?, Value::from_json(v)?));
            }
            Value::Map(out)
        }
        (name, Json::Array(items)) => {
            let Some(&(_, elem)) = TYPED_NAMES.iter().find(|(n, _)| *n == name) else {
                return Ok(None);
            };
            let mut bytes = Vec::with_capacity(items.len() * elem.size());
            for item in items {
                let Value::Number(n) = Value::from_json(item)? else {
                    return Err(format!("{name} holds numbers"));
                };
                match elem {
                    Elem::F64 => bytes.extend_from_slice(&n.to_le_bytes()),
                    Elem::F32 => bytes.extend_from_slice(&(n as f32).to_le_bytes()),
                    Elem::I32 => bytes.extend_from_slice(&(n as i32).to_le_bytes()),
                    Elem::U32 => bytes.extend_from_slice(&(n as u32).to_le_bytes()),
                    Elem::I16 => bytes.extend_from_slice(&(n as i16).to_le_bytes()),
                    Elem::U16 => bytes.extend_from_slice(&(n as u16).to_le_bytes()),
                    Elem::I8 => bytes.push(n as i8 as u8),
                    Elem::U8 => bytes.push(n as u8),
                }
            }
            Value::Typed(elem, bytes)
        }
        _ => return Ok(None),
    }))
}

pub fn from_hex(s: &str) -> Result<Vec<u8>, String> {
    let digits: Vec<u8> = s.bytes().filter(|b| !b.is_ascii_whitespace()).collect();
    if !digits.len().is_multiple_of(2) {
        return Err(format!("odd number of hex digits in {s:?}"));
    }
    digits
        .chunks(2)
        .map(|pair| {
            let text = std::str::from_utf8(pair).map_err(|e| e.to_string())?;
            u8::from_str_radix(text, 16).map_err(|e| format!("{e} in {s:?}"))
        })
        .collect()
}

pub fn to_hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// Strings of this many chars or more are chunks of their own in JS, and those whose chars
/// all fit a byte go in the Latin-1 text (lib/runtime.js, LONG_STRING).
const LONG_STRING: usize = 256;

/// A marshalled message: what the JS side passes to the native encoder.
#[derive(Debug, Default, Clone)]
pub struct Marshalled {
    pub tape: Vec<f64>,
    pub text: Vec<u16>,
    /// Long strings of one-byte chars, as JS sends them (`LATIN1_SLOT`).
    pub latin1: Vec<u8>,
    pub blobs: Vec<(Elem, Vec<u8>)>,
}

impl Marshalled {
    pub fn encode(&self, schema: &Schema, w: &mut Writer) -> codec::Result<()> {
        let blobs: Vec<Blob> = self
            .blobs
            .iter()
            .map(|(elem, bytes)| Blob { elem: *elem, bytes })
            .collect();
        let input = EncodeInput {
            tape: &self.tape,
            text: &self.text,
            latin1: &self.latin1,
            blobs: &blobs,
        };
        engine::encode(&schema.program, &input, w)
    }

    fn string(&mut self, s: &str) {
        // A long string whose chars all fit a byte goes in the Latin-1 text, as JS sends
        // it (lib/runtime.js, `longText`).
        if s.chars().count() >= LONG_STRING && s.chars().all(|c| c <= '\u{ff}') {
            let before = self.latin1.len();
            self.latin1.extend(s.chars().map(|c| c as u8));
            self.tape
                .push(LATIN1_SLOT + (self.latin1.len() - before) as f64);
            return;
        }
        let before = self.text.len();
        self.text.extend(s.encode_utf16());
        self.tape.push((self.text.len() - before) as f64);
    }
}

/// Walks `value` in schema order (the JS marshaller's job). Type errors are plain
/// strings: in the product this check is done, with paths, by the JS layer.
pub fn marshal(schema: &Schema, value: &Value) -> Result<Marshalled, String> {
    let mut m = Marshalled::default();
    marshal_node(&schema.root, &schema.defs, value, &mut m)?;
    Ok(m)
}

fn literal_matches(l: &Literal, v: &Value) -> bool {
    match (l, v) {
        (Literal::Null, Value::Null) => true,
        (Literal::Bool(a), Value::Bool(b)) => a == b,
        (Literal::Number(a), Value::Number(b)) => a.to_bits() == b.to_bits(),
        (Literal::String(a), Value::String(b)) => **a == **b,
        _ => false,
    }
}

fn marshal_node(
    node: &Node,
    defs: &[Def],
    value: &Value,
    m: &mut Marshalled,
) -> Result<(), String> {
    match (node, value) {
        (Node::Bool, Value::Bool(b)) => m.tape.push(*b as u8 as f64),
        (Node::Enum { symbols }, Value::String(s)) => match symbols.iter().position(|x| **x == **s)
        {
            Some(i) => m.tape.push(i as f64),
            None => return Err(format!("{s:?} is not one of the enum's values")),
        },
        (
            Node::Uint8
            | Node::Uint16
            | Node::Uint32
            | Node::Int8
            | Node::Int16
            | Node::Int32
            | Node::Int
            | Node::Float32
            | Node::Float64,
            Value::Number(n),
        ) => m.tape.push(*n),
        (Node::Int64, Value::BigInt(n)) => {
            let v = i64::try_from(*n).map_err(|_| format!("{n} is out of int64"))?;
            m.tape.push(f64::from_bits(v as u64));
        }
        (Node::Uint64, Value::BigInt(n)) => {
            let v = u64::try_from(*n).map_err(|_| format!("{n} is out of uint64"))?;
            m.tape.push(f64::from_bits(v));
        }
        (Node::Date, Value::Date(ms)) => m.tape.push(*ms),
        (Node::String, Value::String(s)) => m.string(s),
        (Node::Bytes, Value::Bytes(b)) => m.blobs.push((Elem::U8, b.clone())),
        (Node::Typed(elem), Value::Typed(e, b)) if elem == e => m.blobs.push((*e, b.clone())),
        (Node::Literal(l), v) if literal_matches(l, v) => {}
        (Node::Array { items, .. }, Value::Array(values)) => {
            m.tape.push(values.len() as f64);
            for v in values {
                marshal_node(items, defs, v, m)?;
            }
        }
        (Node::Tuple { items }, Value::Array(values)) if items.len() == values.len() => {
            for (n, v) in items.iter().zip(values) {
                marshal_node(n, defs, v, m)?;
            }
        }
        (Node::Object { fields, .. }, Value::Object(members)) => {
            for f in fields.iter() {
                match (&f.node, members.iter().find(|(k, _)| **k == *f.name)) {
                    (Node::Default { inner, value }, None) => {
                        let v = default_value(inner, value)?;
                        marshal_node(inner, defs, &v, m)?
                    }
                    (Node::Default { inner, .. }, Some((_, v))) => marshal_node(inner, defs, v, m)?,
                    (Node::Optional(_), None) => m.tape.push(0.0),
                    (Node::Optional(inner), Some((_, v))) => {
                        m.tape.push(1.0);
                        marshal_node(inner, defs, v, m)?;
                    }
                    (_, Some((_, v))) => marshal_node(&f.node, defs, v, m)?,
                    (_, None) => return Err(format!("missing field {}", f.name)),
                }
            }
        }
        (Node::Nullable(_), Value::Null) => m.tape.push(0.0),
        (Node::Nullable(inner), v) => {
            m.tape.push(1.0);
            marshal_node(inner, defs, v, m)?;
        }
        (Node::Record { values }, Value::Object(members)) => {
            m.tape.push(members.len() as f64);
            for (k, v) in members {
                m.string(k);
                marshal_node(values, defs, v, m)?;
            }
        }
        (Node::Map { keys, values }, Value::Map(entries)) => {
            m.tape.push(entries.len() as f64);
            for (k, v) in entries {
                marshal_node(keys, defs, k, m)?;
                marshal_node(values, defs, v, m)?;
            }
        }
        (Node::Union { variants }, v) => {
            let mut last = String::from("a union of no variants");
            for (k, variant) in variants.iter().enumerate() {
                let mut attempt = m.clone();
                attempt.tape.push(k as f64);
                match marshal_node(variant, defs, v, &mut attempt) {
                    Ok(()) => {
                        *m = attempt;
                        return Ok(());
                    }
                    Err(e) => last = e,
                }
            }
            return Err(format!("no variant accepts {v:?} ({last})"));
        }
        (Node::Discriminated { key, variants }, Value::Object(members)) => {
            let tag = members.iter().find(|(k, _)| **k == **key).map(|(_, v)| v);
            let k = variants.iter().position(|variant| {
                let Node::Object { fields, .. } = variant else {
                    return false;
                };
                fields.iter().any(|f| match (&f.node, tag) {
                    (Node::Literal(l), Some(t)) => *f.name == **key && literal_matches(l, t),
                    _ => false,
                })
            });
            let Some(k) = k else {
                return Err(format!("no variant has {key} = {tag:?}"));
            };
            m.tape.push(k as f64);
            marshal_node(&variants[k], defs, value, m)?;
        }
        (Node::Ref(id), v) => marshal_node(&defs[*id as usize].node, defs, v, m)?,
        (Node::Json, v) => marshal_json(v, m)?,
        // Constraints are the JS layer's to check on encode; the engine checks them on decode.
        (Node::Checked { inner, .. }, v) => marshal_node(inner, defs, v, m)?,
        (node, value) => return Err(format!("{value:?} does not fit {node:?}")),
    }
    Ok(())
}

/// The value of a default given in its JSON form (what JS's `fromJson` reads), for the
/// types a test gives defaults of.
fn default_value(node: &Node, json: &Json) -> Result<Value, String> {
    Ok(match (node, json) {
        (Node::Int64 | Node::Uint64, Json::String(s)) => {
            Value::BigInt(s.parse().map_err(|e| format!("{s:?}: {e}"))?)
        }
        (Node::Int64 | Node::Uint64, Json::Number(n)) => Value::BigInt(*n as i128),
        (Node::Checked { inner, .. }, json) => return default_value(inner, json),
        (Node::Date, Json::Number(n)) => Value::Date(*n),
        (Node::Array { items, .. }, Json::Array(list)) => Value::Array(
            list.iter()
                .map(|j| default_value(items, j))
                .collect::<Result<_, _>>()?,
        ),
        (Node::Nullable(_), Json::Null) => Value::Null,
        (Node::Nullable(inner), j) => default_value(inner, j)?,
        _ => Value::from_json(json)?,
    })
}

fn marshal_json(v: &Value, m: &mut Marshalled) -> Result<(), String> {
    match v {
        Value::Null => m.tape.push(0.0),
        Value::Bool(b) => m.tape.push(if *b { 2.0 } else { 1.0 }),
        Value::Number(n) if n.is_finite() => m.tape.extend([3.0, *n]),
        Value::String(s) => {
            m.tape.push(4.0);
            m.string(s);
        }
        Value::Array(items) => {
            m.tape.extend([5.0, items.len() as f64]);
            for item in items {
                marshal_json(item, m)?;
            }
        }
        Value::Object(members) => {
            m.tape.extend([6.0, members.len() as f64]);
            for (k, v) in members {
                m.string(k);
                marshal_json(v, m)?;
            }
        }
        other => return Err(format!("{other:?} is not a JSON value")),
    }
    Ok(())
}

/// Encodes `value` to bytes (marshal, then the engine).
pub fn encode_value(schema: &Schema, value: &Value) -> Result<Vec<u8>, String> {
    let m = marshal(schema, value)?;
    let mut w = Writer::new();
    m.encode(schema, &mut w).map_err(|e| e.to_string())?;
    Ok(w.as_slice().to_vec())
}

/// Decodes bytes to a `Value` (the engine, then what the JS layer does with the tape).
pub fn decode_value(schema: &Schema, bytes: &[u8]) -> codec::Result<Value> {
    decode_value_text(schema, bytes, bytes.len() >= engine::SPLIT_TEXT_MIN_INPUT)
}

/// `decode_value` with the text split or not (`engine::decode_text`).
pub fn decode_value_text(schema: &Schema, bytes: &[u8], split: bool) -> codec::Result<Value> {
    let mut tape = vec![0.0; 16];
    let mut text = TextBuffer::new();
    let needed = engine::decode_text(&schema.program, bytes, &mut tape, &mut text, split)?.slots;
    if needed > tape.len() {
        tape.resize(needed, 0.0);
        engine::decode_text(&schema.program, bytes, &mut tape, &mut text, split)?;
    }
    let mut cursor = Unmarshal::new(&tape, texts(&text), bytes, &schema.defs);
    Ok(cursor.node(&schema.root))
}

/// Decodes the whole, sound frames of `input` from `start` on in one batch, as the JS
/// layer does (`engine::decode_frames`, then the values one after another from the one
/// tape and text), with a tape of `tape_slots` and batches cut at `text_units`.
pub fn decode_frames_values(
    schema: &Schema,
    input: &[u8],
    start: usize,
    batch: engine::FrameBatch,
    tape_slots: usize,
) -> (Vec<Value>, engine::Frames) {
    let mut tape = vec![0.0; tape_slots];
    let mut text = TextBuffer::new();
    let frames = engine::decode_frames(&schema.program, input, start, batch, &mut tape, &mut text);
    let mut cursor = Unmarshal::new(&tape, texts(&text), input, &schema.defs);
    let values = (0..frames.count)
        .map(|_| cursor.node(&schema.root))
        .collect();
    assert_eq!(
        cursor.slot, frames.slots,
        "the batch's slots are its messages'"
    );
    assert_eq!(
        cursor.text.read,
        text.len(),
        "the batch's text is its messages'"
    );
    (values, frames)
}

/// The texts a decode's string slots slice, as the JS layer gets them (src/binding/mod.rs,
/// `split_text`) and reads them (lib/codegen.js, `text()`).
struct Texts {
    /// What non-negative slots slice (the Latin-1 text, or the one text), from `unit`.
    units: Vec<u16>,
    unit: usize,
    /// What negative slots slice (a split message's wide strings; otherwise the same
    /// text), from `wide_unit`.
    wide: Vec<u16>,
    wide_unit: usize,
    /// A chunked text's further chunks, in the order chunk-switch slots move to them.
    more: std::collections::VecDeque<(bool, Vec<u16>)>,
    /// Units read in all.
    read: usize,
    /// Kept strings, by id (`KEPT_SLOT`).
    kept: Vec<String>,
}

fn texts(text: &TextBuffer) -> Texts {
    let widen = |b: &[u8]| b.iter().map(|&c| c as u16).collect::<Vec<u16>>();
    let (units, wide, more) = match text.text() {
        Text::Latin1(b) => (widen(b), Vec::new(), Vec::new()),
        Text::Utf16(u) => (u.to_vec(), u.to_vec(), Vec::new()),
        Text::Split(b, u) => (widen(b), u.to_vec(), Vec::new()),
        Text::Chunked(b, u, cuts) => {
            let codec::ChunkRanges {
                first,
                first_wide,
                more: chunks,
            } = codec::chunk_ranges(b.len(), u.len(), cuts);
            let more = chunks
                .into_iter()
                .map(|(w, r)| (w, if w { u[r].to_vec() } else { widen(&b[r]) }))
                .collect();
            (widen(&b[first]), u[first_wide].to_vec(), more)
        }
    };
    Texts {
        units,
        unit: 0,
        wide,
        wide_unit: 0,
        more: more.into(),
        read: 0,
        kept: Vec::new(),
    }
}

impl Texts {
    /// The string of tape slot `slot`. Unlike a JS slice, it panics where a slot reaches
    /// past its chunk, or a switch is to a chunk of the other text.
    fn string(&mut self, slot: f64) -> String {
        // A kept string: the first (its id and length), or a repeat (its id), as JS reads
        // them (lib/codegen.js, `text()`; codec::kept_slot, codec::keep_slot).
        if slot <= -4.0 * codec::KEPT_SLOT {
            let v = (-slot - 4.0 * codec::KEPT_SLOT) as usize;
            let s = self.string((v % 32) as f64);
            let id = v / 32;
            if self.kept.len() <= id {
                self.kept.resize(id + 1, String::new());
            }
            self.kept[id] = s.clone();
            return s;
        }
        if slot <= -3.0 * codec::KEPT_SLOT {
            return self.kept[(-slot - 3.0 * codec::KEPT_SLOT) as usize].clone();
        }
        let (wide, len) = if slot >= 0.0 {
            (false, slot as usize)
        } else if slot > -codec::CHUNK_SLOT {
            (true, -slot as usize)
        } else {
            let wide = slot <= -2.0 * codec::CHUNK_SLOT;
            let (chunk_wide, chunk) = self.more.pop_front().expect("a chunk to switch to");
            assert_eq!(chunk_wide, wide, "the next chunk is of the text switched");
            let len = (-slot - if wide { 2.0 } else { 1.0 } * codec::CHUNK_SLOT) as usize;
            if wide {
                (self.wide, self.wide_unit) = (chunk, 0);
            } else {
                (self.units, self.unit) = (chunk, 0);
            }
            (wide, len)
        };
        self.read += len;
        let (units, at) = if wide {
            (&self.wide, &mut self.wide_unit)
        } else {
            (&self.units, &mut self.unit)
        };
        *at += len;
        String::from_utf16_lossy(&units[*at - len..*at])
    }
}

struct Unmarshal<'a> {
    tape: &'a [f64],
    slot: usize,
    text: Texts,
    input: &'a [u8],
    defs: &'a [Def],
    /// The key table of the message being read (`key`).
    keys: Vec<String>,
}

impl<'a> Unmarshal<'a> {
    fn new(tape: &'a [f64], text: Texts, input: &'a [u8], defs: &'a [Def]) -> Self {
        Unmarshal {
            tape,
            slot: 0,
            text,
            input,
            defs,
            keys: Vec::new(),
        }
    }

    fn next(&mut self) -> f64 {
        self.slot += 1;
        self.tape[self.slot - 1]
    }

    fn string(&mut self) -> String {
        let slot = self.next();
        self.text.string(slot)
    }

    fn node(&mut self, node: &Node) -> Value {
        match node {
            Node::Bool => Value::Bool(self.next() != 0.0),
            Node::Enum { symbols } => Value::String(symbols[self.next() as usize].to_string()),
            Node::String => Value::String(self.string()),
            Node::Bytes => {
                let offset = self.next() as usize;
                let len = self.next() as usize;
                Value::Bytes(self.input[offset..offset + len].to_vec())
            }
            Node::Typed(elem) => {
                let offset = self.next() as usize;
                let len = self.next() as usize * elem.size();
                Value::Typed(*elem, self.input[offset..offset + len].to_vec())
            }
            Node::Int64 => Value::BigInt(self.next().to_bits() as i64 as i128),
            Node::Uint64 => Value::BigInt(self.next().to_bits() as i128),
            Node::Date => Value::Date(self.next()),
            Node::Literal(l) => match l {
                Literal::Null => Value::Null,
                Literal::Bool(b) => Value::Bool(*b),
                Literal::Number(n) => Value::Number(*n),
                Literal::String(s) => Value::String(s.to_string()),
            },
            Node::Array { items, .. } => {
                let count = self.next() as usize;
                Value::Array((0..count).map(|_| self.node(items)).collect())
            }
            Node::Tuple { items } => Value::Array(items.iter().map(|n| self.node(n)).collect()),
            Node::Object { fields, .. } => {
                let mut members = Vec::with_capacity(fields.len());
                for f in fields.iter() {
                    if let Node::Optional(inner) = &f.node {
                        if self.next() != 0.0 {
                            members.push((f.name.to_string(), self.node(inner)));
                        }
                    } else {
                        members.push((f.name.to_string(), self.node(&f.node)));
                    }
                }
                Value::Object(members)
            }
            Node::Nullable(inner) | Node::Optional(inner) => {
                if self.next() != 0.0 {
                    self.node(inner)
                } else {
                    Value::Null
                }
            }
            Node::Default { inner, .. } | Node::Checked { inner, .. } => self.node(inner),
            Node::Record { values } => {
                let count = self.next() as usize;
                // The shape slot (src/types/json.rs, RecordShape): JS's business.
                if crate::types::json::has_shape_slot(count) {
                    self.next();
                }
                let mut members = Vec::with_capacity(count);
                for _ in 0..count {
                    let k = self.key();
                    members.push((k, self.node(values)));
                }
                Value::Object(members)
            }
            Node::Map { keys, values } => {
                let count = self.next() as usize;
                let _offset = self.next();
                let mut entries = Vec::with_capacity(count);
                for _ in 0..count {
                    let k = self.node(keys);
                    entries.push((k, self.node(values)));
                }
                Value::Map(entries)
            }
            Node::Union { variants } | Node::Discriminated { variants, .. } => {
                let k = self.next() as usize;
                self.node(&variants[k])
            }
            Node::Ref(id) => {
                let defs = self.defs;
                self.node(&defs[*id as usize].node)
            }
            Node::Json => self.json(),
            _ => Value::Number(self.next()),
        }
    }

    /// A record's or a json object's key: a key id, or a key not kept (-1) or a new key
    /// (-2 - id) then its text slot, or a record's array index `n` as -2^32 - n
    /// (src/types/json.rs). A message's first new key has id 0, where the table starts
    /// again.
    fn key(&mut self) -> String {
        let id = self.next();
        if id >= 0.0 {
            return self.keys[id as usize].clone();
        }
        // A record's key that is an array index, as its number.
        if id <= crate::types::json::INDEX_KEY {
            return (crate::types::json::INDEX_KEY - id).to_string();
        }
        let k = self.string();
        if id != -1.0 {
            let id = (-2.0 - id) as usize;
            if id == 0 {
                self.keys.clear();
            }
            assert_eq!(id, self.keys.len(), "new keys are numbered in order");
            self.keys.push(k.clone());
        }
        k
    }

    /// A json value (src/types/json.rs).
    fn json(&mut self) -> Value {
        match self.next() as u32 {
            0 => Value::Null,
            1 => Value::Bool(false),
            2 => Value::Bool(true),
            3 => Value::Number(self.next()),
            4 => Value::String(self.string()),
            5 => {
                let n = self.next() as usize;
                Value::Array((0..n).map(|_| self.json()).collect())
            }
            // An array of numbers only, each without its token.
            8 => {
                let n = self.next() as usize;
                Value::Array((0..n).map(|_| Value::Number(self.next())).collect())
            }
            _ => {
                let n = self.next() as usize;
                // The shape slot (src/types/json.rs): JS's business.
                if crate::types::json::has_shape_slot(n) {
                    self.next();
                }
                let mut members = Vec::with_capacity(n);
                for _ in 0..n {
                    let k = self.key();
                    members.push((k, self.json()));
                }
                Value::Object(members)
            }
        }
    }
}
