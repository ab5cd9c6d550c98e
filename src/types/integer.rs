//! The integers that JS holds as numbers: `uint8` and `int8` (one byte), `uint16` and
//! `uint32` (varint), `int16` and `int32` (zigzag varint), and `int`, any safe integer
//! (|n| <= 2^53 - 1) as a zigzag varint of up to 64 bits. JS checks the range on encode
//! (`lib/types/integer.js`); decode rejects a varint beyond the type's range.

use super::{Decoding, Encoding, Entry, Node};
use crate::codec::varint::{unzigzag, unzigzag64, zigzag, zigzag64};
use crate::codec::{Error, Fault, Result};

pub const UINT8: Entry = Entry {
    name: "uint8",
    members: &[],
    compile: |_, _| Ok(Node::Uint8),
};
pub const UINT16: Entry = Entry {
    name: "uint16",
    members: &[],
    compile: |_, _| Ok(Node::Uint16),
};
pub const UINT32: Entry = Entry {
    name: "uint32",
    members: &[],
    compile: |_, _| Ok(Node::Uint32),
};
pub const INT8: Entry = Entry {
    name: "int8",
    members: &[],
    compile: |_, _| Ok(Node::Int8),
};
pub const INT16: Entry = Entry {
    name: "int16",
    members: &[],
    compile: |_, _| Ok(Node::Int16),
};
pub const INT32: Entry = Entry {
    name: "int32",
    members: &[],
    compile: |_, _| Ok(Node::Int32),
};
pub const INT: Entry = Entry {
    name: "int",
    members: &[],
    compile: |_, _| Ok(Node::Int),
};

/// The largest safe integer, 2^53 - 1 (`Number.MAX_SAFE_INTEGER`).
pub const MAX_SAFE: i64 = (1 << 53) - 1;

// Tape: one slot, the number. JS checked the range; `as` saturates, so even a bad tape
// cannot wrap.

#[inline(always)]
pub fn encode_uint8(e: &mut Encoding) -> Result<()> {
    let v = e.t.slot()?;
    e.w.u8(v as u8);
    Ok(())
}

#[inline(always)]
pub fn encode_int8(e: &mut Encoding) -> Result<()> {
    let v = e.t.slot()?;
    e.w.u8(v as i8 as u8);
    Ok(())
}

#[inline(always)]
pub fn encode_unsigned(e: &mut Encoding) -> Result<()> {
    let v = e.t.slot()?;
    e.w.varint(v as u32);
    Ok(())
}

#[inline(always)]
pub fn encode_signed(e: &mut Encoding) -> Result<()> {
    let v = e.t.slot()?;
    e.w.varint(zigzag(v as i32));
    Ok(())
}

#[inline(always)]
pub fn encode_int(e: &mut Encoding) -> Result<()> {
    let v = e.t.slot()?;
    // A value out of range would write bytes that decode rejects.
    if v.is_nan() || v.abs() > MAX_SAFE as f64 || v.fract() != 0.0 {
        return Err(e.t.mismatch());
    }
    e.w.varint64(zigzag64(v as i64));
    Ok(())
}

#[inline(always)]
pub fn decode_uint8(d: &mut Decoding) -> Result<()> {
    let b = d.r.u8()?;
    d.out.push(b as f64);
    Ok(())
}

#[inline(always)]
pub fn decode_int8(d: &mut Decoding) -> Result<()> {
    let b = d.r.u8()?;
    d.out.push(b as i8 as f64);
    Ok(())
}

#[inline(always)]
pub fn decode_uint16(d: &mut Decoding) -> Result<()> {
    let offset = d.r.offset();
    let v = d.r.varint()?;
    if v > u16::MAX as u32 {
        return Err(Error::malformed(offset, Fault::VarintOutOfRange));
    }
    d.out.push(v as f64);
    Ok(())
}

#[inline(always)]
pub fn decode_uint32(d: &mut Decoding) -> Result<()> {
    let v = d.r.varint()?;
    d.out.push(v as f64);
    Ok(())
}

#[inline(always)]
pub fn decode_int16(d: &mut Decoding) -> Result<()> {
    let offset = d.r.offset();
    let v = unzigzag(d.r.varint()?);
    if i16::try_from(v).is_err() {
        return Err(Error::malformed(offset, Fault::VarintOutOfRange));
    }
    d.out.push(v as f64);
    Ok(())
}

#[inline(always)]
pub fn decode_int32(d: &mut Decoding) -> Result<()> {
    let v = unzigzag(d.r.varint()?);
    d.out.push(v as f64);
    Ok(())
}

/// A zigzag varint64 whose value is at most `max` in magnitude (`int`, `date`).
#[inline(always)]
pub fn read_bounded(d: &mut Decoding, max: i64) -> Result<f64> {
    let offset = d.r.offset();
    let v = unzigzag64(d.r.varint64()?);
    if v.unsigned_abs() > max as u64 {
        return Err(Error::malformed(offset, Fault::VarintOutOfRange));
    }
    Ok(v as f64)
}

#[inline(always)]
pub fn decode_int(d: &mut Decoding) -> Result<()> {
    let v = read_bounded(d, MAX_SAFE)?;
    d.out.push(v);
    Ok(())
}
