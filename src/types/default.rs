//! `default`: an object field that may be missing (or `undefined`) on encode, where the
//! default value is encoded instead, and that is always present on decode. On the wire it
//! is its type, nothing more. The default is part of the descriptor, in the JSON form of
//! its type (docs/FORMAT.md, "JSON forms"); JS checks it fits when the schema compiles.
//! It matters to schema evolution: a reader's field that the writer lacks takes it.

use super::{schema_error, Cx, Entry, Node};
use crate::codec::Result;
use crate::json::Json;

pub const ENTRY: Entry = Entry {
    name: "default",
    members: &["of", "value"],
    compile,
};

fn compile(d: &Json, cx: &mut Cx) -> Result<Node> {
    let inner = cx.node(super::member(d, "of")?)?;
    if matches!(inner, Node::Optional(_) | Node::Default { .. }) {
        return Err(schema_error(
            "default of optional or default: a default field is never absent".into(),
        ));
    }
    let value = super::member(d, "value")?.clone();
    Ok(Node::Default {
        inner: Box::new(inner),
        value,
    })
}
