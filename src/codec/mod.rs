//! The pure codec: bytes, varints, text, the tape and errors. Nothing here knows N-API
//! exists, nor any schema: the types (`crate::types`) and the engine (`crate::engine`)
//! are built from these parts.

pub mod crc32c;
pub mod error;
pub mod framing;
pub mod reader;
pub mod tape;
pub mod text;
#[cfg(target_arch = "x86_64")]
mod utf16_avx512;
#[cfg(target_arch = "x86_64")]
mod utf16_simd;
pub mod varint;
pub mod writer;

pub use error::{Error, ErrorKind, Fault, LimitKind, Measure, Number, Result, Segment, Violation};
pub use reader::Reader;
pub use tape::{Blob, Chars, Elem, EncodeInput, TapeIn, TapeOut, LATIN1_SLOT};
pub use text::{chunk_ranges, ChunkRanges, Cut, Text, TextBuffer, TextMark, CHUNK_SLOT, KEPT_SLOT};
pub use writer::Writer;
