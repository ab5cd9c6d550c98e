//! `int64` and `uint64`: JS `bigint`s in range, as a zigzag or plain varint of up to 10
//! bytes. The tape slot holds the 64 bits themselves: JS writes and reads them through a
//! BigInt64Array or BigUint64Array view of the tape, so no value is rounded on the way.

use super::{Decoding, Encoding, Entry, Node};
use crate::codec::tape::{bits_to_slot, slot_to_bits};
use crate::codec::varint::{unzigzag64, zigzag64};
use crate::codec::Result;

/// A BigInt of one digit.
pub const HEAP: u64 = 32;

pub const INT64: Entry = Entry {
    name: "int64",
    members: &[],
    compile: |_, _| Ok(Node::Int64),
};
pub const UINT64: Entry = Entry {
    name: "uint64",
    members: &[],
    compile: |_, _| Ok(Node::Uint64),
};

#[inline(always)]
pub fn encode_int64(e: &mut Encoding) -> Result<()> {
    let bits = slot_to_bits(e.t.slot()?);
    e.w.varint64(zigzag64(bits as i64));
    Ok(())
}

#[inline(always)]
pub fn encode_uint64(e: &mut Encoding) -> Result<()> {
    let bits = slot_to_bits(e.t.slot()?);
    e.w.varint64(bits);
    Ok(())
}

#[inline(always)]
pub fn decode_int64(d: &mut Decoding) -> Result<()> {
    let v = unzigzag64(d.r.varint64()?);
    d.out.push(bits_to_slot(v as u64));
    Ok(())
}

#[inline(always)]
pub fn decode_uint64(d: &mut Decoding) -> Result<()> {
    let v = d.r.varint64()?;
    d.out.push(bits_to_slot(v));
    Ok(())
}
