//! The schema compiler: a JSON descriptor (what `t.*` builds, see docs/FORMAT.md) is
//! checked once and turned into a `Schema`, the tree the codec walks per message.

pub mod json;

use crate::codec::{Error, ErrorKind, Result, Segment};
use json::Json;

/// One node of a compiled schema.
#[derive(Debug, Clone, PartialEq)]
pub enum Node {
    Bool,
    Uint8,
    Uint16,
    Uint32,
    Int8,
    Int16,
    Int32,
    Float32,
    Float64,
    String,
    Bytes,
    /// Encoded as the index of the symbol.
    Enum {
        symbols: Box<[Box<str>]>,
    },
    Array {
        items: Box<Node>,
        min_item_bytes: u32,
    },
    Object {
        fields: Box<[Field]>,
    },
    /// A field that may be absent: one presence byte, then the value if present.
    Optional(Box<Node>),
    /// A value that may be null: one presence byte, then the value if not null.
    Nullable(Box<Node>),
}

#[derive(Debug, Clone, PartialEq)]
pub struct Field {
    pub name: Box<str>,
    pub node: Node,
}

/// Decode limits. A declared length over one of these is `LimitExceeded`; below it, a
/// length is still checked against the bytes that remain (`Truncated`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Limits {
    pub max_string_bytes: u32,
    pub max_bytes_length: u32,
    pub max_array_length: u32,
}

/// V8's longest string on 64-bit hosts: no string longer than this can reach JS.
pub const MAX_JS_STRING_LENGTH: u32 = (1 << 29) - 24;

/// The most elements V8 keeps in one array's backing store on 64-bit hosts; a longer
/// count cannot become a JS array, so by default it is over the limit, not "truncated".
pub const MAX_JS_ARRAY_LENGTH: u32 = (1 << 27) - 1;

impl Default for Limits {
    fn default() -> Self {
        Limits {
            max_string_bytes: MAX_JS_STRING_LENGTH,
            max_bytes_length: i32::MAX as u32,
            max_array_length: MAX_JS_ARRAY_LENGTH,
        }
    }
}

/// Nesting deeper than this is refused at compile, which bounds the codec's recursion.
pub const MAX_SCHEMA_DEPTH: usize = 64;

#[derive(Debug, Clone, PartialEq)]
pub struct Schema {
    pub root: Node,
    pub limits: Limits,
    /// `root` flattened for the codec: objects dissolve into their fields' steps, so a
    /// message is a loop over steps, recursing only into array items.
    pub program: Box<[Step]>,
}

/// One step of the flat program the codec runs.
#[derive(Debug, Clone, PartialEq)]
pub struct Step {
    pub op: Op,
    /// Field names from the enclosing array item (or the root) down to this value; used
    /// only to build the path of an error.
    pub fields: Box<[Box<str>]>,
}

/// What a step reads or writes. `end` values index the program: the step after the
/// array's items, or after an optional value's steps. The scalar variants repeat `Node`'s
/// on purpose: one shared `Scalar` enum inside both measured 2-3% slower decodes of
/// nestedEvent and unicodePerson (a two-level match per step).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Op {
    Bool,
    Uint8,
    Uint16,
    Uint32,
    Int8,
    Int16,
    Int32,
    Float32,
    Float64,
    String,
    Bytes,
    Enum {
        count: u32,
    },
    /// A count, then the steps `here + 1 .. end` once per item.
    Array {
        end: u32,
        min_item_bytes: u32,
    },
    /// A presence byte (optional or nullable); when absent, continue at `end`.
    Presence {
        end: u32,
    },
}

fn flatten(node: &Node, fields: &mut Vec<Box<str>>, out: &mut Vec<Step>) {
    let here = out.len();
    let op = match node {
        Node::Bool => Op::Bool,
        Node::Uint8 => Op::Uint8,
        Node::Uint16 => Op::Uint16,
        Node::Uint32 => Op::Uint32,
        Node::Int8 => Op::Int8,
        Node::Int16 => Op::Int16,
        Node::Int32 => Op::Int32,
        Node::Float32 => Op::Float32,
        Node::Float64 => Op::Float64,
        Node::String => Op::String,
        Node::Bytes => Op::Bytes,
        // The compiler caps the number of symbols at u32::MAX.
        Node::Enum { symbols } => Op::Enum {
            count: symbols.len() as u32,
        },
        Node::Object { fields: list } => {
            for f in list.iter() {
                fields.push(f.name.clone());
                flatten(&f.node, fields, out);
                fields.pop();
            }
            return;
        }
        Node::Array {
            items,
            min_item_bytes,
        } => {
            out.push(Step {
                op: Op::Array {
                    end: 0,
                    min_item_bytes: *min_item_bytes,
                },
                fields: fields.as_slice().into(),
            });
            // Item steps name their fields from the item, not from the root.
            flatten(items, &mut Vec::new(), out);
            let end = out.len() as u32;
            out[here].op = Op::Array {
                end,
                min_item_bytes: *min_item_bytes,
            };
            return;
        }
        Node::Optional(inner) | Node::Nullable(inner) => {
            out.push(Step {
                op: Op::Presence { end: 0 },
                fields: fields.as_slice().into(),
            });
            flatten(inner, fields, out);
            out[here].op = Op::Presence {
                end: out.len() as u32,
            };
            return;
        }
    };
    out.push(Step {
        op,
        fields: fields.as_slice().into(),
    });
}

impl Schema {
    /// Compiles a descriptor given as JSON text.
    pub fn compile(descriptor: &str, limits: Limits) -> Result<Schema> {
        let json = Json::parse(descriptor)
            .map_err(|e| schema_error(format!("descriptor is not JSON: {e}")))?;
        Self::from_json(&json, limits)
    }

    pub fn from_json(descriptor: &Json, limits: Limits) -> Result<Schema> {
        let root = node(descriptor, 0)?;
        if matches!(root, Node::Optional(_)) {
            return Err(schema_error(
                "optional is only allowed on an object field".into(),
            ));
        }
        let mut program = Vec::new();
        flatten(&root, &mut Vec::new(), &mut program);
        Ok(Schema {
            root,
            limits,
            program: program.into_boxed_slice(),
        })
    }
}

#[cold]
fn schema_error(message: String) -> Error {
    Error::new(ErrorKind::Schema { message })
}

fn node(d: &Json, depth: usize) -> Result<Node> {
    if depth > MAX_SCHEMA_DEPTH {
        return Err(schema_error(format!(
            "nested deeper than {MAX_SCHEMA_DEPTH} levels"
        )));
    }
    if !matches!(d, Json::Object(_)) {
        return Err(schema_error(format!(
            "expected a type descriptor object, found {}",
            d.kind()
        )));
    }
    let Some(kind) = d.get("type").and_then(Json::as_str) else {
        return Err(schema_error(
            "a type descriptor needs a string \"type\"".into(),
        ));
    };
    Ok(match kind {
        "bool" => Node::Bool,
        "uint8" => Node::Uint8,
        "uint16" => Node::Uint16,
        "uint32" => Node::Uint32,
        "int8" => Node::Int8,
        "int16" => Node::Int16,
        "int32" => Node::Int32,
        "float32" => Node::Float32,
        "float64" => Node::Float64,
        "string" => Node::String,
        "bytes" => Node::Bytes,
        "enum" => enumeration(d)?,
        "array" => {
            let items =
                node(member(d, "items")?, depth + 1).map_err(|e| e.within(Segment::Items))?;
            if matches!(items, Node::Optional(_)) {
                return Err(schema_error(
                    "optional is only allowed on an object field".into(),
                ));
            }
            let min_item_bytes = min_size(&items);
            if min_item_bytes == 0 {
                return Err(schema_error(
                    "array items must take at least one byte; an object with no fields takes none"
                        .into(),
                ));
            }
            Node::Array {
                items: Box::new(items),
                min_item_bytes,
            }
        }
        "object" => object(d, depth)?,
        "optional" | "nullable" => {
            let inner = node(member(d, "of")?, depth + 1)?;
            match (&inner, kind) {
                (Node::Optional(_), _) => {
                    return Err(schema_error(format!(
                        "{kind} of optional: optional must be outermost"
                    )))
                }
                (Node::Nullable(_), "nullable") => {
                    return Err(schema_error("nullable of nullable".into()))
                }
                _ => {}
            }
            if kind == "optional" {
                Node::Optional(Box::new(inner))
            } else {
                Node::Nullable(Box::new(inner))
            }
        }
        other => return Err(schema_error(format!("unknown type \"{other}\""))),
    })
}

fn member<'a>(d: &'a Json, key: &'static str) -> Result<&'a Json> {
    d.get(key).ok_or_else(|| {
        let kind = d.get("type").and_then(Json::as_str).unwrap_or("?");
        schema_error(format!("the {kind} descriptor needs \"{key}\""))
    })
}

fn enumeration(d: &Json) -> Result<Node> {
    let Json::Array(values) = member(d, "values")? else {
        return Err(schema_error(
            "enum \"values\" must be an array of strings".into(),
        ));
    };
    if values.is_empty() {
        return Err(schema_error("enum needs at least one value".into()));
    }
    for (i, v) in values.iter().enumerate() {
        let Some(s) = v.as_str() else {
            return Err(schema_error(format!(
                "enum value {i} is a {}, not a string",
                v.kind()
            )));
        };
        if values[..i].iter().any(|w| w.as_str() == Some(s)) {
            return Err(schema_error(format!("enum value \"{s}\" appears twice")));
        }
    }
    if u32::try_from(values.len()).is_err() {
        return Err(schema_error("enum has too many values".into()));
    }
    let symbols = values
        .iter()
        .filter_map(Json::as_str)
        .map(Box::from)
        .collect();
    Ok(Node::Enum { symbols })
}

fn object(d: &Json, depth: usize) -> Result<Node> {
    let Json::Array(list) = member(d, "fields")? else {
        return Err(schema_error(
            "object \"fields\" must be an array of { name, schema }".into(),
        ));
    };
    if let Some(strict) = d.get("strict") {
        if !matches!(strict, Json::Bool(_)) {
            return Err(schema_error("object \"strict\" must be a boolean".into()));
        }
    }
    let mut fields: Vec<Field> = Vec::with_capacity(list.len());
    for (i, f) in list.iter().enumerate() {
        let Some(name) = f.get("name").and_then(Json::as_str) else {
            return Err(schema_error(format!(
                "object field {i} needs a string \"name\""
            )));
        };
        if fields.iter().any(|g| &*g.name == name) {
            return Err(schema_error(format!("field \"{name}\" appears twice")));
        }
        let schema = f
            .get("schema")
            .ok_or_else(|| schema_error(format!("object field \"{name}\" needs a \"schema\"")))?;
        let node = node(schema, depth + 1).map_err(|e| e.within_field(name))?;
        fields.push(Field {
            name: name.into(),
            node,
        });
    }
    Ok(Node::Object {
        fields: fields.into_boxed_slice(),
    })
}

/// The fewest bytes a value of `node` takes on the wire.
pub fn min_size(node: &Node) -> u32 {
    match node {
        Node::Float32 => 4,
        Node::Float64 => 8,
        Node::Object { fields } => fields
            .iter()
            .map(|f| min_size(&f.node))
            .fold(0, u32::saturating_add),
        _ => 1,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn compile(text: &str) -> Result<Schema> {
        Schema::compile(text, Limits::default())
    }

    fn schema_message(text: &str) -> String {
        compile(text).unwrap_err().to_string()
    }

    #[test]
    fn compiles_a_nested_descriptor() {
        let s = compile(
            r#"{"type":"object","fields":[
                {"name":"id","schema":{"type":"uint32"}},
                {"name":"tags","schema":{"type":"array","items":{"type":"string"}}},
                {"name":"nick","schema":{"type":"optional","of":{"type":"nullable","of":{"type":"enum","values":["a","b"]}}}}
            ]}"#,
        )
        .unwrap();
        let Node::Object { fields } = &s.root else {
            panic!("not an object")
        };
        assert_eq!(
            fields[0],
            Field {
                name: "id".into(),
                node: Node::Uint32
            }
        );
        assert_eq!(
            fields[1].node,
            Node::Array {
                items: Box::new(Node::String),
                min_item_bytes: 1
            }
        );
        assert_eq!(
            fields[2].node,
            Node::Optional(Box::new(Node::Nullable(Box::new(Node::Enum {
                symbols: Box::new(["a".into(), "b".into()])
            }))))
        );
    }

    #[test]
    fn schema_errors_name_the_place() {
        assert_eq!(
            schema_message(
                r#"{"type":"object","fields":[{"name":"user","schema":{"type":"object","fields":[{"name":"tags","schema":{"type":"array","items":{"type":"strng"}}}]}}]}"#
            ),
            "invalid schema at $.user.tags[]: unknown type \"strng\""
        );
        assert_eq!(
            schema_message(r#"{"type":"enum","values":[]}"#),
            "invalid schema at $: enum needs at least one value"
        );
        assert_eq!(
            schema_message(r#"{"type":"enum","values":["a","a"]}"#),
            "invalid schema at $: enum value \"a\" appears twice"
        );
        assert_eq!(
            schema_message(r#"{"type":"optional","of":{"type":"bool"}}"#),
            "invalid schema at $: optional is only allowed on an object field"
        );
        assert_eq!(
            schema_message(r#"{"type":"array","items":{"type":"object","fields":[]}}"#),
            "invalid schema at $: array items must take at least one byte; an object with no fields takes none"
        );
        assert_eq!(
            schema_message("[1]"),
            "invalid schema at $: expected a type descriptor object, found array"
        );
        assert!(schema_message("{").starts_with("invalid schema at $: descriptor is not JSON"));
        let dup = r#"{"type":"object","fields":[{"name":"a","schema":{"type":"bool"}},{"name":"a","schema":{"type":"bool"}}]}"#;
        assert_eq!(
            schema_message(dup),
            "invalid schema at $: field \"a\" appears twice"
        );
    }

    #[test]
    fn flattens_objects_into_steps() {
        let s = compile(
            r#"{"type":"object","fields":[
                {"name":"id","schema":{"type":"uint32"}},
                {"name":"user","schema":{"type":"object","fields":[
                    {"name":"tags","schema":{"type":"array","items":{"type":"object","fields":[{"name":"t","schema":{"type":"string"}}]}}},
                    {"name":"nick","schema":{"type":"optional","of":{"type":"string"}}}
                ]}}
            ]}"#,
        )
        .unwrap();
        let ops: Vec<Op> = s.program.iter().map(|step| step.op).collect();
        assert_eq!(
            ops,
            [
                Op::Uint32,
                Op::Array {
                    end: 3,
                    min_item_bytes: 1
                },
                Op::String,
                Op::Presence { end: 5 },
                Op::String
            ]
        );
        let fields: Vec<Vec<&str>> = s
            .program
            .iter()
            .map(|step| step.fields.iter().map(|f| &**f).collect())
            .collect();
        assert_eq!(
            fields,
            [
                vec!["id"],
                vec!["user", "tags"],
                vec!["t"],
                vec!["user", "nick"],
                vec!["user", "nick"]
            ]
        );
    }

    #[test]
    fn refuses_deep_nesting() {
        let mut d = String::from(r#"{"type":"bool"}"#);
        for _ in 0..=MAX_SCHEMA_DEPTH {
            d = format!(r#"{{"type":"array","items":{d}}}"#);
        }
        assert!(schema_message(&d).contains("nested deeper than 64 levels"));
    }
}
