//! The integers that JS holds as numbers: `uint8` and `int8` (one byte), `uint16` and
//! `uint32` (varint), `int16` and `int32` (zigzag varint), and `int`, any safe integer
//! (|n| <= 2^53 - 1) as a zigzag varint of up to 64 bits. JS checks the range on encode
//! (`lib/types/integer.js`); decode rejects a varint beyond the type's range.

use super::{number_member, schema_error, Decoding, Encoding, Entry, Node};
use crate::codec::varint::{read_varint, read_varint64, unzigzag, unzigzag64, zigzag, zigzag64};
use crate::codec::{Error, Fault, Number, Result, Violation};
use crate::json::Json;
use crate::program::{Check, Op};

/// Constraints: inclusive bounds and a divisor (docs/FORMAT.md, "Constraints").
pub const MEMBERS: &[&str] = &["min", "max", "multipleOf"];

pub const UINT8: Entry = Entry {
    name: "uint8",
    members: MEMBERS,
    compile: |d, _| constrained(d, Node::Uint8, "uint8", 0, 255),
};
pub const UINT16: Entry = Entry {
    name: "uint16",
    members: MEMBERS,
    compile: |d, _| constrained(d, Node::Uint16, "uint16", 0, 65535),
};
pub const UINT32: Entry = Entry {
    name: "uint32",
    members: MEMBERS,
    compile: |d, _| constrained(d, Node::Uint32, "uint32", 0, u32::MAX as i64),
};
pub const INT8: Entry = Entry {
    name: "int8",
    members: MEMBERS,
    compile: |d, _| constrained(d, Node::Int8, "int8", -128, 127),
};
pub const INT16: Entry = Entry {
    name: "int16",
    members: MEMBERS,
    compile: |d, _| constrained(d, Node::Int16, "int16", -32768, 32767),
};
pub const INT32: Entry = Entry {
    name: "int32",
    members: MEMBERS,
    compile: |d, _| constrained(d, Node::Int32, "int32", i32::MIN as i64, i32::MAX as i64),
};
pub const INT: Entry = Entry {
    name: "int",
    members: MEMBERS,
    compile: |d, _| constrained(d, Node::Int, "int", -MAX_SAFE, MAX_SAFE),
};

/// The largest safe integer, 2^53 - 1 (`Number.MAX_SAFE_INTEGER`).
pub const MAX_SAFE: i64 = (1 << 53) - 1;

/// `node` with the constraints of descriptor `d`, if it has any: `min` and `max` are
/// integers within the type's range `lo..=hi`, `multipleOf` a positive safe integer.
fn constrained(d: &Json, node: Node, name: &str, lo: i64, hi: i64) -> Result<Node> {
    let bound = |key: &str| -> Result<Option<i128>> {
        match number_member(d, key)? {
            None => Ok(None),
            Some(x) if x.fract() == 0.0 && x >= lo as f64 && x <= hi as f64 => Ok(Some(x as i128)),
            Some(x) => Err(schema_error(format!(
                "{key} of a {name} must be an integer from {lo} to {hi}, found {}",
                Number::Float(x)
            ))),
        }
    };
    let min = bound("min")?;
    let max = bound("max")?;
    let multiple_of = match number_member(d, "multipleOf")? {
        None => None,
        Some(m) if m.fract() == 0.0 && m >= 1.0 && m <= MAX_SAFE as f64 => Some(m as u128),
        Some(m) => {
            return Err(schema_error(format!(
                "multipleOf must be a safe integer of at least 1, found {}",
                Number::Float(m)
            )))
        }
    };
    if min.is_none() && max.is_none() && multiple_of.is_none() {
        return Ok(node);
    }
    let check = bounds(
        name,
        min.unwrap_or(lo as i128),
        max.unwrap_or(hi as i128),
        multiple_of.unwrap_or(1),
    )?;
    Ok(Node::Checked {
        inner: Box::new(node),
        check,
    })
}

/// The check of integer bounds (any integer type): some value must satisfy it.
pub fn bounds(name: &str, min: i128, max: i128, multiple_of: u128) -> Result<Check> {
    if min > max {
        return Err(schema_error(format!(
            "min {min} of a {name} is greater than its max {max}"
        )));
    }
    let m = multiple_of as i128;
    let first = match min.rem_euclid(m) {
        0 => min,
        r => min + (m - r),
    };
    if first > max {
        return Err(schema_error(format!(
            "no {name} from {min} to {max} is a multiple of {multiple_of}"
        )));
    }
    Ok(Check::Integer {
        min,
        max,
        multiple_of,
    })
}

/// Whether integer `v` of type `type_name` satisfies `check`.
#[inline]
pub fn within(type_name: &'static str, check: &Check, v: i128) -> Option<Violation> {
    let Check::Integer {
        min,
        max,
        multiple_of,
    } = *check
    else {
        return None;
    };
    if v < min {
        return Some(Violation::Below {
            type_name,
            min: Number::Int(min),
            found: Number::Int(v),
        });
    }
    if v > max {
        return Some(Violation::Above {
            type_name,
            max: Number::Int(max),
            found: Number::Int(v),
        });
    }
    if multiple_of > 1 && v.rem_euclid(multiple_of as i128) != 0 {
        return Some(Violation::NotMultiple {
            type_name,
            of: Number::Int(multiple_of as i128),
            found: Number::Int(v),
        });
    }
    None
}

/// Checks the integer a leaf of `op` decoded as `bytes` (already validated).
#[inline]
pub fn verify(op: Op, check: &Check, bytes: &[u8]) -> Option<Violation> {
    let v = match op {
        Op::Uint8 => *bytes.first()? as i128,
        Op::Int8 => *bytes.first()? as i8 as i128,
        Op::Uint16 | Op::Uint32 => read_varint(bytes, 0).ok()?.0 as i128,
        Op::Int16 | Op::Int32 => unzigzag(read_varint(bytes, 0).ok()?.0) as i128,
        Op::Int => unzigzag64(read_varint64(bytes, 0).ok()?.0) as i128,
        _ => return None,
    };
    within(super::op_name(op), check, v)
}

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

/// `decode_uint16` for the items of an array of uint16 (`engine::decode_leaf_items`): most
/// are two-byte varints, read inline.
#[inline(always)]
pub fn decode_uint16_item(d: &mut Decoding) -> Result<()> {
    let offset = d.r.offset();
    let v = d.r.varint2()?;
    if v > u16::MAX as u32 {
        return Err(Error::malformed(offset, Fault::VarintOutOfRange));
    }
    d.out.push(v as f64);
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
