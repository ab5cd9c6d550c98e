//! shorn: a schema codec for Node.js.
//!
//! The rooms, each depending only on those above it:
//! - [`codec`]: the pure byte work (writer, reader, varints, text, the tape, errors);
//! - [`program`]: the steps a compiled schema runs as;
//! - [`types`]: one module per type, with its compile rules and its bytes;
//! - [`schema`]: the compiler from a JSON descriptor to a program; [`engine`]: runs one;
//! - `binding`: the thin N-API layer that moves values across the JS boundary.
//!
//! [`value`] is a plain-Rust stand-in for the JS marshaller, for tests and benches;
//! [`json`] is the small JSON reader descriptors are parsed with.

pub mod codec;
pub mod engine;
pub mod json;
pub mod program;
pub mod schema;
pub mod types;
pub mod value;

// napi-derive leaves out module registration in `cfg(test)` builds, which leaves the
// whole binding unreferenced there.
#[cfg_attr(test, allow(dead_code))]
mod binding;
