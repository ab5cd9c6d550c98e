//! `date`: a valid JS `Date` as the zigzag varint (up to 64 bits) of its milliseconds
//! since the epoch. A Date holds at most 8.64e15 ms either side of the epoch; decode
//! rejects anything beyond, so every decoded value is a valid Date.

use super::integer::read_bounded;
use super::{Decoding, Encoding, Entry, Node};
use crate::codec::varint::zigzag64;
use crate::codec::Result;

/// A JSDate with its cached fields (measured ~104 bytes with its array slot).
pub const HEAP: u64 = 96;

pub const ENTRY: Entry = Entry {
    name: "date",
    members: &[],
    compile: |_, _| Ok(Node::Date),
};

/// The farthest a valid Date lies from the epoch, in ms (ECMA-262 "Time Values").
pub const MAX_TIME: i64 = 8_640_000_000_000_000;

/// Tape: one slot, the milliseconds (JS checked the Date is valid).
#[inline(always)]
pub fn encode(e: &mut Encoding) -> Result<()> {
    let v = e.t.slot()?;
    if v.is_nan() || v.abs() > MAX_TIME as f64 || v.fract() != 0.0 {
        return Err(e.t.mismatch());
    }
    e.w.varint64(zigzag64(v as i64));
    Ok(())
}

#[inline(always)]
pub fn decode(d: &mut Decoding) -> Result<()> {
    let v = read_bounded(d, MAX_TIME)?;
    d.out.push(v);
    Ok(())
}
