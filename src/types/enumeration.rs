//! `enum`: one of a list of distinct strings, as the varint index of the string in the
//! list. Descriptor: `{ "type": "enum", "values": [...], "default"? }`; `default`, one of
//! the values, is what a reader of a newer writer's symbols it lacks reads them as
//! (lib/evolve.js); it does not change the bytes.

use std::collections::HashSet;

use super::{member, schema_error, Cx, Decoding, Encoding, Entry, Node};
use crate::codec::{Error, Fault, Result};
use crate::json::Json;

pub const ENTRY: Entry = Entry {
    name: "enum",
    members: &["values", "default"],
    compile,
};

fn compile(d: &Json, _: &mut Cx) -> Result<Node> {
    let Json::Array(values) = member(d, "values")? else {
        return Err(schema_error(
            "enum \"values\" must be an array of strings".into(),
        ));
    };
    if values.is_empty() {
        return Err(schema_error("enum needs at least one value".into()));
    }
    if u32::try_from(values.len()).is_err() {
        return Err(schema_error("enum has too many values".into()));
    }
    // A set, not a scan of the values before each: a descriptor is input from outside,
    // and a scan makes a large enum quadratic.
    let mut seen = HashSet::with_capacity(values.len());
    let mut symbols = Vec::with_capacity(values.len());
    for (i, v) in values.iter().enumerate() {
        let Some(s) = v.as_str() else {
            return Err(schema_error(format!(
                "enum value {i} is a {}, not a string",
                v.kind()
            )));
        };
        if !seen.insert(s) {
            return Err(schema_error(format!("enum value \"{s}\" appears twice")));
        }
        symbols.push(Box::from(s));
    }
    if let Some(default) = d.get("default") {
        match default.as_str() {
            Some(s) if seen.contains(s) => {}
            Some(s) => {
                return Err(schema_error(format!(
                    "enum default \"{s}\" is not one of its values"
                )))
            }
            None => return Err(schema_error("enum \"default\" must be a string".into())),
        }
    }
    Ok(Node::Enum {
        symbols: symbols.into(),
    })
}

/// Tape: one slot, the index.
#[inline(always)]
pub fn encode(e: &mut Encoding, count: u32) -> Result<()> {
    let v = e.t.slot()?;
    if !(v >= 0.0 && v < count as f64) {
        return Err(e.t.mismatch());
    }
    e.w.varint(v as u32);
    Ok(())
}

#[inline(always)]
pub fn decode(d: &mut Decoding, count: u32) -> Result<()> {
    let offset = d.r.offset();
    let index = d.r.varint()?;
    if index >= count {
        return Err(Error::malformed(offset, Fault::EnumIndex { index, count }));
    }
    d.out.push(index as f64);
    Ok(())
}
