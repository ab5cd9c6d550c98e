//! `array`: varint count, then each item. Items must take at least one byte each, so a
//! declared count is checked against the bytes that remain before anything is built
//! (`t.array(t.null())` would let a few bytes declare millions of values).

use super::{length_range, min_size, schema_error, value_node, Cx, Entry, Lower, Node};
use crate::codec::{Measure, Result, Segment, Violation};
use crate::json::Json;
use crate::program::{Check, Keys, Op};

/// A JSArray and its elements' header; each item a slot, grown by push (measured ~10.9
/// bytes an item for 100,000 bools).
pub const HEAP: u64 = 48;
pub const HEAP_PER_ITEM: u64 = 11;

pub const ENTRY: Entry = Entry {
    name: "array",
    members: &["items", "minItems", "maxItems"],
    compile,
};

fn compile(d: &Json, cx: &mut Cx) -> Result<Node> {
    let items = value_node(cx, super::member(d, "items")?).map_err(|e| e.within(Segment::Items))?;
    let node = Node::Array {
        items: Box::new(items),
        // Set once recursive definitions are sized (`schema::size_items`).
        min_item_bytes: 0,
    };
    counted(node, length_range(d, "minItems", "maxItems")?)
}

/// `node` (an array, record or map) with its count constrained to `range`, if given.
pub fn counted(node: Node, range: Option<(u32, u32)>) -> Result<Node> {
    Ok(match range {
        None => node,
        Some((min, max)) => Node::Checked {
            inner: Box::new(node),
            check: Check::Count { min, max },
        },
    })
}

/// Checks count `found` of the array (`next` is its `Array` step) or the record or map
/// (an `Entries` step) that a `Count` step stands before.
#[inline]
pub fn verify_count(next: Op, min: u32, max: u32, found: u32) -> Option<Violation> {
    let (type_name, measure) = match next {
        Op::Array { .. } => ("array", Measure::Items),
        Op::Entries {
            keys: Keys::Record, ..
        } => ("record", Measure::Entries),
        _ => ("map", Measure::Entries),
    };
    let (found, min, max) = (found as u64, min as u64, max as u64);
    if found < min {
        return Some(Violation::TooShort {
            type_name,
            measure,
            min,
            found,
        });
    }
    if found > max {
        return Some(Violation::TooLong {
            type_name,
            measure,
            max,
            found,
        });
    }
    None
}

/// The check that items take bytes, made once every definition's size is known.
pub fn check_items(items: &Node, sizes: &[u32]) -> Result<u32> {
    let min = min_size(items, sizes);
    if min == 0 {
        return Err(schema_error(
            "array items must take at least one byte; a null, a literal or an empty object or tuple takes none".into(),
        ));
    }
    Ok(min)
}

/// Tape: one slot, the count; then each item's slots.
pub fn lower(lw: &mut Lower, items: &Node, min_item_bytes: u32) {
    let item_cost = super::cost32(HEAP_PER_ITEM + super::element_cost(items));
    let at = lw.push(Op::Array {
        end: 0,
        min_item_bytes,
        item_cost,
        leaves: false,
    });
    lw.frame(items);
    let end = lw.here();
    let leaves = lw.steps[at + 1..end as usize]
        .iter()
        .all(|s| s.op.is_leaf());
    lw.steps[at].op = Op::Array {
        end,
        min_item_bytes,
        item_cost,
        leaves,
    };
}
