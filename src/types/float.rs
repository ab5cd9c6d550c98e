//! `float32` (4 bytes, the number rounded as by `Math.fround`) and `float64` (8 bytes;
//! NaN, the infinities and -0 kept), IEEE 754, little-endian.

use super::{Decoding, Encoding, Entry, Node};
use crate::codec::Result;

pub const FLOAT32: Entry = Entry {
    name: "float32",
    members: &[],
    compile: |_, _| Ok(Node::Float32),
};
pub const FLOAT64: Entry = Entry {
    name: "float64",
    members: &[],
    compile: |_, _| Ok(Node::Float64),
};

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
