//! `map`: a JS `Map` with keys of any type, insertion order kept. Varint count, then each
//! key and its value. Entries must take at least one byte between them. Decode rejects a
//! repeated key (see `keys.rs` for how keys compare).

use super::{min_size, schema_error, value_node, Cx, Entry, Lower, Node};
use crate::codec::{Result, Segment};
use crate::json::Json;
use crate::program::{Keys, Op};

/// A JSMap and its OrderedHashMap (an empty one measured ~217 bytes): per entry three
/// words and a bucket, at half occupancy.
pub const HEAP: u64 = 208;
pub const HEAP_PER_ENTRY: u64 = 40;

pub const ENTRY: Entry = Entry {
    name: "map",
    members: &["keys", "values", "maxEntries"],
    compile,
};

fn compile(d: &Json, cx: &mut Cx) -> Result<Node> {
    let keys = value_node(cx, super::member(d, "keys")?).map_err(|e| e.within(Segment::Items))?;
    let values =
        value_node(cx, super::member(d, "values")?).map_err(|e| e.within(Segment::Items))?;
    let node = Node::Map {
        keys: Box::new(keys),
        values: Box::new(values),
    };
    super::array::counted(node, super::length_range(d, "", "maxEntries")?)
}

/// The check that an entry takes bytes, made once every definition's size is known.
pub fn check_entries(keys: &Node, values: &Node, sizes: &[u32]) -> Result<()> {
    if min_size(keys, sizes).saturating_add(min_size(values, sizes)) == 0 {
        return Err(schema_error(
            "map entries must take at least one byte; a key and a value that take none would let a few bytes make millions of entries".into(),
        ));
    }
    Ok(())
}

/// Whether keys of `node` can be two JS values that encode to the same bytes: float32
/// rounds (0.1 and 0.10000000001 are two Map keys and one float32), directly or as a
/// nullable's or union's value.
pub fn rounds_keys(node: &Node, defs: &[super::Def], seen: &mut Vec<u32>) -> bool {
    match node {
        Node::Float32 => true,
        Node::Nullable(inner) => rounds_keys(inner, defs, seen),
        Node::Union { variants } => variants.iter().any(|v| rounds_keys(v, defs, seen)),
        Node::Ref(id) if !seen.contains(id) => {
            seen.push(*id);
            defs.get(*id as usize)
                .is_some_and(|d| rounds_keys(&d.node, defs, seen))
        }
        Node::Checked { inner, .. } => rounds_keys(inner, defs, seen),
        _ => false,
    }
}

/// How a key of `node` is compared on decode.
pub fn key_kind(node: &Node) -> Keys {
    match node {
        Node::Bool
        | Node::Uint8
        | Node::Uint16
        | Node::Uint32
        | Node::Int8
        | Node::Int16
        | Node::Int32
        | Node::Int
        | Node::Int64
        | Node::Uint64
        | Node::String
        | Node::Enum { .. }
        | Node::Literal(_) => Keys::Bytes,
        Node::Float32 => Keys::Float32,
        Node::Float64 => Keys::Float64,
        Node::Nullable(inner) => match key_kind(inner) {
            Keys::Bytes => Keys::Bytes,
            _ => Keys::Js,
        },
        Node::Date
        | Node::Bytes
        | Node::Typed(_)
        | Node::Array { .. }
        | Node::Tuple { .. }
        | Node::Object { .. }
        | Node::Record { .. }
        | Node::Map { .. }
        | Node::Discriminated { .. } => Keys::Objects,
        Node::Default { inner, .. } | Node::Checked { inner, .. } => key_kind(inner),
        Node::Union { .. } | Node::Json | Node::Ref(_) | Node::Optional(_) => Keys::Js,
    }
}

/// Tape: on encode one slot, the count; on decode two, the count and its offset (for the
/// error JS gives when keys only it can compare repeat); then per entry the key's and the
/// value's slots.
pub fn lower(lw: &mut Lower, keys: &Node, values: &Node) {
    let kind = key_kind(keys);
    let entry_cost = super::cost32(
        HEAP_PER_ENTRY + super::heap_cost(keys).saturating_add(super::heap_cost(values)),
    );
    let at = lw.push(Op::Entries {
        end: 0,
        key_end: 0,
        min_entry_bytes: 1,
        entry_cost,
        keys: kind,
    });
    lw.frame(keys);
    let key_end = lw.here();
    lw.frame(values);
    lw.steps[at].op = Op::Entries {
        end: lw.here(),
        key_end,
        min_entry_bytes: min_size(keys, &lw.sizes)
            .saturating_add(min_size(values, &lw.sizes))
            .max(1),
        entry_cost,
        keys: kind,
    };
}
