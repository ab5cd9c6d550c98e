//! The schema compiler: a JSON descriptor (what `t.*` builds, see docs/FORMAT.md) is
//! checked once and turned into a `Schema`: the tree of nodes, and the flat `Program`
//! the engine runs per message. Each type's own rules live in its module under
//! `crate::types`; this is the driver.

use crate::codec::{Error, ErrorKind, Result, Segment};
use crate::json::{Json, JsonError, MAX_JSON_DEPTH};
use crate::program::{Limits, Program, MAX_MAX_DEPTH};
use crate::types::{
    array, cost32, heap_cost, map, optional, recursive, schema_error, value_node, Cx, Def, Lower,
    Node,
};

/// A compiled schema.
#[derive(Debug, Clone, PartialEq)]
pub struct Schema {
    pub root: Node,
    /// Recursive definitions, referred to by `Node::Ref`.
    pub defs: Vec<Def>,
    pub program: Program,
}

impl Schema {
    /// Compiles a descriptor given as JSON text.
    pub fn compile(descriptor: &str, limits: Limits) -> Result<Schema> {
        let json = Json::parse(descriptor).map_err(not_json)?;
        Self::from_json(&json, limits)
    }

    pub fn from_json(descriptor: &Json, limits: Limits) -> Result<Schema> {
        if limits.max_depth > MAX_MAX_DEPTH {
            return Err(schema_error(format!(
                "maxDepth may be at most {MAX_MAX_DEPTH}"
            )));
        }
        let mut cx = Cx::default();
        let mut root = value_node(&mut cx, descriptor)?;
        let mut defs = std::mem::take(&mut cx.defs);
        let sizes = recursive::resolve(&defs)?;
        one_encoding(&root, &defs)?;
        for d in &defs {
            one_encoding(&d.node, &defs).map_err(|e| rename_root(e, &d.name))?;
        }
        size_items(&mut root, &sizes)?;
        for d in &mut defs {
            size_items(&mut d.node, &sizes).map_err(|e| rename_root(e, &d.name))?;
        }
        let mut lw = Lower {
            sizes,
            ..Lower::default()
        };
        lw.frame(&root);
        let main_end = lw.here();
        let mut blocks = Vec::with_capacity(defs.len());
        for d in &defs {
            let start = lw.here();
            lw.frame(&d.node);
            blocks.push((start, lw.here(), cost32(heap_cost(&d.node))));
        }
        let root_cost = cost32(heap_cost(&root));
        Ok(Schema {
            root,
            defs,
            program: Program {
                steps: lw.steps.into(),
                main_end,
                blocks: blocks.into(),
                tables: lw.tables.into(),
                costs: lw.costs.into(),
                rules: lw.rules.into(),
                root_cost,
                limits,
            },
        })
    }
}

/// The message of `crate::json` for nesting past MAX_JSON_DEPTH (`tests` below check it).
const NESTED_TOO_DEEPLY: &str = "nested too deeply";

/// A descriptor the JSON parser refused. Nesting past its limit is JSON still, too deep to
/// compile: the JS layer sends only what JSON.stringify made (a default value 300 arrays
/// deep had read "descriptor is not JSON").
#[cold]
fn not_json(e: JsonError) -> Error {
    if e.message == NESTED_TOO_DEEPLY {
        return schema_error(format!(
            "the descriptor nests deeper than {MAX_JSON_DEPTH} levels of JSON (at offset {})",
            e.offset
        ));
    }
    schema_error(format!("descriptor is not JSON: {e}"))
}

/// A schema error inside a recursive definition names the definition.
#[cold]
fn rename_root(e: Error, name: &str) -> Error {
    match e.kind() {
        ErrorKind::Schema { message } => schema_error(format!(
            "in recursive type \"{name}\" at {}: {message}",
            e.path()
        )),
        _ => e,
    }
}

/// Refuses the schemas under which one value would have two encodings, once recursive
/// definitions are known: a nullable of a type that already takes null (`00` and `01` then
/// null), and map keys that rounding can make equal (two float32 keys: decode would
/// reject the bytes an encode wrote).
fn one_encoding(node: &Node, defs: &[Def]) -> Result<()> {
    let within = |n: &Node, segment: Segment| one_encoding(n, defs).map_err(|e| e.within(segment));
    match node {
        Node::Nullable(inner) => {
            if optional::takes_null(inner, defs, &mut Vec::new()) {
                return Err(schema_error(
                    "nullable of a type that already takes null (null would have two encodings)"
                        .into(),
                ));
            }
            one_encoding(inner, defs)
        }
        Node::Optional(inner) | Node::Default { inner, .. } | Node::Checked { inner, .. } => {
            one_encoding(inner, defs)
        }
        Node::Map { keys, values } => {
            if map::rounds_keys(keys, defs, &mut Vec::new()) {
                return Err(schema_error(
                    "float32 map keys: two keys could round to one float32; use float64 keys"
                        .into(),
                ));
            }
            within(keys, Segment::Items)?;
            within(values, Segment::Items)
        }
        Node::Array { items, .. } => within(items, Segment::Items),
        Node::Record { values } => within(values, Segment::Items),
        Node::Tuple { items } => {
            for (i, n) in items.iter().enumerate() {
                within(n, Segment::Index(i as u32))?;
            }
            Ok(())
        }
        Node::Object { fields, .. } => {
            for f in fields.iter() {
                one_encoding(&f.node, defs).map_err(|e| e.within_field(&f.name))?;
            }
            Ok(())
        }
        Node::Union { variants } | Node::Discriminated { variants, .. } => {
            for (i, n) in variants.iter().enumerate() {
                within(n, Segment::Index(i as u32))?;
            }
            Ok(())
        }
        _ => Ok(()),
    }
}

/// Sets each array's fewest bytes per item, and refuses arrays and maps whose items
/// take no bytes, once recursive definitions are sized.
fn size_items(node: &mut Node, sizes: &[u32]) -> Result<()> {
    match node {
        Node::Array {
            items,
            min_item_bytes,
        } => {
            *min_item_bytes = array::check_items(items, sizes)?;
            size_items(items, sizes).map_err(|e| e.within(Segment::Items))
        }
        Node::Map { keys, values } => {
            map::check_entries(keys, values, sizes)?;
            size_items(keys, sizes).map_err(|e| e.within(Segment::Items))?;
            size_items(values, sizes).map_err(|e| e.within(Segment::Items))
        }
        Node::Record { values } => size_items(values, sizes).map_err(|e| e.within(Segment::Items)),
        Node::Tuple { items } => {
            for (i, n) in items.iter_mut().enumerate() {
                size_items(n, sizes).map_err(|e| e.within(Segment::Index(i as u32)))?;
            }
            Ok(())
        }
        Node::Object { fields, .. } => {
            for f in fields.iter_mut() {
                size_items(&mut f.node, sizes).map_err(|e| e.within_field(&f.name))?;
            }
            Ok(())
        }
        Node::Union { variants } | Node::Discriminated { variants, .. } => {
            for (i, n) in variants.iter_mut().enumerate() {
                size_items(n, sizes).map_err(|e| e.within(Segment::Index(i as u32)))?;
            }
            Ok(())
        }
        Node::Optional(inner)
        | Node::Nullable(inner)
        | Node::Default { inner, .. }
        | Node::Checked { inner, .. } => size_items(inner, sizes),
        _ => Ok(()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::program::Op;
    use crate::types::{Field, MAX_SCHEMA_DEPTH};

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
        let Node::Object { fields, .. } = &s.root else {
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
            "invalid schema at $: array items must take at least one byte; a null, a literal or an empty object or tuple takes none"
        );
        assert_eq!(
            schema_message(
                r#"{"type":"object","fields":[{"name":"a","schema":{"type":"array","items":{"type":"null"}}}]}"#
            ),
            "invalid schema at $.a: array items must take at least one byte; a null, a literal or an empty object or tuple takes none"
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
        assert_eq!(
            schema_message(r#"{"type":"string","maxLenght":3}"#),
            "invalid schema at $: the string descriptor has no member \"maxLenght\""
        );
    }

    #[test]
    fn flattens_objects_into_steps() {
        let s = compile(
            r#"{"type":"object","fields":[
                {"name":"id","schema":{"type":"uint32"}},
                {"name":"user","schema":{"type":"object","fields":[
                    {"name":"tags","schema":{"type":"array","items":{"type":"object","fields":[{"name":"t","schema":{"type":"string"}}]}}},
                    {"name":"nick","schema":{"type":"optional","of":{"type":"string"}}},
                    {"name":"pos","schema":{"type":"tuple","items":[{"type":"float32"},{"type":"literal","value":1},{"type":"float32"}]}}
                ]}}
            ]}"#,
        )
        .unwrap();
        let ops: Vec<Op> = s.program.steps.iter().map(|step| step.op).collect();
        assert_eq!(
            ops,
            [
                Op::Uint32,
                Op::Array {
                    end: 3,
                    min_item_bytes: 1,
                    // 11 for the item's slot, 24 + 8 for the object, 40 for its string.
                    item_cost: 83,
                    leaves: true
                },
                Op::String,
                Op::Presence { end: 5, cost: 40 },
                Op::String,
                Op::Float32,
                Op::Float32,
            ]
        );
        let paths: Vec<String> = s
            .program
            .steps
            .iter()
            .map(|step| crate::codec::error::render_path(step.path.iter()))
            .collect();
        assert_eq!(
            paths,
            [
                "$.id",
                "$.user.tags",
                "$.t",
                "$.user.nick",
                "$.user.nick",
                "$.user.pos[0]",
                "$.user.pos[2]"
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

    #[test]
    fn names_the_json_nesting_limit() {
        // A default value 300 arrays deep, inside a valid schema.
        let value = format!("{}1{}", "[".repeat(300), "]".repeat(300));
        let d = format!(
            r#"{{"type":"object","fields":[{{"name":"a","schema":{{"type":"default","of":{{"type":"json"}},"value":{value}}}}}]}}"#
        );
        let message = schema_message(&d);
        assert!(
            message.starts_with(
                "invalid schema at $: the descriptor nests deeper than 256 levels of JSON (at offset "
            ),
            "{message}"
        );
        assert!(schema_message("{").starts_with("invalid schema at $: descriptor is not JSON"));
    }

    #[test]
    fn recursive_definitions_become_called_blocks() {
        let s = compile(
            r#"{"type":"recursive","name":"T","schema":{"type":"object","fields":[
                {"name":"v","schema":{"type":"uint8"}},
                {"name":"kids","schema":{"type":"array","items":{"type":"ref","name":"T"}}}
            ]}}"#,
        )
        .unwrap();
        let ops: Vec<Op> = s.program.steps.iter().map(|step| step.op).collect();
        assert_eq!(
            ops,
            [
                Op::Call { block: 0 },
                Op::Uint8,
                Op::Array {
                    end: 4,
                    min_item_bytes: 2,
                    item_cost: 11,
                    leaves: false
                },
                Op::Call { block: 0 },
            ]
        );
        assert_eq!(s.program.main_end, 1);
        // The definition's value: an object (24) of a number (8 + 16) and an array (8 + 48).
        assert_eq!(&*s.program.blocks, &[(1, 4, 104)]);
    }

    #[test]
    fn recursive_types_need_a_finite_value_and_refs_need_their_definition() {
        assert_eq!(
            schema_message(
                r#"{"type":"recursive","name":"A","schema":{"type":"object","fields":[{"name":"a","schema":{"type":"ref","name":"A"}}]}}"#
            ),
            "invalid schema at $: recursive type \"A\" has no finite value: every path from it leads back to it through required fields"
        );
        assert_eq!(
            schema_message(r#"{"type":"ref","name":"A"}"#),
            "invalid schema at $: ref \"A\" is not inside a recursive type of that name"
        );
        // An array of itself ends (with an empty array) and takes a byte: both fine.
        compile(r#"{"type":"recursive","name":"A","schema":{"type":"array","items":{"type":"ref","name":"A"}}}"#).unwrap();
    }

    #[test]
    fn discriminated_unions_need_distinct_literal_tags() {
        let variant = |tag: &str| {
            format!(
                r#"{{"type":"object","fields":[{{"name":"kind","schema":{{"type":"literal","value":{tag}}}}}]}}"#
            )
        };
        compile(&format!(
            r#"{{"type":"discriminatedUnion","key":"kind","variants":[{},{}]}}"#,
            variant("\"a\""),
            variant("2")
        ))
        .unwrap();
        assert_eq!(
            schema_message(&format!(
                r#"{{"type":"discriminatedUnion","key":"kind","variants":[{},{}]}}"#,
                variant("\"a\""),
                variant("\"a\"")
            )),
            "invalid schema at $[1]: two variants have the same \"kind\""
        );
        assert_eq!(
            schema_message(
                r#"{"type":"discriminatedUnion","key":"kind","variants":[{"type":"string"}]}"#
            ),
            "invalid schema at $[0]: each variant of a discriminatedUnion must be an object"
        );
    }

    #[test]
    fn refuses_schemas_where_a_value_has_two_encodings() {
        // Fuzzing findings 001 and 002 (docs/FUZZING.md).
        for (d, path) in [
            (r#"{"type":"nullable","of":{"type":"null"}}"#, "$"),
            (r#"{"type":"nullable","of":{"type":"json"}}"#, "$"),
            (
                r#"{"type":"array","items":{"type":"nullable","of":{"type":"union","variants":[{"type":"uint8"},{"type":"literal","value":null}]}}}"#,
                "$[]",
            ),
        ] {
            let message = schema_message(d);
            assert_eq!(
                message,
                format!("invalid schema at {path}: nullable of a type that already takes null (null would have two encodings)"),
                "{d}"
            );
        }
        let through_a_ref = r#"{"type":"recursive","name":"A","schema":{"type":"union","variants":[{"type":"null"},{"type":"object","fields":[{"name":"next","schema":{"type":"nullable","of":{"type":"ref","name":"A"}}}]}]}}"#;
        assert!(
            schema_message(through_a_ref).contains("nullable of a type that already takes null")
        );
        for keys in [
            r#"{"type":"float32"}"#,
            r#"{"type":"nullable","of":{"type":"float32"}}"#,
            r#"{"type":"union","variants":[{"type":"string"},{"type":"float32"}]}"#,
        ] {
            let d = format!(r#"{{"type":"map","keys":{keys},"values":{{"type":"bool"}}}}"#);
            assert_eq!(
                schema_message(&d),
                "invalid schema at $: float32 map keys: two keys could round to one float32; use float64 keys"
            );
        }
        // What stays allowed: a nullable of a type that never takes null, float64 keys,
        // and float32 inside an object key (objects are keys by identity).
        compile(r#"{"type":"nullable","of":{"type":"union","variants":[{"type":"uint8"},{"type":"string"}]}}"#).unwrap();
        compile(r#"{"type":"map","keys":{"type":"float64"},"values":{"type":"bool"}}"#).unwrap();
        compile(r#"{"type":"map","keys":{"type":"object","fields":[{"name":"x","schema":{"type":"float32"}}]},"values":{"type":"bool"}}"#).unwrap();
    }

    #[test]
    fn compile_is_linear_in_the_number_of_enum_symbols_and_fields() {
        // 200,000 symbols: a pairwise duplicate check would take tens of seconds.
        let symbols: Vec<String> = (0..200_000).map(|i| format!("\"s{i}\"")).collect();
        let d = format!(r#"{{"type":"enum","values":[{}]}}"#, symbols.join(","));
        let started = std::time::Instant::now();
        compile(&d).unwrap();
        assert!(started.elapsed().as_secs() < 5, "{:?}", started.elapsed());
    }
}
