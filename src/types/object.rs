//! `object`: each field's value in schema order; nothing else (no names, no count).
//! Descriptor: `{ "type": "object", "fields": [{ "name", "schema" }], "strict" }`.

use std::collections::HashSet;

use super::{schema_error, Cx, Entry, Field, Lower, Node};
use crate::codec::{Result, Segment};
use crate::json::Json;

/// A JSObject; each field a slot (in-object, or in a property array for fields set after
/// the literal).
pub const HEAP: u64 = 24;
pub const HEAP_PER_FIELD: u64 = 8;

pub const ENTRY: Entry = Entry {
    name: "object",
    members: &["fields", "strict"],
    compile,
};

fn compile(d: &Json, cx: &mut Cx) -> Result<Node> {
    let Json::Array(list) = super::member(d, "fields")? else {
        return Err(schema_error(
            "object \"fields\" must be an array of { name, schema }".into(),
        ));
    };
    let strict = match d.get("strict") {
        None => false,
        Some(Json::Bool(b)) => *b,
        Some(_) => return Err(schema_error("object \"strict\" must be a boolean".into())),
    };
    let mut fields: Vec<Field> = Vec::with_capacity(list.len());
    // A set, not a scan of the names before each: compile stays linear in the descriptor.
    let mut seen = HashSet::with_capacity(list.len());
    for (i, f) in list.iter().enumerate() {
        let Some(name) = f.get("name").and_then(Json::as_str) else {
            return Err(schema_error(format!(
                "object field {i} needs a string \"name\""
            )));
        };
        if !seen.insert(name) {
            return Err(schema_error(format!("field \"{name}\" appears twice")));
        }
        let schema = f
            .get("schema")
            .ok_or_else(|| schema_error(format!("object field \"{name}\" needs a \"schema\"")))?;
        let node = cx.node(schema).map_err(|e| e.within_field(name))?;
        fields.push(Field {
            name: name.into(),
            node,
        });
    }
    Ok(Node::Object {
        fields: fields.into(),
        strict,
    })
}

pub fn lower(lw: &mut Lower, fields: &[Field]) {
    for f in fields {
        lw.path.push(Segment::Field(f.name.clone()));
        lw.node(&f.node);
        lw.path.pop();
    }
}
