//! `tuple`: an array of exactly as many items as the schema lists, each of its own type;
//! the items one after another, no count on the wire or on the tape.

use super::{schema_error, value_node, Cx, Entry, Lower, Node};
use crate::codec::{Result, Segment};
use crate::json::Json;

pub const ENTRY: Entry = Entry {
    name: "tuple",
    members: &["items"],
    compile,
};

fn compile(d: &Json, cx: &mut Cx) -> Result<Node> {
    let Json::Array(list) = super::member(d, "items")? else {
        return Err(schema_error(
            "tuple \"items\" must be an array of types".into(),
        ));
    };
    let mut items = Vec::with_capacity(list.len());
    for (i, item) in list.iter().enumerate() {
        items.push(value_node(cx, item).map_err(|e| e.within(Segment::Index(i as u32)))?);
    }
    Ok(Node::Tuple {
        items: items.into(),
    })
}

pub fn lower(lw: &mut Lower, items: &[Node]) {
    for (i, item) in items.iter().enumerate() {
        lw.path.push(Segment::Index(i as u32));
        lw.node(item);
        lw.path.pop();
    }
}
