//! The pure codec: bytes, varints, text and errors. Nothing here knows N-API exists.

pub mod error;
pub mod reader;
pub mod text;
pub mod varint;
pub mod writer;

pub use error::{Error, ErrorKind, Fault, LimitKind, Result, Segment};
pub use reader::Reader;
pub use text::{Text, TextBuffer};
pub use writer::Writer;
pub mod message;
pub use message::{decode, encode, EncodeInput};
