//! `int64` and `uint64`: JS `bigint`s in range, as a zigzag or plain varint of up to 10
//! bytes. The tape slot holds the 64 bits themselves: JS writes and reads them through a
//! BigInt64Array or BigUint64Array view of the tape, so no value is rounded on the way.

use super::{integer, schema_error, Decoding, Encoding, Entry, Node};
use crate::codec::tape::{bits_to_slot, slot_to_bits};
use crate::codec::varint::{read_varint64, unzigzag64, zigzag64};
use crate::codec::{Result, Violation};
use crate::json::Json;
use crate::program::{Check, Op};

/// A BigInt of one digit.
pub const HEAP: u64 = 32;

pub const INT64: Entry = Entry {
    name: "int64",
    members: integer::MEMBERS,
    compile: |d, _| constrained(d, Node::Int64, "int64", i64::MIN as i128, i64::MAX as i128),
};
pub const UINT64: Entry = Entry {
    name: "uint64",
    members: integer::MEMBERS,
    compile: |d, _| constrained(d, Node::Uint64, "uint64", 0, u64::MAX as i128),
};

/// `node` with the constraints of `d`, if any: as for the other integers, but the bounds
/// and the divisor are bigints, written in the descriptor as strings of decimal digits
/// (JSON numbers lose precision past 2^53).
fn constrained(d: &Json, node: Node, name: &str, lo: i128, hi: i128) -> Result<Node> {
    let member = |key: &str| -> Result<Option<i128>> {
        let Some(j) = d.get(key) else {
            return Ok(None);
        };
        let digits = j.as_str().ok_or_else(|| {
            schema_error(format!(
                "{key} of a {name} must be a string of decimal digits (a bigint), found {}",
                j.kind()
            ))
        })?;
        parse_integer(digits)
            .filter(|v| (lo..=hi).contains(v))
            .map(Some)
            .ok_or_else(|| {
                schema_error(format!(
                    "{key} of a {name} must be an integer from {lo} to {hi} in decimal digits, found \"{digits}\""
                ))
            })
    };
    let min = member("min")?;
    let max = member("max")?;
    let multiple_of = match d.get("multipleOf") {
        None => None,
        Some(j) => match j.as_str().and_then(parse_integer) {
            Some(m) if (1..=u64::MAX as i128).contains(&m) => Some(m as u128),
            _ => {
                return Err(schema_error(format!(
                    "multipleOf of a {name} must be an integer from 1 to {} in decimal digits",
                    u64::MAX
                )))
            }
        },
    };
    if min.is_none() && max.is_none() && multiple_of.is_none() {
        return Ok(node);
    }
    let check = integer::bounds(
        name,
        min.unwrap_or(lo),
        max.unwrap_or(hi),
        multiple_of.unwrap_or(1),
    )?;
    Ok(Node::Checked {
        inner: Box::new(node),
        check,
    })
}

/// A decimal integer: an optional `-`, then 1 to 20 digits without a leading zero (`0`
/// itself excepted); no `+`, spaces or exponent (what JS's `String(bigint)` writes).
fn parse_integer(text: &str) -> Option<i128> {
    let digits = text.strip_prefix('-').unwrap_or(text);
    let canonical = !digits.is_empty()
        && digits.len() <= 20
        && digits.bytes().all(|b| b.is_ascii_digit())
        && (digits == "0" || !digits.starts_with('0'))
        && text != "-0";
    if !canonical {
        return None;
    }
    text.parse::<i128>().ok()
}

/// Checks the bigint a leaf of `op` decoded as `bytes` (already validated).
#[inline]
pub fn verify(op: Op, check: &Check, bytes: &[u8]) -> Option<Violation> {
    let bits = read_varint64(bytes, 0).ok()?.0;
    let v = match op {
        Op::Int64 => unzigzag64(bits) as i128,
        _ => bits as i128,
    };
    integer::within(super::op_name(op), check, v)
}

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
