//! `union` (the first variant, in order, that accepts the value) and
//! `discriminatedUnion` (objects told apart by the literal of one field): the varint
//! index of the variant, then the value as that variant writes it. A discriminated
//! variant's tag field is a literal, so it takes no bytes.

use std::collections::HashSet;

use super::literal::Literal;
use super::{schema_error, value_node, Cx, Entry, Lower, Node};
use crate::codec::{Error, Fault, Result, Segment};
use crate::json::Json;
use crate::program::Op;

pub const UNION: Entry = Entry {
    name: "union",
    members: &["variants"],
    compile: compile_union,
};

pub const DISCRIMINATED: Entry = Entry {
    name: "discriminatedUnion",
    members: &["key", "variants"],
    compile: compile_discriminated,
};

fn variants(d: &Json, cx: &mut Cx) -> Result<Vec<Node>> {
    let Json::Array(list) = super::member(d, "variants")? else {
        return Err(schema_error(
            "\"variants\" must be an array of types".into(),
        ));
    };
    if list.is_empty() {
        return Err(schema_error("a union needs at least one variant".into()));
    }
    if u32::try_from(list.len()).is_err() {
        return Err(schema_error("a union has too many variants".into()));
    }
    let mut out = Vec::with_capacity(list.len());
    for (i, v) in list.iter().enumerate() {
        out.push(value_node(cx, v).map_err(|e| e.within(Segment::Index(i as u32)))?);
    }
    Ok(out)
}

fn compile_union(d: &Json, cx: &mut Cx) -> Result<Node> {
    Ok(Node::Union {
        variants: variants(d, cx)?.into(),
    })
}

fn compile_discriminated(d: &Json, cx: &mut Cx) -> Result<Node> {
    let Some(key) = super::member(d, "key")?.as_str() else {
        return Err(schema_error(
            "discriminatedUnion \"key\" must be a string".into(),
        ));
    };
    let list = variants(d, cx)?;
    let mut tags = HashSet::with_capacity(list.len());
    for (i, v) in list.iter().enumerate() {
        let at = |e: Error| e.within(Segment::Index(i as u32));
        let Node::Object { fields, .. } = v else {
            return Err(at(schema_error(
                "each variant of a discriminatedUnion must be an object".into(),
            )));
        };
        let tag = match fields.iter().find(|f| &*f.name == key).map(|f| &f.node) {
            Some(Node::Literal(Literal::String(s))) => format!("s{s}"),
            Some(Node::Literal(Literal::Number(n))) => format!("n{n}"),
            _ => {
                return Err(at(schema_error(format!(
                    "each variant needs a field \"{key}\" that is a string or number literal"
                ))))
            }
        };
        if !tags.insert(tag) {
            return Err(at(schema_error(format!(
                "two variants have the same \"{key}\""
            ))));
        }
    }
    Ok(Node::Discriminated {
        key: key.into(),
        variants: list.into(),
    })
}

/// Tape: one slot, the variant index; then that variant's slots.
pub fn lower(lw: &mut Lower, variants: &[Node]) {
    let count = variants.len() as u32;
    let table = lw.tables.len();
    lw.push(Op::Branch {
        count,
        table: table as u32,
    });
    lw.tables.resize(table + variants.len() + 1, 0);
    lw.costs.resize(table + variants.len() + 1, 0);
    for (k, v) in variants.iter().enumerate() {
        lw.tables[table + k] = lw.here();
        lw.costs[table + k] = super::cost32(super::heap_cost(v));
        lw.node(v);
    }
    lw.tables[table + variants.len()] = lw.here();
}

/// Reads a variant index below `count`.
#[inline(always)]
pub fn read_index(r: &mut crate::codec::Reader, count: u32) -> Result<u32> {
    let offset = r.offset();
    let index = r.varint()?;
    if index >= count {
        return Err(Error::malformed(
            offset,
            Fault::VariantIndex { index, count },
        ));
    }
    Ok(index)
}
