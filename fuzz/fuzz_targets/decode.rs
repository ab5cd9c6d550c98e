//! decode: the first byte picks one of the fixed schemas (fuzz/schemas.json, every type),
//! the rest is the message. Decode must give a value or a decode error; a value must fit
//! the schema and encode back to the same bytes (fuzz/src/lib.rs, `check_decode`).
#![no_main]

use libfuzzer_sys::fuzz_target;
use shorn_fuzz::{cases, check_decode};

fuzz_target!(|data: &[u8]| {
    let Some((&pick, message)) = data.split_first() else {
        return;
    };
    let cases = cases();
    let case = &cases[pick as usize % cases.len()];
    check_decode(&case.schema, message);
});
