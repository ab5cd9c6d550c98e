//! `recursive` and `ref`: a named definition whose body may refer to itself, as plain
//! JSON: `{ "type": "recursive", "name": "Node", "schema": ... { "type": "ref", "name":
//! "Node" } ... }`. A ref names the innermost enclosing definition of that name. The
//! definition's steps sit after the main program, and each ref calls them one level
//! deeper; `maxDepth` bounds the levels on encode and decode. Nothing of it is on the wire.

use super::{schema_error, value_node, Cx, Def, Entry, Node};
use crate::codec::Result;
use crate::json::Json;

pub const RECURSIVE: Entry = Entry {
    name: "recursive",
    members: &["name", "schema"],
    compile: compile_recursive,
};

pub const REF: Entry = Entry {
    name: "ref",
    members: &["name"],
    compile: compile_ref,
};

fn name(d: &Json) -> Result<&str> {
    super::member(d, "name")?
        .as_str()
        .filter(|s| !s.is_empty())
        .ok_or_else(|| schema_error("\"name\" must be a non-empty string".into()))
}

fn compile_recursive(d: &Json, cx: &mut Cx) -> Result<Node> {
    let name = name(d)?;
    let id = cx.defs.len() as u32;
    cx.defs.push(Def {
        name: name.into(),
        node: Node::Literal(super::literal::Literal::Null),
    });
    cx.scopes.push((name.into(), id));
    let body = value_node(cx, super::member(d, "schema")?);
    cx.scopes.pop();
    cx.defs[id as usize].node = body?;
    Ok(Node::Ref(id))
}

fn compile_ref(d: &Json, cx: &mut Cx) -> Result<Node> {
    let name = name(d)?;
    match cx.lookup(name) {
        Some(id) => Ok(Node::Ref(id)),
        None => Err(schema_error(format!(
            "ref \"{name}\" is not inside a recursive type of that name"
        ))),
    }
}

/// Whether a value of `node` can be finite, given which definitions can (`finite`).
fn can_end(node: &Node, finite: &[bool]) -> bool {
    match node {
        Node::Ref(id) => finite[*id as usize],
        Node::Tuple { items } => items.iter().all(|n| can_end(n, finite)),
        Node::Object { fields, .. } => fields.iter().all(|f| can_end(&f.node, finite)),
        Node::Default { inner, .. } => can_end(inner, finite),
        Node::Union { variants } | Node::Discriminated { variants, .. } => {
            variants.iter().any(|n| can_end(n, finite))
        }
        // Absent, null, empty: each ends a chain of references.
        _ => true,
    }
}

/// Refuses definitions with no finite value (`t.recursive('A', (a) => t.object({ a }))`),
/// then sizes every definition: the fewest bytes of each, by iterating to a fixed point.
/// Returns the sizes, by definition.
pub fn resolve(defs: &[Def]) -> Result<Vec<u32>> {
    let mut finite = vec![false; defs.len()];
    loop {
        let mut changed = false;
        for (i, d) in defs.iter().enumerate() {
            if !finite[i] && can_end(&d.node, &finite) {
                finite[i] = true;
                changed = true;
            }
        }
        if !changed {
            break;
        }
    }
    if let Some(i) = finite.iter().position(|f| !f) {
        return Err(schema_error(format!(
            "recursive type \"{}\" has no finite value: every path from it leads back to it through required fields",
            defs[i].name
        )));
    }
    // Sizes only grow from 0 and each is bounded (every definition ends), so this stops;
    // the bound on rounds keeps a pathological schema cheap all the same.
    let mut sizes = vec![0u32; defs.len()];
    for _ in 0..64 {
        let mut changed = false;
        for i in 0..defs.len() {
            let size = super::min_size(&defs[i].node, &sizes);
            if size != sizes[i] {
                sizes[i] = size;
                changed = true;
            }
        }
        if !changed {
            break;
        }
    }
    Ok(sizes)
}
