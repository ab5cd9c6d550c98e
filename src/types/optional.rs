//! `optional` (an object field whose key may be missing) and `nullable` (a value that
//! may be null): one presence byte, `00` absent or null, `01` then the value.

use super::{schema_error, Cx, Def, Entry, Lower, Node};
use crate::codec::{Error, Fault, Result};
use crate::json::Json;
use crate::program::Op;

pub const OPTIONAL: Entry = Entry {
    name: "optional",
    members: &["of"],
    compile: |d, cx| compile(d, cx, true),
};

pub const NULLABLE: Entry = Entry {
    name: "nullable",
    members: &["of"],
    compile: |d, cx| compile(d, cx, false),
};

fn compile(d: &Json, cx: &mut Cx, optional: bool) -> Result<Node> {
    let kind = if optional { "optional" } else { "nullable" };
    let inner = cx.node(super::member(d, "of")?)?;
    match inner {
        Node::Optional(_) => Err(schema_error(format!(
            "{kind} of optional: optional must be outermost"
        ))),
        Node::Nullable(_) if !optional => Err(schema_error("nullable of nullable".into())),
        inner if optional => Ok(Node::Optional(Box::new(inner))),
        inner => Ok(Node::Nullable(Box::new(inner))),
    }
}

/// Tape: one slot, 0 (absent or null) or 1 followed by the value's slots.
pub fn lower(lw: &mut Lower, inner: &Node) {
    let cost = super::cost32(super::heap_cost(inner));
    let at = lw.push(Op::Presence { end: 0, cost });
    lw.node(inner);
    lw.steps[at].op = Op::Presence {
        end: lw.here(),
        cost,
    };
}

/// Whether a value of `node` can be null (so that a nullable of it has two encodings of
/// null). `seen` guards the definitions being looked through.
pub fn takes_null(node: &Node, defs: &[Def], seen: &mut Vec<u32>) -> bool {
    match node {
        Node::Literal(super::literal::Literal::Null) | Node::Json | Node::Nullable(_) => true,
        Node::Union { variants } => variants.iter().any(|v| takes_null(v, defs, seen)),
        Node::Ref(id) if !seen.contains(id) => {
            seen.push(*id);
            defs.get(*id as usize)
                .is_some_and(|d| takes_null(&d.node, defs, seen))
        }
        _ => false,
    }
}

/// Reads a presence byte: whether the value follows.
#[inline(always)]
pub fn read_presence(r: &mut crate::codec::Reader) -> Result<bool> {
    match r.u8()? {
        0 => Ok(false),
        1 => Ok(true),
        b => Err(Error::malformed(r.offset() - 1, Fault::BadPresence(b))),
    }
}
