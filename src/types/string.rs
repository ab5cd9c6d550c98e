//! `string`: varint byte length, then that many bytes of UTF-8. JS strings cross as
//! UTF-16 units and are transcoded here (`codec::text`); a lone surrogate is an error,
//! never replaced. Decode validates the UTF-8 and appends the text to the message's
//! `TextBuffer`, from which JS slices each string.

use super::{length_range, schema_error, Decoding, Encoding, Entry, Node};
use crate::codec::text::write_chars;
use crate::codec::varint::read_varint;
use crate::codec::{LimitKind, Measure, Result, Violation};
use crate::json::Json;
use crate::program::{Check, Format};

/// A sliced string, or a short copied one; its text is charged once, as the whole text.
pub const HEAP: u64 = 40;

pub const ENTRY: Entry = Entry {
    name: "string",
    members: &["minLength", "maxLength", "pattern", "format"],
    compile: |d, _| constrained(d),
};

/// The formats a string may be required to have; each accepts exactly what the Zod v4
/// check of that name accepts. The core checks email, uuid, ipv4 and datetime
/// (`super::formats`) on decode, and on encode unless a pattern goes with them
/// (`super::verify_encoded`); JS checks url and ipv6, and the rest where it must judge a
/// value itself (lib/types/string.js).
pub const FORMATS: &[&str] = &["email", "uuid", "url", "datetime", "ipv4", "ipv6"];

/// A string with the constraints of `d`, if any. Lengths count code points and are
/// checked here on decode, as are the formats of `Format`; a pattern (the source of a JS
/// RegExp, which the JS layer compiles and checks) and the url and ipv6 formats are
/// checked by JS, on encode and on decode.
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
        None => None,
        Some(Json::String(f)) if FORMATS.contains(&f.as_str()) => Some(f.as_str()),
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
    if lengths.is_none() && !pattern && format.is_none() {
        return Ok(Node::String);
    }
    let (min, max) = lengths.unwrap_or((0, u32::MAX));
    let native = format.and_then(Format::native);
    Ok(Node::Checked {
        inner: Box::new(Node::String),
        check: Check::Text {
            min,
            max,
            format: native,
            js: pattern || (format.is_some() && native.is_none()),
        },
    })
}

/// Checks the length in code points of the string decoded as `bytes` (its varint length,
/// then valid UTF-8), then its format. Counting is needed only near the bounds: a string
/// has at most one code point per byte and at least one per four. Inlined into the
/// checked step (callgrind, personValidated decode: 1,274 native instructions with a
/// call, 1,218 so).
#[inline(always)]
pub fn verify(min: u32, max: u32, format: Option<Format>, bytes: &[u8]) -> Option<Violation> {
    let (len, n) = read_varint(bytes, 0).ok()?;
    let text = bytes.get(n..)?;
    if let Some(violation) = lengths(min, max, len, text) {
        return Some(violation);
    }
    format.and_then(|f| formatted(f, text))
}

/// Checks the format of the string encoded as `bytes` (its varint length, then UTF-8).
#[inline]
pub fn verify_format(format: Format, bytes: &[u8]) -> Option<Violation> {
    let (_, n) = read_varint(bytes, 0).ok()?;
    formatted(format, bytes.get(n..)?)
}

/// Whether UTF-8 `text` breaks `format`, as the violation.
#[inline(always)]
fn formatted(format: Format, text: &[u8]) -> Option<Violation> {
    (!format.accepts(text)).then(|| format_violation(format, text))
}

#[cold]
fn format_violation(format: Format, text: &[u8]) -> Violation {
    Violation::Format {
        format: format.name(),
        found: quote(text),
    }
}

/// How JS's `describe` shows a string in a message: `JSON.stringify` of its first 40
/// UTF-16 units, `…` after them when there are more.
fn quote(text: &[u8]) -> String {
    let text = std::str::from_utf8(text).unwrap_or("");
    let mut out = String::from("string \"");
    let mut units = 0;
    let mut cut = false;
    for c in text.chars() {
        if units + c.len_utf16() > 40 {
            // A pair cut in two leaves its high surrogate, which JSON.stringify escapes.
            if units < 40 {
                let mut pair = [0u16; 2];
                c.encode_utf16(&mut pair);
                out.push_str(&format!("\\u{:04x}", pair[0]));
            }
            cut = true;
            break;
        }
        units += c.len_utf16();
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\u{8}' => out.push_str("\\b"),
            '\u{c}' => out.push_str("\\f"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            c if (c as u32) < 0x20 => out.push_str(&format!("\\u{:04x}", c as u32)),
            c => out.push(c),
        }
    }
    if cut {
        out.push('…');
    }
    out.push('"');
    out
}

/// The length constraint of a string of `len` bytes of UTF-8 `text`.
#[inline]
fn lengths(min: u32, max: u32, len: u32, text: &[u8]) -> Option<Violation> {
    let (len, min, max) = (len as u64, min as u64, max as u64);
    if len <= max && len >= 4 * min {
        return None;
    }
    // Every code point has exactly one byte that is not a continuation byte (10xxxxxx).
    let found = text.iter().filter(|&&b| b & 0xc0 != 0x80).count() as u64;
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

/// Tape: one slot, the length in UTF-16 units, the units next in the text; or, for a
/// long string of one-byte chars, `LATIN1_SLOT` plus its length, its chars next in the
/// Latin-1 text (`TapeIn::text`).
#[inline(always)]
pub fn encode(e: &mut Encoding) -> Result<()> {
    let slot = e.t.slot()?;
    let chars = e.t.text(slot)?;
    write_chars(e.w, chars)
}

/// Tape: one slot, the length in UTF-16 units of the text appended (negated when a large
/// message keeps it in its UTF-16 text: `TextBuffer::push_str`).
#[inline(always)]
pub fn decode(d: &mut Decoding) -> Result<()> {
    let slot = read(d)?;
    d.out.push(slot);
    Ok(())
}

/// `decode` of an item of an array of strings, whose slot may be a kept string's
/// (`TextBuffer::push_value`): tags and the like, where a few values repeat. Only there:
/// with every string looked up, twitter decode (whose fields' short strings repeat, but
/// mostly as one or two chars) ran 0.94x.
#[inline(always)]
pub fn decode_item(d: &mut Decoding) -> Result<()> {
    let (bytes, offset) = take(d)?;
    let slot = d.text.push_value(bytes, offset)?;
    d.out.push(slot);
    Ok(())
}

/// Reads one string into the text; returns its tape slot (`TextBuffer::push_str`).
#[inline(always)]
pub fn read(d: &mut Decoding) -> Result<f64> {
    let (bytes, offset) = take(d)?;
    d.text.push_str(bytes, offset)
}

/// Takes one string's UTF-8 bytes, its length checked against the string limit, not yet
/// validated nor read into the text; returns them and their offset.
#[inline(always)]
pub fn take<'a>(d: &mut Decoding<'a, '_>) -> Result<(&'a [u8], usize)> {
    let len = d.length(LimitKind::StringBytes, d.limits.max_string_bytes)?;
    let offset = d.r.offset();
    Ok((d.r.take(len as usize)?, offset))
}
