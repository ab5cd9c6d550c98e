//! `float32` (4 bytes, the number rounded as by `Math.fround`) and `float64` (8 bytes;
//! NaN, the infinities and -0 kept), IEEE 754, little-endian.

use super::{number_member, schema_error, Decoding, Encoding, Entry, Node};
use crate::codec::{Number, Result, Violation};
use crate::json::Json;
use crate::program::{Check, Op};

pub const FLOAT32: Entry = Entry {
    name: "float32",
    members: &["min", "max"],
    compile: |d, _| constrained(d, Node::Float32, "float32"),
};
pub const FLOAT64: Entry = Entry {
    name: "float64",
    members: &["min", "max"],
    compile: |d, _| constrained(d, Node::Float64, "float64"),
};

/// `node` with the inclusive bounds of `d`, if any: finite numbers (a float32's are
/// compared with the value as rounded to a float32, on encode as on decode).
fn constrained(d: &Json, node: Node, name: &str) -> Result<Node> {
    let bound = |key: &str| -> Result<Option<f64>> {
        match number_member(d, key)? {
            Some(x) if !x.is_finite() => Err(schema_error(format!(
                "{key} of a {name} must be a finite number"
            ))),
            other => Ok(other),
        }
    };
    let (min, max) = match (bound("min")?, bound("max")?) {
        (None, None) => return Ok(node),
        (min, max) => (
            min.unwrap_or(f64::NEG_INFINITY),
            max.unwrap_or(f64::INFINITY),
        ),
    };
    if min > max {
        return Err(schema_error(format!(
            "min {} of a {name} is greater than its max {}",
            Number::Float(min),
            Number::Float(max)
        )));
    }
    Ok(Node::Checked {
        inner: Box::new(node),
        check: Check::Float { min, max },
    })
}

/// Checks the float a leaf of `op` decoded as `bytes`; NaN is within no bounds.
#[inline]
pub fn verify(op: Op, min: f64, max: f64, bytes: &[u8]) -> Option<Violation> {
    let v = match op {
        Op::Float32 => f32::from_le_bytes(bytes.get(..4)?.try_into().ok()?) as f64,
        _ => f64::from_le_bytes(bytes.get(..8)?.try_into().ok()?),
    };
    let type_name = super::op_name(op);
    if v < min || (v.is_nan() && min.is_finite()) {
        return Some(Violation::Below {
            type_name,
            min: Number::Float(min),
            found: Number::Float(v),
        });
    }
    if v > max || v.is_nan() {
        return Some(Violation::Above {
            type_name,
            max: Number::Float(max),
            found: Number::Float(v),
        });
    }
    None
}

#[inline(always)]
pub fn encode_float32(e: &mut Encoding) -> Result<()> {
    let v = e.t.slot()?;
    e.w.f32(v as f32);
    Ok(())
}

#[inline(always)]
pub fn encode_float64(e: &mut Encoding) -> Result<()> {
    let v = e.t.slot()?;
    e.w.f64(v);
    Ok(())
}

#[inline(always)]
pub fn decode_float32(d: &mut Decoding) -> Result<()> {
    let v = d.r.f32()?;
    d.out.push(v as f64);
    Ok(())
}

#[inline(always)]
pub fn decode_float64(d: &mut Decoding) -> Result<()> {
    let v = d.r.f64()?;
    d.out.push(v);
    Ok(())
}
