//! Typed arrays (`float64Array`, `float32Array`, `int32Array`, `uint32Array`,
//! `int16Array`, `uint16Array`, `int8Array`): a varint count, then the elements,
//! little-endian. Encode copies the caller's memory once; decode gives JS the offset and
//! count, and JS copies the elements into a new, aligned typed array of that class, so an
//! input view at any byte offset works. Every bit pattern is a valid element.

use super::{Decoding, Encoding, Entry, Node};
use crate::codec::{Elem, Error, LimitKind, Result};

// The wire is little-endian and the elements are copied as they are in memory.
const _: () = assert!(
    cfg!(target_endian = "little"),
    "shorn assumes a little-endian host"
);

pub const FLOAT64: Entry = Entry {
    name: "float64Array",
    members: &[],
    compile: |_, _| Ok(Node::Typed(Elem::F64)),
};
pub const FLOAT32: Entry = Entry {
    name: "float32Array",
    members: &[],
    compile: |_, _| Ok(Node::Typed(Elem::F32)),
};
pub const INT32: Entry = Entry {
    name: "int32Array",
    members: &[],
    compile: |_, _| Ok(Node::Typed(Elem::I32)),
};
pub const UINT32: Entry = Entry {
    name: "uint32Array",
    members: &[],
    compile: |_, _| Ok(Node::Typed(Elem::U32)),
};
pub const INT16: Entry = Entry {
    name: "int16Array",
    members: &[],
    compile: |_, _| Ok(Node::Typed(Elem::I16)),
};
pub const UINT16: Entry = Entry {
    name: "uint16Array",
    members: &[],
    compile: |_, _| Ok(Node::Typed(Elem::U16)),
};
pub const INT8: Entry = Entry {
    name: "int8Array",
    members: &[],
    compile: |_, _| Ok(Node::Typed(Elem::I8)),
};

/// Tape: no slot; the next blob, whose element type must be `elem`.
#[inline(always)]
pub fn encode(e: &mut Encoding, elem: Elem) -> Result<()> {
    let bytes = e.t.blob(elem)?;
    let count = u32::try_from(bytes.len() / elem.size()).map_err(|_| e.t.mismatch())?;
    e.w.varint(count);
    e.w.bytes(bytes);
    Ok(())
}

/// Tape: two slots, the offset of the elements in the input and their count.
#[inline(always)]
pub fn decode(d: &mut Decoding, elem: Elem) -> Result<()> {
    let count = d.length(LimitKind::ArrayLength, d.limits.max_array_length)?;
    let offset = d.r.offset();
    let len = count as usize * elem.size();
    if len > d.r.remaining() {
        return Err(Error::truncated(offset, len - d.r.remaining()));
    }
    d.r.take(len)?;
    d.charge(len as u64, offset)?;
    d.out.push(offset as f64);
    d.out.push(count as f64);
    Ok(())
}
