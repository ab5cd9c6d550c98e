//! The types. Each module holds what shorn knows of one type (or one family of types):
//! how its descriptor compiles (`compile`), the steps it lowers to (`lower`), the fewest
//! bytes it takes (`min_size`), and the functions that write and read its bytes. The
//! compiler (`crate::schema`) and the engine (`crate::engine`) are drivers that know no
//! type; the JS side mirrors this layout in `lib/types/`.
//!
//! Adding a type: a module here with its entry in `REGISTRY`, a `Node` variant, a leaf
//! `Op` (or a lowering to existing control ops), its JS module, its section in
//! docs/FORMAT.md, golden vectors and a row in the test tables. The coverage test
//! (`__test__/coverage.test.js`) fails until every one of those exists.

pub mod array;
pub mod boolean;
pub mod bytes;
pub mod date;
pub mod default;
pub mod enumeration;
pub mod float;
pub mod formats;
pub mod int64;
pub mod integer;
pub mod json;
pub mod keys;
pub mod literal;
pub mod map;
pub mod object;
pub mod optional;
pub mod record;
pub mod recursive;
pub mod string;
pub mod tuple;
pub mod typed_array;
pub mod union;

use crate::codec::{
    Elem, Error, ErrorKind, LimitKind, Reader, Result, Segment, TapeIn, TapeOut, TextBuffer,
    Violation, Writer,
};
use crate::json::Json;
use crate::program::{Check, Limits, Op, Rule, Step};

/// One node of a compiled schema.
#[derive(Debug, Clone, PartialEq)]
pub enum Node {
    Bool,
    Uint8,
    Uint16,
    Uint32,
    Int8,
    Int16,
    Int32,
    /// A safe integer (|n| <= 2^53 - 1), zigzag varint of up to 64 bits.
    Int,
    Int64,
    Uint64,
    Float32,
    Float64,
    Date,
    String,
    Bytes,
    /// Encoded as the index of the symbol.
    Enum {
        symbols: Box<[Box<str>]>,
    },
    /// One value, zero bytes (`literal` and `null`).
    Literal(literal::Literal),
    Array {
        items: Box<Node>,
        min_item_bytes: u32,
    },
    Tuple {
        items: Box<[Node]>,
    },
    Object {
        fields: Box<[Field]>,
        strict: bool,
    },
    /// A field that may be absent: one presence byte, then the value if present.
    Optional(Box<Node>),
    /// A value that may be null: one presence byte, then the value if not null.
    Nullable(Box<Node>),
    /// An object field that JS fills with `value` (its JSON form) when it is missing; on
    /// the wire, `inner`.
    Default {
        inner: Box<Node>,
        value: Json,
    },
    Record {
        values: Box<Node>,
    },
    Map {
        keys: Box<Node>,
        values: Box<Node>,
    },
    Union {
        variants: Box<[Node]>,
    },
    /// Objects told apart by the literal of field `key`.
    Discriminated {
        key: Box<str>,
        variants: Box<[Node]>,
    },
    /// A recursive definition, by its index in `Schema::defs`.
    Ref(u32),
    Json,
    Typed(Elem),
    /// A value of `inner` (a number, string, byte array, array, record or map) with
    /// constraints (docs/FORMAT.md, "Constraints"): on the wire, `inner`.
    Checked {
        inner: Box<Node>,
        check: Check,
    },
}

#[derive(Debug, Clone, PartialEq)]
pub struct Field {
    pub name: Box<str>,
    pub node: Node,
}

/// A named recursive definition (`t.recursive`).
#[derive(Debug, Clone, PartialEq)]
pub struct Def {
    pub name: Box<str>,
    pub node: Node,
}

/// How one descriptor `type` compiles: its name, the members its descriptor may have
/// besides `type`, and the function that reads them.
pub struct Entry {
    pub name: &'static str,
    pub members: &'static [&'static str],
    pub compile: fn(&Json, &mut Cx) -> Result<Node>,
}

/// Every descriptor `type` the compiler accepts.
pub const REGISTRY: &[Entry] = &[
    boolean::ENTRY,
    integer::UINT8,
    integer::UINT16,
    integer::UINT32,
    integer::INT8,
    integer::INT16,
    integer::INT32,
    integer::INT,
    int64::INT64,
    int64::UINT64,
    float::FLOAT32,
    float::FLOAT64,
    date::ENTRY,
    string::ENTRY,
    bytes::ENTRY,
    enumeration::ENTRY,
    literal::LITERAL,
    literal::NULL,
    array::ENTRY,
    tuple::ENTRY,
    object::ENTRY,
    optional::OPTIONAL,
    optional::NULLABLE,
    default::ENTRY,
    record::ENTRY,
    map::ENTRY,
    union::UNION,
    union::DISCRIMINATED,
    recursive::RECURSIVE,
    recursive::REF,
    json::ENTRY,
    typed_array::FLOAT64,
    typed_array::FLOAT32,
    typed_array::INT32,
    typed_array::UINT32,
    typed_array::INT16,
    typed_array::UINT16,
    typed_array::INT8,
];

/// Nesting of descriptors deeper than this is refused at compile, which bounds the
/// compiler's and the engine's recursion over the schema itself (recursive types nest
/// at run time, bounded by `Limits::max_depth`).
pub const MAX_SCHEMA_DEPTH: usize = 64;

/// State of one compile: recursive definitions and the names in scope.
#[derive(Default)]
pub struct Cx {
    pub defs: Vec<Def>,
    /// Definitions whose bodies are being compiled, innermost last.
    scopes: Vec<(Box<str>, u32)>,
    depth: usize,
}

impl Cx {
    /// Compiles one descriptor.
    pub fn node(&mut self, d: &Json) -> Result<Node> {
        if self.depth > MAX_SCHEMA_DEPTH {
            return Err(schema_error(format!(
                "nested deeper than {MAX_SCHEMA_DEPTH} levels"
            )));
        }
        let Json::Object(members) = d else {
            return Err(schema_error(format!(
                "expected a type descriptor object, found {}",
                d.kind()
            )));
        };
        let Some(kind) = d.get("type").and_then(Json::as_str) else {
            return Err(schema_error(
                "a type descriptor needs a string \"type\"".into(),
            ));
        };
        let Some(entry) = REGISTRY.iter().find(|e| e.name == kind) else {
            return Err(schema_error(format!("unknown type \"{kind}\"")));
        };
        if let Some((key, _)) = members
            .iter()
            .find(|(k, _)| k != "type" && !entry.members.contains(&k.as_str()))
        {
            return Err(schema_error(format!(
                "the {kind} descriptor has no member \"{key}\""
            )));
        }
        self.depth += 1;
        let node = (entry.compile)(d, self);
        self.depth -= 1;
        node
    }

    /// The innermost definition named `name`, if one is being compiled.
    fn lookup(&self, name: &str) -> Option<u32> {
        self.scopes
            .iter()
            .rev()
            .find(|(n, _)| &**n == name)
            .map(|&(_, id)| id)
    }
}

#[cold]
pub fn schema_error(message: String) -> Error {
    Error::new(ErrorKind::Schema { message })
}

/// Member `key` of descriptor `d`, or a schema error naming it.
pub fn member<'a>(d: &'a Json, key: &'static str) -> Result<&'a Json> {
    d.get(key).ok_or_else(|| {
        let kind = d.get("type").and_then(Json::as_str).unwrap_or("?");
        schema_error(format!("the {kind} descriptor needs \"{key}\""))
    })
}

/// Constraint member `key` of descriptor `d`: absent, or a number.
pub fn number_member(d: &Json, key: &str) -> Result<Option<f64>> {
    match d.get(key) {
        None => Ok(None),
        Some(Json::Number(x)) => Ok(Some(*x)),
        Some(j) => Err(schema_error(format!(
            "{key} must be a number, found {}",
            j.kind()
        ))),
    }
}

/// A length or count constraint of `d`: absent, or an integer from 0 to 2^32 - 1.
pub fn length_member(d: &Json, key: &str) -> Result<Option<u32>> {
    match number_member(d, key)? {
        None => Ok(None),
        Some(x) if x.fract() == 0.0 && (0.0..=u32::MAX as f64).contains(&x) => Ok(Some(x as u32)),
        Some(x) => Err(schema_error(format!(
            "{key} must be an integer from 0 to {}, found {}",
            u32::MAX,
            crate::codec::Number::Float(x)
        ))),
    }
}

/// The lengths or counts `min_key` and `max_key` of `d` (0 and 2^32 - 1 when absent), or
/// None when neither is given; a minimum over the maximum is a schema error.
pub fn length_range(d: &Json, min_key: &str, max_key: &str) -> Result<Option<(u32, u32)>> {
    let min = match min_key {
        "" => None,
        key => length_member(d, key)?,
    };
    let max = length_member(d, max_key)?;
    if min.is_none() && max.is_none() {
        return Ok(None);
    }
    let (min, max) = (min.unwrap_or(0), max.unwrap_or(u32::MAX));
    if min > max {
        return Err(schema_error(format!(
            "{min_key} {min} is greater than {max_key} {max}"
        )));
    }
    Ok(Some((min, max)))
}

/// The value of a schema that may stand anywhere a value stands: not `optional` or
/// `default`, which only say what to do when an object's key is missing.
pub fn value_node(cx: &mut Cx, d: &Json) -> Result<Node> {
    let node = cx.node(d)?;
    match node {
        Node::Optional(_) => Err(schema_error(
            "optional is only allowed on an object field".into(),
        )),
        Node::Default { .. } => Err(schema_error(
            "default is only allowed on an object field".into(),
        )),
        node => Ok(node),
    }
}

/// The fewest bytes a value of `node` takes on the wire; `sizes` gives the recursive
/// definitions' own minimums (a lower bound while they are being computed).
pub fn min_size(node: &Node, sizes: &[u32]) -> u32 {
    match node {
        Node::Bool
        | Node::Uint8
        | Node::Int8
        | Node::Uint16
        | Node::Uint32
        | Node::Int16
        | Node::Int32
        | Node::Int
        | Node::Int64
        | Node::Uint64
        | Node::Date
        | Node::String
        | Node::Bytes
        | Node::Enum { .. }
        | Node::Array { .. }
        | Node::Optional(_)
        | Node::Nullable(_)
        | Node::Record { .. }
        | Node::Map { .. }
        | Node::Union { .. }
        | Node::Discriminated { .. }
        | Node::Json
        | Node::Typed(_) => 1,
        Node::Float32 => 4,
        Node::Float64 => 8,
        Node::Literal(_) => 0,
        Node::Tuple { items } => items
            .iter()
            .map(|n| min_size(n, sizes))
            .fold(0, u32::saturating_add),
        Node::Object { fields, .. } => fields
            .iter()
            .map(|f| min_size(&f.node, sizes))
            .fold(0, u32::saturating_add),
        Node::Ref(id) => sizes.get(*id as usize).copied().unwrap_or(0),
        Node::Default { inner, .. } | Node::Checked { inner, .. } => min_size(inner, sizes),
    }
}

/// A number in a JS value: a HeapNumber box at worst (a field holding a double, an
/// integer above 2^31).
pub const HEAP_NUMBER: u64 = 16;

/// The estimated JS heap bytes of a decoded value of `node`, not counting what its own
/// counts and lengths add (array items, entries, string text, byte contents), which the
/// engine charges as it reads them, nor optional, nullable, union and recursive parts,
/// charged when present. An estimate for the decode budget (`Limits::max_decoded_bytes`),
/// calibrated against V8 (`__test__/budget.test.js` checks it is not below the real cost).
pub fn heap_cost(node: &Node) -> u64 {
    match node {
        Node::Bool | Node::Enum { .. } | Node::Literal(_) => 0,
        Node::Uint8
        | Node::Uint16
        | Node::Uint32
        | Node::Int8
        | Node::Int16
        | Node::Int32
        | Node::Int
        | Node::Float32
        | Node::Float64 => HEAP_NUMBER,
        Node::Int64 | Node::Uint64 => int64::HEAP,
        Node::Date => date::HEAP,
        Node::String => string::HEAP,
        Node::Bytes | Node::Typed(_) => bytes::HEAP,
        Node::Array { .. } => array::HEAP,
        Node::Tuple { items } => items
            .iter()
            .map(|n| array::HEAP_PER_ITEM + element_cost(n))
            .fold(array::HEAP, u64::saturating_add),
        Node::Object { fields, .. } => fields
            .iter()
            .map(|f| object::HEAP_PER_FIELD + heap_cost(&f.node))
            .fold(object::HEAP, u64::saturating_add),
        Node::Record { .. } => record::HEAP,
        Node::Map { .. } => map::HEAP,
        Node::Optional(_)
        | Node::Nullable(_)
        | Node::Union { .. }
        | Node::Discriminated { .. }
        | Node::Ref(_)
        | Node::Json => 0,
        Node::Default { inner, .. } | Node::Checked { inner, .. } => heap_cost(inner),
    }
}

/// The cost of a value held as an array's element: numbers there are unboxed (small
/// integers, or a double array's elements), everything else as `heap_cost`.
pub fn element_cost(node: &Node) -> u64 {
    match node {
        Node::Uint8
        | Node::Uint16
        | Node::Uint32
        | Node::Int8
        | Node::Int16
        | Node::Int32
        | Node::Int
        | Node::Float32
        | Node::Float64 => 0,
        Node::Checked { inner, .. } => element_cost(inner),
        other => heap_cost(other),
    }
}

/// A cost in the u32 the program holds (a saturated one still fails any real budget).
pub fn cost32(cost: u64) -> u32 {
    cost.min(u32::MAX as u64) as u32
}

/// Builds the program's steps from nodes.
#[derive(Default)]
pub struct Lower {
    pub steps: Vec<Step>,
    pub tables: Vec<u32>,
    /// Heap costs of the variants, parallel to `tables`.
    pub costs: Vec<u32>,
    /// Segments from the current frame's root to the value being lowered.
    pub path: Vec<Segment>,
    /// The fewest bytes of each recursive definition.
    pub sizes: Vec<u32>,
    /// The rules of `Op::Checked` steps.
    pub rules: Vec<Rule>,
}

impl Lower {
    pub fn here(&self) -> u32 {
        self.steps.len() as u32
    }

    pub fn push(&mut self, op: Op) -> usize {
        self.steps.push(Step {
            op,
            path: self.path.as_slice().into(),
        });
        self.steps.len() - 1
    }

    /// Lowers `node` in a new frame: its steps name their path from `node` itself (the
    /// item of an array, the key or value of an entry, a definition's body).
    pub fn frame(&mut self, node: &Node) {
        let outer = std::mem::take(&mut self.path);
        self.node(node);
        self.path = outer;
    }

    pub fn node(&mut self, node: &Node) {
        let op = match node {
            Node::Bool => Op::Bool,
            Node::Uint8 => Op::Uint8,
            Node::Uint16 => Op::Uint16,
            Node::Uint32 => Op::Uint32,
            Node::Int8 => Op::Int8,
            Node::Int16 => Op::Int16,
            Node::Int32 => Op::Int32,
            Node::Int => Op::Int,
            Node::Int64 => Op::Int64,
            Node::Uint64 => Op::Uint64,
            Node::Float32 => Op::Float32,
            Node::Float64 => Op::Float64,
            Node::Date => Op::Date,
            Node::String => Op::String,
            Node::Bytes => Op::Bytes,
            Node::Json => Op::Json,
            Node::Typed(elem) => Op::Typed { elem: *elem },
            // The compiler caps the number of symbols at u32::MAX.
            Node::Enum { symbols } => Op::Enum {
                count: symbols.len() as u32,
            },
            Node::Literal(_) => return,
            Node::Array {
                items,
                min_item_bytes,
            } => return array::lower(self, items, *min_item_bytes),
            Node::Tuple { items } => return tuple::lower(self, items),
            Node::Object { fields, .. } => return object::lower(self, fields),
            Node::Optional(inner) | Node::Nullable(inner) => return optional::lower(self, inner),
            Node::Default { inner, .. } => return self.node(inner),
            Node::Record { values } => return record::lower(self, values),
            Node::Map { keys, values } => return map::lower(self, keys, values),
            Node::Union { variants } | Node::Discriminated { variants, .. } => {
                return union::lower(self, variants)
            }
            Node::Ref(id) => Op::Call { block: *id },
            Node::Checked { inner, check } => return self.checked(inner, check),
        };
        self.push(op);
    }

    /// A constrained value: a count check before an array's or map's steps, or the leaf's
    /// step turned into a `Checked` one.
    fn checked(&mut self, inner: &Node, check: &Check) {
        if let Check::Count { min, max } = *check {
            self.push(Op::Count { min, max });
            return self.node(inner);
        }
        let at = self.steps.len();
        self.node(inner);
        debug_assert_eq!(self.steps.len(), at + 1, "a checked leaf is one step");
        let rule = self.rules.len() as u32;
        self.rules.push(Rule {
            op: self.steps[at].op,
            check: check.clone(),
        });
        self.steps[at].op = Op::Checked { rule };
    }
}

/// The descriptor name of a leaf op, for messages.
pub fn op_name(op: Op) -> &'static str {
    match op {
        Op::Uint8 => "uint8",
        Op::Int8 => "int8",
        Op::Uint16 => "uint16",
        Op::Uint32 => "uint32",
        Op::Int16 => "int16",
        Op::Int32 => "int32",
        Op::Int => "int",
        Op::Int64 => "int64",
        Op::Uint64 => "uint64",
        Op::Float32 => "float32",
        Op::Float64 => "float64",
        Op::String => "string",
        Op::Bytes => "bytes",
        _ => "value",
    }
}

/// Checks the value a `Checked` step's leaf decoded from `start` against its rule; each
/// type checks its own constraints. A string that the JS layer checks too stops a
/// locating decode (`Decoding::stop`) when it is the one JS refused.
#[inline]
pub fn verify(d: &mut Decoding, rule: &Rule, start: usize) -> Result<()> {
    let bytes = d.r.since(start);
    let violation = match (rule.op, &rule.check) {
        (Op::Int64 | Op::Uint64, Check::Integer { .. }) => {
            int64::verify(rule.op, &rule.check, bytes)
        }
        (_, Check::Integer { .. }) => integer::verify(rule.op, &rule.check, bytes),
        (_, Check::Float { min, max }) => float::verify(rule.op, *min, *max, bytes),
        (
            _,
            Check::Text {
                min,
                max,
                format,
                js,
            },
        ) => {
            let located = *js && d.out.slots() == d.stop.wrapping_add(1);
            string::verify(*min, *max, *format, bytes).or(located.then_some(Violation::Located))
        }
        (_, Check::Bytes { min, max }) => bytes::verify(*min, *max, bytes),
        (_, Check::Count { .. }) => None,
    };
    match violation {
        None => Ok(()),
        Some(violation) => Err(Error::new(ErrorKind::Invalid {
            offset: start,
            violation,
        })),
    }
}

/// Checks what the core checks of a constrained leaf on encode, given the bytes it wrote:
/// a string's email, uuid, ipv4 or datetime format, unless a pattern goes with it (JS
/// checks everything else, as it writes the tape). Checked here because these grammars
/// cost JS a RegExp call per string (zod's email: ~30% of a personValidated encode), and
/// the string is in the core anyway. So encode meets them after every problem JS finds:
/// docs/FORMAT.md, "Issues".
#[inline]
pub fn verify_encoded(rule: &Rule, bytes: &[u8]) -> Result<()> {
    let violation = match rule.check {
        Check::Text {
            format: Some(format),
            js: false,
            ..
        } => string::verify_format(format, bytes),
        _ => None,
    };
    match violation {
        None => Ok(()),
        Some(violation) => Err(Error::new(ErrorKind::Violated { violation })),
    }
}

/// What a leaf's encode function works on: the marshalled values and the output.
pub struct Encoding<'a, 'w> {
    pub t: TapeIn<'a>,
    pub w: &'w mut Writer,
    pub limits: Limits,
    /// Levels of recursive types and `json` entered so far.
    pub depth: u32,
}

/// What a leaf's decode function works on: the input, the tape it fills and the text.
pub struct Decoding<'a, 't> {
    pub r: Reader<'a>,
    pub out: TapeOut<'t>,
    pub text: &'t mut TextBuffer,
    pub limits: Limits,
    pub depth: u32,
    /// Estimated JS heap bytes of the values decoded so far.
    pub heap: u64,
    /// The tape slot of a string the JS layer refused, which a locating decode stops at
    /// (`engine::locate`); `usize::MAX` otherwise.
    pub stop: usize,
    /// The object keys of the message's json values (`json::KeyIds`), made by the
    /// first json value of the message: a table in place cost every decode ~8% of a
    /// person decode's time to set up and drop (2026-12-01).
    pub json_keys: Option<Box<json::KeyIds<'a>>>,
}

impl Decoding<'_, '_> {
    /// Adds `cost` estimated heap bytes; over the budget is `LimitExceeded`, found before
    /// JS builds any value (`offset` is where the value that went over starts).
    #[inline(always)]
    pub fn charge(&mut self, cost: u64, offset: usize) -> Result<()> {
        self.heap = self.heap.saturating_add(cost);
        if self.heap > self.limits.max_decoded_bytes {
            return Err(self.over_budget(offset));
        }
        Ok(())
    }

    #[cold]
    fn over_budget(&self, offset: usize) -> Error {
        Error::new(ErrorKind::LimitExceeded {
            offset,
            what: LimitKind::DecodedSize,
            declared: self.heap,
            limit: self.limits.max_decoded_bytes,
        })
    }

    /// A length or count, checked against its limit.
    #[inline]
    pub fn length(&mut self, what: LimitKind, limit: u32) -> Result<u32> {
        let offset = self.r.offset();
        let n = self.r.varint()?;
        if n > limit {
            return Err(Error::new(ErrorKind::LimitExceeded {
                offset,
                what,
                declared: n as u64,
                limit: limit as u64,
            }));
        }
        Ok(n)
    }

    /// A count of items of at least `min_item_bytes` each: within its limit, and with
    /// that many bytes left in the input, checked before any work so a huge count in a
    /// short input costs nothing.
    #[inline]
    pub fn count(&mut self, min_item_bytes: u32) -> Result<u32> {
        let count = self.length(LimitKind::ArrayLength, self.limits.max_array_length)?;
        let needed = count as u64 * min_item_bytes as u64;
        if needed > self.r.remaining() as u64 {
            let short = needed - self.r.remaining() as u64;
            return Err(Error::truncated(
                self.r.offset(),
                short.min(usize::MAX as u64) as usize,
            ));
        }
        Ok(count)
    }

    /// Enters one level of recursion; `offset` is where the deeper value starts.
    #[inline]
    pub fn enter(&mut self, offset: usize) -> Result<()> {
        if self.depth >= self.limits.max_depth {
            return Err(Error::new(ErrorKind::LimitExceeded {
                offset,
                what: LimitKind::Depth,
                declared: self.depth as u64 + 1,
                limit: self.limits.max_depth as u64,
            }));
        }
        self.depth += 1;
        Ok(())
    }
}

impl Encoding<'_, '_> {
    /// Enters one level of recursion (JS checks the depth first, with a path; this keeps
    /// a hostile tape from exhausting the native stack).
    #[inline]
    pub fn enter(&mut self) -> Result<()> {
        if self.depth >= self.limits.max_depth {
            return Err(self.t.mismatch());
        }
        self.depth += 1;
        Ok(())
    }
}
