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
use crate::schema::{Limits, Op, Schema, Step, MAX_JS_STRING_LENGTH};

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
    e.block(&schema.program, 0, schema.program.len())
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

    /// Runs `program[start..end]`; the error of a step gets that step's path.
    fn block(&mut self, program: &[Step], start: usize, end: usize) -> Result<()> {
        let mut pc = start;
        while pc < end {
            let step = &program[pc];
            match step.op {
                Op::Array { end: items_end, .. } => {
                    let count = self.next().map_err(|e| e.at(&step.fields))?;
                    if !(0.0..=u32::MAX as f64).contains(&count) {
                        return Err(self.mismatch().at(&step.fields));
                    }
                    let count = count as u32;
                    self.w.varint(count);
                    for i in 0..count {
                        self.block(program, pc + 1, items_end as usize)
                            .map_err(|e| e.within_index(i).at(&step.fields))?;
                    }
                    pc = items_end as usize;
                    continue;
                }
                Op::Presence { end: skip } => {
                    if self.next().map_err(|e| e.at(&step.fields))? == 0.0 {
                        self.w.u8(0);
                        pc = skip as usize;
                        continue;
                    }
                    self.w.u8(1);
                }
                op => self.leaf(op).map_err(|e| e.at(&step.fields))?,
            }
            pc += 1;
        }
        Ok(())
    }

    #[inline(always)]
    fn leaf(&mut self, op: Op) -> Result<()> {
        let v = match op {
            Op::Bytes => {
                let Some(blob) = self.input.blobs.get(self.blob) else {
                    return Err(self.mismatch());
                };
                self.blob += 1;
                let len = u32::try_from(blob.len()).map_err(|_| self.mismatch())?;
                self.w.varint(len);
                self.w.bytes(blob);
                return Ok(());
            }
            _ => self.next()?,
        };
        match op {
            Op::Bool => self.w.u8((v != 0.0) as u8),
            // JS checked ranges; `as` saturates, so even a bad tape cannot wrap.
            Op::Uint8 => self.w.u8(v as u8),
            Op::Int8 => self.w.u8(v as i8 as u8),
            Op::Uint16 | Op::Uint32 => self.w.varint(v as u32),
            Op::Int16 | Op::Int32 => self.w.varint(zigzag(v as i32)),
            Op::Float32 => self.w.f32(v as f32),
            Op::Float64 => self.w.f64(v),
            Op::Enum { count } => {
                if !(v >= 0.0 && v < count as f64) {
                    return Err(self.mismatch());
                }
                self.w.varint(v as u32);
            }
            Op::String => {
                let len = v as usize;
                let end = self.unit.checked_add(len).ok_or_else(|| self.mismatch())?;
                let Some(units) = self.input.text.get(self.unit..end) else {
                    return Err(self.mismatch());
                };
                self.unit += len;
                write_string(self.w, units)?;
            }
            Op::Bytes | Op::Array { .. } | Op::Presence { .. } => {
                unreachable!("handled by the caller")
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
    d.block(&schema.program, 0, schema.program.len())?;
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

    /// Runs `program[start..end]`; the error of a step gets that step's path.
    fn block(&mut self, program: &[Step], start: usize, end: usize) -> Result<()> {
        let mut pc = start;
        while pc < end {
            let step = &program[pc];
            match step.op {
                Op::Array {
                    end: items_end,
                    min_item_bytes,
                } => {
                    let count = self.count(min_item_bytes).map_err(|e| e.at(&step.fields))?;
                    for i in 0..count {
                        self.block(program, pc + 1, items_end as usize)
                            .map_err(|e| e.within_index(i).at(&step.fields))?;
                    }
                    pc = items_end as usize;
                    continue;
                }
                Op::Presence { end: skip } => match self.r.u8().map_err(|e| e.at(&step.fields))? {
                    0 => {
                        self.push(0.0);
                        pc = skip as usize;
                        continue;
                    }
                    1 => self.push(1.0),
                    b => {
                        return Err(Error::malformed(self.r.offset() - 1, Fault::BadPresence(b))
                            .at(&step.fields))
                    }
                },
                op => self.leaf(op).map_err(|e| e.at(&step.fields))?,
            }
            pc += 1;
        }
        Ok(())
    }

    /// An array's count: within its limit, and with at least `min_item_bytes` per item
    /// left in the input, checked before any work so a huge count in a short input costs
    /// nothing.
    #[inline]
    fn count(&mut self, min_item_bytes: u32) -> Result<u32> {
        let count = self.length(LimitKind::ArrayLength, self.limits.max_array_length)?;
        let needed = count as u64 * min_item_bytes as u64;
        if needed > self.r.remaining() as u64 {
            let short = needed - self.r.remaining() as u64;
            return Err(Error::truncated(
                self.r.offset(),
                short.min(usize::MAX as u64) as usize,
            ));
        }
        self.push(count as f64);
        Ok(count)
    }

    #[inline(always)]
    fn leaf(&mut self, op: Op) -> Result<()> {
        match op {
            Op::Bool => {
                let b = self.r.u8()?;
                if b > 1 {
                    return Err(Error::malformed(self.r.offset() - 1, Fault::BadBool(b)));
                }
                self.push(b as f64);
            }
            Op::Uint8 => {
                let b = self.r.u8()?;
                self.push(b as f64);
            }
            Op::Int8 => {
                let b = self.r.u8()?;
                self.push(b as i8 as f64);
            }
            Op::Uint16 => {
                let offset = self.r.offset();
                let v = self.r.varint()?;
                if v > u16::MAX as u32 {
                    return Err(Error::malformed(offset, Fault::VarintOutOfRange));
                }
                self.push(v as f64);
            }
            Op::Uint32 => {
                let v = self.r.varint()?;
                self.push(v as f64);
            }
            Op::Int16 => {
                let offset = self.r.offset();
                let v = unzigzag(self.r.varint()?);
                if i16::try_from(v).is_err() {
                    return Err(Error::malformed(offset, Fault::VarintOutOfRange));
                }
                self.push(v as f64);
            }
            Op::Int32 => {
                let v = unzigzag(self.r.varint()?);
                self.push(v as f64);
            }
            Op::Float32 => {
                let v = self.r.f32()?;
                self.push(v as f64);
            }
            Op::Float64 => {
                let v = self.r.f64()?;
                self.push(v);
            }
            Op::Enum { count } => {
                let offset = self.r.offset();
                let index = self.r.varint()?;
                if index >= count {
                    return Err(Error::malformed(offset, Fault::EnumIndex { index, count }));
                }
                self.push(index as f64);
            }
            Op::String => {
                let len = self.length(LimitKind::StringBytes, self.limits.max_string_bytes)?;
                let offset = self.r.offset();
                let bytes = self.r.take(len as usize)?;
                let units = self.text.push_utf8(bytes, offset)?;
                self.push(units as f64);
            }
            Op::Bytes => {
                let len = self.length(LimitKind::BytesLength, self.limits.max_bytes_length)?;
                let offset = self.r.offset();
                self.r.take(len as usize)?;
                self.push(offset as f64);
                self.push(len as f64);
            }
            Op::Array { .. } | Op::Presence { .. } => unreachable!("handled by the caller"),
        }
        Ok(())
    }
}
