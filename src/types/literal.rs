//! `literal` (one string, finite number, boolean or null) and `null`: zero bytes. The
//! value is in the schema, so nothing of it is on the wire or on the tape.

use super::{member, schema_error, Cx, Entry, Node};
use crate::codec::Result;
use crate::json::Json;

#[derive(Debug, Clone, PartialEq)]
pub enum Literal {
    Null,
    Bool(bool),
    Number(f64),
    String(Box<str>),
}

pub const LITERAL: Entry = Entry {
    name: "literal",
    members: &["value"],
    compile,
};

pub const NULL: Entry = Entry {
    name: "null",
    members: &[],
    compile: |_, _| Ok(Node::Literal(Literal::Null)),
};

fn compile(d: &Json, _: &mut Cx) -> Result<Node> {
    Ok(Node::Literal(match member(d, "value")? {
        Json::Null => Literal::Null,
        Json::Bool(b) => Literal::Bool(*b),
        Json::Number(n) => Literal::Number(*n),
        Json::String(s) => Literal::String(s.as_str().into()),
        other => {
            return Err(schema_error(format!(
                "a literal is a string, number, boolean or null, not {}",
                other.kind()
            )))
        }
    }))
}
