//! `bytes`: varint length, then the bytes. JS passes the caller's Uint8Array and the
//! engine copies it once; decode gives JS the offset and length in the input, and JS
//! copies them into a new Uint8Array that shares no memory with the input.

use super::{length_range, Decoding, Encoding, Entry, Node};
use crate::codec::varint::read_varint;
use crate::codec::{Elem, LimitKind, Measure, Result, Violation};
use crate::program::Check;

/// A Uint8Array with its ArrayBuffer and backing store, before the bytes themselves
/// (typed arrays are the same).
pub const HEAP: u64 = 216;

pub const ENTRY: Entry = Entry {
    name: "bytes",
    members: &["minLength", "maxLength"],
    compile: |d, _| {
        Ok(match length_range(d, "minLength", "maxLength")? {
            None => Node::Bytes,
            Some((min, max)) => Node::Checked {
                inner: Box::new(Node::Bytes),
                check: Check::Bytes { min, max },
            },
        })
    },
};

/// Checks the length of the byte array decoded as `bytes` (its varint length, then the
/// bytes).
#[inline]
pub fn verify(min: u32, max: u32, bytes: &[u8]) -> Option<Violation> {
    let (len, _) = read_varint(bytes, 0).ok()?;
    let (found, min, max) = (len as u64, min as u64, max as u64);
    if found < min {
        return Some(Violation::TooShort {
            type_name: "bytes",
            measure: Measure::Bytes,
            min,
            found,
        });
    }
    if found > max {
        return Some(Violation::TooLong {
            type_name: "bytes",
            measure: Measure::Bytes,
            max,
            found,
        });
    }
    None
}

/// Tape: no slot; the next blob.
#[inline(always)]
pub fn encode(e: &mut Encoding) -> Result<()> {
    let blob = e.t.blob(Elem::U8)?;
    let len = u32::try_from(blob.len()).map_err(|_| e.t.mismatch())?;
    e.w.varint(len);
    e.w.bytes(blob);
    Ok(())
}

/// Tape: two slots, the offset in the input and the length.
#[inline(always)]
pub fn decode(d: &mut Decoding) -> Result<()> {
    let len = d.length(LimitKind::BytesLength, d.limits.max_bytes_length)?;
    let offset = d.r.offset();
    d.r.take(len as usize)?;
    d.charge(len as u64, offset)?;
    d.out.push(offset as f64);
    d.out.push(len as f64);
    Ok(())
}
