//! `array`: varint count, then each item. Items must take at least one byte each, so a
//! declared count is checked against the bytes that remain before anything is built
//! (`t.array(t.null())` would let a few bytes declare millions of values).

use super::{min_size, schema_error, value_node, Cx, Entry, Lower, Node};
use crate::codec::{Result, Segment};
use crate::json::Json;
use crate::program::Op;

/// A JSArray and its elements' header; each item a slot, grown by push (measured ~10.9
/// bytes an item for 100,000 bools).
pub const HEAP: u64 = 48;
pub const HEAP_PER_ITEM: u64 = 11;

pub const ENTRY: Entry = Entry {
    name: "array",
    members: &["items"],
    compile,
};

fn compile(d: &Json, cx: &mut Cx) -> Result<Node> {
    let items = value_node(cx, super::member(d, "items")?).map_err(|e| e.within(Segment::Items))?;
    Ok(Node::Array {
        items: Box::new(items),
        // Set once recursive definitions are sized (`schema::size_items`).
        min_item_bytes: 0,
    })
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
    });
    lw.frame(items);
    lw.steps[at].op = Op::Array {
        end: lw.here(),
        min_item_bytes,
        item_cost,
    };
}
