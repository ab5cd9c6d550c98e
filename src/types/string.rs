//! `string`: varint byte length, then that many bytes of UTF-8. JS strings cross as
//! UTF-16 units and are transcoded here (`codec::text`); a lone surrogate is an error,
//! never replaced. Decode validates the UTF-8 and appends the text to the message's
//! `TextBuffer`, from which JS slices each string.

use super::{length_range, schema_error, Decoding, Encoding, Entry, Node};
use crate::codec::text::write_string;
use crate::codec::varint::read_varint;
use crate::codec::{LimitKind, Measure, Result, Violation};
use crate::json::Json;
use crate::program::Check;

/// A sliced string, or a short copied one; its text is charged once, as the whole text.
pub const HEAP: u64 = 40;

pub const ENTRY: Entry = Entry {
    name: "string",
    members: &["minLength", "maxLength", "pattern", "format"],
    compile: |d, _| constrained(d),
};

/// The formats a string may be required to have; each accepts exactly what the Zod v4
/// check of that name accepts (lib/formats.js, where JS checks them).
pub const FORMATS: &[&str] = &["email", "uuid", "url", "datetime", "ipv4", "ipv6"];

/// A string with the constraints of `d`, if any. Lengths count code points and are
/// checked here on decode; a pattern (the source of a JS RegExp, which the JS layer
/// compiles and checks) and a format are checked by JS, on encode and on decode.
fn constrained(d: &Json) -> Result<Node> {
    let lengths = length_range(d, "minLength", "maxLength")?;
    let pattern = match d.get("pattern") {
        None => false,
        Some(Json::String(_)) => true,
        Some(j) => {
            return Err(schema_error(format!(
                "pattern must be a string (a RegExp's source), found {}",
                j.kind()
            )))
        }
    };
    let format = match d.get("format") {
        None => false,
        Some(Json::String(f)) if FORMATS.contains(&f.as_str()) => true,
        Some(j) => {
            return Err(schema_error(format!(
                "format must be one of {}, found {}",
                FORMATS.join(", "),
                match j {
                    Json::String(f) => format!("\"{f}\""),
                    other => other.kind().to_string(),
                }
            )))
        }
    };
    if lengths.is_none() && !pattern && !format {
        return Ok(Node::String);
    }
    let (min, max) = lengths.unwrap_or((0, u32::MAX));
    Ok(Node::Checked {
        inner: Box::new(Node::String),
        check: Check::Text {
            min,
            max,
            js: pattern || format,
        },
    })
}

/// Checks the length in code points of the string decoded as `bytes` (its varint length,
/// then valid UTF-8). Counting is needed only near the bounds: a string has at most one
/// code point per byte and at least one per four.
#[inline]
pub fn verify(min: u32, max: u32, bytes: &[u8]) -> Option<Violation> {
    let (len, n) = read_varint(bytes, 0).ok()?;
    let (len, min, max) = (len as u64, min as u64, max as u64);
    if len <= max && len >= 4 * min {
        return None;
    }
    // Every code point has exactly one byte that is not a continuation byte (10xxxxxx).
    let found = bytes
        .get(n..)?
        .iter()
        .filter(|&&b| b & 0xc0 != 0x80)
        .count() as u64;
    if found < min {
        return Some(Violation::TooShort {
            type_name: "string",
            measure: Measure::CodePoints,
            min,
            found,
        });
    }
    if found > max {
        return Some(Violation::TooLong {
            type_name: "string",
            measure: Measure::CodePoints,
            max,
            found,
        });
    }
    None
}

/// Tape: one slot, the length in UTF-16 units; the units follow in the text.
#[inline(always)]
pub fn encode(e: &mut Encoding) -> Result<()> {
    let len = e.t.count(u32::MAX)?;
    let units = e.t.units(len as usize)?;
    write_string(e.w, units)
}

/// Tape: one slot, the length in UTF-16 units of the text appended.
#[inline(always)]
pub fn decode(d: &mut Decoding) -> Result<()> {
    let units = read(d)?;
    d.out.push(units as f64);
    Ok(())
}

/// Reads one string into the text; returns its length in UTF-16 units.
#[inline(always)]
pub fn read(d: &mut Decoding) -> Result<usize> {
    let len = d.length(LimitKind::StringBytes, d.limits.max_string_bytes)?;
    let offset = d.r.offset();
    let bytes = d.r.take(len as usize)?;
    d.text.push_utf8(bytes, offset)
}
