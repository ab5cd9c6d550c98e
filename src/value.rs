//! A plain-Rust value and the marshaller that turns it into a tape (and back), doing in
//! Rust what the generated JS does in Node. It lets `cargo test` check golden vectors and
//! criterion time whole messages without Node.

use crate::codec::{self, EncodeInput, Text, TextBuffer, Writer};
use crate::schema::{json::Json, Node, Schema};

#[derive(Debug, Clone, PartialEq)]
pub enum Value {
    Null,
    Bool(bool),
    Number(f64),
    String(String),
    Bytes(Vec<u8>),
    Array(Vec<Value>),
    /// Members in order; an absent optional field is simply not listed.
    Object(Vec<(String, Value)>),
}

impl Value {
    /// Reads the JSON form used by `tests/golden.json`: plain JSON, plus
    /// `{"$bytes": "hex"}` for byte arrays and `{"$number": "NaN" | "Infinity" |
    /// "-Infinity" | "-0"}` for numbers JSON cannot spell.
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
                if let [(key, Json::String(s))] = members.as_slice() {
                    match key.as_str() {
                        "$bytes" => return from_hex(s).map(Value::Bytes),
                        "$number" => {
                            return Ok(Value::Number(match s.as_str() {
                                "NaN" => f64::NAN,
                                "Infinity" => f64::INFINITY,
                                "-Infinity" => f64::NEG_INFINITY,
                                "-0" => -0.0,
                                other => return Err(format!("unknown $number {other:?}")),
                            }))
                        }
                        _ => {}
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
        match (self, other) {
            (Value::Number(a), Value::Number(b)) => {
                a.to_bits() == b.to_bits() || (a.is_nan() && b.is_nan())
            }
            (Value::Array(a), Value::Array(b)) => {
                a.len() == b.len() && a.iter().zip(b).all(|(x, y)| x.same(y))
            }
            (Value::Object(a), Value::Object(b)) => {
                a.len() == b.len()
                    && a.iter()
                        .zip(b)
                        .all(|((ka, va), (kb, vb))| ka == kb && va.same(vb))
            }
            _ => self == other,
        }
    }
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

/// A marshalled message: what the JS side passes to the native encoder.
#[derive(Debug, Default)]
pub struct Marshalled {
    pub tape: Vec<f64>,
    pub text: Vec<u16>,
    pub blobs: Vec<Vec<u8>>,
}

impl Marshalled {
    pub fn encode(&self, schema: &Schema, w: &mut Writer) -> codec::Result<()> {
        let blobs: Vec<&[u8]> = self.blobs.iter().map(Vec::as_slice).collect();
        let input = EncodeInput {
            tape: &self.tape,
            text: &self.text,
            blobs: &blobs,
        };
        codec::encode(schema, &input, w)
    }
}

/// Walks `value` in schema order (the JS marshaller's job). Type errors are plain
/// strings: in the product this check is done, with paths, by the JS layer.
pub fn marshal(schema: &Schema, value: &Value) -> Result<Marshalled, String> {
    let mut m = Marshalled::default();
    marshal_node(&schema.root, value, &mut m)?;
    Ok(m)
}

fn marshal_node(node: &Node, value: &Value, m: &mut Marshalled) -> Result<(), String> {
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
            | Node::Float32
            | Node::Float64,
            Value::Number(n),
        ) => m.tape.push(*n),
        (Node::String, Value::String(s)) => {
            let before = m.text.len();
            m.text.extend(s.encode_utf16());
            m.tape.push((m.text.len() - before) as f64);
        }
        (Node::Bytes, Value::Bytes(b)) => m.blobs.push(b.clone()),
        (Node::Array { items, .. }, Value::Array(values)) => {
            m.tape.push(values.len() as f64);
            for v in values {
                marshal_node(items, v, m)?;
            }
        }
        (Node::Object { fields }, Value::Object(members)) => {
            for f in fields.iter() {
                match (&f.node, members.iter().find(|(k, _)| **k == *f.name)) {
                    (Node::Optional(_), None) => m.tape.push(0.0),
                    (Node::Optional(inner), Some((_, v))) => {
                        m.tape.push(1.0);
                        marshal_node(inner, v, m)?;
                    }
                    (_, Some((_, v))) => marshal_node(&f.node, v, m)?,
                    (_, None) => return Err(format!("missing field {}", f.name)),
                }
            }
        }
        (Node::Nullable(_), Value::Null) => m.tape.push(0.0),
        (Node::Nullable(inner), v) => {
            m.tape.push(1.0);
            marshal_node(inner, v, m)?;
        }
        (node, value) => return Err(format!("{value:?} does not fit {node:?}")),
    }
    Ok(())
}

/// Encodes `value` to bytes (marshal, then the codec).
pub fn encode_value(schema: &Schema, value: &Value) -> Result<Vec<u8>, String> {
    let m = marshal(schema, value)?;
    let mut w = Writer::new();
    m.encode(schema, &mut w).map_err(|e| e.to_string())?;
    Ok(w.as_slice().to_vec())
}

/// Decodes bytes to a `Value` (the codec, then what the generated JS does with the tape).
pub fn decode_value(schema: &Schema, bytes: &[u8]) -> codec::Result<Value> {
    let mut tape = vec![0.0; 16];
    let mut text = TextBuffer::new();
    let needed = codec::decode(schema, bytes, &mut tape, &mut text)?;
    if needed > tape.len() {
        tape.resize(needed, 0.0);
        codec::decode(schema, bytes, &mut tape, &mut text)?;
    }
    let units: Vec<u16> = match text.text() {
        Text::Latin1(b) => b.iter().map(|&c| c as u16).collect(),
        Text::Utf16(u) => u.to_vec(),
    };
    let mut cursor = Unmarshal {
        tape: &tape,
        slot: 0,
        units: &units,
        unit: 0,
        input: bytes,
    };
    Ok(cursor.node(&schema.root))
}

struct Unmarshal<'a> {
    tape: &'a [f64],
    slot: usize,
    units: &'a [u16],
    unit: usize,
    input: &'a [u8],
}

impl Unmarshal<'_> {
    fn next(&mut self) -> f64 {
        self.slot += 1;
        self.tape[self.slot - 1]
    }

    fn node(&mut self, node: &Node) -> Value {
        match node {
            Node::Bool => Value::Bool(self.next() != 0.0),
            Node::Enum { symbols } => Value::String(symbols[self.next() as usize].to_string()),
            Node::String => {
                let len = self.next() as usize;
                self.unit += len;
                Value::String(String::from_utf16_lossy(
                    &self.units[self.unit - len..self.unit],
                ))
            }
            Node::Bytes => {
                let offset = self.next() as usize;
                let len = self.next() as usize;
                Value::Bytes(self.input[offset..offset + len].to_vec())
            }
            Node::Array { items, .. } => {
                let count = self.next() as usize;
                Value::Array((0..count).map(|_| self.node(items)).collect())
            }
            Node::Object { fields } => {
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
            _ => Value::Number(self.next()),
        }
    }
}
