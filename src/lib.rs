//! shorn: a schema codec for Node.js.
//!
//! Three rooms:
//! - [`codec`]: the pure byte work (writer, reader, varints, text, errors, whole messages);
//! - [`schema`]: the compiler from a JSON descriptor to the tree the codec walks;
//! - `binding`: the thin N-API layer that moves values across the JS boundary.
//!
//! [`value`] is a plain-Rust stand-in for the JS marshaller, for tests and benches.

pub mod codec;
pub mod schema;
pub mod value;

// napi-derive leaves out module registration in `cfg(test)` builds, which leaves the
// whole binding unreferenced there.
#[cfg_attr(test, allow(dead_code))]
mod binding;
