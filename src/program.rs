//! The program the engine runs: a compiled schema flattened into steps. The compiler
//! (`crate::schema`) produces it once; the engine (`crate::engine`) runs it per message.
//!
//! Objects and tuples dissolve into their members' steps, so most messages are one loop
//! over steps. Control steps name the ranges they run: an array repeats the steps after
//! it, a union jumps to one variant's range, a recursive reference calls a definition's
//! range (definitions sit after the main program). A range is `start..end` of `steps`.

use crate::codec::{Elem, Segment};

/// One step of the program.
#[derive(Debug, Clone, PartialEq)]
pub struct Step {
    pub op: Op,
    /// Path segments from the enclosing frame (the root, an array item, an entry, a
    /// definition) down to this value; used only to build the path of an error.
    pub path: Box<[Segment]>,
}

/// What a step reads or writes. Leaves repeat the type names on purpose: one flat match
/// measured 2-3% faster than a nested `Scalar` enum (nestedEvent and unicodePerson decode).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Op {
    Bool,
    Uint8,
    Int8,
    Uint16,
    Uint32,
    Int16,
    Int32,
    Int,
    Int64,
    Uint64,
    Float32,
    Float64,
    Date,
    String,
    Bytes,
    Enum {
        count: u32,
    },
    Typed {
        elem: Elem,
    },
    Json,
    /// A count, then the steps `here + 1 .. end` once per item. `item_cost` is each
    /// item's estimated JS heap bytes, charged against `max_decoded_bytes` by count.
    /// `leaves`: every item step is a leaf (`Op::is_leaf`), so the engine runs the items
    /// in one loop, without a block per item.
    Array {
        end: u32,
        min_item_bytes: u32,
        item_cost: u32,
        leaves: bool,
    },
    /// A count, then per entry the key's steps `here + 1 .. key_end` and the value's
    /// `key_end .. end` (records and maps).
    Entries {
        end: u32,
        key_end: u32,
        min_entry_bytes: u32,
        entry_cost: u32,
        keys: Keys,
    },
    /// A presence byte (optional or nullable); when absent, continue at `end`. `cost` is
    /// the value's estimated JS heap bytes, charged when it is present.
    Presence {
        end: u32,
        cost: u32,
    },
    /// A variant index `k < count`, then the steps `tables[table + k] ..
    /// tables[table + k + 1]`; then continue at `tables[table + count]`.
    Branch {
        count: u32,
        table: u32,
    },
    /// The steps of definition `block` (`Program::blocks`), one level deeper.
    Call {
        block: u32,
    },
    /// A leaf whose value has constraints: `Program::rules[rule]` holds the leaf's own op
    /// and what is checked of the value once it is decoded. (JS checks on encode.)
    Checked {
        rule: u32,
    },
    /// Before an `Array` or `Entries` step: its count must be from `min` to `max`, checked
    /// on decode before any item is read. Nothing on encode (JS checks).
    Count {
        min: u32,
        max: u32,
    },
}

impl Op {
    /// A value read or written by its type's own code (`engine::decode_leaf`,
    /// `engine::encode_leaf`), with no steps of its own and no rule of the program.
    pub fn is_leaf(self) -> bool {
        !matches!(
            self,
            Op::Array { .. }
                | Op::Entries { .. }
                | Op::Presence { .. }
                | Op::Branch { .. }
                | Op::Call { .. }
                | Op::Checked { .. }
                | Op::Count { .. }
        )
    }
}

/// The constraints of a value (docs/FORMAT.md, "Constraints"), as data; each type's module
/// checks its own (`crate::types`).
#[derive(Debug, Clone, PartialEq)]
pub enum Check {
    /// An integer (of any integer type, the 64-bit ones included): inclusive bounds, and a
    /// divisor (1 for none).
    Integer {
        min: i128,
        max: i128,
        multiple_of: u128,
    },
    /// A float: inclusive bounds (a NaN is within none).
    Float { min: f64, max: f64 },
    /// A string: its length in code points, and a format the core checks (`format`);
    /// `js` when it also has a pattern or a format the JS layer checks (url, ipv6).
    Text {
        min: u32,
        max: u32,
        format: Option<Format>,
        js: bool,
    },
    /// A byte array's length.
    Bytes { min: u32, max: u32 },
    /// An array's items, or a record's or map's entries (lowered to `Op::Count`).
    Count { min: u32, max: u32 },
}

/// The string formats the Rust core checks on decode (`crate::types::formats`); url and
/// ipv6 need the WHATWG URL parser, and are the JS layer's.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Format {
    Email,
    Uuid,
    Ipv4,
    Datetime,
}

/// A checked leaf: its own op and its constraints.
#[derive(Debug, Clone, PartialEq)]
pub struct Rule {
    pub op: Op,
    pub check: Check,
}

/// What the engine checks of an entry's keys on decode, so that a decoded record or Map
/// holds every entry of the message (a repeated key would silently drop one).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Keys {
    /// Record keys: distinct, array-index keys first and ascending (the order JS objects
    /// keep, so a decoded record encodes back to the same bytes).
    Record,
    /// Keys whose bytes identify their value (strings, integers, enums, ...): distinct bytes.
    Bytes,
    /// Float keys: distinct as Map compares them (SameValueZero), and never -0 (a Map
    /// turns it into 0).
    Float32,
    Float64,
    /// Keys that decode to fresh objects (objects, arrays, dates, ...): always distinct.
    Objects,
    /// Keys only JS can compare (unions, json): JS checks the decoded Map's size.
    Js,
}

/// Decode limits. A declared length over one of these is `LimitExceeded`; below it, a
/// length is still checked against the bytes that remain (`Truncated`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Limits {
    pub max_string_bytes: u32,
    pub max_bytes_length: u32,
    pub max_array_length: u32,
    /// How deep recursive types and `json` values may nest.
    pub max_depth: u32,
    /// The most JS heap, in estimated bytes, that the values of one decoded message may
    /// take (`types::heap_cost`): over it, decode fails before JS builds anything.
    pub max_decoded_bytes: u64,
}

/// V8's longest string on 64-bit hosts: no string longer than this can reach JS.
pub const MAX_JS_STRING_LENGTH: u32 = (1 << 29) - 24;

/// The most elements V8 keeps in one array's backing store on 64-bit hosts; a longer
/// count cannot become a JS array, so by default it is over the limit, not "truncated".
pub const MAX_JS_ARRAY_LENGTH: u32 = (1 << 27) - 1;

/// Default nesting depth of recursive types and `json`, as protobuf's recursion limit.
pub const DEFAULT_MAX_DEPTH: u32 = 128;

/// The deepest `maxDepth` may be set: each level costs a few frames of native and JS
/// stack, and a thousand levels stay far inside both (a worker's 4 MiB included).
pub const MAX_MAX_DEPTH: u32 = 1000;

/// Default `max_decoded_bytes` (lib/ lowers it to an eighth of V8's heap limit where that
/// is smaller): 26 MB of empty byte arrays once took a process past its 4 GB heap.
pub const DEFAULT_MAX_DECODED_BYTES: u64 = 256 << 20;

impl Default for Limits {
    fn default() -> Self {
        Limits {
            max_string_bytes: MAX_JS_STRING_LENGTH,
            max_bytes_length: i32::MAX as u32,
            max_array_length: MAX_JS_ARRAY_LENGTH,
            max_depth: DEFAULT_MAX_DEPTH,
            max_decoded_bytes: DEFAULT_MAX_DECODED_BYTES,
        }
    }
}

/// A compiled schema, ready to run.
#[derive(Debug, Clone, PartialEq)]
pub struct Program {
    /// The main program is `steps[..main_end]`; definitions follow it.
    pub steps: Box<[Step]>,
    pub main_end: u32,
    /// The range of each recursive definition, and its value's estimated heap bytes.
    pub blocks: Box<[(u32, u32, u32)]>,
    /// Variant starts of each `Branch` (see `Op::Branch`).
    pub tables: Box<[u32]>,
    /// Each variant's estimated heap bytes, at the variant's index in `tables`.
    pub costs: Box<[u32]>,
    /// The rules of `Checked` steps.
    pub rules: Box<[Rule]>,
    /// The root value's estimated heap bytes (what its nested counts do not add).
    pub root_cost: u32,
    pub limits: Limits,
}
