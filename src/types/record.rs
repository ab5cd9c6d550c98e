//! `record`: a plain object with any own enumerable string keys, all values of one type.
//! Varint count, then each key (as a string) and its value, in `Object.keys` order.
//! Decode rejects a repeated key and keys out of the order JS keeps (array-index keys
//! first, ascending), so a decoded record encodes back to the same bytes.

use super::{value_node, Cx, Entry, Lower, Node};
use crate::codec::Result;
use crate::json::Json;
use crate::program::{Keys, Op};

/// An object in dictionary mode: per entry an (internalised) key string and a dictionary
/// slot of three words, with room to grow (small records of the same keys take ~29 bytes
/// an entry: this errs high).
pub const HEAP: u64 = 64;
pub const HEAP_PER_ENTRY: u64 = 56;

pub const ENTRY: Entry = Entry {
    name: "record",
    members: &["values", "maxEntries"],
    compile,
};

fn compile(d: &Json, cx: &mut Cx) -> Result<Node> {
    let values = value_node(cx, super::member(d, "values")?)
        .map_err(|e| e.within(crate::codec::Segment::Items))?;
    let node = Node::Record {
        values: Box::new(values),
    };
    super::array::counted(node, super::length_range(d, "", "maxEntries")?)
}

/// Tape: one slot, the count; then per entry the key (a string) and the value's slots.
pub fn lower(lw: &mut Lower, values: &Node) {
    let entry_cost = super::cost32(HEAP_PER_ENTRY + super::heap_cost(values));
    let at = lw.push(Op::Entries {
        end: 0,
        key_end: 0,
        min_entry_bytes: 1,
        entry_cost,
        keys: Keys::Record,
    });
    lw.frame(&Node::String);
    let key_end = lw.here();
    lw.frame(values);
    lw.steps[at].op = Op::Entries {
        end: lw.here(),
        key_end,
        // A key takes at least its length byte.
        min_entry_bytes: 1u32.saturating_add(super::min_size(values, &lw.sizes)),
        entry_cost,
        keys: Keys::Record,
    };
}
