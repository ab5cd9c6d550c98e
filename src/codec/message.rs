//! Whole messages: the walk over a compiled `Schema` that writes or reads every byte.
//!
//! Values cross from JS in bulk, as a *tape*: JS walks the value in schema order and
//! writes one f64 per slot; strings travel as UTF-16 code units, byte arrays as slices.
//! Slots, in schema order:
//!
//! | node                | encode tape                | decode tape                  |
//! |---------------------|----------------------------|------------------------------|
//! | bool                | 0 or 1                     | 0 or 1                       |
//! | integers, floats    | the number                 | the number                   |
//! | enum                | the index                  | the index                    |
//! | string              | length in UTF-16 units     | length in UTF-16 units       |
//! | bytes               | (none: next blob)          | offset in input, then length |
//! | array               | count, then the items      | count, then the items        |
//! | object              | the fields                 | the fields                   |
//! | optional / nullable | 0, or 1 then the value     | 0, or 1 then the value       |
//!
//! The JS side validates types and ranges as it writes the tape (it must look at each
//! value anyway); this side checks what only the bytes can tell (lone surrogates on
//! encode, everything on decode) and never trusts the tape for memory safety.

use super::error::{Error, ErrorKind, Fault, LimitKind, Result};
use super::reader::Reader;
use super::text::{write_string, TextBuffer};
use super::varint::{unzigzag, zigzag};
use super::writer::Writer;
use crate::schema::{Limits, Node, Schema, MAX_JS_STRING_LENGTH};

/// What JS marshalled for one message (or one batch).
pub struct EncodeInput<'a> {
    pub tape: &'a [f64],
    pub text: &'a [u16],
    pub blobs: &'a [&'a [u8]],
}

/// Encodes the marshalled message into `w` (appending).
pub fn encode(schema: &Schema, input: &EncodeInput<'_>, w: &mut Writer) -> Result<()> {
    let mut e = Encoder {
        input,
        slot: 0,
        unit: 0,
        blob: 0,
        w,
    };
    e.node(&schema.root)
}

struct Encoder<'a, 'w> {
    input: &'a EncodeInput<'a>,
    slot: usize,
    unit: usize,
    blob: usize,
    w: &'w mut Writer,
}

impl Encoder<'_, '_> {
    #[inline]
    fn next(&mut self) -> Result<f64> {
        match self.input.tape.get(self.slot) {
            Some(&v) => {
                self.slot += 1;
                Ok(v)
            }
            None => Err(self.mismatch()),
        }
    }

    #[cold]
    fn mismatch(&self) -> Error {
        Error::new(ErrorKind::TapeMismatch { slot: self.slot })
    }

    fn node(&mut self, node: &Node) -> Result<()> {
        match node {
            Node::Bool => {
                let v = self.next()?;
                self.w.u8((v != 0.0) as u8);
            }
            // JS checked ranges; `as` saturates, so even a bad tape cannot wrap.
            Node::Uint8 => {
                let v = self.next()?;
                self.w.u8(v as u8);
            }
            Node::Int8 => {
                let v = self.next()?;
                self.w.u8(v as i8 as u8);
            }
            Node::Uint16 | Node::Uint32 => {
                let v = self.next()?;
                self.w.varint(v as u32);
            }
            Node::Int16 | Node::Int32 => {
                let v = self.next()?;
                self.w.varint(zigzag(v as i32));
            }
            Node::Float32 => {
                let v = self.next()?;
                self.w.f32(v as f32);
            }
            Node::Float64 => {
                let v = self.next()?;
                self.w.f64(v);
            }
            Node::Enum { symbols } => {
                let v = self.next()?;
                if !(v >= 0.0 && v < symbols.len() as f64) {
                    return Err(self.mismatch());
                }
                self.w.varint(v as u32);
            }
            Node::String => {
                let len = self.next()? as usize;
                let Some(units) = self.input.text.get(self.unit..self.unit + len) else {
                    return Err(self.mismatch());
                };
                self.unit += len;
                write_string(self.w, units)?;
            }
            Node::Bytes => {
                let Some(blob) = self.input.blobs.get(self.blob) else {
                    return Err(self.mismatch());
                };
                self.blob += 1;
                let len = u32::try_from(blob.len()).map_err(|_| self.mismatch())?;
                self.w.varint(len);
                self.w.bytes(blob);
            }
            Node::Array { items, .. } => {
                let count = self.next()?;
                if !(0.0..=u32::MAX as f64).contains(&count) {
                    return Err(self.mismatch());
                }
                let count = count as u32;
                self.w.varint(count);
                for i in 0..count {
                    self.node(items).map_err(|e| e.within_index(i))?;
                }
            }
            Node::Object { fields } => {
                for f in fields.iter() {
                    self.node(&f.node).map_err(|e| e.within_field(&f.name))?;
                }
            }
            Node::Optional(inner) | Node::Nullable(inner) => {
                if self.next()? != 0.0 {
                    self.w.u8(1);
                    self.node(inner)?;
                } else {
                    self.w.u8(0);
                }
            }
        }
        Ok(())
    }
}

/// Decodes one whole message from `input` into `tape` and `text` (`text` is cleared
/// first). Returns the number of tape slots the message needs: when that is more than
/// `tape.len()`, only the first `tape.len()` were written, and the caller should call
/// again with a tape that long (the N-API layer writes straight into JS memory this way,
/// with no copy, and grows the tape only for unusually large messages).
/// Bytes left after the message are `TrailingBytes`.
pub fn decode(
    schema: &Schema,
    input: &[u8],
    tape: &mut [f64],
    text: &mut TextBuffer,
) -> Result<usize> {
    text.clear();
    let mut d = Decoder {
        r: Reader::new(input),
        tape,
        slots: 0,
        text,
        limits: schema.limits,
    };
    d.node(&schema.root)?;
    if d.r.remaining() != 0 {
        return Err(Error::new(ErrorKind::TrailingBytes {
            offset: d.r.offset(),
        }));
    }
    if d.text.len() > MAX_JS_STRING_LENGTH as usize {
        return Err(Error::new(ErrorKind::LimitExceeded {
            offset: 0,
            what: LimitKind::TotalText,
            declared: d.text.len() as u64,
            limit: MAX_JS_STRING_LENGTH as u64,
        }));
    }
    Ok(d.slots)
}

struct Decoder<'a, 't> {
    r: Reader<'a>,
    tape: &'t mut [f64],
    /// Slots produced so far; past `tape.len()` they are only counted.
    slots: usize,
    text: &'t mut TextBuffer,
    limits: Limits,
}

impl Decoder<'_, '_> {
    #[inline]
    fn push(&mut self, v: f64) {
        if let Some(slot) = self.tape.get_mut(self.slots) {
            *slot = v;
        }
        self.slots += 1;
    }

    /// A length or count, checked against its limit.
    #[inline]
    fn length(&mut self, what: LimitKind, limit: u32) -> Result<u32> {
        let offset = self.r.offset();
        let n = self.r.varint()?;
        if n > limit {
            return Err(Error::new(ErrorKind::LimitExceeded {
                offset,
                what,
                declared: n as u64,
                limit: limit as u64,
            }));
        }
        Ok(n)
    }

    fn node(&mut self, node: &Node) -> Result<()> {
        match node {
            Node::Bool => {
                let b = self.r.u8()?;
                if b > 1 {
                    return Err(Error::malformed(self.r.offset() - 1, Fault::BadBool(b)));
                }
                self.push(b as f64);
            }
            Node::Uint8 => {
                let b = self.r.u8()?;
                self.push(b as f64);
            }
            Node::Int8 => {
                let b = self.r.u8()?;
                self.push(b as i8 as f64);
            }
            Node::Uint16 => {
                let offset = self.r.offset();
                let v = self.r.varint()?;
                if v > u16::MAX as u32 {
                    return Err(Error::malformed(offset, Fault::VarintOutOfRange));
                }
                self.push(v as f64);
            }
            Node::Uint32 => {
                let v = self.r.varint()?;
                self.push(v as f64);
            }
            Node::Int16 => {
                let offset = self.r.offset();
                let v = unzigzag(self.r.varint()?);
                if i16::try_from(v).is_err() {
                    return Err(Error::malformed(offset, Fault::VarintOutOfRange));
                }
                self.push(v as f64);
            }
            Node::Int32 => {
                let v = unzigzag(self.r.varint()?);
                self.push(v as f64);
            }
            Node::Float32 => {
                let v = self.r.f32()?;
                self.push(v as f64);
            }
            Node::Float64 => {
                let v = self.r.f64()?;
                self.push(v);
            }
            Node::Enum { symbols } => {
                let offset = self.r.offset();
                let index = self.r.varint()?;
                // The compiler caps the number of symbols at u32::MAX.
                let count = symbols.len() as u32;
                if index >= count {
                    return Err(Error::malformed(offset, Fault::EnumIndex { index, count }));
                }
                self.push(index as f64);
            }
            Node::String => {
                let len = self.length(LimitKind::StringBytes, self.limits.max_string_bytes)?;
                let offset = self.r.offset();
                let bytes = self.r.take(len as usize)?;
                let units = self.text.push_utf8(bytes, offset)?;
                self.push(units as f64);
            }
            Node::Bytes => {
                let len = self.length(LimitKind::BytesLength, self.limits.max_bytes_length)?;
                let offset = self.r.offset();
                self.r.take(len as usize)?;
                self.push(offset as f64);
                self.push(len as f64);
            }
            Node::Array {
                items,
                min_item_bytes,
            } => {
                let count = self.length(LimitKind::ArrayLength, self.limits.max_array_length)?;
                // Checked before any work, so a huge count in a short input costs nothing.
                let needed = count as u64 * *min_item_bytes as u64;
                if needed > self.r.remaining() as u64 {
                    let short = needed - self.r.remaining() as u64;
                    return Err(Error::truncated(
                        self.r.offset(),
                        short.min(usize::MAX as u64) as usize,
                    ));
                }
                self.push(count as f64);
                for i in 0..count {
                    self.node(items).map_err(|e| e.within_index(i))?;
                }
            }
            Node::Object { fields } => {
                for f in fields.iter() {
                    self.node(&f.node).map_err(|e| e.within_field(&f.name))?;
                }
            }
            Node::Optional(inner) | Node::Nullable(inner) => match self.r.u8()? {
                0 => self.push(0.0),
                1 => {
                    self.push(1.0);
                    self.node(inner)?;
                }
                b => return Err(Error::malformed(self.r.offset() - 1, Fault::BadPresence(b))),
            },
        }
        Ok(())
    }
}
