//! `bytes`: varint length, then the bytes. JS passes the caller's Uint8Array and the
//! engine copies it once; decode gives JS the offset and length in the input, and JS
//! copies them into a new Uint8Array that shares no memory with the input.

use super::{Decoding, Encoding, Entry, Node};
use crate::codec::{Elem, LimitKind, Result};

/// A Uint8Array with its ArrayBuffer and backing store, before the bytes themselves
/// (typed arrays are the same).
pub const HEAP: u64 = 216;

pub const ENTRY: Entry = Entry {
    name: "bytes",
    members: &[],
    compile: |_, _| Ok(Node::Bytes),
};

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
