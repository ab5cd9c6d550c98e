//! `string`: varint byte length, then that many bytes of UTF-8. JS strings cross as
//! UTF-16 units and are transcoded here (`codec::text`); a lone surrogate is an error,
//! never replaced. Decode validates the UTF-8 and appends the text to the message's
//! `TextBuffer`, from which JS slices each string.

use super::{Decoding, Encoding, Entry, Node};
use crate::codec::text::write_string;
use crate::codec::{LimitKind, Result};

/// A sliced string, or a short copied one; its text is charged once, as the whole text.
pub const HEAP: u64 = 40;

pub const ENTRY: Entry = Entry {
    name: "string",
    members: &[],
    compile: |_, _| Ok(Node::String),
};

/// Tape: one slot, the length in UTF-16 units; the units follow in the text.
#[inline(always)]
pub fn encode(e: &mut Encoding) -> Result<()> {
    let len = e.t.count(u32::MAX)?;
    let units = e.t.units(len as usize)?;
    write_string(e.w, units)
}

/// Tape: one slot, the length in UTF-16 units of the text appended (negated when a large
/// message keeps it in its UTF-16 text: `TextBuffer::push_str`).
#[inline(always)]
pub fn decode(d: &mut Decoding) -> Result<()> {
    let slot = read(d)?;
    d.out.push(slot);
    Ok(())
}

/// Reads one string into the text; returns its tape slot (`TextBuffer::push_str`).
#[inline(always)]
pub fn read(d: &mut Decoding) -> Result<f64> {
    let len = d.length(LimitKind::StringBytes, d.limits.max_string_bytes)?;
    let offset = d.r.offset();
    let bytes = d.r.take(len as usize)?;
    d.text.push_str(bytes, offset)
}
