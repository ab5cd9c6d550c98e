//! The one error type of the core. It carries data, never a formatted string, and its
//! path is filled in while the error unwinds (serde_path_to_error style), so the happy
//! path pays nothing for it: `Result<_, Error>` is one pointer wide.

use std::fmt;

/// One step of a path to a value: an object field or an array index.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Segment {
    Field(Box<str>),
    Index(u32),
    /// Any item of an array (schema errors, which have no index): rendered `[]`.
    Items,
}

/// Why a value or a byte sequence was rejected.
#[derive(Debug, Clone, PartialEq)]
pub enum ErrorKind {
    /// The descriptor given to `compile` is not a valid schema.
    Schema { message: String },
    /// A string to encode holds a lone UTF-16 surrogate at `unit` (its index in the string).
    LoneSurrogate { unit: usize },
    /// The marshalled values did not match the schema (a bug in the caller of the core).
    TapeMismatch { slot: usize },
    /// A value to encode breaks a constraint the core checks on encode (a string's email,
    /// uuid, ipv4 or datetime format: `types::verify_encoded`).
    Violated { violation: Violation },
    /// The input ended before the value was complete: `needed` more bytes were required
    /// from `offset`.
    Truncated { offset: usize, needed: usize },
    /// A whole value was decoded but bytes remain from `offset`.
    TrailingBytes { offset: usize },
    /// A byte sequence that no encoder produces.
    Malformed { offset: usize, fault: Fault },
    /// A declared length or count over a configured limit.
    LimitExceeded {
        offset: usize,
        what: LimitKind,
        declared: u64,
        limit: u64,
    },
    /// A well-formed value that breaks a constraint of its schema (a bound, a length, a
    /// count), at `offset` where the value starts.
    Invalid { offset: usize, violation: Violation },
}

/// A number in a constraint or a decoded value: integers exactly (the 64-bit types
/// included), floats as they are.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Number {
    Int(i128),
    Float(f64),
}

/// What a length or count constraint counts.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Measure {
    CodePoints,
    Bytes,
    Items,
    Entries,
}

/// Which constraint a decoded value breaks (docs/FORMAT.md, "Constraints"), with what the
/// messages need: the type as a descriptor names it, the constraint, what was found.
#[derive(Debug, Clone, PartialEq)]
pub enum Violation {
    Below {
        type_name: &'static str,
        min: Number,
        found: Number,
    },
    Above {
        type_name: &'static str,
        max: Number,
        found: Number,
    },
    NotMultiple {
        type_name: &'static str,
        of: Number,
        found: Number,
    },
    TooShort {
        type_name: &'static str,
        measure: Measure,
        min: u64,
        found: u64,
    },
    TooLong {
        type_name: &'static str,
        measure: Measure,
        max: u64,
        found: u64,
    },
    /// A string not of its format (one the core checks: email, uuid, ipv4, datetime);
    /// `found` as JS's messages show a string (`string "nope"`).
    Format { format: &'static str, found: String },
    /// A string the JS layer refused (its pattern, or the url or ipv6 format): found by a
    /// second decode that stops at it, for its offset and path (`engine::locate`).
    Located,
}

impl Violation {
    /// The issue code `codec.check` and `codec.safeDecode` report for it.
    pub fn issue(&self) -> &'static str {
        match self {
            Violation::Below { .. } | Violation::TooShort { .. } => "too_small",
            Violation::Above { .. } | Violation::TooLong { .. } => "too_big",
            Violation::NotMultiple { .. } => "not_multiple_of",
            Violation::Format { .. } | Violation::Located => "invalid_format",
        }
    }
}

/// What made a byte sequence malformed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Fault {
    /// A varint with more bytes than its value needs, e.g. `80 00` for 0.
    OverlongVarint,
    /// A varint whose value does not fit the field (over 2^32 - 1, or over a uint16's range).
    VarintOutOfRange,
    /// A bool byte other than 0 or 1.
    BadBool(u8),
    /// A presence byte (optional or nullable) other than 0 or 1.
    BadPresence(u8),
    /// An enum index at or beyond the number of symbols.
    EnumIndex { index: u32, count: u32 },
    /// String bytes that are not valid UTF-8.
    BadUtf8,
    /// A union's variant index at or beyond the number of variants.
    VariantIndex { index: u32, count: u32 },
    /// A key that appears twice in one record or map.
    DuplicateKey,
    /// Record or JSON-object keys out of the order JS gives them: keys that are array
    /// indexes ("0", "1", ... "4294967294") come first, in ascending order.
    KeyOrder,
    /// A `json` type byte no encoder writes.
    JsonTag(u8),
    /// A value in a longer form than the one an encoder writes for it (a `json` integer
    /// in the float form, a short string in the long form, ...), or one JS cannot hold as
    /// that type (a `json` NaN, a map key -0).
    NonCanonical(&'static str),
}

/// Which configured limit a declared size went over.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LimitKind {
    StringBytes,
    BytesLength,
    ArrayLength,
    /// The decoded text of one message exceeds the longest string the JS engine can hold.
    TotalText,
    /// Recursive types or `json` values nested deeper than `maxDepth`.
    Depth,
    /// The decoded values' estimated JS heap bytes, over `maxDecodedBytes`.
    DecodedSize,
}

/// The error of every fallible operation in the core.
#[derive(Debug, Clone, PartialEq)]
pub struct Error {
    inner: Box<Inner>,
}

#[derive(Debug, Clone, PartialEq)]
struct Inner {
    kind: ErrorKind,
    /// Innermost segment first: pushed while unwinding, reversed when rendered.
    path_rev: Vec<Segment>,
}

pub type Result<T> = std::result::Result<T, Error>;

impl Error {
    #[cold]
    pub fn new(kind: ErrorKind) -> Self {
        Error {
            inner: Box::new(Inner {
                kind,
                path_rev: Vec::new(),
            }),
        }
    }

    #[cold]
    pub fn truncated(offset: usize, needed: usize) -> Self {
        Self::new(ErrorKind::Truncated { offset, needed })
    }

    #[cold]
    pub fn malformed(offset: usize, fault: Fault) -> Self {
        Self::new(ErrorKind::Malformed { offset, fault })
    }

    pub fn kind(&self) -> &ErrorKind {
        &self.inner.kind
    }

    /// Adds the segment that leads to the value this error is about (called by each
    /// level as the error unwinds).
    #[cold]
    pub fn within(mut self, segment: Segment) -> Self {
        self.inner.path_rev.push(segment);
        self
    }

    #[cold]
    pub fn within_field(self, name: &str) -> Self {
        self.within(Segment::Field(name.into()))
    }

    /// Adds a run of segments, given from the outermost in.
    #[cold]
    pub fn at(mut self, path: &[Segment]) -> Self {
        for segment in path.iter().rev() {
            self.inner.path_rev.push(segment.clone());
        }
        self
    }

    #[cold]
    pub fn within_index(self, index: u32) -> Self {
        self.within(Segment::Index(index))
    }

    /// The path from the root, e.g. `$.user.tags[2]`; field names that are not plain
    /// identifiers are quoted: `$["a b"]`.
    pub fn path(&self) -> String {
        render_path(self.inner.path_rev.iter().rev())
    }

    /// Byte offset into the input, for decode errors.
    pub fn offset(&self) -> Option<usize> {
        match self.inner.kind {
            ErrorKind::Truncated { offset, .. }
            | ErrorKind::TrailingBytes { offset }
            | ErrorKind::Malformed { offset, .. }
            | ErrorKind::LimitExceeded { offset, .. }
            | ErrorKind::Invalid { offset, .. } => Some(offset),
            _ => None,
        }
    }

    /// For a constraint violation, its issue code (`Violation::issue`).
    pub fn issue(&self) -> Option<&'static str> {
        match &self.inner.kind {
            ErrorKind::Invalid { violation, .. } | ErrorKind::Violated { violation } => {
                Some(violation.issue())
            }
            _ => None,
        }
    }

    /// The stable code the JS layer exposes as `error.code`.
    pub fn code(&self) -> &'static str {
        match self.inner.kind {
            ErrorKind::Schema { .. } => "ERR_SHORN_SCHEMA",
            ErrorKind::LoneSurrogate { .. }
            | ErrorKind::TapeMismatch { .. }
            | ErrorKind::Violated { .. }
            | ErrorKind::Invalid { .. } => "ERR_SHORN_INVALID",
            ErrorKind::Truncated { .. } => "ERR_SHORN_TRUNCATED",
            ErrorKind::TrailingBytes { .. } => "ERR_SHORN_TRAILING",
            ErrorKind::Malformed { .. } => "ERR_SHORN_MALFORMED",
            ErrorKind::LimitExceeded { .. } => "ERR_SHORN_LIMIT",
        }
    }
}

/// Renders path segments from the root outwards.
pub fn render_path<'a>(segments: impl Iterator<Item = &'a Segment>) -> String {
    let mut out = String::from("$");
    for segment in segments {
        match segment {
            Segment::Field(name) if is_identifier(name) => {
                out.push('.');
                out.push_str(name);
            }
            Segment::Field(name) => {
                out.push('[');
                push_json_string(&mut out, name);
                out.push(']');
            }
            Segment::Index(i) => {
                out.push('[');
                out.push_str(&i.to_string());
                out.push(']');
            }
            Segment::Items => out.push_str("[]"),
        }
    }
    out
}

/// Same rule as the JS layer: ASCII letters, digits, `_` and `$`, not starting with a digit.
fn is_identifier(name: &str) -> bool {
    let mut bytes = name.bytes();
    match bytes.next() {
        Some(b) if b.is_ascii_alphabetic() || b == b'_' || b == b'$' => {}
        _ => return false,
    }
    bytes.all(|b| b.is_ascii_alphanumeric() || b == b'_' || b == b'$')
}

/// Writes `s` as a JSON string literal (what `JSON.stringify` gives for it).
pub fn push_json_string(out: &mut String, s: &str) {
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            '\u{08}' => out.push_str("\\b"),
            '\u{0c}' => out.push_str("\\f"),
            c if (c as u32) < 0x20 => out.push_str(&format!("\\u{:04x}", c as u32)),
            c => out.push(c),
        }
    }
    out.push('"');
}

impl fmt::Display for Fault {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Fault::OverlongVarint => write!(f, "overlong varint"),
            Fault::VarintOutOfRange => write!(f, "varint out of range for its type"),
            Fault::BadBool(b) => write!(f, "bool byte 0x{b:02x} (expected 0x00 or 0x01)"),
            Fault::BadPresence(b) => write!(f, "presence byte 0x{b:02x} (expected 0x00 or 0x01)"),
            Fault::EnumIndex { index, count } => {
                write!(
                    f,
                    "enum index {index} out of range (the enum has {count} values)"
                )
            }
            Fault::BadUtf8 => write!(f, "invalid UTF-8 in a string"),
            Fault::VariantIndex { index, count } => write!(
                f,
                "union variant {index} out of range (the union has {count} variants)"
            ),
            Fault::DuplicateKey => write!(f, "a key appears twice"),
            Fault::KeyOrder => write!(
                f,
                "keys out of order (array-index keys must come first, ascending)"
            ),
            Fault::JsonTag(b) => write!(f, "json type byte 0x{b:02x}"),
            Fault::NonCanonical(what) => write!(f, "{what}"),
        }
    }
}

impl fmt::Display for Number {
    /// As JS prints numbers where it matters for a message: integers in full, `1e+300`
    /// for large floats, `NaN`, `Infinity`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            Number::Int(n) => write!(f, "{n}"),
            Number::Float(x) if x.is_nan() => f.write_str("NaN"),
            Number::Float(x) if x.is_infinite() => {
                f.write_str(if x > 0.0 { "Infinity" } else { "-Infinity" })
            }
            Number::Float(x) if x.fract() == 0.0 && x.abs() < 1e21 => write!(f, "{x:.0}"),
            Number::Float(x) => {
                let text = format!("{x:?}");
                match text.split_once('e') {
                    Some((m, e)) if !e.starts_with('-') => write!(f, "{m}e+{e}"),
                    _ => f.write_str(&text),
                }
            }
        }
    }
}

impl Measure {
    fn unit(self, n: u64) -> &'static str {
        match (self, n == 1) {
            (Measure::CodePoints, true) => "code point",
            (Measure::CodePoints, false) => "code points",
            (Measure::Bytes, true) => "byte",
            (Measure::Bytes, false) => "bytes",
            (Measure::Items, true) => "item",
            (Measure::Items, false) => "items",
            (Measure::Entries, true) => "entry",
            (Measure::Entries, false) => "entries",
        }
    }
}

impl fmt::Display for Violation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Violation::Below {
                type_name,
                min,
                found,
            } => write!(f, "expected {type_name} of at least {min}, found {found}"),
            Violation::Above {
                type_name,
                max,
                found,
            } => write!(f, "expected {type_name} of at most {max}, found {found}"),
            Violation::NotMultiple {
                type_name,
                of,
                found,
            } => write!(
                f,
                "expected {type_name} that is a multiple of {of}, found {found}"
            ),
            Violation::TooShort {
                type_name,
                measure,
                min,
                found,
            } => write!(
                f,
                "expected {type_name} of at least {min} {}, found {found} {}",
                measure.unit(*min),
                measure.unit(*found)
            ),
            Violation::TooLong {
                type_name,
                measure,
                max,
                found,
            } => write!(
                f,
                "expected {type_name} of at most {max} {}, found {found} {}",
                measure.unit(*max),
                measure.unit(*found)
            ),
            Violation::Format { format, found } => {
                write!(f, "expected string of format {format}, found {found}")
            }
            Violation::Located => f.write_str("refused by a check of the JS layer"),
        }
    }
}

impl LimitKind {
    /// The `compile` option that sets this limit, if one does (the longest JS string is
    /// the engine's).
    pub fn option(&self) -> Option<&'static str> {
        match self {
            LimitKind::StringBytes => Some("maxStringBytes"),
            LimitKind::BytesLength => Some("maxBytesLength"),
            LimitKind::ArrayLength => Some("maxArrayLength"),
            LimitKind::TotalText => None,
            LimitKind::Depth => Some("maxDepth"),
            LimitKind::DecodedSize => Some("maxDecodedBytes"),
        }
    }
}

impl fmt::Display for LimitKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            LimitKind::StringBytes => "string length",
            LimitKind::BytesLength => "bytes length",
            LimitKind::ArrayLength => "item count",
            LimitKind::TotalText => "decoded text length",
            LimitKind::Depth => "nesting depth",
            LimitKind::DecodedSize => "decoded size",
        })
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let path = self.path();
        match &self.inner.kind {
            ErrorKind::Schema { message } => write!(f, "invalid schema at {path}: {message}"),
            ErrorKind::LoneSurrogate { unit } => write!(
                f,
                "{path}: expected a well-formed string, found a lone surrogate at index {unit}"
            ),
            // As the JS layer words a constraint it finds on encode (lib/errors.js).
            ErrorKind::Violated { violation } => write!(f, "{path}: {violation}"),
            ErrorKind::TapeMismatch { slot } => {
                write!(
                    f,
                    "{path}: marshalled values do not match the schema at slot {slot}"
                )
            }
            ErrorKind::Truncated { offset, needed } => write!(
                f,
                "truncated input: {needed} more byte(s) needed at offset {offset} ({path})"
            ),
            ErrorKind::TrailingBytes { offset } => {
                write!(f, "trailing bytes after the message, from offset {offset}")
            }
            ErrorKind::Malformed { offset, fault } => {
                write!(f, "malformed input at offset {offset} ({path}): {fault}")
            }
            ErrorKind::Invalid { offset, violation } => {
                write!(f, "invalid value at offset {offset} ({path}): {violation}")
            }
            ErrorKind::LimitExceeded {
                offset,
                what: LimitKind::DecodedSize,
                declared,
                limit,
            } => write!(
                f,
                "decoded values of about {declared} bytes, by offset {offset} ({path}), are over the limit of {limit} (maxDecodedBytes)"
            ),
            ErrorKind::LimitExceeded {
                offset,
                what,
                declared,
                limit,
            } => {
                write!(
                    f,
                    "{what} {declared} at offset {offset} ({path}) is over the limit of {limit}"
                )?;
                match what.option() {
                    Some(option) => write!(f, " ({option})"),
                    None => Ok(()),
                }
            }
        }
    }
}

impl std::error::Error for Error {}
