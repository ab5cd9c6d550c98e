//! `bool`: one byte, `00` false or `01` true; any other byte is malformed.

use super::{Decoding, Encoding, Entry, Node};
use crate::codec::{Error, Fault, Result};

pub const ENTRY: Entry = Entry {
    name: "bool",
    members: &[],
    compile: |_, _| Ok(Node::Bool),
};

/// Tape: one slot, 0 or 1.
#[inline(always)]
pub fn encode(e: &mut Encoding) -> Result<()> {
    let v = e.t.slot()?;
    e.w.u8((v != 0.0) as u8);
    Ok(())
}

#[inline(always)]
pub fn decode(d: &mut Decoding) -> Result<()> {
    let b = d.r.u8()?;
    if b > 1 {
        return Err(Error::malformed(d.r.offset() - 1, Fault::BadBool(b)));
    }
    d.out.push(b as f64);
    Ok(())
}
